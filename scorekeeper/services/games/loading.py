"""A game loaded with everything scoring reads, and a game in brief for lists."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import joinedload, selectinload

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, Game, Side
from scorekeeper.rules import RuleSet
from scorekeeper.services.games.replay import rules_of


def get_game(game_id: int) -> Game | None:
    """A game by id with its sides, players, deals and scores, in two queries; or None."""
    if not 0 < game_id < 2**63:  # beyond any database's integer: no such game
        return None
    # Scoring reads every deal's scores: load them together, not one lazy query per deal. Sides
    # and players join the game's row; deals come in one more query with their scores joined
    # (joining both lists in one query would multiply their rows).
    query = (
        select(Game)
        .where(Game.id == game_id)
        .options(
            joinedload(Game.sides).joinedload(Side.players),
            selectinload(Game.deals).joinedload(Deal.scores),
        )
    )
    return db.session.execute(query).unique().scalar_one_or_none()


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
