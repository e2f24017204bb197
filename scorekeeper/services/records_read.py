"""A club's games as the records write them, read a batch at a time (issue 39).

A deals file at 10,000 games loaded every game, side, player, deal and score as ORM objects
at once: 4 to 10 s and 73 to 456 MB in one worker. Here the games' ids come first (in the
records' order: played on, then id), then each batch of `BATCH` games is read in four plain
queries (games, sides, players, deals with their scores) into light rows, and handed on to be
written before the next is read; nothing of a batch is kept once it is written.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from json.scanner import make_scanner
from typing import Any

from sqlalchemy import Text, cast, func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, DealEvent, DealScore
from scorekeeper.plumbing.models import Deal as DealRow
from scorekeeper.plumbing.models import Game as GameRow
from scorekeeper.plumbing.models import Player as PlayerRow
from scorekeeper.plumbing.models import Side as SideRow
from scorekeeper.services.deal_history import BY_ORGANISER
from scorekeeper.services.standings_filters import Filters, club_games

# Games read at a time: few enough that a batch of the largest games (12 sides, 100 deals)
# stays a few MB, and that its ids stay within any SQLite's 999 bound parameters.
BATCH = 400
# A stored entry read as its JSON text and decoded by the C scanner alone: json.loads's own
# checks around it cost as much again, over a hundred thousand entries (`_entry`).
_SCAN = make_scanner(json.JSONDecoder())


@dataclass(slots=True)
class Player:
    """A player of a side as the records name them (`member_id` None for a guest)."""

    name: str
    member_id: int | None


@dataclass(slots=True)
class Side:
    """A side of a game with the figures kept beside its deals."""

    position: int
    name: str
    final_total: int
    deals_played: int
    won: bool
    players: list[Player] = field(default_factory=list)


@dataclass(slots=True)
class Score:
    """What one side entered for one deal, and its total."""

    side_position: int
    entry: dict[str, Any]
    total: int


@dataclass(slots=True)
class Deal:
    """One deal of a game and its scores, by side."""

    number: int
    scores: list[Score] = field(default_factory=list)
    # Its history as the deals file writes it (`history_of`), oldest first (issue 40).
    history: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class Game:
    """One game as its records' rows need it: sides (by position), deals (by number)."""

    id: int
    played_on: date
    ruleset: str
    decks: int
    house_rules: dict[str, Any] | None
    rules_name: str | None
    sides: list[Side] = field(default_factory=list)
    deals: list[Deal] = field(default_factory=list)


def games(
    club: Club,
    filters: Filters,
    *,
    finished_only: bool,
    with_deals: bool,
    history_only: bool = False,
) -> Iterator[list[Game]]:
    """The club's games within the filters, oldest first, a batch at a time.

    Deals and their scores only when the rows show them: the games file reads the totals kept
    on the sides, and reading every deal would cost more than all the rest.
    """
    ordered = (
        club_games(club, filters, finished_only=finished_only)
        .with_only_columns(GameRow.id)
        .order_by(GameRow.played_on, GameRow.id)
    )
    ids = list(db.session.scalars(ordered))
    for start in range(0, len(ids), BATCH):
        yield _batch(ids[start : start + BATCH], with_deals, history_only)


def most_sides(club: Club, filters: Filters) -> int:
    """The most sides any finished game within the filters has (the games file's columns)."""
    within = club_games(club, filters).with_only_columns(GameRow.id)
    counted = (
        select(func.count().label("sides"))
        .select_from(SideRow)
        .where(SideRow.game_id.in_(within))
        .group_by(SideRow.game_id)
        .subquery()
    )
    return db.session.scalar(select(func.max(counted.c.sides))) or 0


def _batch(ids: list[int], with_deals: bool, history_only: bool = False) -> list[Game]:
    """These games (in this order) with their sides, players and, if asked, deals (with their
    history; `history_only`: the deals that have any, with no scores)."""
    found = {
        row.id: Game(*row)
        for row in _read(
            select(
                GameRow.id,
                GameRow.played_on,
                GameRow.ruleset,
                GameRow.decks,
                GameRow.house_rules,
                GameRow.rules_name,
            ).where(GameRow.id.in_(ids))
        )
    }
    sides: dict[int, Side] = {}
    for game_id, side_id, *figures in _read(
        select(
            SideRow.game_id,
            SideRow.id,
            SideRow.position,
            SideRow.name,
            SideRow.final_total,
            SideRow.deals_played,
            SideRow.won,
        )
        .where(SideRow.game_id.in_(ids))
        .order_by(SideRow.game_id, SideRow.position)
    ):
        side = sides[side_id] = Side(*figures)
        found[game_id].sides.append(side)
    for side_id, name, member_id in _read(
        select(PlayerRow.side_id, PlayerRow.name, PlayerRow.member_id)
        .join(SideRow, SideRow.id == PlayerRow.side_id)
        .where(SideRow.game_id.in_(ids))
        .order_by(PlayerRow.side_id, PlayerRow.position)
    ):
        sides[side_id].players.append(Player(name, member_id))
    if history_only:
        _history(ids, found, made=True)
    elif with_deals:
        _deals(ids, found)
        _history(ids, found)
    return [found[game_id] for game_id in ids if game_id in found]


