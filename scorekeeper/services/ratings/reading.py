"""What a member's page reads of the ratings kept: their rating now and after each of their
games in a scope (its chart and the chart's table). Which scope a page's filters mean has one
home, `standings.rating_scope`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, or_, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Member, Player, Rating, RatingStep, Side
from scorekeeper.services.names import name_key
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


def sole_partner(member: Member, scope: str) -> str | None:
    """The partner of every one of the member's rated games in a scope, if each was with the
    same one partner: the ratings cannot tell the two apart yet (they always moved together);
    None once a game was with another partner, alone or with two. Reads the member's games, as
    their chart does."""
    games = select(RatingStep.game_id).where(
        RatingStep.club_id == member.club_id,
        RatingStep.scope == scope,
        RatingStep.member_id == member.id,
    )
    sides = (
        select(Side.id)
        .join(Player, Player.side_id == Side.id)
        .where(Side.game_id.in_(games), Player.member_id == member.id)
    )
    count = db.session.scalar(select(func.count()).select_from(sides.subquery()))
    partners = db.session.execute(
        select(Player.side_id, Player.member_id, func.coalesce(Member.name, Player.name))
        .outerjoin(Member, Member.id == Player.member_id)
        .where(
            Player.side_id.in_(sides),
            or_(Player.member_id.is_(None), Player.member_id != member.id),
        )
    ).all()
    by_side = Counter(side_id for side_id, _, _ in partners)
    who = {(m, None) if m is not None else (None, name_key(name)) for _, m, name in partners}
    if not count or len(by_side) != count or set(by_side.values()) != {1} or len(who) != 1:
        return None
    return partners[0][2]


def separable_words(partner: str) -> str:
    """What a member's page says when every rated game was with one partner."""
    return (
        f"Not yet told apart from {partner}: every rated game here was with {partner} as "
        "partner, so your ratings have only moved together. A game with another partner lets "
        "them tell which of you plays better."
    )


def scope_words(club: Club, scope: str) -> str:
    """Which games a shown rating is kept over, as the standings and a member's page say it."""
    return f"Kept over {scope_name(club, scope)}."


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
