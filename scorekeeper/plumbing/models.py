"""What the app keeps: games, their sides and players, and each deal's entries."""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime
from typing import Any

from flask_login import UserMixin
from sqlalchemy import (
    JSON,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Index,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.plumbing.addresses import ADDRESS_LENGTH
from scorekeeper.plumbing.db import db
from scorekeeper.rules.terms import MAX_CLUB_NAME, MAX_DEVICE_NAME, MAX_NAME

# A game's secret: 16 random bytes (128 bits), 22 URL-safe characters in its link.
SECRET_BYTES = 16
SECRET_LENGTH = 22


def _now() -> datetime:
    return datetime.now(UTC)


def _today() -> date:
    return datetime.now(UTC).date()


def new_secret() -> str:
    """A fresh secret for a game's private link."""
    return secrets.token_urlsafe(SECRET_BYTES)


club_organiser = Table(
    "club_organiser",
    db.metadata,
    Column("club_id", ForeignKey("club.id", ondelete="CASCADE"), primary_key=True),
    Column("organiser_id", ForeignKey("organiser.id", ondelete="CASCADE"), primary_key=True),
)


class Organiser(UserMixin, db.Model):
    """An account that runs one or more clubs."""

    __tablename__ = "organiser"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(MAX_NAME), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    # Raised at sign-out: every session cookie made before it stops working, on every phone.
    session_generation: Mapped[int] = mapped_column(default=0)

    clubs: Mapped[list[Club]] = relationship(
        secondary=club_organiser, back_populates="organisers", order_by="Club.name"
    )


class LoginAttempt(db.Model):
    """A failed sign-in, kept a while so that guessing passwords is slowed for every worker."""

    __tablename__ = "login_attempt"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(MAX_NAME), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, index=True)


class LinkMiss(db.Model):
    """A request for a game link that opened nothing, kept a while so that guessing is slowed."""

    __tablename__ = "link_miss"
    __table_args__ = (Index("ix_link_miss_address_at", "address", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, index=True)


class Creation(db.Model):
    """A game, sign-up or club made from an address, kept for its window (creations.py), so that
    one address's allowance holds across every worker and process."""

    __tablename__ = "creation"
    __table_args__ = (Index("ix_creation_kind_address_at", "kind", "address", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # What was made: "game", "signup" or "club" (creations.ALLOWANCES).
    kind: Mapped[str] = mapped_column(String(16))
    # As scorekeeper.addresses.counted_as counts it: IPv4 as is, IPv6 by its /64.
    address: Mapped[str] = mapped_column(String(ADDRESS_LENGTH))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now, index=True)


class Club(db.Model):
    """A card club: members, seasons, games and standings."""

    __tablename__ = "club"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(40), unique=True)
    name: Mapped[str] = mapped_column(String(MAX_CLUB_NAME))
    # The secret in the table link; replacing it locks out every old link.
    table_code: Mapped[str] = mapped_column(String(64))
    standings_public: Mapped[bool] = mapped_column(default=False)
    min_games_ranked: Mapped[int] = mapped_column(default=3)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

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


class Member(db.Model):
    """A person who plays in a club, week after week."""

    __tablename__ = "member"
    __table_args__ = (UniqueConstraint("club_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    archived: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    club: Mapped[Club] = relationship(back_populates="members")


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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)

    club: Mapped[Club] = relationship(back_populates="saved_rules")


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
    played_on: Mapped[date] = mapped_column(Date, default=_today)
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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, onupdate=_now
    )
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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, onupdate=_now
    )

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


# What a side counts up over a game, kept on it and on its members' results.
COUNTS = (
    "clean_books",
    "dirty_books",
    "wild_books",
    "special_books",
    "went_out",
    "red_threes_caught",
)
# The columns a standings query reads, all in one index so the database never visits the table.
RESULT_FIGURES = ("won", "final_total", "deals_played", *COUNTS)


