"""A club and what it keeps: its organisers, members, seasons and saved rule sets."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Index,
    String,
    Table,
    UniqueConstraint,
)
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from scorekeeper.plumbing import alike_keys
from scorekeeper.plumbing.alike_keys import KEY_LENGTH
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models.times import now
from scorekeeper.rules.terms import MAX_CLUB_NAME, MAX_NAME, MAX_SLUG

if TYPE_CHECKING:
    from scorekeeper.plumbing.models.accounts import Organiser

club_organiser = Table(
    "club_organiser",
    db.metadata,
    Column("club_id", ForeignKey("club.id", ondelete="CASCADE"), primary_key=True),
    Column("organiser_id", ForeignKey("organiser.id", ondelete="CASCADE"), primary_key=True),
)


class Club(db.Model):
    """A card club: members, seasons, games and standings."""

    __tablename__ = "club"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(MAX_SLUG), unique=True)
    name: Mapped[str] = mapped_column(String(MAX_CLUB_NAME))
    # The secret in the table link; replacing it locks out every old link.
    table_code: Mapped[str] = mapped_column(String(64))
    standings_public: Mapped[bool] = mapped_column(default=False)
    min_games_ranked: Mapped[int] = mapped_column(default=3)
    # Phones holding the table link may open and run club nights (seat rounds, draw again,
    # players come and gone, end the night); off, organisers alone do.
    tables_run_nights: Mapped[bool] = mapped_column(default=False)
    # Players may check themselves in to a night from their own phone through the table link
    # (the organiser sees and may undo each); off, the organiser ticks who is here.
    self_check_in: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # The standings' order when none is asked for (a key of services/standings.SORTS).
    standings_sort: Mapped[str] = mapped_column(String(30), default="win_rate")
    # How games started from the table link count in the standings and ratings (a key of
    # services/rating_holds.TABLE_GAMES): every one, or only those an organiser confirmed.
    table_games: Mapped[str] = mapped_column(String(12), default="every", server_default="every")
    # A finished game locks (only an organiser may correct it then, giving a reason) once every
    # side has agreed every deal, or this many hours after it ended, whichever comes first;
    # 0 locks it as it ends (issue 40; services/locking.py).
    lock_after_hours: Mapped[int] = mapped_column(default=24, server_default="24")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

    organisers: Mapped[list[Organiser]] = relationship(
        secondary=club_organiser, back_populates="clubs", order_by="Organiser.username"
    )
    members: Mapped[list[Member]] = relationship(
        back_populates="club", order_by="Member.name", cascade="all, delete-orphan"
    )
    saved_rules: Mapped[list[SavedRules]] = relationship(
        back_populates="club", order_by="SavedRules.name", cascade="all, delete-orphan"
    )
    seasons: Mapped[list[Season]] = relationship(
        back_populates="club", order_by="Season.starts_on.desc()", cascade="all, delete-orphan"
    )


def _keyed_by(key: Callable[[str], str]) -> Callable[[Any], str]:
    """A column default that keys a member inserted without its keys (a bulk insert)."""
    return lambda context: key(context.get_current_parameters()["name"])


class Member(db.Model):
    """A person who plays in a club, week after week."""

    __tablename__ = "member"
    __table_args__ = (
        UniqueConstraint("club_id", "name"),
        # A new name finds the members it may look like by these (plumbing/alike_keys.py).
        Index("ix_member_alike_head", "club_id", "alike_head"),
        Index("ix_member_alike_tail", "club_id", "alike_tail"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    archived: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # Kept with the name whenever it is set (`_keys`), or by the default in a bulk insert; none
    # only for a member added by an older release's code during a rollout (migration 0021).
    alike_head: Mapped[str | None] = mapped_column(
        String(KEY_LENGTH), default=_keyed_by(alike_keys.head)
    )
    alike_tail: Mapped[str | None] = mapped_column(
        String(KEY_LENGTH), default=_keyed_by(alike_keys.tail)
    )

    club: Mapped[Club] = relationship(back_populates="members")

    @validates("name")
    def _keys(self, _field: str, name: str) -> str:
        """A new name, its look-alike keys with it."""
        self.alike_head, self.alike_tail = alike_keys.head(name), alike_keys.tail(name)
        return name


class Season(db.Model):
    """A named stretch of the club's calendar, for standings and history."""

    __tablename__ = "season"

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    starts_on: Mapped[date] = mapped_column(Date)
    ends_on: Mapped[date] = mapped_column(Date)

    club: Mapped[Club] = relationship(back_populates="seasons")


class SavedRules(db.Model):
    """A club's own rule set: a preset and the numbers the club plays differently.

    A game started from it copies its numbers (`Game.house_rules`) and keeps its name, so
    changing or deleting it never changes a game already started.
    """

    __tablename__ = "saved_rules"
    __table_args__ = (UniqueConstraint("club_id", "name", name="uq_saved_rules_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    ruleset: Mapped[str] = mapped_column(String(40))
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # The club's default: club games start from it unless another is chosen.
    is_default: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)

    club: Mapped[Club] = relationship(back_populates="saved_rules")
