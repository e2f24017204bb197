"""A scope's games as the fold reads them: plain rows in the order of play, read in bulk.

Three queries for any number of games (the games, their sides, their players), with no ORM
object made: folding 10,000 games reads what it rates and nothing more. The order of play is
`scopes.ORDER`'s (the day played, the moment finished, the game's id).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Player, Side
from scorekeeper.services.names import name_key
from scorekeeper.services.ratings.scopes import COUNTED, ORDER, Who

# Games whose sides are read in one query: an IN list well inside both databases' limits.
CHUNK = 900


@dataclass
class PlayedSide:
    """A side's final total and who played on it (a member by id, a guest by name)."""

    final_total: int
    players: list[Who] = field(default_factory=list)


@dataclass
class Played:
    """A finished club game as the fold rates it, and what says which scopes hold it."""

    id: int
    played_on: date
    finished_at: datetime | None
    ruleset: str
    saved_rules_id: int | None
    sides: list[PlayedSide] = field(default_factory=list)


def played_games(conditions: Sequence[Any], skip: int = 0) -> list[Played]:
    """The games meeting `conditions` in the order of play, past the first `skip`."""
    query = (
        select(Game.id, Game.played_on, Game.finished_at, Game.ruleset, Game.saved_rules_id)
        .where(*conditions, *COUNTED)  # never a game held for review (scopes.COUNTED)
        .order_by(*ORDER)
        .offset(skip)
    )
    games = [Played(*row) for row in db.session.execute(query)]
    for chunk in _chunks(games):
        _add_sides(chunk)
    return games


def _chunks(games: list[Played]) -> Iterator[list[Played]]:
    for start in range(0, len(games), CHUNK):
        yield games[start : start + CHUNK]


def _add_sides(games: list[Played]) -> None:
    """Each game's sides in their order, and each side's players in theirs."""
    by_id = {game.id: game for game in games}
    sides: dict[int, PlayedSide] = {}
    query = (
        select(Side.id, Side.game_id, Side.final_total)
        .where(Side.game_id.in_(by_id))
        .order_by(Side.game_id, Side.position)
    )
    for side_id, game_id, total in db.session.execute(query):
        sides[side_id] = PlayedSide(total)
        by_id[game_id].sides.append(sides[side_id])
    query = (
        select(Player.side_id, Player.member_id, Player.name)
        .where(Player.side_id.in_(sides))
        .order_by(Player.side_id, Player.position)
    )
    for side_id, member_id, name in db.session.execute(query):
        # As `scopes._who` rates a player: a guest by their name's key ("Zed" and "zed" one).
        who = (member_id, None) if member_id is not None else (None, name_key(name))
        sides[side_id].players.append(who)
