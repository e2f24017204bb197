"""What a table's phones are doing before a deal is saved: who is entering which deal, and each
side's own line of the next deal."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models.times import now
from scorekeeper.rules.terms import MAX_DEVICE_NAME


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
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


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
