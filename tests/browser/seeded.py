"""A browser test's seeded database, built once and copied for every test that seeds the same.

Several hundred browser tests (every page, at night, at 320 px, at 200% text, their weights)
each begin by seeding the demo club and its games (2 to 5 s of the service calls a phone's
requests would make) and many then add a club night to it (up to 3 s more). What they seed is
the same each time (the demo's games come from a fixed random seed), so `once` seeds it the
first time, keeps a copy of the SQLite file it made, and copies that file into the next test's
database instead: each test still gets a database of its own, at the same state as if it had
seeded it itself just then, that it may change as it likes.

Only where it is certain to be the same state:
- SQLite only (PostgreSQL, TEST_DATABASE_URL, seeds every time, as before);
- from the same database: the copy is keyed by the bytes of the file it was seeded on (a fresh
  database, or one `once` itself left), so a test that wrote anything first seeds for itself;
- with every change in the file: if a connection still held the write-ahead log open, nothing
  is kept or copied and the test seeds for itself;
- as of now: every moment the seeding wrote from the clock (a line sent, a deal saved, a night
  opened; not the demo's past games) is moved on by the copy's age, so that a line "sent a
  minute before" the test's own is still later than it; and a copy is used only on the day it
  was made, and for at most KEPT_FOR_S, since seeding dates games and seasons from today.
"""

from __future__ import annotations

import atexit
import copy
import functools
import hashlib
import itertools
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from tempfile import mkdtemp
from typing import TypeVar

from conftest import POSTGRES_URL, close
from flask import Flask
from sqlalchemy import DateTime, bindparam, literal_column, select

from scorekeeper.plumbing.db import db

T = TypeVar("T")

# How long a seeded copy serves: short beside a run, long beside one test.
KEPT_FOR_S = 600.0
_FOLDER = Path(mkdtemp(prefix="seeded-"))
atexit.register(shutil.rmtree, _FOLDER, ignore_errors=True)
_NUMBERS = itertools.count()


@dataclass(frozen=True)
class _Copy:
    file: Path
    digest: str
    result: object
    began: datetime  # the clock (UTC) when the seeding began, and when it ended
    ended: datetime
    made: float  # time.monotonic() when it ended
    days: tuple[date, date]  # the day it was made, here and in UTC


# (the digest of what it was seeded on, what seeded it) -> its copy.
_KEPT: dict[tuple[str, str], _Copy] = {}
# The digest of a copy as `once` left it in a test's database (its moments moved on) -> the
# digest of the copy itself: what is seeded on top of it is the same whatever its age.
_MOVED: dict[str, str] = {}


def _days() -> tuple[date, date]:
    """Today here and in UTC."""
    return date.today(), datetime.now(UTC).date()


def _utc_now() -> datetime:
    """Now in UTC, without its zone, as the app's DateTime columns read back from SQLite."""
    return datetime.now(UTC).replace(tzinfo=None)


def _database(app: Flask) -> Path | None:
    """The app's SQLite file, or None on PostgreSQL (or any other database)."""
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    if POSTGRES_URL or not uri.startswith("sqlite:///"):
        return None
    return Path(uri.removeprefix("sqlite:///"))


def _settled(app: Flask, path: Path) -> str | None:
    """Every connection let go, and the file's bytes' digest if it holds all that was written
    (no write-ahead log left with anything in it); None otherwise."""
    close(app)
    log = path.with_name(path.name + "-wal")
    if log.exists() and log.stat().st_size > 0:
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _moved_on(app: Flask, kept: _Copy) -> None:
    """Every moment the seeding took from the clock, moved on by the copy's age."""
    by = _utc_now() - kept.ended
    rowid = literal_column("rowid")
    with app.app_context(), db.engine.begin() as connection:
        for table in db.metadata.sorted_tables:
            moments = [c for c in table.columns if isinstance(c.type, DateTime)]
            if not moments:
                continue
            changed = []
            for row in connection.execute(select(rowid.label("at_row"), *moments)).mappings():
                values = {c.name: row[c.name] for c in moments}
                if any(_from_the_clock(v, kept.began) for v in values.values()):
                    for name, value in values.items():
                        if _from_the_clock(value, kept.began):
                            values[name] = value + by
                    changed.append({"at_row": row["at_row"], **values})
            if changed:
                update = table.update().where(rowid == bindparam("at_row"))
                connection.execute(
                    update.values({c.name: bindparam(c.name) for c in moments}), changed
                )
    close(app)


def _from_the_clock(value: datetime | None, began: datetime) -> bool:
    """Whether a moment was written from the clock while seeding (not a past game's)."""
    if value is None:
        return False
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value >= began


def once(app: Flask, build: Callable[..., T], *args: object) -> T:
    """What `build(app, *args)` returns, with the database as it leaves it: seeded the first
    time, copied from that first time's file after (see the module's notes)."""
    path = _database(app)
    before = _settled(app, path) if path else None
    if before is None:
        return build(app, *args)
    before = _MOVED.get(before, before)
    what = f"{build.__module__}.{build.__qualname__}{args!r}"
    kept = _KEPT.get((before, what))
    if kept and kept.days == _days() and time.monotonic() - kept.made < KEPT_FOR_S:
        for leftover in path.parent.glob(path.name + "-*"):
            leftover.unlink()
        shutil.copyfile(kept.file, path)
        _moved_on(app, kept)
        moved = _settled(app, path)
        if moved is not None:
            _MOVED[moved] = kept.digest
        return copy.deepcopy(kept.result)
    days, began = _days(), _utc_now() - timedelta(seconds=1)
    result = build(app, *args)
    ended = _utc_now()
    after = _settled(app, path)
    if after is not None and _days() == days:
        copied = _FOLDER / f"{next(_NUMBERS)}.sqlite"
        shutil.copyfile(path, copied)
        _KEPT[(before, what)] = _Copy(
            copied, after, copy.deepcopy(result), began, ended, time.monotonic(), days
        )
    return result


def kept(build: Callable[..., T]) -> Callable[..., T]:
    """`build(app, *args)` seeded once and copied after (see `once`), as a decorator."""

    @functools.wraps(build)
    def seeded(app: Flask, *args: object) -> T:
        return once(app, build, *args)

    return seeded
