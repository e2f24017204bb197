"""A club night's results as CSV (issue 29): the night's standings, then a row per table of each
round with its sides, each side's total and who won, as the club's games file writes a game.

The night's figures are the page's and the board's (`night_board.night_view`), its average and
score as they show them: to the whole point, halves up (`rules/rounding.py`; the points and games
beside them give the exact figure). The cells are made formula-safe (`services/records.py`).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from scorekeeper.plumbing.models import Night
from scorekeeper.rules.terms import PARTNERS
from scorekeeper.services.nights import board as night_board
from scorekeeper.services.records import to_cell

# The last two after the older ones (whose readers by position find them where they were): the
# figure the night's rule ranks by (`night_ranking.RANKED_BY`: an average, total points or the score
# with rounds sat out at the player's own average), and why a player is not ranked.
STANDING_COLUMNS = (
    "rank",
    "player",
    "points",
    "games",
    "wins",
    "sat_out",
    "average",
    "score",
    "not_ranked",
)
# Then side_1, side_1_total, side_2, ... for as many sides as the night's largest table, and won.
TABLE_COLUMNS = ("round", "table", "deals")


def export_night(night: Night) -> str:
    """The standings, a blank line, then every table of every round, oldest round first."""
    view = night_board.night_view(night)
    standings = [
        [
            "" if s.rank is None else s.rank,
            to_cell(s.name),
            s.points,
            s.games,
            s.wins,
            s.sat_out,
            "" if s.average is None else s.average,
            "" if s.score is None else s.score,
            s.unranked,
        ]
        for s in view.standings
    ]
    tables = [(r.number, t) for r in view.rounds for t in r.tables]
    most = max((len(t.sides) for _, t in tables), default=2)
    header = list(TABLE_COLUMNS)
    for number in range(1, most + 1):
        header += [f"side_{number}", f"side_{number}_total"]
    header.append("won")
    rows: list[list[Any]] = []
    for number, table in tables:
        row: list[Any] = [number, table.number, table.deals]
        for i, side in enumerate(table.sides):
            # A table whose game was deleted keeps its seating but has no figures: blank, not 0.
            total = table.scores[i].total if i < len(table.scores) else ""
            row += [to_cell(PARTNERS.join(side)), total]
        row += [""] * (2 * (most - len(table.sides)))
        seated = zip(table.sides, table.scores, strict=False)
        won = [PARTNERS.join(side) for side, s in seated if s.won and table.finished]
        row.append(to_cell("; ".join(won)))
        rows.append(row)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(STANDING_COLUMNS)
    writer.writerows(standings)
    writer.writerow([])
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()
