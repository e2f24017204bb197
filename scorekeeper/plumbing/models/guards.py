"""Rows kept a while to count what one address does, across every worker and process: failed
sign-ins, game links that opened nothing, games, sign-ups and clubs made, and each game's and
address's writes (deals, lines, corrections) in the current window."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.plumbing.addresses import ADDRESS_LENGTH
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models.times import now
from scorekeeper.rules.terms import MAX_NAME


class LoginAttempt(db.Model):
    """A failed sign-in, kept a while so that guessing passwords is slowed for every worker."""

    __tablename__ = "login_attempt"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(MAX_NAME), index=True)
    address: Mapped[str] = mapped_column(String(64), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


class LinkMiss(db.Model):
    """A request for a game link that opened nothing, kept a while so that guessing is slowed."""

    __tablename__ = "link_miss"
    __table_args__ = (Index("ix_link_miss_address_at", "address", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


class Creation(db.Model):
    """A game, sign-up or club made from an address, kept for its window (creations.py), so that
    one address's allowance holds across every worker and process."""

    __tablename__ = "creation"
    __table_args__ = (Index("ix_creation_kind_address_at", "kind", "address", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # What was made: "game", "signup" or "club" (creations.ALLOWANCES).
    kind: Mapped[str] = mapped_column(String(16))
    # As plumbing.addresses.counted_as counts it: IPv4 as is, IPv6 by its /64.
    address: Mapped[str] = mapped_column(String(ADDRESS_LENGTH))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now, index=True)


# How long a write tally's scope may be: its kind, "game" or "address", and the id or address.
SCOPE_LENGTH = ADDRESS_LENGTH + 32


class WriteTally(db.Model):
    """How many writes of one kind one game or one address made in one fixed window (writes.py),
    so that the allowance holds across every worker and process in one statement a write."""

    __tablename__ = "write_tally"

    # "correction game 12", "entry address 2001:db8::/64": what is counted, and whose.
    scope: Mapped[str] = mapped_column(String(SCOPE_LENGTH), primary_key=True)
    # The window's number: seconds since 1970 divided by the window's length.
    window: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    count: Mapped[int] = mapped_column(Integer)
    # When the window ends: rows past it are deleted as new windows begin.
    until: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
