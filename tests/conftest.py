"""Fixtures: an app on a fresh, migrated database for every test, its test client and CLI runner.

The migrations run once per session, not once per test (they were half the suite's time):

- SQLite: they build a template file, and every test gets its own copy of it (a file copy, a
  few milliseconds), alembic_version row included, so each test still starts from a fresh
  database at head that it may change, upgrade or downgrade as it likes.
- PostgreSQL (TEST_DATABASE_URL): they run once on that database, and before every test one
  round trip empties every table but alembic_version and restarts every id sequence. Under
  `-n`, each worker gets a database of its own beside it (`<name>_gw0`, ...), made if missing.

  Not a transaction rolled back after each test: the app commits for real, and tests rely on
  that, e.g. two apps (two engines) on one database in test_live.py, or a server thread with its
  own connections in the reliability tests; rows committed through one connection must be seen
  by the others, which a test wrapped in one outer transaction would not give.

  DELETE rather than TRUNCATE ... RESTART IDENTITY CASCADE: the same end (empty tables, ids from
  1 again, so every test numbers games and deals as on a new database), but TRUNCATE gives each
  table and index a new file and syncs them at commit, about 50 ms a test here, against 1 ms for
  deleting the few rows a test leaves. The tables are emptied children first, so no foreign key
  (cascading or not) stands in the way.

  A test may change the schema itself (init-db, the migration check): a one-query look at the
  catalog before every test notices, and the database is migrated again from nothing.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import Flask
from flask_migrate import upgrade
from jinja2.bccache import Bucket, BytecodeCache
from sqlalchemy import MetaData, inspect, text
from werkzeug.serving import BaseWSGIServer, make_server

from scorekeeper import create_app, with_driver
from scorekeeper.plumbing.db import db
from scorekeeper.services import writes

# The `olga` fixture (Olga's Tuesday Club of twelve) lives with its members in night_club.py;
# named here so that every test module has it without an import that shadows its argument.
pytest_plugins = ("night_club",)


def _database_of_this_worker(url: str | None) -> str | None:
    """The PostgreSQL database this process tests on: TEST_DATABASE_URL's, or under `-n` a
    database of each worker's own beside it (made if missing), since every test empties its
    database and two workers on one would empty each other's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    import psycopg
    from sqlalchemy.engine import make_url

    given = make_url(url)
    name = f"{given.database}_{worker}"
    with psycopg.connect(url, autocommit=True) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
        if found.fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')
    return given.set(database=name).render_as_string(hide_password=False)


POSTGRES_URL = _database_of_this_worker(os.environ.get("TEST_DATABASE_URL"))

# What the PostgreSQL schema looks like, in one short query: every table, index, sequence and
# constraint of the current schema, with its columns and their types.
_CATALOG_PRINT = text(
    """
    SELECT md5(
        coalesce((
            SELECT string_agg(
                c.relkind::text || ':' || c.relname || ':' || coalesce(a.attname, '') || ':'
                    || coalesce(format_type(a.atttypid, a.atttypmod), '') || ':'
                    || coalesce(a.attnotnull::text, ''),
                ',' ORDER BY c.relname, a.attnum)
            FROM pg_class c
            LEFT JOIN pg_attribute a
                ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            WHERE c.relnamespace = current_schema()::regnamespace
        ), '')
        || coalesce((
            SELECT string_agg(conname || pg_get_constraintdef(oid), ',' ORDER BY conname)
            FROM pg_constraint
            WHERE connamespace = current_schema()::regnamespace
        ), '')
    ), to_regclass('alembic_version') IS NOT NULL
    """
)


def _schema_print(connection) -> str:
    """The catalog's print and the migration the database is at."""
    catalog, versioned = connection.execute(_CATALOG_PRINT).one()
    if not versioned:
        return catalog
    versions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars()
    return f"{catalog} {sorted(versions)}"


