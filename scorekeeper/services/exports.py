"""How often one address may download a club's records, and the version they are tagged by.

Issue 39: a public club's deals file at 10,000 games cost a worker 4 s and 73 MB for anyone,
without limit, and 12 clients looping on it made other tables' saves 5x slower. The files are
now written as they are read (`records_read.py`); here, the two bounds around them:

- `version_of`: the club's records version, the files' ETag, in two small queries (no game
  read): a client that sends it back in If-None-Match is answered 304 while nothing the file
  shows has changed, and that costs no allowance.
- `allow`: each file sent (200) is counted per address (`addresses.counted_as`) in the database
  (a `Creation` row of kind "export"), so the allowance holds across every worker and process.
  The club's own organisers signed in have a larger allowance (`ORGANISERS`), not none: anyone
  may open a club of their own and import a public club's records into it.
"""

from __future__ import annotations

import hashlib
import logging
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import delete, func, select, text

from scorekeeper.plumbing.addresses import counted_as
from scorekeeper.plumbing.db import db, reading_only
from scorekeeper.plumbing.models import Club, Creation, Game, Member, Night, Rating
from scorekeeper.services import creations, records, records_history, records_read
from scorekeeper.services.standings_filters import Filters

log = logging.getLogger(__name__)

KIND = "export"  # the `Creation.kind` an export is counted as
WINDOW = timedelta(hours=1)


@dataclass(frozen=True)
class Allowance:
    """How many records files an address may download within `WINDOW`."""

    most: int
    # The app.config key (or SCOREKEEPER_<key> in the environment) an operator sets to change it.
    setting: str


# A visitor looks at a club's files a few times (games, deals, standings, a season or two); a
# script looping on them is held to one every three minutes.
VISITORS = Allowance(20, "EXPORTS_PER_HOUR")
# A club's organiser signed in, exporting their own club (counted on the same address: a
# club night's wifi shares one): a whole evening of checking files, still no loop.
ORGANISERS = Allowance(100, "ORGANISER_EXPORTS_PER_HOUR")

# What the files are written as: a release that changes a column changes every version.
FORMAT = hashlib.sha256(
    repr(
        (
            records.DEAL_COLUMNS,
            records.STANDING_COLUMNS,
            records.RULE_SET_COLUMN,
            records_history.HISTORY_FILE_COLUMNS,
        )
    ).encode()
).hexdigest()[:8]


@dataclass(frozen=True)
class TooMany:
    """This address has downloaded its allowance of records files within the window."""

    most: int
    retry_after: int  # seconds until the oldest counted one leaves the window

    @property
    def message(self) -> str:
        """In plain words: what was limited, and when to try again."""
        return (
            f"This address has downloaded {self.most:,} club records files in the last hour, "
            f"the most one address may. Try again in {_wait_words(self.retry_after)}. "
            "A file you downloaded since the club's last game is still up to date."
        )


def most_of(allowance: Allowance) -> int:
    """The allowance as this server is set (an unusable setting is logged and ignored)."""
    return creations.as_set(allowance.setting, allowance.most)


def allow(peer: str | None, organiser: bool, now: datetime | None = None) -> TooMany | None:
    """Count one more file sent to `peer` now and commit it, or say why not (nothing counted).

    Its own transaction, begun by its first write: on SQLite a read begun before would have to
    become a write, which another writer in between makes fail rather than wait.
    """
    db.session.rollback()  # what the request read so far: only read
    most = most_of(ORGANISERS if organiser else VISITORS)
    address = counted_as(peer)
    now = now or datetime.now(UTC)
    since = now - WINDOW
    db.session.execute(delete(Creation).where(Creation.kind == KIND, Creation.at < since))
    _one_at_a_time(address)
    counted = (Creation.kind == KIND, Creation.address == address, Creation.at >= since)
    made = db.session.scalar(select(func.count(Creation.id)).where(*counted)) or 0
    if made >= most:
        freed = db.session.scalar(
            select(Creation.at).where(*counted).order_by(Creation.at).offset(made - most).limit(1)
        )
        db.session.rollback()
        if freed.tzinfo is None:  # SQLite hands back naive UTC
            freed = freed.replace(tzinfo=UTC)
        return TooMany(most, max(1, int((freed + WINDOW - now).total_seconds()) + 1))
    db.session.add(Creation(kind=KIND, address=address, at=now))
    db.session.commit()
    return None


