"""What a member's page reads of the ratings kept: their rating now and after each of their
games in a scope (its chart and the chart's table). Which scope a page's filters mean has one
home, `standings.rating_scope`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Member, Rating
from scorekeeper.services.ratings import kept, model
from scorekeeper.services.ratings.kept import Kept
from scorekeeper.services.ratings.model import Skill
from scorekeeper.services.standings_filters import scope_name

# The games a member page draws, newest last: as many as its list of results (`results_of`).
MOST_POINTS = 200
# Said on the standings and a member's page while a change is not yet folded into the ratings
# (`kept.updating`): the fold runs after the save, not in it (issue 39).
UPDATING = (
    "Ratings updating: a game was just saved or changed, and the ratings are being worked out "
    "again from it. The ratings shown are from before it; reload in a moment."
)


def provisional_words(found: Kept | None) -> str | None:
    """What a member's page says of a provisional rating: how many more games it takes; None
    for a rating that stands, or none."""
    if found is None or not model.provisional(found.games):
        return None
    more = model.games_to_go(found.games)
    return (
        f"Provisional: {more} more game{'s' if more != 1 else ''} and it stands (a rating "
        f"stands on {model.PROVISIONAL_GAMES} games; until then the standings sorted by rating "
        "list it after those that do)."
    )


def scope_words(club: Club, scope: str) -> str:
    """Which games a shown rating is kept over, as the standings and a member's page say it."""
    return f"Ratings kept over: {scope_name(club, scope)}."


def updating_words(club_id: int) -> str | None:
    """The "Ratings updating" words while the club has changes not yet folded, else None."""
    return UPDATING if kept.updating(club_id) else None


@dataclass(frozen=True)
class Scoped:
    """The members' ratings kept in one scope, the scope, and its name as the pages say it."""

    scope: str
    name: str
    ratings: dict[int, Kept]


def in_scope(club: Club, scope: str) -> Scoped:
    """The members' ratings kept in a scope, and its name: one query."""
    return Scoped(scope, scope_name(club, scope), kept.ratings_of(club, scope))


def rating_of(member: Member, scope: str = kept.ALL) -> Kept | None:
    """A member's rating in a scope and the games behind it; None if not yet rated there."""
    query = select(Rating.mu, Rating.sigma, Rating.games).where(
        Rating.club_id == member.club_id, Rating.scope == scope, Rating.member_id == member.id
    )
    row = db.session.execute(query).first()
    return Kept(Skill(row.mu, row.sigma), row.games) if row is not None else None


@dataclass(frozen=True)
class Point:
    """A member's rating after one of their games: a point of the chart and a row of its table."""

    number: int  # the member's 1st, 2nd, ... game in the scope
    game_id: int
    secret: str  # the game's private link
    played_on: date
    rating: float  # the figure shown (`model.shown`)
    change: float  # from the figure shown before it (a newcomer's 0.0 before the first)


@dataclass(frozen=True)
class Course:
    """A member's rating in a scope: now, and after each of their latest games."""

    scope: str
    now: Kept | None
    points: list[Point]

    @property
    def shown(self) -> float | None:
        """The rating now as a page shows it; None if not yet rated in the scope."""
        return model.shown(self.now.skill) if self.now else None

    @property
    def earlier(self) -> int:
        """Games rated before the first point drawn (past `MOST_POINTS`)."""
        return (self.now.games if self.now else 0) - len(self.points)


def course_of(member: Member, scope: str, most: int = MOST_POINTS) -> Course:
    """A member's rating now and after each of their last `most` games in a scope, oldest first."""
    steps = kept.steps_of(member, scope)
    first = max(0, len(steps) - most)
    ids = [step.game_id for step in steps[first:]]
    query = select(Game.id, Game.secret).where(Game.id.in_(ids))
    secrets = {game_id: secret for game_id, secret in db.session.execute(query)} if ids else {}
    before = model.shown(steps[first - 1].skill if first else model.NEW)
    points = []
    for number, step in enumerate(steps[first:], start=first + 1):
        rating = model.shown(step.skill)
        # The change between the figures shown (not the exact ones), so the table adds up as
        # read; + 0.0 keeps a change that rounds to nothing from reading -0.0.
        change = round(rating - before, 1) + 0.0
        points.append(
            Point(number, step.game_id, secrets[step.game_id], step.played_on, rating, change)
        )
        before = rating
    return Course(scope, rating_of(member, scope), points)
