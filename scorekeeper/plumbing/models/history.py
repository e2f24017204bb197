"""What happened to each deal of a game, kept forever with the game (issue 40): who entered it,
how and when, each correction with its figures before and after, and each side's agreement or
query."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models.times import now
from scorekeeper.rules.terms import MAX_DEVICE_NAME

# How a deal came to be or changed, and what a side said of it (a key of
# services/deal_history.KINDS, where each is put in words).
WHOLE = "whole"  # the whole deal entered on one phone (or sent whole through the API)
LINES = "lines"  # saved when the last side's own line came in
CORRECTION = "correction"  # a saved deal changed
IMPORT = "import"  # came in with a club's records file
AGREED = "agreed"  # a side agreed the deal as it stands (its own line counts as agreeing)
QUERIED = "queried"  # a side asked for the deal to be looked at again
KIND_LENGTH = 12


class DealEvent(db.Model):
    """One thing that happened to one deal: entered, corrected, imported, agreed or queried.

    Rows are only ever added (a correction adds one, with the figures before and after), and go
    only with the game. An agreement or a query holds for the deal's version it names: a
    correction after it asks the sides again.
    """

    __tablename__ = "deal_event"
    __table_args__ = (Index("ix_deal_event_game_deal", "game_id", "deal_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    deal_number: Mapped[int]
    # The deal's version this made (an entry, a correction) or was about (an agreement).
    deal_version: Mapped[int]
    kind: Mapped[str] = mapped_column(String(KIND_LENGTH))
    # The side whose line, agreement or query this is; None where the whole table's.
    side_position: Mapped[int | None]
    # Who, as the table knows them (a phone's name, an organiser's), and from which phone.
    by: Mapped[str] = mapped_column(String(MAX_DEVICE_NAME))
    device: Mapped[str | None] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # Each side's entry and total before and after ([{"entry": {...}, "total": n}, ...] in the
    # sides' order): `before` None for a new deal, both None for an agreement or a query.
    before: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    after: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    # An organiser's reason for correcting a locked game; a query's words, if any.
    reason: Mapped[str | None] = mapped_column(Text)
