"""Private game links: finding a game by its secret, and slowing down whoever guesses them.

Every game's pages, its live answer and its API are reached only through its secret (the link,
or the API's `X-Game-Key` header). A sequential id alone finds nothing. A wrong secret and a
game that does not exist take the same single query, so no timing tells them apart. An
address that keeps missing is refused for a while before its next guess is even looked up.

A club's table code (its table link, or the API's `X-Table-Code` header) is a secret of the
same kind: a code no club has is a miss against the same allowance. Addresses are counted as
`addresses.counted_as` says (an IPv6 /64 is one address).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import bindparam, delete, func, insert, select
from sqlalchemy.orm import selectinload

from scorekeeper.plumbing.addresses import ADDRESS_LENGTH
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import SECRET_LENGTH, Club, Game, LinkMiss

# What a secret looks like; anything else is a miss without asking the database.
SECRET = re.compile(rf"[A-Za-z0-9_-]{{{SECRET_LENGTH}}}")
# Misses from one address within the window before it is refused. A person mistyping a link
# misses a few times; a phone polling a deleted game stops at its first 404 (static/app.js).
MISS_WINDOW = timedelta(minutes=10)
MISSES_ALLOWED = 20
# How long a miss is kept at all (older ones are deleted as new ones come in).
MISSES_KEPT = timedelta(days=1)
# The longest table code worth asking about (the column's size): anything longer is no club's.
CODE_LENGTH = 64
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
    """No game has this link (wrong, malformed, or a game since deleted), or no club the code."""


@dataclass(frozen=True)
class CodeKnown(Opened):
    """The table code is a club's (the club with this slug, when one is named)."""


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
    games = Game.__table__
    wanted = [games.c.secret == bindparam("secret")]
    if by_id:
        wanted.append(games.c.id == bindparam("game_id"))
    found = (
        select(column).where(*wanted).scalar_subquery()
        for column in (games.c.id, games.c.club_id, games.c.live_version)
    )
    return select(_recent_misses(), *found)


def _recent_misses():
    """How often the address (bound as `address`) missed since `since`, as a subquery."""
    misses = LinkMiss.__table__
    return (
        select(func.count())
        .select_from(misses)
        .where(misses.c.address == bindparam("address"), misses.c.at >= bindparam("since"))
        .scalar_subquery()
    )


_BY_SECRET, _BY_SECRET_AND_ID = _lookup(False), _lookup(True)
# A miss, written only while the address's allowance lasts, in one statement: the row and the
# count it is checked against cannot be told apart by a guess sent alongside.
_RECORD_MISS = insert(LinkMiss.__table__).from_select(
    ["address", "at"],
    select(
        bindparam("address", type_=LinkMiss.__table__.c.address.type),
        bindparam("at", type_=LinkMiss.__table__.c.at.type),
    ).where(_recent_misses() < bindparam("allowed")),
)
# The same, saying whether it wrote the row: psycopg's row count is gone once SQLAlchemy has
# closed the cursor of an INSERT (SQLite's stays, and SQLite before 3.35 has no RETURNING).
_RECORD_MISS_RETURNING = _RECORD_MISS.returning(LinkMiss.__table__.c.id)
# A table code: this address's recent misses, and whether a club (any, or the one with the
# slug) has the code, in one query.
_CLUB_TABLE = Club.__table__
_ANY_CLUB_CODE = select(
    _recent_misses(),
    select(_CLUB_TABLE.c.id)
    .where(_CLUB_TABLE.c.table_code == bindparam("code"))
    .limit(1)
    .scalar_subquery(),
)
_CLUB_CODE = select(
    _recent_misses(),
    select(_CLUB_TABLE.c.table_code)
    .where(_CLUB_TABLE.c.slug == bindparam("slug"))
    .scalar_subquery(),
)


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
        "address": address[:ADDRESS_LENGTH],
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
        return record_miss(address, now)
    return Found(found, club_id, version or 0)


