"""Ratings kept beside the games, in step with them: derived data, like `figures.py`'s.

The order of play: a club's finished games by the day played (`played_on`), then the moment
each finished (`finished_at`), then the game's id; a game entered late with an earlier day is
rated in its place among them. Casual games (no club) are never rated.

Each finished club game is rated in every scope it belongs to: "all", "season:<id>" for each
season whose dates hold its day, "rules:<preset key>" and "saved:<saved rule set id>" (when
it started from one). A scope's ratings are folded game by game with `model.rate`, from the
side's final totals (places, ties shared). A member is rated as themselves, a guest by the
name they played under (two guests of one name in one game: the later side's result stands).

Kept in step off the save path (issue 39): `figures.keep_member_results` (every save that
finishes, corrects or un-finishes a club game), `games.delete_game`, `clubs.merge_members`,
`clubs.add_season` mark what changed, and once per commit (`before_commit`) the marks are
written as `RatingMark` rows in the save's own transaction: a few inserts, whatever the club's
history. After the commit the folder (`folder.py`) folds them (`refold.py`), each scope from the
earliest place that changed; until then the club's pages say "Ratings updating"
(`updating`). `recompute_club` rebuilds a club from its games and counts the rows that differed.

This module reads what is kept and marks what changed; a scope and the games it holds, in the
order of play, are `scopes.py`'s, the folding `folding.py`'s, the fold of the marks
`refold.py`'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal, overload

from sqlalchemy import event, func, insert, select
from sqlalchemy.orm import Session as OrmSession

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Member, Rating, RatingMark, RatingStep

# What the rest of the app reads here is at home in the parts this module was cut into, the
# scopes (`scopes.py`) and the folding (`folding.py`), and named here too (`x as x`).
from scorekeeper.services.ratings import folder
from scorekeeper.services.ratings.folding import forget_scope as forget_scope
from scorekeeper.services.ratings.folding import recompute_club as recompute_club
from scorekeeper.services.ratings.model import Skill
from scorekeeper.services.ratings.scopes import ALL, Kept
from scorekeeper.services.ratings.scopes import RULES as RULES
from scorekeeper.services.ratings.scopes import SAVED as SAVED
from scorekeeper.services.ratings.scopes import SEASON as SEASON
from scorekeeper.services.ratings.scopes import Who as Who
from scorekeeper.services.ratings.scopes import season_scope as season_scope

PENDING = "ratings_to_refresh"
# The clubs whose marks this transaction wrote: handed to the folder once it commits.
MARKED = "ratings_marked"
# Set on a session by `held`: its commits mark nothing (a bulk fill is marked once, at its end).
HELD = "ratings_held"


@dataclass(frozen=True)
class Step:
    """A player's rating after one game of a scope: one point of a chart."""

    position: int
    game_id: int
    played_on: date
    skill: Skill


# --- reading ------------------------------------------------------------------------------


@overload
def ratings_of(
    club: Club, scope: str = ALL, *, guests: Literal[False] = False
) -> dict[int, Kept]: ...


@overload
def ratings_of(club: Club, scope: str = ALL, *, guests: Literal[True]) -> dict[str, Kept]: ...


def ratings_of(club: Club, scope: str = ALL, *, guests: bool = False) -> dict[Any, Kept]:
    """Each rated member's rating in one of the club's scopes by member id, or with `guests`
    each rated guest's by the name they played under (one query)."""
    key = Rating.guest if guests else Rating.member_id
    query = select(key, Rating.mu, Rating.sigma, Rating.games, Rating.partners).where(
        Rating.club_id == club.id,
        Rating.scope == scope,
        Rating.member_id.is_(None) if guests else Rating.member_id.is_not(None),
    )
    rows = db.session.execute(query)
    return {who: Kept(Skill(mu, sigma), games, kept) for who, mu, sigma, games, kept in rows}


def steps_of(member: Member, scope: str = ALL) -> list[Step]:
    """A member's rating after each of their games in a scope, in the order played (a chart)."""
    query = (
        select(
            RatingStep.position,
            RatingStep.game_id,
            RatingStep.played_on,
            RatingStep.mu,
            RatingStep.sigma,
        )
        .where(
            RatingStep.member_id == member.id,
            RatingStep.scope == scope,
            RatingStep.club_id == member.club_id,
        )
        .order_by(RatingStep.position)
    )
    return [
        Step(position, game_id, played_on, Skill(mu, sigma))
        for position, game_id, played_on, mu, sigma in db.session.execute(query)
    ]


