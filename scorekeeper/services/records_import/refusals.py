"""Why a file cannot be imported: the line, the column to blame, and how cells are quoted."""

from __future__ import annotations

from scorekeeper.services.records import ENTRY_NAMES

# Engine refusal fields that name a figure with no column of its own.
FIELD_COLUMNS = {
    "melded_cards": "melded_points",
    "leftover_cards": "leftover_points",
    "deal": "deal",
    "name": "side_name",
    "players": "players",
    "decks": "decks",
    "sides": "side",
    "ruleset": "ruleset",
    "rules": "house_rules",
}


class ImportRefused(ValueError):
    """A file that cannot be imported: the line, the column (if one is to blame) and why."""

    def __init__(self, line: int, column: str | None, message: str) -> None:
        where = f"Line {line}, column {column}" if column else f"Line {line}"
        super().__init__(f"{where}: {message}")
        self.line = line
        self.column = column
        self.message = message


def column_for(name: str) -> str | None:
    """The column a refusal's field names, if there is one."""
    column = name.replace("bonuses.", "bonus_").replace(".", "_")
    if column in ENTRY_NAMES:
        return column
    return FIELD_COLUMNS.get(name)


def show(value: str) -> str:
    """A cell quoted for a message, cut short if long."""
    return repr(value if len(value) <= 40 else value[:37] + "...")
