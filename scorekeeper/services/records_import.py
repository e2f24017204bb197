"""Reading a deals file (as `records.export_deals` writes it) back into a club.

All or nothing: every row is read, every game checked again by the rules engine, and only then
is anything saved. A refusal names the line, the column and why.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Member, SavedRules
from scorekeeper.rules import DealEntry, DealRefused, Refusal, RulesError
from scorekeeper.rules.terms import MAX_NAME
from scorekeeper.services.games import (
    GameRefused,
    SideSetup,
    fingerprint,
    held_fingerprints,
    record_game,
    same_rules,
)
from scorekeeper.services.names import has_surrogate, name_problem
from scorekeeper.services.records import (
    DEAL_COLUMNS,
    ENTRY_COLUMNS,
    ENTRY_NAMES,
    REQUIRED_COLUMNS,
    RULE_SET_COLUMN,
    from_cell,
)

MAX_BYTES = 5 * 1024 * 1024
MAX_ROWS = 200_000
MAX_DIGITS = 9  # far beyond any honest figure; the engine refuses anything over 1,000,000
# Every house rule of a rule set written out is under 1,000 characters and 3 levels deep
# ({"opening_minimums": [[1, 60], ...]}): these bounds are far beyond, and keep a crafted cell
# from reaching json.loads's recursion (a RecursionError, a 500) or the engine's.
MAX_HOUSE_RULES = 4000
MAX_HOUSE_RULES_DEPTH = 8

YES = ("yes", "true", "1", "y")
NO = ("no", "false", "0", "n", "")
WHOLE = re.compile(r"[0-9]+")
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
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


@dataclass(frozen=True)
class SkippedGame:
    """A game of the file the club already holds: its reference and its lines in the file."""

    ref: str
    first_line: int
    last_line: int

    def __str__(self) -> str:
        lines = (
            f"line {self.first_line}"
            if self.first_line == self.last_line
            else f"lines {self.first_line}–{self.last_line}"
        )
        return f"game {self.ref}, {lines}"


# A summary names at most this many skipped games, then says how many more.
SKIPPED_NAMED = 10


@dataclass(frozen=True)
class ImportReport:
    """What an import added (games, deals, players who became members) and what it skipped."""

    games: int
    deals: int
    members_added: list[str] = field(default_factory=list)
    skipped: list[SkippedGame] = field(default_factory=list)

    def summary(self) -> str:
        """The import in a sentence or two, for the organiser."""
        named = "; ".join(str(game) for game in self.skipped[:SKIPPED_NAMED])
        if len(self.skipped) > SKIPPED_NAMED:
            named += f"; and {len(self.skipped) - SKIPPED_NAMED:,} more"
        if not self.games and self.skipped:
            every = (
                "the file's one game is"
                if len(self.skipped) == 1
                else f"all {len(self.skipped):,} games in the file are"
            )
            return f"Nothing imported: {every} already in the records ({named})."
        done = f"Imported {_count(self.games, 'game')} with {_count(self.deals, 'deal')}."
        if not self.skipped:
            return done
        return (
            f"{done} Skipped {_count(len(self.skipped), 'game')} already in the records ({named})."
        )


def _count(number: int, thing: str) -> str:
    return f"{number:,} {thing}{'' if number == 1 else 's'}"


@dataclass
class _Side:
    position: int
    line: int
    name: str
    players: list[str]
    guests: set[str]
    raw: tuple[str, str, str]


@dataclass
class _Deal:
    number: int
    line: int
    entries: dict[int, tuple[int, DealEntry]] = field(default_factory=dict)


@dataclass
class _Game:
    ref: str
    line: int
    played_on: date
    ruleset: str
    decks: int
    house_rules: dict[str, Any]
    # The name of the saved rule set it was played under ("" for none).
    rule_set: str = ""
    sides: dict[int, _Side] = field(default_factory=dict)
    deals: dict[int, _Deal] = field(default_factory=dict)
    last_line: int = 0


def import_deals(club: Club, text: str) -> ImportReport:
    """Read an `export_deals` file into the club, all or nothing; ImportRefused says why not."""
    try:
        games = _read(text)
        report = _record(club, games)
    except Exception:
        db.session.rollback()
        raise
    db.session.commit()
    return report


def entry_from_cells(cells: Mapping[str, str], line: int, side: int | None = None) -> DealEntry:
    """An entry from CSV cells (as `entry_cells` writes them), or ImportRefused."""
    data: dict[str, Any] = {}
    for column, name, key in ENTRY_COLUMNS:
        raw = cells.get(column, "").strip()
        if name == "went_out":
            data[name] = _yes_no(raw, line, column)
            continue
        if not raw:
            continue
        number = _whole(raw, line, column)
        if key is None:
            data[name] = number
        elif number:  # a count of 0 is no count: the stored entry leaves it out
            data.setdefault(name, {})[key] = number
    try:
        return DealEntry.from_dict(data, side)
    except DealRefused as refused:
        first = refused.refusals[0]
        raise ImportRefused(line, _column_for(first.field), str(refused)) from refused


def _read(text: str) -> list[_Game]:
    """Every game in the file, each checked for consistency; nothing touches the database."""
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise ImportRefused(
            1, None, f"The file is over {MAX_BYTES // 2**20} MB; split it into smaller files."
        )
    text = text.removeprefix("\ufeff")
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
    games: dict[str, _Game] = {}
    read, rows = 0, 0
    try:
        for cells in reader:
            start, read = read + 1, reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if header is None:
                header = _header(cells, start)
                continue
            rows += 1
            if rows > MAX_ROWS:
                raise ImportRefused(start, None, f"The file has over {MAX_ROWS:,} rows.")
            if len(cells) != len(header):
                raise ImportRefused(
                    start, None, f"This row has {len(cells)} cells; the header has {len(header)}."
                )
            _take_row(games, dict(zip(header, cells, strict=True)), start)
    except csv.Error as exc:
        line = max(reader.line_num, 1)
        raise ImportRefused(line, None, f"This is not readable CSV: {exc}.") from exc
    if header is None:
        raise ImportRefused(1, None, "The file is empty: it needs a header and rows of deals.")
    if not games:
        raise ImportRefused(2, None, "The file has a header but no rows of deals.")
    for game in games.values():
        _check_game(game)
    return list(games.values())


def _header(cells: list[str], line: int) -> list[str]:
    names = [cell.strip() for cell in cells]
    known = set(DEAL_COLUMNS)
    seen: set[str] = set()
    for name in names:
        if name not in known:
            shown = name or "(blank)"
            raise ImportRefused(line, shown, f"'{shown}' is not a column of a deals export.")
        if name in seen:
            raise ImportRefused(line, name, f"The column {name} appears twice.")
        seen.add(name)
    for name in REQUIRED_COLUMNS:
        if name not in seen:
            raise ImportRefused(line, name, f"The header has no {name} column.")
    return names


def _take_row(games: dict[str, _Game], cells: dict[str, str], line: int) -> None:
    """Check one row and add it to its game."""
    ref = cells["game"].strip()
    if not ref:
        raise ImportRefused(line, "game", "Every row needs the game it belongs to.")
    game = games.get(ref)
    if game is None:
        game = games[ref] = _new_game(ref, cells, line)
    else:
        _same_game(game, cells, line)
    game.last_line = line
    position = _whole(cells["side"].strip(), line, "side")
    if position < 1:
        raise ImportRefused(line, "side", "Sides are numbered from 1.")
    side = _side_of(position, cells, line)
    known = game.sides.setdefault(position, side)
    if known.raw != side.raw:
        columns = ("side_name", "players", "guests")
        column, was, now = next(
            (c, a, b) for c, a, b in zip(columns, known.raw, side.raw, strict=True) if a != b
        )
        raise ImportRefused(
            line,
            column,
            f"Side {position} of game {ref} has {_show(was)} on line {known.line}, "
            f"not {_show(now)}.",
        )
    raw_deal = cells["deal"].strip()
    if not raw_deal:
        figures = [c for c in ENTRY_NAMES if cells[c].strip() and c != "went_out"]
        if figures or cells["went_out"].strip().lower() not in NO:
            column = figures[0] if figures else "went_out"
            raise ImportRefused(line, column, "This row has figures but no deal number.")
        return
    number = _whole(raw_deal, line, "deal")
    if number < 1:
        raise ImportRefused(line, "deal", "Deals are numbered from 1.")
    deal = game.deals.setdefault(number, _Deal(number, line))
    if position in deal.entries:
        first = deal.entries[position][0]
        raise ImportRefused(
            line, "side", f"Deal {number} of game {ref} has side {position} on line {first} too."
        )
    deal.entries[position] = (line, entry_from_cells(cells, line, position - 1))


def _new_game(ref: str, cells: dict[str, str], line: int) -> _Game:
    raw_date = cells["played_on"].strip()
    try:
        if not ISO_DATE.fullmatch(raw_date):
            raise ValueError(raw_date)
        played_on = date.fromisoformat(raw_date)
    except ValueError:
        raise ImportRefused(
            line, "played_on", f"{_show(raw_date)} is not a date written as YYYY-MM-DD."
        ) from None
    key = cells["ruleset"].strip()
    if key not in engine.PRESETS:
        known = ", ".join(engine.PRESETS)
        raise ImportRefused(line, "ruleset", f"{_show(key)} is not a rule set; try {known}.")
    decks = _whole(cells["decks"].strip(), line, "decks")
    house_rules = _house_rules(cells["house_rules"], line)
    try:
        engine.ruleset(key, house_rules or None)
    except RulesError as exc:
        raise ImportRefused(line, "house_rules", str(exc)) from exc
    rule_set = _name(cells.get(RULE_SET_COLUMN, ""), line, RULE_SET_COLUMN)
    return _Game(ref, line, played_on, key, decks, house_rules, rule_set)


def _same_game(game: _Game, cells: dict[str, str], line: int) -> None:
    """Refuse a row whose game details differ from the game's first row."""
    given = {
        "played_on": cells["played_on"].strip(),
        "ruleset": cells["ruleset"].strip(),
        "decks": cells["decks"].strip(),
    }
    expected = {
        "played_on": game.played_on.isoformat(),
        "ruleset": game.ruleset,
        "decks": str(game.decks),
    }
    for column, value in given.items():
        if value != expected[column] and not (column == "decks" and _same_number(value, game)):
            raise ImportRefused(
                line,
                column,
                f"Game {game.ref} has {_show(expected[column])} on line {game.line}, "
                f"not {_show(value)}.",
            )
    if _house_rules(cells["house_rules"], line) != game.house_rules:
        raise ImportRefused(
            line, "house_rules", f"Game {game.ref} has other house rules on line {game.line}."
        )
    rule_set = _name(cells.get(RULE_SET_COLUMN, ""), line, RULE_SET_COLUMN)
    if rule_set != game.rule_set:
        raise ImportRefused(
            line,
            RULE_SET_COLUMN,
            f"Game {game.ref} has {_show(game.rule_set)} on line {game.line}, "
            f"not {_show(rule_set)}.",
        )


