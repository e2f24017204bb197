"""What the app keeps: games, their sides and players, and each deal's entries."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .db import db


def _now() -> datetime:
    return datetime.now(UTC)


class Game(db.Model):
    """One game at one table: a rule set, house rules, decks, sides and deals."""

    __tablename__ = "game"

    id: Mapped[int] = mapped_column(primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(40))
    house_rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    decks: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=_now, onupdate=_now
    )
    # Kept in step with the engine's verdict after every change, so lists can filter on it.
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)

    sides: Mapped[list[Side]] = relationship(
        back_populates="game", order_by="Side.position", cascade="all, delete-orphan"
    )
    deals: Mapped[list[Deal]] = relationship(
        back_populates="game", order_by="Deal.number", cascade="all, delete-orphan"
    )


class Side(db.Model):
    """A team, or a single player, in one game."""

    __tablename__ = "side"
    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(60))

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
    name: Mapped[str] = mapped_column(String(60))

    side: Mapped[Side] = relationship(back_populates="players")


class Deal(db.Model):
    """One deal of a game; its version rises with every correction."""

    __tablename__ = "deal"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    version: Mapped[int] = mapped_column(default=1)
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
