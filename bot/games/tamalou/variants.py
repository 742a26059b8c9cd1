"""House variants on Discord (R-V): which presets a table may play, their names in both
languages, a table's rules from its settings, and what a variant changes, in a few lines.

The rules themselves are data in the engine (``tamalou.games.tamalou.rules.PRESETS``); this
module only names them and reads a table's ``variant`` setting. No rule is decided here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from discord import app_commands

from bot.i18n import catalog, ls, t
from bot.tables import LiveTable, TableError
from bot.ui.cards.codes import local_text
from bot.ui.kit import seat_name, ts
from tamalou.core import cards
from tamalou.games.tamalou import actions as A
from tamalou.games.tamalou import events as E
from tamalou.games.tamalou.rules import ALIASES, PRESETS, TAMALOU, Rules
from tamalou.games.tamalou.views import PlayerView, PublicView

DEFAULT_VARIANT = TAMALOU.name
#: every rules set a table may play: the presets (R-V1..R-V9, fontenay's «mi-partie» in)
VARIANTS: dict[str, Rules] = dict(PRESETS)


def canonical(name: str | None) -> str:
    """A variant's id from a setting or an option (aliases of R-V ruling 1 resolved);
    ``TableError("unknown_variant")`` when there is no such variant."""
    if not name:
        return DEFAULT_VARIANT
    key = ALIASES.get(name.lower(), name.lower())
    if key not in VARIANTS:
        raise TableError("unknown_variant", name=name[:40])
    return key


def variant_of(settings: dict[str, Any]) -> str:
    """The variant a table's settings name (tables opened before variants: the default)."""
    return canonical(settings.get("variant"))


def display_name(variant: str, lang: str) -> str:
    """The variant's name as players know it (French names as in RULES.md)."""
    return t(lang, f"variant.{variant}")


def choices() -> list[app_commands.Choice[str]]:
    """``/tamalou new variant:`` and ``/tamalou settings variant:``: one choice a variant,
    named in the member's language."""
    english = catalog("en")
    return [
        app_commands.Choice(name=ls(english[f"variant.{v}"], f"variant.{v}"), value=v)
        for v in VARIANTS
    ]


@functools.lru_cache(maxsize=256)
def _rules(
    variant: str, target: float | None, turn_seconds: int | None, max_players: int | None
) -> Rules:
    base = VARIANTS[variant]
    if target is not None:
        base = base.with_target(target)  # the values tied to the target scale with it
    data = base.model_dump()
    if turn_seconds is not None:
        data["turn_ms"] = turn_seconds * 1000
    if max_players is not None:
        data["max_players"] = max_players
    return Rules.model_validate(data)  # validated, unlike model_copy(update=...)


def rules_for(settings: dict[str, Any]) -> Rules:
    """The table's rules: its variant's preset with the table settings (R-M5, R-K1).

    A setting left out keeps the preset's value (cabo plays to 50, koubo seats 4). Raises
    pydantic's ``ValidationError`` for settings the rules model refuses, ``TableError`` for
    an unknown variant.
    """

    def number(key: str) -> int | None:
        value = settings.get(key)
        return None if value is None else int(value)

    target = settings.get("target")
    return _rules(
        variant_of(settings),
        None if target is None else float(target),
        number("turn_seconds"),
        number("max_players"),
    )


def rules_text(variant: str, lang: str) -> str:
    """``/tamalou rules variant:``: what the variant changes from the default game."""
    if variant == DEFAULT_VARIANT:
        return t(lang, "rules.text")
    title = t(lang, "rules.variant_title", name=display_name(variant, lang))
    return f"{title}\n{t(lang, f'variant.{variant}.rules')}"


def match_text(rules: Rules, lang: str) -> str:
    """How the variant's match ends (R-M3, R-X16), in a few words."""
    target = f"{rules.target:g}"
    text = t(lang, f"match.{rules.match_end}", target=target, rounds=rules.max_rounds or 0)
    if rules.win_at is not None:
        text += t(lang, "match.win_at", win_at=f"{rules.win_at:g}")
    if rules.max_rounds is not None and rules.uses_target:  # swiss's ruling: a cap too
        text += t(lang, "match.at_most", rounds=rules.max_rounds)
    return text