def _same_number(value: str, game: _Game) -> bool:
    return bool(WHOLE.fullmatch(value)) and len(value) <= MAX_DIGITS and int(value) == game.decks


def _side_of(position: int, cells: dict[str, str], line: int) -> _Side:
    name = _name(cells["side_name"], line, "side_name")
    if not name:
        raise ImportRefused(line, "side_name", "Every side needs a name.")
    players = _names(cells["players"], line, "players")
    guests = _names(cells.get("guests", ""), line, "guests")
    folded = {player.casefold() for player in players}
    for guest in guests:
        if guest.casefold() not in folded:
            raise ImportRefused(line, "guests", f"{guest} is not one of the side's players.")
    raw = (name, "; ".join(players), "; ".join(guests))
    return _Side(position, line, name, players, {g.casefold() for g in guests}, raw)


def _name(raw: str, line: int, column: str) -> str:
    name = " ".join(from_cell(raw.strip()).split())
    _visible(name, line, column)
    if len(name) > MAX_NAME:
        raise ImportRefused(line, column, f"{_show(name)} is over {MAX_NAME} characters.")
    return name


def _names(raw: str, line: int, column: str) -> list[str]:
    text = from_cell(raw.strip())
    names = [" ".join(part.split()) for part in text.split(";")] if text.strip() else []
    if any(not name for name in names):
        raise ImportRefused(line, column, f"{_show(text)} has a blank name; separate names by ;.")
    for name in names:
        _visible(name, line, column)
        if len(name) > MAX_NAME:
            raise ImportRefused(line, column, f"{_show(name)} is over {MAX_NAME} characters.")
    return names


