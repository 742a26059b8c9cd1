"""Old import path, kept while bot/seasons* import ``TableError`` from it (the lead removes
it later). The table service lives in :mod:`bot.tables`."""

from bot.tables import LiveTable, TableError, TableService

__all__ = ["LiveTable", "TableError", "TableService"]