def _one_at_a_time(address: str) -> None:
    """On PostgreSQL, one address's exports counted in turn (as `creations._one_at_a_time`)."""
    if db.session.get_bind().dialect.name != "postgresql":
        return
    key = zlib.crc32(f"creation:{KIND}:{address}".encode())
    db.session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def version_of(club: Club, *asked: Any) -> str:
    """The ETag of a club's records file as `asked` (its kind, filters, sort): it changes with
    anything the files show, and costs two small queries whatever the club's history.

    Its games (how many, their live versions, which one changed last: a deal saved, corrected
    or deleted raises a game's live version, as a side's agreement or query must (issue 40: the
    deals file shows each deal's history); a game deleted lowers the count), its nights (the
    standings' night wins), its kept ratings (the standings' ratings, refolded after a save),
    its members by name (a rename renames their players) and the settings the standings rank by.
    """

    def one(*columns: Any) -> Any:
        return select(*columns).scalar_subquery()

    in_club = Game.club_id == club.id
    figures = db.session.execute(
        select(
            one(func.count(Game.id)).where(in_club),
            one(func.coalesce(func.sum(Game.live_version), 0)).where(in_club),
            one(func.max(Game.updated_at)).where(in_club),
            one(func.max(Game.id)).where(in_club),
            one(func.count(Night.id)).where(Night.club_id == club.id),
            one(func.coalesce(func.sum(Night.version), 0)).where(Night.club_id == club.id),
            one(func.max(Night.finished_at)).where(Night.club_id == club.id),
            one(func.count(Rating.id)).where(Rating.club_id == club.id),
            one(func.sum(Rating.mu)).where(Rating.club_id == club.id),
            one(func.sum(Rating.sigma)).where(Rating.club_id == club.id),
            one(func.sum(Rating.games)).where(Rating.club_id == club.id),
        )
    ).one()
    members = db.session.execute(
        select(Member.id, Member.name, Member.archived)
        .where(Member.club_id == club.id)
        .order_by(Member.id)
    ).all()
    settings = (club.min_games_ranked, club.standings_sort)
    seen = repr((FORMAT, asked, tuple(figures), [tuple(m) for m in members], settings))
    return "r" + hashlib.sha256(seen.encode()).hexdigest()[:32]


def written_as_read(kind: str, club: Club, filters: Filters) -> Iterator[str]:
    """The club's games, deals or history file (`kind`), a batch of games at a time as read.

    Its first line is made in the request; the rest in an app context of its own, opened once
    the server reads past that line (the request's context has ended by then) and closed with
    the body: a client that reads no further (a HEAD, a client gone) leaves nothing open.
    """
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    club_id = club.id
    if kind == "games":
        most = records_read.most_sides(club, filters)
        first = records.games_header(most)
    elif kind == "history":
        first = records_history.HISTORY_HEADER
    else:
        first = records.DEALS_HEADER

    def pieces() -> Iterator[str]:
        yield first
        # Only reading: on SQLite a plain BEGIN (plumbing/db.py), no write lock held while the
        # file goes out.
        with app.app_context(), reading_only():
            found = db.session.get(Club, club_id)
            if found is None:
                return  # deleted since: the file ends with its first line
            if kind == "games":
                yield from records.games_rows(found, filters, most)
            elif kind == "history":
                yield from records_history.history_rows(found, filters)
            else:
                yield from records.deals_rows(found, filters)

    return pieces()


def _wait_words(seconds: int) -> str:
    """A wait as people say it: 40 seconds, 12 minutes (rounded up)."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = -(-seconds // 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