def _visible(name: str, line: int, column: str) -> None:
    """Refuse a name with control, invisible or broken characters (never quoting it)."""
    problem = name_problem(name, f"The {column} cell")
    if problem:
        raise ImportRefused(line, column, problem)


def _house_rules(raw: str, line: int) -> dict[str, Any]:
    raw = raw.strip()
    if not raw:
        return {}
    if len(raw) > MAX_HOUSE_RULES:
        raise ImportRefused(
            line, "house_rules", f"House rules are over {MAX_HOUSE_RULES:,} characters."
        )
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise ImportRefused(line, "house_rules", f"This is not valid JSON: {exc}.") from None
    except RecursionError:
        value = _TOO_DEEP  # nested past Python's own limit
    if value is _TOO_DEEP or _depth_over(value, MAX_HOUSE_RULES_DEPTH):
        raise ImportRefused(
            line,
            "house_rules",
            f"House rules nest lists or objects over {MAX_HOUSE_RULES_DEPTH} levels deep.",
        )
    if not isinstance(value, dict):
        raise ImportRefused(line, "house_rules", "House rules must be a JSON object, like {}.")
    # A "\ud800" escape is valid JSON but text no page or database can hold: refused here,
    # before the engine's message quotes it.
    if any(has_surrogate(text) for text in _texts(value)):
        broken = "House rules hold broken text (a lone surrogate, \\ud800 to \\udfff)."
        raise ImportRefused(line, "house_rules", broken)
    return value