def match_short(rules: Rules, lang: str) -> str:
    """The lobby's settings line and the table's footer start with the match's length: a
    target (R-M3, most variants), or a number of rounds (koubo: "Match to 100 points" there
    told its players of a target the match does not have)."""
    if rules.uses_target:
        return t(lang, "match.short_target", target=f"{rules.target:g}")
    return t(lang, "match.short_rounds", rounds=rules.max_rounds or 0)


def lobby_value(rules: Rules, lang: str) -> str:
    """The lobby's variant field: its name and how its match ends (``/tamalou rules
    variant:`` says the rest)."""
    return f"{display_name(rules.name, lang)} — {match_text(rules, lang)}"


def footer_prefix(rules: Rules, lang: str) -> str:
    """The table message's footer starts with the variant's name (none for the default)."""
    return "" if rules.name == DEFAULT_VARIANT else f"{display_name(rules.name, lang)} · "


def call_label(pv: PublicView, lang: str) -> str:
    """The call button: «Tamalou!», or the variant's own call («Dutch!», «Cabo!», 🔔)."""
    if pv.call_name == TAMALOU.call_name:
        return t(lang, "btn.call")
    return t(lang, "btn.call_named", call=pv.call_name)


def power_text(pv: PublicView, lang: str) -> str:
    """What the offered power lets you do. The default game's texts name the card (Queen,
    King); in a variant other cards carry the powers, so its texts name the power only."""
    if pv.rules == DEFAULT_VARIANT:
        return t(lang, f"panel.power.{pv.power}")
    return t(lang, f"panel.vpower.{pv.power}")


def power_name(pv: PublicView, power: str, lang: str) -> str:
    if pv.rules == DEFAULT_VARIANT:
        return t(lang, f"power.{power}")
    return t(lang, f"vpower.{power}")


def panel_lines(
    table: LiveTable, pv: PlayerView, lang: str, legal: Sequence[A.Action]
) -> list[str]:
    """The panel's lines for what only the variants have: the end-of-turn call (R-X6), a
    contre to declare (R-X9), a doubled power to use (R-X12), a power that must be used
    (R-X5), the looked card to swap (R-X3), a swap shown to its target (koubo), the open
    doubles window (R-X11)."""
    pub = pv.public
    mine = [a for a in legal if a.player == pv.seat]
    kinds = {a.kind for a in mine}
    lines = []

    def name(seat: int) -> str:
        if not 0 <= seat < len(table.seats):
            return f"#{seat + 1}"
        return seat_name(table.seats[seat], lang)

    if pub.stage == "call" and pub.current == pv.seat:
        lines.append(t(lang, "panel.call_end", call=pub.call_name))
    if "contre" in kinds and pub.caller is not None:
        lines.append(t(lang, "panel.contre_offer", caller=name(pub.caller)))
    if pub.pending_powers and pub.pending_powers[-1][0] == pv.seat:
        power = pub.pending_powers[-1][1]
        lines.append(t(lang, "panel.pending", power=power_name(pub, power, lang)))
    if pub.power_must and pub.current == pv.seat:
        lines.append(t(lang, "panel.must"))
    if pub.looked is not None and pub.current == pv.seat and "swap" in kinds:
        lines.append(t(lang, "panel.looked_swap"))
    for target, slot, code, until in pv.glimpses:
        card = local_text(cards.code(cards.from_code(code)), lang) if code != cards.JOKER else "🃏"
        lines.append(t(lang, "panel.look", name=name(target), slot=slot, card=card, when=ts(until)))
    if pub.window_until is not None:
        lines.append(t(lang, "panel.window", when=ts(pub.window_until)))
    return lines


def end_text(pv: PublicView, reason: str, lang: str) -> str:
    """Why the round ended; a variant's call goes by its own name."""
    if reason == "called" and pv.rules != DEFAULT_VARIANT:
        return t(lang, "end.vcalled", call=pv.call_name)
    if reason == "away" and pv.match_over and any(s.is_ai for s in pv.seats):
        # R-K4 with AI players: every human away, none left in play: the match ends (a
        # ruling, docs/rules.md)
        return t(lang, "end.humans_gone")
    return t(lang, f"end.{reason}")


