"""How many games, organiser sign-ups and clubs one address may make in a while.

Issue 26: 747 games made in 20 s from one address raised other tables' save p50 from 24 to
166 ms, and sign-ups and clubs had no limit either. Each made one is kept as a `Creation` row
(the address as `addresses.counted_as` counts it: IPv4 as is, IPv6 by its /64), so the
allowance holds across every worker and process; rows older than their window are forgotten.

Each use case that makes one (`games.start_game`, `games.play_again`, `clubs.create_club`,
`accounts.register`, given the address it is `made_from`) calls `count` once its request is
checked, in the transaction that makes it: the creation is recorded when there is room, and
the use case's commit keeps both; a creation that fails after all rolls its record back with
it, so only what was made is counted. Over the allowance nothing is kept: `OverAllowance`,
which the view answers with 429, `TooMany.message` and `Retry-After` (web/creating.py).
"""

from __future__ import annotations

import logging
import os
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import current_app
from sqlalchemy import delete, func, select, text

from scorekeeper.plumbing.addresses import counted_as
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Creation

log = logging.getLogger(__name__)

GAME = "game"
SIGNUP = "signup"
CLUB = "club"


@dataclass(frozen=True)
class Allowance:
    """How many of one kind an address may make within a window, and how to name them."""

    most: int
    window: timedelta
    # The app.config key (or SCOREKEEPER_<key> in the environment) that an operator sets to
    # change `most`, e.g. for a tournament of many tables behind one address.
    setting: str
    # What is counted, as the refusal names it.
    what: str


ALLOWANCES: dict[str, Allowance] = {
    # A club night on one wifi address: 12 tables each starting a game every quarter of an hour
    # (a quick four-deal game takes half an hour or more) is 48 in an hour; 60 leaves room. The
    # attack made 747 in 20 s.
    GAME: Allowance(60, timedelta(hours=1), "GAMES_PER_HOUR", "games"),
    # A club's organisers sign up once each: ten from one address in a day is a whole committee
    # on the club's wifi, and still no stream of accounts (each costs a password hash).
    SIGNUP: Allowance(10, timedelta(days=1), "SIGNUPS_PER_DAY", "organiser sign-ups"),
    # An organiser runs a club or two; ten clubs from one address in a day is a whole league.
    CLUB: Allowance(10, timedelta(days=1), "CLUBS_PER_DAY", "clubs"),
}


@dataclass(frozen=True)
class TooMany:
    """An address that has made its allowance of one kind within the window: nothing is made."""

    kind: str
    most: int
    retry_after: int  # seconds until one of them is out of the window

    @property
    def message(self) -> str:
        """In plain words: what was limited, and when to try again."""
        allowance = ALLOWANCES[self.kind]
        return (
            f"This address has made {self.most:,} {allowance.what} in the last "
            f"{_window_words(allowance.window)}, the most one address may. Nothing was saved: "
            f"try again in {_wait_words(self.retry_after)}."
        )


def most_of(kind: str) -> int:
    """How many of this kind an address may make within its window, as this server is set."""
    allowance = ALLOWANCES[kind]
    return as_set(allowance.setting, allowance.most)


def as_set(name: str, most: int) -> int:
    """An allowance as this server is set: the app's config `name`, else the environment's
    `SCOREKEEPER_<name>`, else `most` (an unusable setting is logged and ignored). Every
    per-address allowance reads its setting here (creations, writes, exports)."""
    setting = current_app.config.get(name)
    if setting is None:
        setting = os.environ.get(f"SCOREKEEPER_{name}")
    if setting is None:
        return most
    try:
        found = int(setting)
    except (TypeError, ValueError):
        found = 0
    if found < 1:
        log.warning("%s=%r is no allowance: %d used", name, setting, most)
        return most
    return found


class OverAllowance(Exception):
    """A use case refused: its address has made its allowance of the kind (`too_many` says
    which, and when to try again); nothing was made."""

    def __init__(self, too_many: TooMany) -> None:
        super().__init__(too_many.kind)
        self.too_many = too_many


def count(kind: str, peer: str | None) -> None:
    """Count one more `kind` made from `peer` with what the caller makes, or OverAllowance.

    `peer` is the request's address as counted (web/access.counted_address: never None); None
    is a creation no request's address answers for (the demo, an import, a night's tables)."""
    if peer is None:
        return
    refused = allow(kind, peer)
    if refused is not None:
        raise OverAllowance(refused)


def allow(kind: str, peer: str | None, now: datetime | None = None) -> TooMany | None:
    """Record one more `kind` made by `peer` now, or say why not (nothing recorded).

    The record is added to the session; the caller's commit (of what it made) keeps it.
    """
    allowance, most = ALLOWANCES[kind], most_of(kind)
    address = counted_as(peer)
    now = now or datetime.now(UTC)
    since = now - allowance.window
    _one_at_a_time(kind, address)
    db.session.execute(delete(Creation).where(Creation.kind == kind, Creation.at < since))
    counted = (Creation.kind == kind, Creation.address == address, Creation.at >= since)
    made = db.session.scalar(select(func.count(Creation.id)).where(*counted)) or 0
    if made >= most:
        # The one whose leaving the window makes room (the oldest, unless the allowance was
        # lowered since more were made).
        freed = db.session.scalar(
            select(Creation.at).where(*counted).order_by(Creation.at).offset(made - most).limit(1)
        )
        if freed.tzinfo is None:  # SQLite hands back naive UTC
            freed = freed.replace(tzinfo=UTC)
        wait = int((freed + allowance.window - now).total_seconds()) + 1
        return TooMany(kind, most, max(1, wait))
    db.session.add(Creation(kind=kind, address=address, at=now))
    return None


def _one_at_a_time(kind: str, address: str) -> None:
    """Count and record one address's creations of a kind in turn, whatever the process.

    SQLite takes every write transaction one at a time already (BEGIN IMMEDIATE, db.py); on
    PostgreSQL two at once would both count the same rows, so a transaction-long advisory lock
    on the kind and address makes the second wait for the first's commit.
    """
    if db.session.get_bind().dialect.name != "postgresql":
        return
    key = zlib.crc32(f"creation:{kind}:{address}".encode())
    db.session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def _window_words(window: timedelta) -> str:
    hours = int(window.total_seconds()) // 3600
    return "hour" if hours == 1 else "day" if hours == 24 else f"{hours} hours"


def _wait_words(seconds: int) -> str:
    """A wait as people say it: 40 seconds, 12 minutes, 3 hours (rounded up)."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = -(-seconds // 60)
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = -(-minutes // 60)
    return f"{hours} hours"
