"""Each club player's rating within a scope, and every step of it: derived from finished games.

A scope is the set of a club's games a rating is made within: "all" (every club game),
"season:<id>", "rules:<preset key>" or "saved:<saved rule set id>", so the standings' filters
rate within the filter without recomputing per request. A player is a member (`member_id`) or a
guest of the club by name (`guest`); exactly one of the two is set.
Kept in step by `services/ratings/kept.py`, which marks what a save changed (`RatingMark`),
and `services/ratings/refold.py`, which folds the marks after the save's commit, one club at a
time (`RatingFold`, its lease); `flask recompute` rebuilds them from the games.
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, DateTime, Double, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models.times import now
from scorekeeper.rules.terms import MAX_NAME

# "rules:" and a preset key (40, as `Game.ruleset`), with room to spare.
MAX_SCOPE = 60
# A digest of a player's teammates, in hex (`services/ratings/scopes.partners_key`).
PARTNERS_KEY = 16


class Rating(db.Model):
    """A player's current rating in one of the club's scopes: read in one query per scope."""

    __tablename__ = "rating"
    __table_args__ = (
        Index("ix_rating_scope", "club_id", "scope", "member_id", "guest"),
        # A member merged or deleted takes their rows with them (the foreign key's cascade).
        Index("ix_rating_member", "member_id", "scope"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    scope: Mapped[str] = mapped_column(String(MAX_SCOPE))
    member_id: Mapped[int | None] = mapped_column(ForeignKey("member.id", ondelete="CASCADE"))
    guest: Mapped[str | None] = mapped_column(String(MAX_NAME))
    # Doubles on both databases, so the stored figures are exactly the model's.
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    games: Mapped[int]
    # Whom the player has always partnered in the scope (`scopes.partners_key`): a digest of
    # the same teammates every game, "" once told apart (another partner, or alone); None
    # where not yet worked out (kept before issue 42, until the club's fold refills it).
    partners: Mapped[str | None] = mapped_column(String(PARTNERS_KEY))


class RatingStep(db.Model):
    """A player's rating after one finished game of a scope: a chart's points, and where a
    correction recomputes from (the steps before the game are the ratings it starts with)."""

    __tablename__ = "rating_step"
    __table_args__ = (
        # From a game's place on: the steps to replace, and the ratings before it.
        Index("ix_rating_step_scope", "club_id", "scope", "position"),
        # A member's chart in a scope, in the order played.
        Index("ix_rating_step_member", "member_id", "scope", "position"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    scope: Mapped[str] = mapped_column(String(MAX_SCOPE))
    # The game's place in the scope's order of play, from 1 (kept.py says the order).
    position: Mapped[int]
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    member_id: Mapped[int | None] = mapped_column(ForeignKey("member.id", ondelete="CASCADE"))
    guest: Mapped[str | None] = mapped_column(String(MAX_NAME))
    # The game's day, copied so a chart needs no join.
    played_on: Mapped[date] = mapped_column(Date)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    partners: Mapped[str | None] = mapped_column(String(PARTNERS_KEY))  # as Rating's, after it


class RatingMark(db.Model):
    """What a save changed that the club's ratings must be folded again for: written in the
    save's own transaction (an insert, no lock), folded after its commit and then deleted.

    One of: a game finished, corrected or un-finished (`game_id`: its old steps and its new
    place say where its scopes change); a scope from a place on (`scope`, `place`: a game
    deleted, a season added); the whole club (`whole`: a member merged, a bulk fill).
    """

    __tablename__ = "rating_mark"
    __table_args__ = (Index("ix_rating_mark_club", "club_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    # No foreign key: a game deleted after its mark leaves a mark that folds nothing.
    game_id: Mapped[int | None]
    scope: Mapped[str | None] = mapped_column(String(MAX_SCOPE))
    place: Mapped[int | None]
    whole: Mapped[bool] = mapped_column(default=False)
    marked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class RatingFold(db.Model):
    """Who is folding a club's marks, until when: one folder a club at a time, across every
    process and host. A folder killed mid-fold holds it only until `until`."""

    __tablename__ = "rating_fold"

    club_id: Mapped[int] = mapped_column(
        ForeignKey("club.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    until: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The folder holding it: each renewal and the letting go are its own, so a folder whose
    # lease ran out while it computed (and was taken over) writes nothing more.
    holder: Mapped[str] = mapped_column(String(32))
