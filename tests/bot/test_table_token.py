"""Each table's newest click token whose original response is its message (table_token.py)."""

from __future__ import annotations

from bot.ui.table_token import TOKEN_FRESH_MS, TableToken, TableTokens


def test_the_newest_click_token_edits_the_table_message_while_fresh() -> None:
    tokens = TableTokens()
    older, newer = TableToken("a", 10, 1_000, 5), TableToken("b", 10, 2_000, 6)
    tokens.keep(1, newer)
    tokens.keep(1, older)  # answered later, pressed earlier: never replaces a newer click's
    assert tokens.fresh(1, 10, 2_000) is newer
    assert tokens.fresh(1, 11, 2_000) is None  # a new round's message: not its original
    assert tokens.fresh(1, 10, 2_000 + TOKEN_FRESH_MS) is newer
    assert tokens.fresh(1, 10, 2_001 + TOKEN_FRESH_MS) is None  # Discord's 15 min near
    assert tokens.fresh(2, 10, 2_000) is None
    tokens.drop(1, older)  # a failed edit drops only the token it used
    assert tokens.tables() == {1}
    tokens.drop(1, newer)
    assert tokens.tables() == set()
