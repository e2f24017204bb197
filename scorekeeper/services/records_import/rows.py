"""The file's rows gathered into games, sides and deals, each row checked against its game's
first; nothing touches the database."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from scorekeeper import rules as engine
from scorekeeper.rules import DealEntry, RulesError
from scorekeeper.services.names import name_key
from scorekeeper.services.records import (
    DEAL_COLUMNS,
    ENTRY_NAMES,
    HISTORY_COLUMN,
    REQUIRED_COLUMNS,
    RULE_SET_COLUMN,
)
from scorekeeper.services.records_import.cells import (
    MAX_DIGITS,
    NO,
    WHOLE,
    entry_from_cells,
    read_house_rules,
    read_name,
    read_names,
    read_whole,
)
from scorekeeper.services.records_import.history import FileEvent, check_history, read_history
from scorekeeper.services.records_import.refusals import ImportRefused, show

ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass
class FileSide:
    """A side as the file gives it, on the line it first appears."""

    position: int
    line: int
    name: str
    players: list[str]
    guests: set[str]
    raw: tuple[str, str, str]


@dataclass
class FileDeal:
    """A deal of the file: each side's line and entry, by the side's position."""

    number: int
    line: int
    entries: dict[int, tuple[int, DealEntry]] = field(default_factory=dict)
    # Its history (issue 40) and the line it is on; none in a file from before.
    history: list[FileEvent] = field(default_factory=list)
    history_line: int = 0


@dataclass
class FileGame:
    """A game of the file: its first row's details, its sides and its deals."""

    ref: str
    line: int
    played_on: date
    ruleset: str
    decks: int
    house_rules: dict[str, Any]
    # The name of the saved rule set it was played under ("" for none).
    rule_set: str = ""
    sides: dict[int, FileSide] = field(default_factory=dict)
    deals: dict[int, FileDeal] = field(default_factory=dict)
    last_line: int = 0


def read_header(cells: list[str], line: int) -> list[str]:
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


def take_row(games: dict[str, FileGame], cells: dict[str, str], line: int) -> None:
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
    position = read_whole(cells["side"].strip(), line, "side")
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
            f"Side {position} of game {ref} has {show(was)} on line {known.line}, not {show(now)}.",
        )
    raw_deal = cells["deal"].strip()
    history = cells.get(HISTORY_COLUMN, "").strip()
    if not raw_deal:
        figures = [c for c in ENTRY_NAMES if cells[c].strip() and c != "went_out"]
        if history:
            figures.append(HISTORY_COLUMN)
        if figures or cells["went_out"].strip().lower() not in NO:
            column = figures[0] if figures else "went_out"
            raise ImportRefused(line, column, "This row has figures but no deal number.")
        return
    number = read_whole(raw_deal, line, "deal")
    if number < 1:
        raise ImportRefused(line, "deal", "Deals are numbered from 1.")
    deal = game.deals.setdefault(number, FileDeal(number, line))
    if position in deal.entries:
        first = deal.entries[position][0]
        raise ImportRefused(
            line, "side", f"Deal {number} of game {ref} has side {position} on line {first} too."
        )
    deal.entries[position] = (line, entry_from_cells(cells, line, position - 1))
    if history:
        if deal.history:
            raise ImportRefused(
                line,
                HISTORY_COLUMN,
                f"Deal {number} of game {ref} has its history on line {deal.history_line} too.",
            )
        deal.history, deal.history_line = read_history(history, line), line


def _new_game(ref: str, cells: dict[str, str], line: int) -> FileGame:
    raw_date = cells["played_on"].strip()
    try:
        if not ISO_DATE.fullmatch(raw_date):
            raise ValueError(raw_date)
        played_on = date.fromisoformat(raw_date)
    except ValueError:
        raise ImportRefused(
            line, "played_on", f"{show(raw_date)} is not a date written as YYYY-MM-DD."
        ) from None
    key = cells["ruleset"].strip()
    if key not in engine.PRESETS:
        known = ", ".join(engine.PRESETS)
        raise ImportRefused(line, "ruleset", f"{show(key)} is not a rule set; try {known}.")
    decks = read_whole(cells["decks"].strip(), line, "decks")
    house_rules = read_house_rules(cells["house_rules"], line)
    try:
        engine.ruleset(key, house_rules or None)
    except RulesError as exc:
        raise ImportRefused(line, "house_rules", str(exc)) from exc
    rule_set = read_name(cells.get(RULE_SET_COLUMN, ""), line, RULE_SET_COLUMN)
    return FileGame(ref, line, played_on, key, decks, house_rules, rule_set)


def _same_game(game: FileGame, cells: dict[str, str], line: int) -> None:
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
                f"Game {game.ref} has {show(expected[column])} on line {game.line}, "
                f"not {show(value)}.",
            )
    if read_house_rules(cells["house_rules"], line) != game.house_rules:
        raise ImportRefused(
            line, "house_rules", f"Game {game.ref} has other house rules on line {game.line}."
        )
    rule_set = read_name(cells.get(RULE_SET_COLUMN, ""), line, RULE_SET_COLUMN)
    if rule_set != game.rule_set:
        raise ImportRefused(
            line,
            RULE_SET_COLUMN,
            f"Game {game.ref} has {show(game.rule_set)} on line {game.line}, not {show(rule_set)}.",
        )


def _same_number(value: str, game: FileGame) -> bool:
    return bool(WHOLE.fullmatch(value)) and len(value) <= MAX_DIGITS and int(value) == game.decks


def _side_of(position: int, cells: dict[str, str], line: int) -> FileSide:
    name = read_name(cells["side_name"], line, "side_name")
    if not name:
        raise ImportRefused(line, "side_name", "Every side needs a name.")
    players = read_names(cells["players"], line, "players")
    guests = read_names(cells.get("guests", ""), line, "guests")
    folded = {name_key(player) for player in players}
    for guest in guests:
        if name_key(guest) not in folded:
            raise ImportRefused(line, "guests", f"{guest} is not one of the side's players.")
    raw = (name, "; ".join(players), "; ".join(guests))
    return FileSide(position, line, name, players, {name_key(g) for g in guests}, raw)


def check_game(game: FileGame) -> None:
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
        if deal.history:
            named = f"deal {number} of game {game.ref}"
            check_history(deal.history, len(game.sides), deal.history_line, named)
        for position in game.sides:
            if position not in deal.entries:
                raise ImportRefused(
                    deal.line,
                    "side",
                    f"Deal {number} of game {game.ref} has no row for side {position}.",
                )