class _CompiledTemplates(BytecodeCache):
    """Every test's app shares the templates compiled once in this session.

    Each test has an app of its own, and each app's Jinja environment would compile every
    template it renders again (about 30 ms a test). Jinja checks each template's source against
    the checksum kept with its bytecode, so an edited template is compiled afresh.
    """

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _CompiledTemplates()


def make_app(uri: str) -> Flask:
    """The app as the tests use it (CSRF off), on the database at `uri`."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": uri,
            "WTF_CSRF_ENABLED": False,
        }
    )
    app.jinja_env.bytecode_cache = _COMPILED
    return app


@contextmanager
def serving(wsgi: Callable, threaded: bool = True) -> Iterator[BaseWSGIServer]:
    """`wsgi` (an app) served by werkzeug on a free port of 127.0.0.1 until the block ends."""
    server = make_server("127.0.0.1", 0, wsgi, threaded=threaded)
    # Looked at for its shutdown every 50 ms, not werkzeug's 500: each test ends sooner.
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def close(app: Flask) -> None:
    """Let go of the app's session and every connection it holds, and its folding and import
    jobs' threads."""
    for key in ("ratings_folder", "import_jobs"):
        running = app.extensions.pop(key, None)
        if running is not None:
            running.stop()
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


class Databases:
    """Fresh databases at head, from one migration run per session (see the module's notes)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._template: Path | None = None
        self._postgres: Flask | None = None
        self._emptying = ""
        self._print = ""

    # -------------------------------------------------------------------------------- SQLite

    def sqlite_copy(self, folder: Path, name: str = "test.sqlite") -> str:
        """A new SQLite file at head in `folder` (a copy of the template); its URI."""
        if self._template is None:
            self._template = self._migrated_template()
        target = folder / name
        shutil.copyfile(self._template, target)
        return f"sqlite:///{target}"

    def _migrated_template(self) -> Path:
        path = self.folder / "migrated.sqlite"
        app = make_app(f"sqlite:///{path}")
        with app.app_context():
            upgrade()
        close(app)
        # The app runs SQLite in WAL mode: with every connection closed the log has been
        # written back and removed, so the main file alone is the whole database. Make sure.
        check = sqlite3.connect(path)
        check.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        check.close()
        assert not path.with_name(path.name + "-wal").exists(), "the template is still open"
        return path

    # ---------------------------------------------------------------------------- PostgreSQL

    def postgres_emptied(self) -> str:
        """The PostgreSQL test database at head with every table empty; its URL."""
        assert POSTGRES_URL
        if self._postgres is None:
            self._postgres = make_app(with_driver(POSTGRES_URL))
            self._migrate_postgres()
        with self._postgres.app_context(), db.engine.begin() as connection:
            unchanged = _schema_print(connection) == self._print
            if unchanged:
                connection.exec_driver_sql(self._emptying)
        if not unchanged:
            # A test changed the schema, or dropped it: migrate again from nothing (which
            # leaves every table empty and every sequence at 1).
            self._migrate_postgres()
        return self._postgres.config["SQLALCHEMY_DATABASE_URI"]

    def postgres_dropped(self) -> str:
        """The PostgreSQL test database with no tables at all (the next test migrates it)."""
        assert POSTGRES_URL
        if self._postgres is None:
            self._postgres = make_app(with_driver(POSTGRES_URL))
        with self._postgres.app_context():
            _drop_every_table()
        return self._postgres.config["SQLALCHEMY_DATABASE_URI"]

    def _migrate_postgres(self) -> None:
        assert self._postgres is not None
        with self._postgres.app_context():
            _drop_every_table()
            upgrade()
            with db.engine.connect() as connection:
                self._print = _schema_print(connection)
                self._emptying = _emptying(connection)

    # ------------------------------------------------------------------------------- either

    def fresh(self, folder: Path) -> str:
        """A fresh database at head for one test: PostgreSQL if TEST_DATABASE_URL, else SQLite."""
        return self.postgres_emptied() if POSTGRES_URL else self.sqlite_copy(folder)

    def empty(self, folder: Path) -> str:
        """A database with no tables, for a test that runs the migrations itself."""
        if POSTGRES_URL:
            return self.postgres_dropped()
        return f"sqlite:///{folder / 'empty.sqlite'}"

    def finish(self) -> None:
        """Leave the PostgreSQL test database as empty as it was found."""
        if self._postgres is not None:
            with self._postgres.app_context():
                _drop_every_table()
            close(self._postgres)


def _emptying(connection) -> str:
    """SQL that empties every table but alembic_version and restarts every sequence at 1.

    Several statements, sent at once (psycopg takes them in one call when no parameters are
    passed), in the transaction the caller opens.
    """
    tables = MetaData()
    tables.reflect(connection)
    sequences = connection.execute(
        text("SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()")
    ).scalars()
    return "; ".join(
        # A connection some test left in a transaction would make the deletes wait for ever.
        ["SET LOCAL lock_timeout = '30s'"]
        + [
            f'DELETE FROM "{table.name}"'
            for table in reversed(tables.sorted_tables)
            if table.name != "alembic_version"
        ]
        + [f"SELECT setval('\"{name}\"', 1, false)" for name in sorted(sequences)]
    )


def _drop_every_table() -> None:
    """Drop whatever tables the current database holds, with what hangs on them."""
    db.session.remove()
    with db.engine.begin() as connection:
        for name in inspect(connection).get_table_names():
            connection.execute(text(f'DROP TABLE IF EXISTS "{name}" CASCADE'))


@pytest.fixture(scope="session")
def databases(tmp_path_factory):
    """Fresh migrated databases for tests and module fixtures (see Databases)."""
    made = Databases(tmp_path_factory.mktemp("template"))
    yield made
    made.finish()


def app_of_its_own(folder: Path, databases: Databases):
    """A new app on a fresh database, for a test that serves it to other threads.

    A served app's request threads (a phone's last poll, say) may outlive the test by a moment;
    renewing the shared app's database under them would break both them and the next test.
    """
    app = make_app(databases.fresh(folder))
    yield app
    close(app)


@pytest.fixture(scope="session")
def _one_app(databases, tmp_path_factory):
    """The app every test gets: made once, since making one takes 35 ms (its URL rules)."""
    folder = tmp_path_factory.mktemp("app")
    app = make_app(databases.fresh(folder))
    yield app, folder
    close(app)


@pytest.fixture
def app(_one_app, databases):
    """The app with a fresh, migrated database, and its settings as the tests make them.

    One app serves every test, each on a database of its own: its connections are let go and
    its database renewed first (SQLite: the template copied over the file, write-ahead log
    removed; PostgreSQL: emptied), and whatever setting a test changes is put back after it.
    """
    app, folder = _one_app
    settings = dict(app.config)
    close(app)
    for leftover in folder.glob("test.sqlite-*"):
        leftover.unlink()
    uri = databases.fresh(folder)
    assert uri == app.config["SQLALCHEMY_DATABASE_URI"]
    # The writes this process refused are of the database before (services/writes.py).
    writes.forget_refusals()
    yield app
    close(app)
    app.config.clear()
    app.config.update(settings)


@pytest.fixture
def client(app):
    """A test client for the app."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """A CLI runner for the app's commands."""
    return app.test_cli_runner()


@pytest.fixture
def quick_hashing(monkeypatch):
    """One hashing round per password keeps sign-ups fast (test_club_access checks the real
    hashing). A module that signs organisers up uses it for every test:
    `pytestmark = pytest.mark.usefixtures("quick_hashing")`."""
    from functools import partial

    from werkzeug.security import generate_password_hash

    from scorekeeper.services import accounts

    quick = partial(generate_password_hash, method="pbkdf2:sha256:1")
    monkeypatch.setattr(accounts, "generate_password_hash", quick)
