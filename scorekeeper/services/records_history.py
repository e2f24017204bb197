"""A club's deals' history as a CSV for spreadsheets (issue 40): one row per event, oldest first
within each deal, games in the records' order.

Read only: the deals file carries the same history (its `history` column) for a move or a
restore, and that is the file the import reads back. Written a batch of games at a time as it is
read (`records_read.py`), as the games and deals files are; never a phone's device id.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scorekeeper.plumbing.models import Club
from scorekeeper.services import records_read
from scorekeeper.services.records import _rows, to_cell
from scorekeeper.services.standings_filters import Filters

HISTORY_FILE_COLUMNS = (
    "game",
    "played_on",
    "deal",
    "version",
    "event",
    "side",
    "side_name",
    "by",
    "organiser",
    "at",
    "reason",
    # Each side's total before and after a correction (after alone for an entry), in the
    # sides' order, as "1355; 1390".
    "before_totals",
    "after_totals",
)
HISTORY_HEADER = _rows([HISTORY_FILE_COLUMNS])


def history_rows(club: Club, filters: Filters | None = None) -> Iterator[str]:
    """The history file's rows after its first line, a batch of games at a time."""
    batches = records_read.games(
        club, filters or Filters(), finished_only=False, with_deals=False, history_only=True
    )
    for games in batches:
        rows: list[list[Any]] = []
        for game in games:
            names = [side.name for side in game.sides]
            for deal in game.deals:
                for event in deal.history:
                    side = event["side"]
                    named = names[side - 1] if side is not None and 0 < side <= len(names) else ""
                    rows.append(
                        [
                            game.id,
                            game.played_on.isoformat(),
                            deal.number,
                            event["version"],
                            event["kind"],
                            "" if side is None else side,
                            to_cell(named),
                            to_cell(event["by"]),
                            "yes" if event.get("organiser") else "no",
                            event["at"],
                            to_cell(event.get("reason") or ""),
                            _totals(event.get("before")),
                            _totals(event.get("after")),
                        ]
                    )
        yield _rows(rows)


def _totals(figures: list[dict[str, Any]] | None) -> str:
    """Each side's total, "1355; 1390"; blank where the event has none."""
    if not figures:
        return ""
    return "; ".join(str(each.get("total", "")) for each in figures if isinstance(each, dict))
