"""A club's records as CSV: games and standings for spreadsheets, deals for a move or restore.

The format lives here: the columns, a stored entry as cells, and the exports. `export_deals`
writes the complete record, one row per game, deal and side; `records_import.import_deals` reads it
back.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from scorekeeper.plumbing.models import COUNTS, Club
from scorekeeper.plumbing.models.history import CORRECTION, IMPORT, LINES, WHOLE
from scorekeeper.rules import rounding
from scorekeeper.rules.terms import BOOK_KINDS, CARD_CATEGORIES, EXTRA_BONUSES
from scorekeeper.services import records_read
from scorekeeper.services.records_read import Side
from scorekeeper.services.standings import Filters, Standing

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
# Each deal's history (issue 40), on its first side's row: its events, oldest first, as JSON
# (`records_read.history_of`); blank on the other rows. Last, as `rule_set` was.
HISTORY_COLUMN = "history"
# Every column a deals file must have; `guests`, `deal_total`, `rule_set` and `history` are
# written but optional (a file from before saved rule sets has no `rule_set`, one from before
# issue 40 no `history`: its deals come in with an import as their history).
REQUIRED_COLUMNS = (*GAME_COLUMNS, *SIDE_COLUMNS, "deal", *ENTRY_NAMES)
DEAL_COLUMNS = (
    *GAME_COLUMNS,
    *SIDE_COLUMNS,
    "guests",
    "deal",
    *ENTRY_NAMES,
    "deal_total",
    RULE_SET_COLUMN,
    HISTORY_COLUMN,
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
    return "".join(games_csv(club, filters))


def games_csv(club: Club, filters: Filters) -> Iterator[str]:
    """`export_games` a batch of games at a time, written as it is read (`records_read.py`)."""
    most = records_read.most_sides(club, filters)
    yield games_header(most)
    yield from games_rows(club, filters, most)


def games_header(most: int) -> str:
    """The games file's first line, for games of at most `most` sides."""
    header = ["game", "played_on", "ruleset", "decks", "deals"]
    for number in range(1, most + 1):
        header += [f"side_{number}", f"side_{number}_players", f"side_{number}_total"]
    header += ["winners", RULE_SET_COLUMN]
    return _rows([header])


def games_rows(club: Club, filters: Filters, most: int) -> Iterator[str]:
    """The games file's rows after its first line, a batch of games at a time."""
    for games in records_read.games(club, filters, finished_only=True, with_deals=False):
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
        yield _rows(rows)


def export_deals(club: Club, filters: Filters | None = None) -> str:
    """The complete record: one row per game, deal and side, unfinished games included."""
    return "".join(deals_csv(club, filters))


def deals_csv(club: Club, filters: Filters | None = None) -> Iterator[str]:
    """`export_deals` a batch of games at a time, written as it is read (`records_read.py`)."""
    yield DEALS_HEADER
    yield from deals_rows(club, filters)


def deals_rows(club: Club, filters: Filters | None = None) -> Iterator[str]:
    """The deals file's rows after its first line (`DEALS_HEADER`), a batch of games at a time.

    Written as the csv module writes them, a line at a time: a side's cells before the deal's
    and the rule set's cell after them are written by it once for the game, and an entry's
    cells, whole numbers and words that need no quotes, are joined between (any other value:
    the line written by the csv module, as before).
    """
    blank = ",".join([""] * (len(ENTRY_COLUMNS) + 1))
    batches = records_read.games(club, filters or Filters(), finished_only=False, with_deals=True)
    for games in batches:
        lines: list[str] = []
        for game in games:
            house = json.dumps(game.house_rules or {}, separators=(",", ":"), sort_keys=True)
            head = [game.id, game.played_on.isoformat(), game.ruleset, game.decks, house]
            rules_name = to_cell(game.rules_name or "")
            # ",<its cell>," and a blank history: a deal's history is on its first side's row.
            after = _rows([["", rules_name, ""]]).removesuffix(LINE_END)
            sides = []  # each side's position, cells, and those cells as the start of a line
            for side in game.sides:
                guests = "; ".join(p.name for p in side.players if p.member_id is None)
                cells = [*head, side.position + 1, to_cell(side.name)]
                cells += [to_cell(_players(side)), to_cell(guests)]
                start = _rows([[*cells, ""]]).removesuffix(LINE_END)  # ending with its comma
                sides.append((side.position, cells, start))
            for deal in game.deals or [None]:
                scores = {score.side_position: score for score in deal.scores} if deal else {}
                number = "" if deal is None else str(deal.number)
                history = ""
                if deal is not None and deal.history:
                    current = [{"entry": s.entry, "total": s.total} for s in deal.scores]
                    history = history_cell(deal.history, current)
                for position, cells, start in sides:
                    score = scores.get(position)
                    ending = after
                    if history:  # on the deal's first row: ",<rule set>,<its history>"
                        ending = _rows([["", rules_name, history]]).removesuffix(LINE_END)
                    if score is None:
                        lines.append(f"{start}{number},{blank}{ending}{LINE_END}")
                        history = ""
                        continue
                    entry, plain = _entry_row(score.entry)
                    if plain and type(score.total) is int:
                        middle = ",".join(entry)
                        lines.append(f"{start}{number},{middle},{score.total}{ending}{LINE_END}")
                    else:
                        row = [*cells, number, *entry, score.total, rules_name, history]
                        lines.append(_rows([row]))
                    history = ""
        yield "".join(lines)


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