def _deals(ids: list[int], found: dict[int, Game]) -> None:
    """Each game's deals in order, and each deal's scores by side."""
    last: tuple[int, int] | None = None
    deal: Deal | None = None
    for game_id, number, position, entry, total in _read(
        select(
            DealRow.game_id,
            DealRow.number,
            DealScore.side_position,
            cast(DealScore.entry, Text),
            DealScore.total,
        )
        .outerjoin(DealScore, DealScore.deal_id == DealRow.id)
        .where(DealRow.game_id.in_(ids))
        .order_by(DealRow.game_id, DealRow.number, DealScore.side_position)
    ):
        if (game_id, number) != last:
            last, deal = (game_id, number), Deal(number)
            found[game_id].deals.append(deal)
        if position is not None and deal is not None:
            deal.scores.append(Score(position, _entry(entry), total))


def _history(ids: list[int], found: dict[int, Game], made: bool = False) -> None:
    """Each deal's history, in the order it happened: one query of the batch's events.

    `made`: the deals were not read (the history file needs no scores): each deal with any
    history is made here, in deal order.
    """
    deals = {
        (game_id, deal.number): deal
        for game_id in ids
        if game_id in found
        for deal in found[game_id].deals
    }
    for game_id, number, *columns in _read(
        select(
            DealEvent.game_id,
            DealEvent.deal_number,
            DealEvent.kind,
            DealEvent.side_position,
            DealEvent.by,
            DealEvent.device,
            DealEvent.at,
            DealEvent.deal_version,
            DealEvent.reason,
            # Read as text and decoded by the scanner alone, as an entry is (`_entry`).
            cast(DealEvent.before, Text),
            cast(DealEvent.after, Text),
        )
        .where(DealEvent.game_id.in_(ids))
        .order_by(DealEvent.game_id, DealEvent.id)
    ):
        deal = deals.get((game_id, number))
        if deal is None and made and game_id in found:
            deal = deals[game_id, number] = Deal(number)
            found[game_id].deals.append(deal)
        if deal is not None:  # an event of a deal since deleted is the game's, not the file's
            *plain, before, after = columns
            deal.history.append(history_of(*plain, _figures(before), _figures(after)))
    if made:
        for game_id in ids:
            if game_id in found:
                found[game_id].deals.sort(key=lambda deal: deal.number)


def _figures(text: str | None) -> list[dict[str, Any]] | None:
    """An event's figures from their JSON text; None where it keeps none."""
    return None if text is None or text == "null" else _entry(text)  # type: ignore[return-value]


def history_of(
    kind: str,
    side: int | None,
    by: str,
    device: str | None,
    at: datetime,
    version: int,
    reason: str | None,
    before: list[dict[str, Any]] | None,
    after: list[dict[str, Any]] | None,
) -> dict[str, Any]:
    """One event as the deals file writes it: sides numbered from 1 as its `side` column, the
    moment in ISO 8601 (UTC), what is not there left out; never the phone's device id (an
    organiser's event says it is one)."""
    event: dict[str, Any] = {
        "kind": kind,
        "side": None if side is None else side + 1,
        "by": by,
        "at": (at if at.tzinfo is not None else at.replace(tzinfo=UTC)).isoformat(),
        "version": version,
    }
    if device == BY_ORGANISER:
        event["organiser"] = True
    for name, value in (("reason", reason), ("before", before), ("after", after)):
        if value is not None:
            event[name] = value
    return event


def _read(query: Any) -> list[Any]:
    """A batch's plain rows, fetched at once: no ORM step between them and the records."""
    return db.session.connection().execute(query).all()


def _entry(text: str) -> dict[str, Any]:
    """A stored entry from its JSON text (as the column's own type reads it)."""
    try:
        return _SCAN(text, 0)[0]
    except (StopIteration, ValueError):
        return json.loads(text)  # not as written (spaces before it): read it as the column would
