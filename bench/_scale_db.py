"""bench/scale.py's databases: their names and constants, connecting, migrating, sizes, checks."""

from __future__ import annotations

import contextlib
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from scorekeeper import create_app, with_driver  # noqa: E402

SMALL, BIG = "scale_small", "scale_big"
TEMPLATE_SLUG = "club-0000"
TARGET = 1.2
# Deals of a classic game: a fresh game is started (untimed) after this many.
DEALS_PER_GAME = 4

# A game's secret as the app makes it (16 random bytes, URL-safe base64, 22 characters).
RANDOM_SECRET = (
    "substr(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), 1, 22)"
)
# A club's table code: 24 URL-safe characters, as `clubs.new_table_code` makes them.
RANDOM_CODE = (
    "substr(translate(encode(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()), "
    "'base64'), '+/', '-_'), 1, 24)"
)

# The tables copied once per club, and those copied one club night at a time, in FK order.
CLUB_TABLES = ("organiser", "club", "club_organiser", "member", "season", "saved_rules")
GAME_TABLES = ("game", "side", "player", "deal", "deal_score", "member_result", "member_day")
# Club-only figures: casual games have none.
CLUB_ONLY = ("member_result", "member_day")


def log(text: str) -> None:
    print(text, flush=True)


# --- the databases ---------------------------------------------------------------------------


def database_url(server: str, name: str) -> str:
    """The URL of database `name` on the server of `server` (a plain postgresql:// URL)."""
    url = make_url(server)
    url = url.set(drivername="postgresql", database=name)
    return url.render_as_string(hide_password=False)


def connect(url: str, autocommit: bool = True) -> psycopg.Connection:
    return psycopg.connect(url, autocommit=autocommit)


def exists(admin: psycopg.Connection, name: str) -> bool:
    found = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
    return found is not None


def drop(admin: psycopg.Connection, name: str) -> None:
    admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def migrate(url: str, revision: str) -> float:
    """Upgrade one database with the app's migrations; seconds taken."""
    from flask_migrate import upgrade

    from scorekeeper.plumbing.db import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": with_driver(url), "SECRET_KEY": "bench"})
    started = time.perf_counter()
    with app.app_context():
        with contextlib.redirect_stderr(io.StringIO()):  # alembic's INFO lines
            upgrade(revision=revision)
        db.engine.dispose()
    return time.perf_counter() - started


def fill_small(url: str, games: int) -> float:
    """The one club, by the app's own code; seconds taken."""
    from scorekeeper.plumbing.db import db
    from scorekeeper.services.demo import fill_demo

    # The club's ratings folded in this thread, after the last commit: a folding thread would
    # still hold its connections when the big database is made with this one as its template.
    config = {"SQLALCHEMY_DATABASE_URI": with_driver(url), "SECRET_KEY": "bench"}
    app = create_app({**config, "RATINGS_FOLD": "at_once"})
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if done % 1000 == 0 or done == total:
            took = time.perf_counter() - started
            log(f"  {done:,} of {total:,} games recorded ({took:.0f} s)")

    with app.app_context():
        fill_demo(TEMPLATE_SLUG, games, progress=progress)
        db.session.remove()  # its connection back in the pool, closed with it
        db.engine.dispose()
    return time.perf_counter() - started


def table_rows(url: str) -> dict[str, int]:
    """Rows in each table copied (an exact count)."""
    with connect(url) as conn:
        return {
            table: conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
            for table in (*CLUB_TABLES, *GAME_TABLES)
        }


def size_of(admin: psycopg.Connection, name: str) -> str:
    return admin.execute("SELECT pg_size_pretty(pg_database_size(%s))", (name,)).fetchone()[0]


@contextlib.contextmanager
def loading_settings(admin: psycopg.Connection):
    """Fewer checkpoints while the copies go in (the throwaway server's settings, put back)."""
    changed = False
    try:
        admin.execute("ALTER SYSTEM SET max_wal_size = '16GB'")
        admin.execute("ALTER SYSTEM SET checkpoint_timeout = '1h'")
        admin.execute("SELECT pg_reload_conf()")
        changed = True
    except psycopg.Error as exc:
        log(f"  (server settings left as they are: {exc})")
    try:
        yield
    finally:
        if changed:
            admin.execute("ALTER SYSTEM RESET max_wal_size")
            admin.execute("ALTER SYSTEM RESET checkpoint_timeout")
            admin.execute("SELECT pg_reload_conf()")


def vacuum(url: str) -> float:
    started = time.perf_counter()
    with connect(url) as conn:
        conn.execute("VACUUM (ANALYZE)")
        conn.execute("CHECKPOINT")
    return time.perf_counter() - started


def check_copy(small: str, big: str, big_slug: str) -> None:
    """The club timed on the big database holds what the one club holds, figure for figure."""
    query = """
        SELECT (SELECT count(*) FROM game WHERE club_id = c.id),
               (SELECT count(*) FROM side s JOIN game g ON g.id = s.game_id WHERE g.club_id = c.id),
               (SELECT count(*) FROM player p JOIN side s ON s.id = p.side_id
                  JOIN game g ON g.id = s.game_id WHERE g.club_id = c.id
                  AND p.member_id IS NOT NULL),
               (SELECT count(*) || '/' || sum(ds.total) FROM deal_score ds
                  JOIN deal d ON d.id = ds.deal_id JOIN game g ON g.id = d.game_id
                  WHERE g.club_id = c.id),
               (SELECT count(*) || '/' || sum(final_total) FROM member_result
                  WHERE club_id = c.id),
               (SELECT count(*) || '/' || sum(games) || '/' || sum(final_total)
                  FROM member_day WHERE club_id = c.id),
               (SELECT count(*) FROM game WHERE club_id = c.id AND saved_rules_id IS NOT NULL)
        FROM club c WHERE c.slug = %s
    """
    with connect(small) as one, connect(big) as many:
        mine = one.execute(query, (TEMPLATE_SLUG,)).fetchone()
        theirs = many.execute(query, (big_slug,)).fetchone()
    if mine != theirs:
        raise SystemExit(f"The copied club differs from the one club: {mine} against {theirs}")
    log(f"  {big_slug} on {BIG} holds what {TEMPLATE_SLUG} on {SMALL} holds: {mine}")
