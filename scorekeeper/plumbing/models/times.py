"""Now and today, in UTC: the models' column defaults."""

from __future__ import annotations

from datetime import UTC, date, datetime


def now() -> datetime:
    """This moment, in UTC."""
    return datetime.now(UTC)


def today() -> date:
    """Today's date, in UTC."""
    return datetime.now(UTC).date()
