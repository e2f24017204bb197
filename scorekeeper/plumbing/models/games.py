"""A game at a table: its sides and players, and each deal with what every side entered."""

from __future__ import annotations

import secrets
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, Date, DateTime, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models.times import now, today
from scorekeeper.rules.terms import MAX_DEVICE_NAME, MAX_NAME

if TYPE_CHECKING:
    from scorekeeper.plumbing.models.clubs import Club, Member, SavedRules
    from scorekeeper.plumbing.models.standings import MemberResult

# A game's secret: 16 random bytes (128 bits), 22 URL-safe characters in its link.
SECRET_BYTES = 16
SECRET_LENGTH = 22


def new_secret() -> str:
    """A fresh secret for a game's private link."""
    return secrets.token_urlsafe(SECRET_BYTES)


class Game(db.Model):
    """One game at one table: a rule set, house rules, decks, sides and deals."""

    __tablename__ = "game"

    __table_args__ = (
        Index("ix_game_club_played", "club_id", "finished_at", "played_on"),
        UniqueConstraint("secret", name="uq_game_secret"),
        # A finished game has at most one next game, and a game is the next of at most one.
        UniqueConstraint("next_game_id", name="uq_game_next_game_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # The secret in the game's private link: holding it is what lets a phone find the game.
    secret: Mapped[str] = mapped_column(String(SECRET_LENGTH), default=new_secret)
    # No club: a casual game, open to anyone holding its link.
    club_id: Mapped[int | None] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    played_on: Mapped[date] = mapped_column(Date, default=today)
    ruleset: Mapped[str] = mapped_column(String(40))
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    decks: Mapped[int]
    # The club's saved rule set the game started from (None: the preset, or house rules typed
    # in), and its name then: kept if the saved rule set is renamed or deleted since.
    saved_rules_id: Mapped[int | None] = mapped_column(
        ForeignKey("saved_rules.id", ondelete="SET NULL"), index=True
    )
    rules_name: Mapped[str | None] = mapped_column(String(MAX_NAME))
    # The seat of the first deal's dealer; the deal passes to the left (the next seat) after.
    first_dealer: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, onupdate=now)
    # Kept in step with the engine's verdict after every change, so lists can filter on it.
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    # One more with everything a watching phone would see change (a deal saved or corrected, a
    # side's line, who is entering, the first dealer): an unchanged poll is answered from this
    # alone, read with the game's link (live.py).
    live_version: Mapped[int] = mapped_column(default=0, server_default="0")
    # The game this table played next (Play again), and who started it: every later tap on any
    # phone opens that game rather than a second one. Set once, by a conditional UPDATE
    # (games.play_again); a next game deleted since leaves the table free to play again.
    next_game_id: Mapped[int | None] = mapped_column(ForeignKey("game.id", ondelete="SET NULL"))
    next_started_by: Mapped[str | None] = mapped_column(String(MAX_DEVICE_NAME))
    # The last deal saved or corrected, as the table's other phones are told it (live.news_of):
    # which deal, who, and each side's deal total before and after. Only the last is kept.
    news: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # Started by a phone holding the club's table link (not an organiser, not a night's round):
    # judged when it finishes (services/holding.judge). Held: out of the club's standings
    # and ratings until an organiser confirms it; `rating_review` says why, or that it was
    # judged to count ("counts") or confirmed ("confirmed"), so it is judged once.
    started_by_table: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    held_from_ratings: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    rating_review: Mapped[str | None] = mapped_column(String(12))

    club: Mapped[Club | None] = relationship()
    next_game: Mapped[Game | None] = relationship(
        remote_side="Game.id", foreign_keys="Game.next_game_id"
    )
    saved_rules: Mapped[SavedRules | None] = relationship()
    sides: Mapped[list[Side]] = relationship(
        back_populates="game", order_by="Side.position", cascade="all, delete-orphan"
    )
    deals: Mapped[list[Deal]] = relationship(
        back_populates="game", order_by="Deal.number", cascade="all, delete-orphan"
    )
    results: Mapped[list[MemberResult]] = relationship(cascade="all, delete-orphan")


class Side(db.Model):
    """A team, or a single player, in one game."""

    __tablename__ = "side"
    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    # The engine's figures for the game so far, kept in step after every deal so that
    # club standings are one GROUP BY in the database.
    final_total: Mapped[int] = mapped_column(default=0)
    won: Mapped[bool] = mapped_column(default=False)
    deals_played: Mapped[int] = mapped_column(default=0)
    clean_books: Mapped[int] = mapped_column(default=0)
    dirty_books: Mapped[int] = mapped_column(default=0)
    wild_books: Mapped[int] = mapped_column(default=0)
    special_books: Mapped[int] = mapped_column(default=0)
    went_out: Mapped[int] = mapped_column(default=0)
    red_threes_caught: Mapped[int] = mapped_column(default=0)
    # Par (issue 42): the side's chance to win in percent, from the club's ratings when the
    # game started or was recorded (services/games/starting.py); None for a casual game, an
    # imported one, one kept before par was, or a table where nobody was rated yet.
    par: Mapped[int | None] = mapped_column(default=None)

    game: Mapped[Game] = relationship(back_populates="sides")
    players: Mapped[list[Player]] = relationship(
        back_populates="side", order_by="Player.position", cascade="all, delete-orphan"
    )


class Player(db.Model):
    """A person playing on a side."""

    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("side_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    side_id: Mapped[int] = mapped_column(ForeignKey("side.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    # A club member, or None for a guest (and in games without a club).
    member_id: Mapped[int | None] = mapped_column(ForeignKey("member.id"), index=True)

    side: Mapped[Side] = relationship(back_populates="players")
    member: Mapped[Member | None] = relationship()


class Deal(db.Model):
    """One deal of a game; its version rises with every correction."""

    __tablename__ = "deal"
    __table_args__ = (
        UniqueConstraint("game_id", "number"),
        # The same submission (a double tap, a resent request) records one deal.
        UniqueConstraint("game_id", "idempotency_key", name="uq_deal_game_id_idempotency_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    version: Mapped[int] = mapped_column(default=1)
    idempotency_key: Mapped[str | None] = mapped_column(String(64))
    # A hash of what was sent with that key: the same key with other figures is refused.
    request_hash: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, onupdate=now)

    game: Mapped[Game] = relationship(back_populates="deals")
    scores: Mapped[list[DealScore]] = relationship(
        back_populates="deal", cascade="all, delete-orphan", order_by="DealScore.side_position"
    )


class DealScore(db.Model):
    """What one side entered for one deal, and the total the engine gave it."""

    __tablename__ = "deal_score"
    __table_args__ = (UniqueConstraint("deal_id", "side_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    deal_id: Mapped[int] = mapped_column(ForeignKey("deal.id", ondelete="CASCADE"), index=True)
    side_id: Mapped[int] = mapped_column(ForeignKey("side.id", ondelete="CASCADE"), index=True)
    side_position: Mapped[int]
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The engine's figure, stored so that standings can be summed by the database.
    total: Mapped[int]

    deal: Mapped[Deal] = relationship(back_populates="scores")
    side: Mapped[Side] = relationship()