_TOO_DEEP = object()


def _depth_over(value: Any, limit: int) -> bool:
    """Whether JSON data nests lists or objects deeper than the limit (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def _texts(value: Any) -> list[str]:
    """Every string in JSON data, keys included (called once its depth is known to be small)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for k, v in value.items() for text in (*_texts(k), *_texts(v))]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    return []


def _check_game(game: _Game) -> None:
    """Sides numbered 1 to n, deals 1 to m, and every side in every deal."""
    for number in range(1, len(game.sides) + 1):
        if number not in game.sides:
            raise ImportRefused(
                game.line,
                "side",
                f"Game {game.ref} has sides up to {max(game.sides)} but no side {number}.",
            )
    for number in range(1, len(game.deals) + 1):
        if number not in game.deals:
            later = min(n for n in game.deals if n > number)
            raise ImportRefused(
                game.deals[later].line, "deal", f"Game {game.ref} has no deal {number}."
            )
        deal = game.deals[number]
        for position in game.sides:
            if position not in deal.entries:
                raise ImportRefused(
                    deal.line,
                    "side",
                    f"Deal {number} of game {game.ref} has no row for side {position}.",
                )


def _record(club: Club, games: list[_Game]) -> ImportReport:
    """Add the members and games to the session, each checked by the engine; skip games held.

    A game the club already holds (same day, rules, sides, players and entries) is skipped, so
    a file imported twice, or a club's own export, adds nothing the second time. Each game held
    answers for one game of the file: a club with two identical games skips two copies.
    """
    members = {member.name.casefold() for member in club.members}
    held = held_fingerprints(club, (game.played_on for game in games))
    added: list[str] = []
    skipped: list[SkippedGame] = []
    deals = 0
    for game in games:
        sides = [game.sides[n] for n in sorted(game.sides)]
        print_ = _fingerprint(game, sides)
        if held[print_] > 0:
            held[print_] -= 1
            skipped.append(SkippedGame(game.ref, game.line, game.last_line))
            continue
        for side in sides:
            for player in side.players or [side.name]:
                folded = player.casefold()
                if folded not in members and folded not in side.guests:
                    club.members.append(Member(name=player))
                    members.add(folded)
                    added.append(player)
        entries = [
            [game.deals[n].entries[s.position][1] for s in sides] for n in sorted(game.deals)
        ]
        setups = [SideSetup(side.name, side.players) for side in sides]
        try:
            record_game(
                game.ruleset,
                setups,
                entries,
                decks=game.decks,
                house_rules=game.house_rules,
                club=club,
                played_on=game.played_on,
                commit=False,
                saved_rules=_saved_match(club, game) if game.rule_set else None,
                rules_name=game.rule_set or None,
            )
        except GameRefused as refused:
            raise _setup_refused(game, refused.refusals) from refused
        except DealRefused as refused:
            raise _deal_refused(game, sides, entries, refused) from refused
        deals += len(entries)
    return ImportReport(
        games=len(games) - len(skipped), deals=deals, members_added=added, skipped=skipped
    )


