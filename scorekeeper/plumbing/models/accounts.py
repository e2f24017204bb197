"""An organiser's account: who signs in to run clubs."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from flask_login import UserMixin
from sqlalchemy import DateTime, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models.clubs import club_organiser
from scorekeeper.plumbing.models.times import now
from scorekeeper.rules.terms import MAX_NAME

if TYPE_CHECKING:
    from scorekeeper.plumbing.models.clubs import Club


class Organiser(UserMixin, db.Model):
    """An account that runs one or more clubs."""

    __tablename__ = "organiser"

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(MAX_NAME), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    # Raised at sign-out: every session cookie made before it stops working, on every phone.
    session_generation: Mapped[int] = mapped_column(default=0)

    clubs: Mapped[list[Club]] = relationship(
        secondary=club_organiser, back_populates="organisers", order_by="Club.name"
    )