def history_cell(events: list[dict[str, Any]], current: list[dict[str, Any]]) -> str:
    """A deal's history as its cell: its events as JSON, blank for none (a spreadsheet runs
    none of it: it starts with "[").

    An entry's or a correction's `after` is left out where it is what the deal's rows show
    (`current`, each side's entry and total) or what the next correction's `before` says: the
    import puts it back (`records_import/history.py`): a third of the history's bytes.
    """
    if not events:
        return ""
    expected = current
    shown = []
    for event in reversed(events):
        event = dict(event)
        if event["kind"] in FIGURED:
            if "after" not in event:
                event["after"] = None  # said: none was kept
            elif event["after"] == expected:
                del event["after"]
            if event["kind"] == CORRECTION and event.get("before") is not None:
                expected = event["before"]
        shown.append(event)
    return json.dumps(shown[::-1], separators=(",", ":"), ensure_ascii=False)


def entry_cells(entry: Mapping[str, Any]) -> dict[str, str]:
    """A stored entry (`DealEntry.to_dict()`) as CSV cells; blank where nothing was entered."""
    return dict(zip(ENTRY_NAMES, _entry_row(entry)[0], strict=True))


# Where each entry field (and key within it) is written among an entry's cells: a stored entry
# holds only what was entered, so its cells are made from what it holds (the deals file's
# hundred thousand rows at 10,000 games), not column by column.
_PLACE = {(name, key): n for n, (_, name, key) in enumerate(ENTRY_COLUMNS)}
_KEYED = {name for _, name, key in ENTRY_COLUMNS if key is not None}
_WENT_OUT = _PLACE[("went_out", None)]
# Blank where nothing was entered, and "no" for going out.
_NOTHING = ["no" if n == _WENT_OUT else "" for n in range(len(ENTRY_COLUMNS))]


def _entry_row(entry: Mapping[str, Any]) -> tuple[list[str], bool]:
    """`entry_cells`' values, in the columns' order; and whether each is a whole number, a
    word or blank (none needs quotes in a CSV line)."""
    cells = list(_NOTHING)
    plain = True
    for name, value in entry.items():
        if name in _KEYED:
            for key, each in (value or {}).items():
                place = _PLACE.get((name, key))
                if place is not None:
                    cells[place] = "" if each is None else str(each)
                    plain = plain and (each is None or type(each) is int)
            continue
        place = _PLACE.get((name, None))
        if place == _WENT_OUT:
            cells[place] = "yes" if value else "no"
        elif place is not None:
            cells[place] = "" if value is None else str(value)
            plain = plain and (value is None or type(value) is int)
    return cells, plain


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
    return _rows([header, *rows])


def _rows(rows: Iterable[Sequence[Any]]) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


# The kinds of event that make a deal's version: each keeps each side's figures after it.
FIGURED = (WHOLE, LINES, CORRECTION, IMPORT)
# The end of every line, as the csv module writes it.
LINE_END = "\r\n"
# The deals file's first line.
DEALS_HEADER = _rows([DEAL_COLUMNS])
