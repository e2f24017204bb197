"""A game loaded with everything scoring reads, its history locked for a write, and a game in
brief for lists."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import joinedload, selectinload

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, Game, Side
from scorekeeper.rules import RuleSet
from scorekeeper.services.games.replay import rules_of


def get_game(game_id: int) -> Game | None:
    """A game by id with its sides, players, deals and scores, in two queries; or None."""
    if not 0 < game_id < 2**63:  # beyond any database's integer: no such game
        return None
    return db.session.execute(_GAME, {"game_id": game_id}).unique().scalar_one_or_none()


# Every game request loads its game, and every write locks it: their statements are built once
# (building them and their cache keys anew cost each request about as much as running them).
# Scoring reads every deal's scores: load them together, not one lazy query per deal. Sides
# and players join the game's row; deals come in one more query with their scores joined
# (joining both lists in one query would multiply their rows).
_GAME = (
    select(Game)
    .where(Game.id == bindparam("game_id"))
    .options(
        joinedload(Game.sides).joinedload(Side.players),
        selectinload(Game.deals).joinedload(Deal.scores),
    )
)
_LOCK = select(Game.id).where(Game.id == bindparam("game_id")).with_for_update()
_HISTORY = select(func.count(Deal.id), func.coalesce(func.sum(Deal.version), 0)).where(
    Deal.game_id == bindparam("game_id")
)
_DEALS_AGAIN = (
    select(Game)
    .where(Game.id == bindparam("game_id"))
    .options(selectinload(Game.deals).joinedload(Deal.scores))
    .execution_options(populate_existing=True)
)


def lock_history(game: Game) -> bool:
    """Take the game's row for this transaction (its other writers wait their turn), and read its
    deals again if another request saved or corrected one since they were read: True if so.

    A row lock on PostgreSQL, so that two writers on two app processes are taken in turn and the
    second sees the first; SQLite's write transactions are one at a time already (BEGIN
    IMMEDIATE, db.py). Under the lock only the deals' count and the sum of their versions are
    asked (each save adds a deal, each correction a version): the history is read again only
    when it changed, so a write replays the game before the lock, not while holding it.
    """
    db.session.execute(_LOCK, {"game_id": game.id})
    count, versions = db.session.execute(_HISTORY, {"game_id": game.id}).one()
    if (count, versions) == (len(game.deals), sum(deal.version for deal in game.deals)):
        return False
    db.session.execute(_DEALS_AGAIN, {"game_id": game.id}).unique().scalar_one()
    return True


@dataclass(frozen=True)
class GameSummary:
    """A line for a list of games."""

    game: Game
    rules: RuleSet
    sides: list[tuple[str, int]]
    deals: int
    finished: bool


def summary(game: Game) -> GameSummary:
    """A game in brief, from the totals the engine left on its sides."""
    return GameSummary(
        game=game,
        rules=rules_of(game),
        sides=[(side.name, side.final_total) for side in game.sides],
        deals=game.sides[0].deals_played if game.sides else 0,
        finished=game.finished_at is not None,
    )
