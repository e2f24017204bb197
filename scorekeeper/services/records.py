"""A club's records as CSV: games and standings for spreadsheets, deals for a move or restore.

The format lives here: the columns, a stored entry as cells, and the exports. `export_deals`
writes the complete record, one row per game, deal and side; `records_import.import_deals` reads it
back.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy.orm import selectinload

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import COUNTS, Club, Deal, Game, Side
from scorekeeper.rules import rounding
from scorekeeper.rules.terms import BOOK_KINDS, CARD_CATEGORIES, EXTRA_BONUSES
from scorekeeper.services.standings import Filters, Standing, club_games

# --- columns -----------------------------------------------------------------------------------

GAME_COLUMNS = ("game", "played_on", "ruleset", "decks", "house_rules")
SIDE_COLUMNS = ("side", "side_name", "players")
# (column, entry field, key within the field or None)
ENTRY_COLUMNS: tuple[tuple[str, str, str | None], ...] = (
    *((f"books_{kind}", "books", kind) for kind in BOOK_KINDS),
    ("red_threes_down", "red_threes_down", None),
    ("red_threes_caught", "red_threes_caught", None),
    ("went_out", "went_out", None),
    ("melded_points", "melded_points", None),
    ("leftover_points", "leftover_points", None),
    *((f"melded_cards_{c}", "melded_cards", c) for c in CARD_CATEGORIES),
    *((f"leftover_cards_{c}", "leftover_cards", c) for c in CARD_CATEGORIES),
    *((f"bonus_{bonus}", "bonuses", bonus) for bonus in EXTRA_BONUSES),
    *((f"open_books_{kind}", "open_books", kind) for kind in BOOK_KINDS),
    ("open_book_points", "open_book_points", None),
)
ENTRY_NAMES = tuple(column for column, _, _ in ENTRY_COLUMNS)
# The name of the club's saved rule set a game started from (blank for none); last, so that
# files written before it read as they did.
RULE_SET_COLUMN = "rule_set"
# Every column a deals file must have; `guests`, `deal_total` and `rule_set` are written but
# optional (a file from before saved rule sets has no `rule_set`).
REQUIRED_COLUMNS = (*GAME_COLUMNS, *SIDE_COLUMNS, "deal", *ENTRY_NAMES)
DEAL_COLUMNS = (
    *GAME_COLUMNS,
    *SIDE_COLUMNS,
    "guests",
    "deal",
    *ENTRY_NAMES,
    "deal_total",
    RULE_SET_COLUMN,
)

STANDING_COLUMNS = (
    "rank",
    "player",
    "games",
    "wins",
    "night_wins",
    "win_rate",
    "average_score",
    "average_per_deal",
    "total_points",
    *COUNTS,
    # Last, so a reader of the older columns by position still finds them where they were:
    # the rating within the filters (one decimal; blank where none is kept) and its games.
    "rating",
    "rated_games",
)

# A cell a spreadsheet would run as a formula gets a leading apostrophe (and loses it on import).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")


# --- export ------------------------------------------------------------------------------------


def export_games(club: Club, filters: Filters) -> str:
    """One row per finished game within the filters, oldest first, for spreadsheets."""
    games = _games(club, filters, finished_only=True, with_deals=False)
    most = max((len(game.sides) for game in games), default=0)
    header = ["game", "played_on", "ruleset", "decks", "deals"]
    for number in range(1, most + 1):
        header += [f"side_{number}", f"side_{number}_players", f"side_{number}_total"]
    header += ["winners", RULE_SET_COLUMN]
    rows: list[list[Any]] = []
    for game in games:
        row: list[Any] = [
            game.id,
            game.played_on.isoformat(),
            game.ruleset,
            game.decks,
            max((side.deals_played for side in game.sides), default=0),
        ]
        for side in game.sides:
            row += [to_cell(side.name), to_cell(_players(side)), side.final_total]
        row += [""] * (3 * (most - len(game.sides)))
        row.append(to_cell("; ".join(side.name for side in game.sides if side.won)))
        row.append(to_cell(game.rules_name or ""))
        rows.append(row)
    return _csv(header, rows)


def export_deals(club: Club, filters: Filters | None = None) -> str:
    """The complete record: one row per game, deal and side, unfinished games included."""
    rows: list[list[Any]] = []
    for game in _games(club, filters or Filters(), finished_only=False, with_deals=True):
        head = [
            game.id,
            game.played_on.isoformat(),
            game.ruleset,
            game.decks,
            json.dumps(game.house_rules or {}, separators=(",", ":"), sort_keys=True),
        ]
        for deal in game.deals or [None]:
            scores = {score.side_position: score for score in deal.scores} if deal else {}
            for side in game.sides:
                score = scores.get(side.position)
                guests = "; ".join(p.name for p in side.players if p.member_id is None)
                row = [*head, side.position + 1, to_cell(side.name), to_cell(_players(side))]
                row += [to_cell(guests), deal.number if deal else ""]
                if score is None:
                    row += [""] * (len(ENTRY_COLUMNS) + 1)
                else:
                    row += [*entry_cells(score.entry).values(), score.total]
                row.append(to_cell(game.rules_name or ""))
                rows.append(row)
    return _csv(DEAL_COLUMNS, rows)


def export_standings(rows: list[Standing]) -> str:
    """The standings as shown: rates as percentages and averages with one decimal."""
    lines = [
        [
            "" if row.rank is None else row.rank,
            to_cell(row.player),
            row.games,
            row.wins,
            row.night_wins,
            one_decimal(100 * row.wins, row.games),
            one_decimal(row.total_points, row.games),
            one_decimal(row.total_points, row.deals),
            row.total_points,
            *(getattr(row, name) for name in COUNTS),
            "" if row.rating is None else f"{row.rating:.1f}",
            row.rated_games,
        ]
        for row in rows
    ]
    return _csv(STANDING_COLUMNS, lines)


def entry_cells(entry: Mapping[str, Any]) -> dict[str, str]:
    """A stored entry (`DealEntry.to_dict()`) as CSV cells; blank where nothing was entered."""
    cells: dict[str, str] = {}
    for column, name, key in ENTRY_COLUMNS:
        value = entry.get(name)
        if key is not None:
            value = (value or {}).get(key)
        if name == "went_out":
            cells[column] = "yes" if value else "no"
        else:
            cells[column] = "" if value is None else str(value)
    return cells


def _games(club: Club, filters: Filters, *, finished_only: bool, with_deals: bool) -> list[Game]:
    """The club's games within the filters, oldest first, with everything a row shows.

    Deals and their scores only when the rows show them: the games file reads the totals kept
    on the sides, and loading every deal of a season's games would cost more than all the rest.
    """
    options = [selectinload(Game.sides).selectinload(Side.players)]
    if with_deals:
        options.append(selectinload(Game.deals).selectinload(Deal.scores))
    query = (
        club_games(club, filters, finished_only=finished_only)
        .order_by(Game.played_on, Game.id)
        .options(*options)
    )
    return list(db.session.execute(query).scalars())


def _players(side: Side) -> str:
    return "; ".join(player.name for player in side.players)


def to_cell(text: str) -> str:
    """Text a spreadsheet will not run as a formula."""
    return "'" + text if text.startswith(FORMULA_START) else text


def from_cell(text: str) -> str:
    """Undo `to_cell`."""
    return text[1:] if text.startswith("'") and text[1:2].startswith(FORMULA_START) else text


def one_decimal(numerator: int, denominator: int) -> str:
    """A rate or an average as the standings' export writes it: one decimal, halves up as every
    figure is rounded (`rules/rounding.py`), "0.0" of none."""
    return str(rounding.ratio(numerator, denominator, 1))


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()