def event_line(
    rules: Rules, e: E.Event, lang: str, n: Callable[[int], str], card: Callable[[int], str]
) -> str | None:
    """A public event of the variants in words (None: not one of theirs). ``n`` names a seat,
    ``card`` a card. Private events never come here (``render.event_line`` drops them)."""
    call = rules.call_name
    match e:
        case E.CalledHidden(automatic=True):
            return t(lang, "ev.called_hidden_auto", name=n(e.player), call=call)
        case E.CalledHidden(last_round=False):
            return t(lang, "ev.called_hidden_now", name=n(e.player), call=call)
        case E.CalledHidden():
            return t(lang, "ev.called_hidden", name=n(e.player), call=call)
        case E.Called(right=True) if rules.name != DEFAULT_VARIANT:
            key = "ev.vcalled_right" if e.last_round else "ev.vcalled_right_now"
            return t(lang, key, name=n(e.player), call=call, total=f"{e.total:g}")
        case E.Called() if rules.name != DEFAULT_VARIANT:
            shown = " ".join(card(c) for _, c in e.cards)
            return t(
                lang,
                "ev.vcalled_wrong",
                name=n(e.player),
                call=call,
                total=f"{e.total:g}",
                cards=shown,
            )
        case E.Contred():
            return t(lang, "ev.contred", name=n(e.player))
        case E.SwappedTwo():
            return t(
                lang,
                "ev.swapped_two",
                name=n(e.player),
                first=n(e.first),
                first_slot=e.first_slot,
                second=n(e.second),
                second_slot=e.second_slot,
            )
        case E.GaveTop():
            return t(lang, "ev.gave_top", name=n(e.player), target=n(e.target), slot=e.slot)
        case E.DoubledFor():
            return t(
                lang,
                "ev.doubled_for",
                name=n(e.player),
                target=n(e.target),
                target_slot=e.target_slot,
                card=card(e.card),
            )
        case E.DoubleMissed(owner=owner) if owner is not None:
            return t(
                lang,
                "ev.missed_for",
                name=n(e.player),
                target=n(owner),
                slot=e.slot,
                card=card(e.card),
            )
        case E.DoubleMissed(reason="too_late") if rules.too_late_free:
            return t(lang, "ev.missed_free", name=n(e.player), card=card(e.card))
        case E.DoubleMissed() if rules.miss_penalty_cards == 0:  # cabo: points, no card
            return t(lang, "ev.missed_no_card", name=n(e.player), card=card(e.card))
        case E.PowerQueued():
            power = t(lang, f"vpower.{e.power}")
            return t(lang, "ev.power_queued", name=n(e.player), power=power)
        case E.WindowOpened():
            return t(lang, "ev.window_opened", when=ts(e.until))
        case E.Claimed():
            return t(
                lang, "ev.claimed", name=n(e.player), target=n(e.target), target_slot=e.target_slot
            )
        case E.ClaimLost():
            return t(
                lang,
                "ev.claim_lost",
                name=n(e.player),
                target=n(e.target),
                target_slot=e.target_slot,
            )
        case E.Fined():
            return t(lang, "ev.fined", name=n(e.player), points=f"{e.points:g}")
        case E.Eliminated():
            return t(lang, "ev.eliminated", name=n(e.player))
    return None


def missed_text(table: LiveTable, e: E.DoubleMissed, events: Sequence[Any], lang: str) -> str:
    """The answer to a missed double: what it cost, read from the events (a penalty card
    (R-D5), points (cabo, R-X13), or nothing (a too-late double in a variant, R-V0))."""
    card = local_text(cards.code(e.card), lang)
    if table.rules.name == DEFAULT_VARIANT:  # type: ignore[attr-defined]
        return t(lang, f"double.{e.reason}", card=card)
    text = t(lang, f"double.v.{e.reason}", card=card)
    if any(isinstance(x, E.PenaltyCard) and x.player == e.player for x in events):
        text += " " + t(lang, "double.v.penalty")
    for x in events:
        if isinstance(x, E.Fined) and x.player == e.player:
            text += " " + t(lang, "double.v.fined", points=f"{x.points:g}")
    return text


def peek_text(rules: Rules, key: str, lang: str, **values: Any) -> str:
    """A peek string (R-S2) naming the slots the rules peek at: the default game's 1 and 4,
    the variants' 1 and 2 (R-V0)."""
    if tuple(rules.peek_slots) == tuple(TAMALOU.peek_slots):
        return t(lang, key, **values)
    slots = t(lang, "peek.and", first=rules.peek_slots[0], last=rules.peek_slots[-1])
    return t(lang, f"{key}_slots", slots=slots, **values)
