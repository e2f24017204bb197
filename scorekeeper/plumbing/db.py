"""The database handle, shared by the models and the app factory, and SQLite done right."""

import logging
import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask, abort, current_app, g, has_app_context, has_request_context, request
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Engine, event
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """Declarative base for every model."""


# A session lives for one request: what it has just committed is what the database holds, so
# reading it again after the commit (and replaying a whole game to redirect) is wasted work.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()

READS = ("GET", "HEAD", "OPTIONS")
# The database holds password hashes and every game's secret: its owner alone may read it.
PRIVATE_FILE = 0o600
# Group and others: what is taken away from the files and folder already there.
OTHERS = 0o077
# The files SQLite keeps beside the database (write-ahead log, shared memory, rollback journal).
SIDE_FILES = ("-wal", "-shm", "-journal")

log = logging.getLogger(__name__)
# On `g`: this app context's transactions only read (see reading_only).
ONLY_READING = "only_reading"


@contextmanager
def reading_only() -> Iterator[None]:
    """Reads only, within: on SQLite the transactions begun here take no write lock (_begin).

    The use cases say so with this, never by touching `g` themselves (tests/test_layers.py).
    """
    setattr(g, ONLY_READING, True)
    try:
        yield
    finally:
        setattr(g, ONLY_READING, False)


def configure_sqlite(engine: Engine) -> None:
    """WAL, a busy timeout, foreign keys, and write transactions that begin IMMEDIATE.

    With WAL and a busy timeout alone, a transaction that reads first and writes later can
    fail with "database is locked" when another writer got there between its read and its
    write; taking the write lock at BEGIN makes writers queue for it instead.
    """
    keep_private(engine)

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record) -> None:
        # SQLAlchemy, not the driver, says when a transaction begins (see _begin).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=15000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection) -> None:
        # Once a request has committed its write, what is left is reading the answer back:
        # that needs no write lock, so other phones' writes need not wait for it.
        # Outside a request (the ratings' folder), its reads say so themselves.
        reading = (
            has_request_context()
            and (request.method in READS or g.get("committed") or g.get(ONLY_READING))
        ) or (not has_request_context() and has_app_context() and g.get(ONLY_READING))
        connection.exec_driver_sql("BEGIN" if reading else "BEGIN IMMEDIATE")

    @event.listens_for(engine, "commit")
    def _commit(connection) -> None:
        if has_request_context():
            g.committed = True


def keep_private(engine: Engine) -> None:
    """The SQLite file and the files beside it owner-only (0600), the instance folder 0700.

    The file is made 0600 before SQLite first opens it, whatever the umask: SQLite gives the
    -wal and -shm it creates later the database file's own mode. A file made before this (0644
    under a usual umask) is closed to others here, at start. No umask is touched: it is the
    whole process's, and other threads may be making files meanwhile.
    """
    name = engine.url.database
    if not name or name == ":memory:" or name.startswith("file:"):
        return  # in memory, or a URI the operator spelled out: nothing of ours to guard
    path = Path(name).resolve()
    if not path.parent.is_dir():
        return  # SQLite refuses it at the first connection, as it always has
    if has_app_context() and path.parent == Path(current_app.instance_path).resolve():
        _restrict(path.parent)  # the folder the app made for itself
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, PRIVATE_FILE))
    for each in (path, *(path.with_name(path.name + suffix) for suffix in SIDE_FILES)):
        if each.exists():
            _restrict(each)


def _restrict(path: Path) -> None:
    """Take away what group and others may do (0644 to 0600, 0755 to 0700), nothing more.

    Only taking away: a file its owner made read-only stays read-only. A file not ours is
    left as it is, with a warning, rather than stopping the app.
    """
    mode = stat.S_IMODE(path.stat().st_mode)
    if not mode & OTHERS:
        return
    try:
        path.chmod(mode & ~OTHERS)
    except PermissionError:
        log.warning("Could not make %s private (mode %o): its owner should.", path, mode)


# How long a request that writes waits for its process's turn before answering 503.
WRITER_WAIT_SECONDS = 20


def one_writer_at_a_time(app: Flask) -> None:
    """On SQLite, one request that writes at a time in each process; reads are never held.

    SQLite has one write lock for the whole file. With threaded workers (gunicorn.conf.py), a
    dozen threads of one process would all hold BEGIN IMMEDIATE in turn while sharing one
    interpreter lock: the holder, slowed by the others, kept the file locked so long that
    writers waiting in SQLite's busy loop gave up ("database is locked"). Here they wait their
    process's turn in line instead, and only one writer per process competes for the file.
    The body is read before the turn is taken, so a client sending slowly holds nobody up.
    """
    # Re-entrant: the ratings' folder, run at once after a request's commit (a test's app),
    # takes the turn its own request already holds.
    turn = threading.RLock()
    app.extensions["writers_turn"] = lambda: turn

    @app.before_request
    def wait_for_the_writers_turn() -> None:
        if request.method in READS:
            return
        request.get_data(cache=True)  # all of it, before taking the turn
        if not turn.acquire(timeout=WRITER_WAIT_SECONDS):
            abort(503)
        g.writers_turn = True

    @app.teardown_request
    def give_the_turn_back(_error: BaseException | None) -> None:
        if g.pop("writers_turn", False):
            turn.release()