# --- kept in step: what changed is marked in the save, and folded after its commit ----------


@dataclass
class _Pending:
    games: list[Game] = field(default_factory=list)
    # Scope by scope, the earliest place a game left (a deleted game's steps are gone by then).
    places: dict[str, int] = field(default_factory=dict)
    whole: bool = False


def _pending(club_id: int) -> _Pending:
    """What is marked for a club in this transaction; the first mark takes the club's row."""
    marked = db.session.info.setdefault(PENDING, {})
    if club_id not in marked:
        # Taken at the first mark, before the figures' own writes (PostgreSQL; SQLite's writers
        # queue already): two tables finishing at once add their nights' sums in turn. Held
        # only for the rest of a short save: the ratings are folded after its commit.
        db.session.execute(select(Club.id).where(Club.id == club_id).with_for_update())
        marked[club_id] = _Pending()
    return marked[club_id]


def game_changed(game: Game) -> None:
    """Mark a club game finished, corrected or un-finished: its scopes folded after the commit."""
    if game.club is None:
        return  # a casual game is never rated
    _pending(game.club.id).games.append(game)


def game_deleting(game: Game) -> None:
    """Mark a club game about to be deleted: its scopes folded again from its place."""
    if game.club_id is None or game.finished_at is None:
        return  # never rated
    places = _pending(game.club_id).places
    for scope, place in _places_of(game.id):
        places[scope] = min(place, places.get(scope, place))


def club_changed(club_id: int) -> None:
    """Mark a club whose players changed (a member merged): every scope folded again."""
    _pending(club_id).whole = True


def scope_changed(club_id: int, scope: str) -> None:
    """Mark a scope whose games changed (a season added): folded again whole."""
    _pending(club_id).places[scope] = 1


def _places_of(game_id: int) -> list[tuple[str, int]]:
    query = (
        select(RatingStep.scope, func.min(RatingStep.position))
        .where(RatingStep.game_id == game_id)
        .group_by(RatingStep.scope)
    )
    return [(scope, place) for scope, place in db.session.execute(query)]


def _marks_of(club_id: int, pending: _Pending) -> list[dict[str, Any]]:
    """The marks a transaction leaves for one club: rows of `RatingMark`."""
    if pending.whole:
        return [{"club_id": club_id, "whole": True}]
    rows = [{"club_id": club_id, "scope": s, "place": p} for s, p in pending.places.items()]
    games = {game.id for game in pending.games if game.id is not None}
    rows += [{"club_id": club_id, "game_id": game_id} for game_id in sorted(games)]
    return rows


def updating(club_id: int) -> bool:
    """Whether the club has changes its ratings are not yet folded with ("ratings updating")."""
    query = select(RatingMark.id).where(RatingMark.club_id == club_id).limit(1)
    return db.session.execute(query).first() is not None


@contextmanager
def held(club_id: int) -> Iterator[None]:
    """For a bulk fill that commits in batches (the demo club): its commits mark nothing, and
    the whole club is marked once when it ends, in a commit of its own, and folded after it.
    If the fill fails, nothing is marked."""
    session = db.session()
    session.info[HELD] = True
    try:
        yield
    finally:
        session.info.pop(HELD, None)
    club_changed(club_id)
    db.session.commit()


@event.listens_for(OrmSession, "before_commit")
def _keep_pending(session: OrmSession) -> None:
    """Mark what changed, in the same transaction as the games' change: a few inserts."""
    pending = session.info.pop(PENDING, None)
    if not pending or session.info.get(HELD):
        return
    session.flush()
    rows = [row for club_id, marked in pending.items() for row in _marks_of(club_id, marked)]
    if rows:
        session.execute(insert(RatingMark), [{"whole": False, **row} for row in rows])
        session.info.setdefault(MARKED, set()).update(pending)


@event.listens_for(OrmSession, "after_commit")
def _fold_marked(session: OrmSession) -> None:
    """The marks are committed: the folder folds them, outside this transaction."""
    marked = session.info.pop(MARKED, None)
    if marked:
        folder.fold_soon(sorted(marked))


@event.listens_for(OrmSession, "after_rollback")
def _forget_pending(session: OrmSession) -> None:
    """Nothing rolled back needs folding."""
    session.info.pop(PENDING, None)
    session.info.pop(MARKED, None)