def _saved_match(club: Club, game: _Game) -> SavedRules | None:
    """The club's saved rule set of the game's rule-set name, if the numbers are still its own.

    A name the club has no rule set of, or one whose numbers have changed since (or another
    club's, same name but other numbers), links to nothing: the game keeps the name alone.
    """
    folded = game.rule_set.casefold()
    named = next((s for s in club.saved_rules if s.name.casefold() == folded), None)
    if named is not None and same_rules(named, game.ruleset, game.house_rules):
        return named
    return None


def _fingerprint(game: _Game, sides: list[_Side]) -> str:
    """The game's fingerprint, as `games.fingerprint_of` gives it for a saved game."""
    deals = [
        [game.deals[n].entries[side.position][1].to_dict() for side in sides]
        for n in sorted(game.deals)
    ]
    return fingerprint(
        game.played_on,
        game.ruleset,
        game.decks,
        game.house_rules,
        [(side.name, side.players) for side in sides],
        deals,
    )


def _setup_refused(game: _Game, refusals: list[Refusal]) -> ImportRefused:
    first = refusals[0]
    line = game.line
    if first.side is not None and first.side + 1 in game.sides:
        line = game.sides[first.side + 1].line
    message = "; ".join(refusal.message for refusal in refusals)
    return ImportRefused(line, _column_for(first.field), f"Game {game.ref} cannot start: {message}")


def _deal_refused(
    game: _Game,
    sides: list[_Side],
    entries: list[list[DealEntry]],
    refused: DealRefused,
) -> ImportRefused:
    """Point at the deal the engine refused: the side's row if it names one, else the deal's."""
    rules = engine.ruleset(game.ruleset, game.house_rules or None)
    table = [engine.Side(side.name, max(1, len(side.players))) for side in sides]
    number = len(entries)
    for count in range(1, len(entries) + 1):
        try:
            engine.play(rules, game.decks, table, entries[:count])
        except DealRefused as found:
            number, refused = count, found
            break
    deal = game.deals[sorted(game.deals)[number - 1]]
    first = refused.refusals[0]
    line = deal.line
    if first.side is not None and 0 <= first.side < len(sides):
        line = deal.entries[sides[first.side].position][0]
    return ImportRefused(
        line, _column_for(first.field), f"Deal {number} of game {game.ref} is refused: {refused}"
    )


def _column_for(name: str) -> str | None:
    """The column a refusal's field names, if there is one."""
    column = name.replace("bonuses.", "bonus_").replace(".", "_")
    if column in ENTRY_NAMES:
        return column
    return FIELD_COLUMNS.get(name)


def _whole(raw: str, line: int, column: str) -> int:
    if raw.startswith("-") and WHOLE.fullmatch(raw[1:]):
        raise ImportRefused(line, column, f"{_show(raw)} is negative; figures start at 0.")
    if not WHOLE.fullmatch(raw):
        raise ImportRefused(line, column, f"{_show(raw)} is not a whole number.")
    if len(raw.lstrip("0")) > MAX_DIGITS:
        raise ImportRefused(line, column, f"{_show(raw)} is far too large.")
    return int(raw)


def _yes_no(raw: str, line: int, column: str) -> bool:
    answer = raw.strip().lower()
    if answer in YES:
        return True
    if answer in NO:
        return False
    raise ImportRefused(line, column, f"{_show(raw)} is not yes or no.")


def _show(value: str) -> str:
    """A cell quoted for a message, cut short if long."""
    return repr(value if len(value) <= 40 else value[:37] + "...")
