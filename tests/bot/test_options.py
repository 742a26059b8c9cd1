"""Issue 10: option values are checked in the bot too (Discord enforces the declared ranges,
a crafted or stored value does not go through Discord) and refused in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.tamalou import options, verbs
from bot.i18n import t
from bot.tables import TableError
from bot.ui.errors import error_text
from tamalou.games.tamalou.rules import Rules
from tests.bot.test_command_sync import ready_bot


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("target", 0),  # was silently 100
        ("target", -5),
        ("target", 10**20),
        ("turn_seconds", 0),
        ("turn_seconds", 1),
        ("turn_seconds", 100_000),
        ("max_players", 1),
        ("max_players", 99),
        ("max_players", True),
    ],
)
def test_an_option_out_of_its_range_is_refused_with_the_range(name: str, value: int) -> None:
    with pytest.raises(TableError) as refused:
        options.checked(name, value)
    assert refused.value.reason == "bad_option"
    low, high = options.RANGES[name]
    text = t("en", "err.bad_option", **refused.value.detail)
    assert f"between {low} and {high}" in text


def test_the_refusal_names_the_option_as_the_reader_sees_it() -> None:
    """The range answer named the option in English for a French reader too."""
    with pytest.raises(TableError) as refused:
        options.checked("turn_seconds", 0)
    low, high = options.RANGES["turn_seconds"]
    french = error_text("fr", refused.value, "test")
    assert french == f"secondes_tour doit être entre {low} et {high}."
    assert error_text("en", refused.value, "test").startswith("turn_seconds must be between")


def test_every_value_in_range_makes_valid_rules() -> None:
    """The ranges are the model's: their ends are accepted by the rules model itself."""
    for target in options.RANGES["target"]:
        for seconds in options.RANGES["turn_seconds"]:
            for most in options.RANGES["max_players"]:
                Rules(target=target, turn_ms=seconds * 1000, max_players=most)


@pytest.mark.parametrize("arg", ["1.²", "١", "1.-2", "", "1..2"])
def test_a_button_argument_that_is_not_plain_digits_is_an_invalid_button(arg: str) -> None:
    """Was: "1.²" passed ``isdigit`` and crashed ``int`` ("Something went wrong")."""
    with pytest.raises(TableError) as refused:
        verbs.ints(arg, None)
    assert refused.value.reason == "bad_button"


async def test_the_declared_command_ranges_are_the_rules_models_bounds(tmp_path: Path) -> None:
    """Declared once (the rules model's Field bounds), and what Discord is told to enforce
    on ``/tamalou new`` and ``/cardsadmin`` (the command payloads the bot syncs)."""
    bot, _ = await ready_bot(tmp_path)
    try:

        def ranges(command: str, top: str = "tamalou") -> dict[str, tuple[int, int]]:
            group = bot.tree.get_command(top)
            assert group is not None
            payload = group.to_dict(bot.tree)  # type: ignore[arg-type]
            (sub,) = [o for o in payload["options"] if o["name"] == command]
            return {
                o["name"]: (o["min_value"], o["max_value"])
                for o in sub.get("options", [])
                if o["type"] == 4 and "min_value" in o
            }

        turn = Rules.model_fields["turn_ms"].metadata
        assert ranges("new") == {
            "target": (10, 1000),
            "turn_seconds": (turn[0].ge // 1000, turn[1].le // 1000),
            "max_players": (2, 8),
        }
        assert ranges("tamalou", "cardsadmin") == {"turn_seconds": (15, 300)}
        assert ranges("settings", "cardsadmin") == {"ping_after": (5, 600)}
    finally:
        await bot.close()