class MemberResult(db.Model):
    """A member's result in one finished club game: their side's figures, for the standings.

    Kept in step by the score sheet whenever a club game is saved; a partner shares the team's
    figures. One narrow row per member and game lets the database sum standings from one index.
    """

    __tablename__ = "member_result"
    __table_args__ = (
        Index(
            "ix_member_result_standings",
            "club_id",
            "member_id",
            "played_on",
            "ruleset",
            "saved_rules_id",
            *RESULT_FIGURES,
        ),
        Index("ix_member_result_member", "member_id", "played_on"),
        # A club night's results, re-added into member_day after every change.
        Index("ix_member_result_day", "club_id", "played_on"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id"))
    side_id: Mapped[int] = mapped_column(ForeignKey("side.id", ondelete="CASCADE"))
    played_on: Mapped[date] = mapped_column(Date)
    ruleset: Mapped[str] = mapped_column(String(40))
    # The club's saved rule set the game was played under; 0 for none (a plain number, not a
    # key: a deleted saved rule set leaves its games' results as they were).
    saved_rules_id: Mapped[int] = mapped_column(default=0)
    won: Mapped[bool]
    final_total: Mapped[int]
    deals_played: Mapped[int]
    clean_books: Mapped[int]
    dirty_books: Mapped[int]
    wild_books: Mapped[int]
    special_books: Mapped[int]
    went_out: Mapped[int]
    red_threes_caught: Mapped[int]

    club: Mapped[Club] = relationship()
    member: Mapped[Member] = relationship()
    side: Mapped[Side] = relationship()


class MemberDay(db.Model):
    """A member's results summed over one club night and rule set: what standings add up.

    Rebuilt from `member_result` for a club's day whenever a game of that day changes, so a
    season's standings read a few rows per club night instead of one per member and game.
    """

    __tablename__ = "member_day"
    __table_args__ = (
        UniqueConstraint(
            "club_id", "played_on", "ruleset", "saved_rules_id", "member_id", name="uq_member_day"
        ),
        Index(
            "ix_member_day_standings",
            "club_id",
            "played_on",
            "member_id",
            "ruleset",
            "saved_rules_id",
            "games",
            *RESULT_FIGURES,
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    # Derived figures: they go with their member (who, with games, cannot be deleted anyway).
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id", ondelete="CASCADE"))
    played_on: Mapped[date] = mapped_column(Date)
    ruleset: Mapped[str] = mapped_column(String(40))
    saved_rules_id: Mapped[int] = mapped_column(default=0)
    games: Mapped[int]
    # Here `won` counts the games won that day.
    won: Mapped[int]
    final_total: Mapped[int]
    deals_played: Mapped[int]
    clean_books: Mapped[int]
    dirty_books: Mapped[int]
    wild_books: Mapped[int]
    special_books: Mapped[int]
    went_out: Mapped[int]
    red_threes_caught: Mapped[int]


class Entering(db.Model):
    """A phone that has a game's deal form open: the table sees who is entering which deal.

    Each phone says so every few seconds while the form is open; a row not heard from for a
    while is ignored, so a phone put away needs no goodbye. Kept in the database, not in a
    process, so every app process sees every phone.
    """

    __tablename__ = "entering"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    # A random id the phone keeps for itself; it names no one.
    device: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(MAX_DEVICE_NAME))
    deal_number: Mapped[int]
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class DealPart(db.Model):
    """One side's line of the next deal, sent from that side's own phone: a draft, not a deal.

    Each side counts and sends its own line; the deal is saved, once, when the last side's
    line is in, and its lines go. One row per side of a game: a side's later line replaces its
    earlier one. Kept in the database, so every app process sees every phone's line.
    """

    __tablename__ = "deal_part"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    side_position: Mapped[int] = mapped_column(primary_key=True)
    # The deal this is a line of: always the game's next deal while the row exists.
    deal_number: Mapped[int]
    # The side's figures as the engine reads them (DealEntry.to_dict).
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Who sent it, as the table knows them ("Other phones see you as"), and from which phone.
    sent_by: Mapped[str] = mapped_column(String(MAX_DEVICE_NAME))
    device: Mapped[str | None] = mapped_column(String(32))
    # When it was entered on the phone (a line kept with no signal arrives later): of two lines
    # for one side, the one entered later stands.
    entered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # One more with every change: the table's phones see a line come in or change.
    version: Mapped[int] = mapped_column(default=1)
    # Why the deal cannot stand with this line as it is, found when another side's line came in
    # (two sides went out, more red threes than the decks hold...); cleared when it is sent again.
    problem: Mapped[str | None] = mapped_column(Text)