def open_table_code(code: str, address: str, slug: str | None = None) -> Opened:
    """Whether a table code is a club's (the club with `slug`, if given): a code no club has
    is a miss against the address's allowance, and a spent allowance checks no code at all.

    A code that is some club's real code is no guess, whichever club it is shown to: only
    codes no club has (or, on a club's table link, not that club's) are counted.
    """
    now = datetime.now(UTC)
    code = code if isinstance(code, str) and len(code) <= CODE_LENGTH else ""
    values = {"address": address[:ADDRESS_LENGTH], "since": now - MISS_WINDOW}
    if slug is None:
        missed, club_id = db.session.execute(_ANY_CLUB_CODE, {**values, "code": code}).one()
        known = club_id is not None and code != ""
    else:
        missed, kept = db.session.execute(_CLUB_CODE, {**values, "slug": slug}).one()
        # Compared here, in constant time: the slug is no secret, the code is.
        known = kept is not None and secrets.compare_digest(code.encode(), kept.encode())
    db.session.rollback()  # only read: see open_link
    if missed >= MISSES_ALLOWED:
        return TooManyMisses(_retry_after(address, now))
    if not known:
        return record_miss(address, now)
    return CodeKnown()


def _retry_after(address: str, now: datetime) -> int:
    """Seconds until this address's oldest counted miss leaves the window."""
    oldest = db.session.execute(
        select(func.min(LinkMiss.at)).where(
            LinkMiss.address == address[:ADDRESS_LENGTH], LinkMiss.at >= now - MISS_WINDOW
        )
    ).scalar_one()
    if oldest is None:
        return 1
    if oldest.tzinfo is None:  # SQLite hands back naive UTC
        oldest = oldest.replace(tzinfo=UTC)
    return max(1, int((oldest + MISS_WINDOW - now).total_seconds()) + 1)


# Asked by a night's read-only link too (services/nights/links.py): the same allowance.
retry_after = _retry_after


def record_miss(address: str, now: datetime | None = None) -> Missed | TooManyMisses:
    """Count a link that opened nothing, unless the address's allowance is spent meanwhile.

    Atomic, so that guesses sent at once count each other: of a hundred wrong guesses sent
    together, exactly MISSES_ALLOWED are recorded (and answered 404), the rest refused. The
    hit path stays one read (open_link): only a miss writes, in a transaction of its own.
    """
    now = now or datetime.now(UTC)
    address = address[:ADDRESS_LENGTH]
    values = {"address": address, "at": now, "since": now - MISS_WINDOW, "allowed": MISSES_ALLOWED}
    if _one_miss_at_a_time(address):
        recorded = db.session.execute(_RECORD_MISS_RETURNING, values).first() is not None
    else:
        recorded = db.session.execute(_RECORD_MISS, values).rowcount == 1
    if not recorded:
        db.session.rollback()
        return TooManyMisses(_retry_after(address, now))
    db.session.execute(delete(LinkMiss).where(LinkMiss.at < now - MISSES_KEPT))
    db.session.commit()
    return Missed()


def _one_miss_at_a_time(address: str) -> bool:
    """Make this address's misses queue: the count and the row it allows are written as one.
    True on PostgreSQL (a lock was taken), False on SQLite.

    SQLite: the insert is the transaction's first statement (open_link ended its read), and a
    statement that writes first waits for the file's one write lock, then counts what every
    writer before it committed. PostgreSQL: each transaction counts what was committed when
    its statement began, so two guesses side by side would both see room for one more; a lock
    held until commit, on this address alone, makes the second wait for the first.
    """
    if db.session.get_bind().dialect.name != "postgresql":
        return False
    digest = hashlib.blake2b(f"link-miss {address}".encode(), digest_size=8).digest()
    key = int.from_bytes(digest, "big", signed=True)  # pg_advisory_xact_lock takes a bigint
    db.session.execute(select(func.pg_advisory_xact_lock(key)))
    return True


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
