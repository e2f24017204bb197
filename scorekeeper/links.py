"""Private game links: finding a game by its secret, and slowing down whoever guesses them.

Every game's pages, its live answer and its API are reached only through its secret (the link,
or the API's `X-Game-Key` header). A sequential id alone finds nothing. A wrong secret and a
game that does not exist take the same single query, so no timing tells them apart. An
address that keeps missing is refused for a while before its next guess is even looked up.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.orm import selectinload

from .db import db
from .models import SECRET_LENGTH, Game, LinkMiss

# What a secret looks like; anything else is a miss without asking the database.
SECRET = re.compile(rf"[A-Za-z0-9_-]{{{SECRET_LENGTH}}}")
# Misses from one address within the window before it is refused. A person mistyping a link
# misses a few times; a phone polling a deleted game stops at its first 404 (static/app.js).
MISS_WINDOW = timedelta(minutes=10)
MISSES_ALLOWED = 20
# The path that opens a game: `/t/<secret>` (for "table").
LINK_PREFIX = "/t/"


class Opened:
    """What looking up a link came to: the game's id, a miss, or an address refused."""


@dataclass(frozen=True)
class Found(Opened):
    """The link opens this game; with its club and live version, read in the same query."""

    game_id: int
    club_id: int | None = None
    live_version: int = 0


@dataclass(frozen=True)
class Missed(Opened):
    """No game has this link (wrong, malformed, or a game since deleted)."""


@dataclass(frozen=True)
class TooManyMisses(Opened):
    """This address missed too often lately: nothing is looked up until the window passes."""

    retry_after: int  # seconds


def _lookup(by_id: bool):
    """The one query that opens a link, built once: this address's recent misses, and the game
    with the secret (and the id, for the API) with its club and live version.

    Core columns and bound parameters: the hottest query of all (every live poll asks it) is
    neither rebuilt nor passed through the ORM on each request.
    """
    misses_table, games = LinkMiss.__table__, Game.__table__
    misses = (
        select(func.count())
        .select_from(misses_table)
        .where(
            misses_table.c.address == bindparam("address"),
            misses_table.c.at >= bindparam("since"),
        )
        .scalar_subquery()
    )
    wanted = [games.c.secret == bindparam("secret")]
    if by_id:
        wanted.append(games.c.id == bindparam("game_id"))
    found = (
        select(column).where(*wanted).scalar_subquery()
        for column in (games.c.id, games.c.club_id, games.c.live_version)
    )
    return select(misses, *found)


_BY_SECRET, _BY_SECRET_AND_ID = _lookup(False), _lookup(True)


def open_link(secret: str, address: str, game_id: int | None = None) -> Opened:
    """The game a secret opens (and, for the API, only if it is the game with this id).

    One query asks both how often this address missed lately and which game has the secret,
    so a hit costs one round trip and a miss looks exactly like any other miss. The game's
    club and live version come with it: a live poll with nothing new is answered from these
    alone (web/live.py), with no other query for a casual game.
    """
    now = datetime.now(UTC)
    wellformed = isinstance(secret, str) and SECRET.fullmatch(secret) is not None
    # A malformed secret still asks the same question (with a secret no game can have).
    values = {
        "address": address[:64],
        "since": now - MISS_WINDOW,
        "secret": secret if wellformed else "",
    }
    query = _BY_SECRET
    if game_id is not None:
        # An id past any database's integer names no game: asked as id 0, in the same query.
        values["game_id"] = game_id if 0 < game_id < 2**63 else 0
        query = _BY_SECRET_AND_ID
    missed, found, club_id, version = db.session.execute(query, values).one()
    # Only read: end it, so that whatever the request writes next starts a transaction of its
    # own (taking SQLite's write lock only then, not while waiting for anything else).
    db.session.rollback()
    if missed >= MISSES_ALLOWED:
        return TooManyMisses(_retry_after(address, now))
    if found is None:
        record_miss(address, now)
        return Missed()
    return Found(found, club_id, version or 0)


def _retry_after(address: str, now: datetime) -> int:
    """Seconds until this address's oldest counted miss leaves the window."""
    oldest = db.session.execute(
        select(func.min(LinkMiss.at)).where(
            LinkMiss.address == address[:64], LinkMiss.at >= now - MISS_WINDOW
        )
    ).scalar_one()
    if oldest is None:
        return 1
    if oldest.tzinfo is None:  # SQLite hands back naive UTC
        oldest = oldest.replace(tzinfo=UTC)
    return max(1, int((oldest + MISS_WINDOW - now).total_seconds()) + 1)


def record_miss(address: str, now: datetime | None = None) -> None:
    """Remember a link that opened nothing (and forget misses older than a day)."""
    now = now or datetime.now(UTC)
    db.session.execute(delete(LinkMiss).where(LinkMiss.at < now - timedelta(days=1)))
    db.session.add(LinkMiss(address=address[:64], at=now))
    db.session.commit()


def path_of(game: Game) -> str:
    """The game's private link, as a path on this server."""
    return LINK_PREFIX + game.secret


def link_of(game: Game, base_url: str) -> str:
    """The game's private link in full, on the server at `base_url`."""
    return base_url.rstrip("/") + path_of(game)


def games_by_secret(secrets: list[str]) -> list[Game]:
    """The games these secrets open (unknown ones left out), most recently played first."""
    wanted = [s for s in secrets if isinstance(s, str) and SECRET.fullmatch(s)]
    if not wanted:
        return []
    query = (
        select(Game)
        .where(Game.secret.in_(wanted))
        .order_by(Game.updated_at.desc(), Game.id.desc())
        .options(selectinload(Game.sides), selectinload(Game.club))
    )
    return list(db.session.execute(query).scalars())


def every_game() -> Iterator[Game]:
    """Every game with its sides and club, oldest first, for the operator's list of links."""
    query = (
        select(Game)
        .order_by(Game.id)
        .options(selectinload(Game.sides), selectinload(Game.club))
        .execution_options(yield_per=500)
    )
    yield from db.session.execute(query).scalars()
