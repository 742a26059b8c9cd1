"""A golden playthrough: a whole `baby` match between medium AI players, saved as its actions
and what each round ended with. Any change to the rules' outcome shows up here.

Regenerate (after a deliberate rules change) with
``KALOOKI_GOLDEN_WRITE=1 .venv/bin/python -m pytest tests/games/kalooki/test_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from tamalou.games.kalooki import actions as A
from tamalou.games.kalooki import codec
from tamalou.games.kalooki import events as E
from tamalou.games.kalooki.arena import play_match
from tamalou.games.kalooki.engine import apply, new_game
from tamalou.games.kalooki.rules import BABY

GOLDEN = Path(__file__).parent / "golden" / "baby_medium_3p.json"


def _playthrough() -> dict[str, Any]:
    record: list[A.Action] = []
    game = play_match(["medium", "medium", "medium"], BABY, "golden:1", record=record)
    return {
        "preset": "baby",
        "players": 3,
        "seed": "golden:1",
        "actions": [codec.action_to_dict(a) for a in record],
        "rounds": [
            {"round_no": h.round_no, "out": h.out, "doubled": h.doubled, "scores": h.scores}
            for h in game.history
        ],
        "cumulative": game.cumulative,
        "winners": game.winners,
    }


def test_the_golden_playthrough_replays_exactly() -> None:
    got = json.loads(json.dumps(_playthrough()))  # tuples become lists, as saved
    if os.environ.get("KALOOKI_GOLDEN_WRITE"):
        GOLDEN.write_text(json.dumps(got, indent=1) + "\n")
    saved = json.loads(GOLDEN.read_text())
    assert got == saved
    # and the saved actions alone rebuild the same match from the seed
    game, _ = new_game(BABY, saved["players"], saved["seed"], 0, [True] * 3)
    ended: list[E.RoundEnded] = []
    for data in saved["actions"]:
        ended += [
            e for e in apply(game, codec.action_from_dict(data)) if isinstance(e, E.RoundEnded)
        ]
    assert [list(e.scores) for e in ended] == [r["scores"] for r in saved["rounds"]]
    assert game.over and game.cumulative == saved["cumulative"]
