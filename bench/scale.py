"""Pages on a database of 1,000 clubs against the same pages on a database of one club.

    scripts/with-postgres .venv/bin/python bench/scale.py [--clubs 1000] [--games 1000]
        [--casual 100000] [--requests 200] [--warm-up 10] [--explain PAGES] [--keep] [--reuse]

PostgreSQL only (TEST_DATABASE_URL, DATABASE_URL or --database-url: a server the script may
create databases in). It makes two databases in that server, both migrated to --revision
(head) with the app's own migrations:

- `scale_small`: one club, filled by the app's own code (`demo.fill_demo`, every deal made up,
  checked and scored by the engine through `games.record_game`): members, seasons, a saved rule
  set, --games finished games with their sides, players, deals and deal scores, and the figures
  kept beside them (sides' figures, member results, member days).
- `scale_big`: a copy of `scale_small` (CREATE DATABASE ... TEMPLATE), to which PostgreSQL then
  adds, by INSERT ... SELECT from that one club, --clubs - 1 more clubs (each with its own
  organiser, members, seasons, saved rule set, games and figures) and --casual casual games
  (copies of the club's games with no club, no members, no saved rule set). Every copied row
  gets a new id, every game a new random secret, every club its own slug, table code and
  organiser. Rows go in one club night at a time, every club's games of that night one after
  another, as a server used by many clubs would have stored them; each game's sides, players,
  deals and scores stay together. The sequences are moved past the copies, so the app can
  insert, and the database is vacuumed and analysed before anything is timed. As a superuser
  (scripts/with-postgres), the copies go in with `session_replication_role = replica` and
  every foreign key is then checked once, by an anti-join, instead of row by row; the server's
  max_wal_size and checkpoint_timeout are raised while they go in, and put back after.

Then both databases are served side by side, each by its own gunicorn (one sync worker, as
the other benchmarks), and the client takes turns between them, page by page, over HTTP with
gzip accepted, each request on its own connection. The club timed in `scale_big` is one of the
copies (the middle one), so its rows sit among every other club's. Pages:

- home: `/` from a phone whose session lists 5 games (3 finished games of the club, 2 casual
  games in progress that it started);
- scoreboard: `/t/<secret>` of the club's most recent finished game;
- deal entry: the deal form POSTed with its CSRF token and an idempotency key, and the
  scoreboard it redirects to (as `deal_entry.py`), on fresh casual classic games (a new one
  every 4 deals, started untimed through the API);
- standings (this season, the default) and standings over all seasons;
- member: the page of the member with the most games;
- history: `/clubs/<slug>/games`, this season's first page;
- games CSV: `/clubs/<slug>/export/games.csv` (this season).

The club is public (as the demo club is), so no page needs an organiser signed in.

For every page over the target (big at most 1.2 times small), and for those named with
--explain, the page is run again in process through the Flask test client on both databases,
with every SQL statement and its time captured (SQLAlchemy `before_cursor_execute`); the
statements slower on the big database are printed with EXPLAIN (ANALYZE, BUFFERS) on both.

--reuse keeps both databases from an earlier --keep run (only upgrading them to --revision,
which is how a new migration's indexes are timed on the big data). The databases are dropped
at the end unless --keep.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import re
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg  # noqa: E402
from _serve import Server, call, machine  # noqa: E402
from deal_entry import CLASSIC_DEAL, CSRF  # noqa: E402
from sqlalchemy import event  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from scorekeeper import create_app, with_driver  # noqa: E402
from tests.reliability._server import Reply  # noqa: E402

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

    app = create_app({"SQLALCHEMY_DATABASE_URI": with_driver(url), "SECRET_KEY": "bench"})
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        if done % 1000 == 0 or done == total:
            took = time.perf_counter() - started
            log(f"  {done:,} of {total:,} games recorded ({took:.0f} s)")

    with app.app_context():
        fill_demo(TEMPLATE_SLUG, games, progress=progress)
        db.engine.dispose()
    return time.perf_counter() - started


# --- copying the club inside PostgreSQL -------------------------------------------------------


@dataclass
class Generation:
    """What copying took, per table."""

    seconds: dict[str, float] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)
    triggers_off: bool = False

    def add(self, table: str, seconds: float, rows: int) -> None:
        self.seconds[table] = self.seconds.get(table, 0.0) + seconds
        self.rows[table] = self.rows.get(table, 0) + rows


def columns(cur: psycopg.Cursor, table: str) -> list[str]:
    """The table's columns as the migrations made them, in order."""
    cur.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 "
        "AND NOT attisdropped ORDER BY attnum",
        (table,),
    )
    return [row[0] for row in cur.fetchall()]


def copy_rows(
    cur: psycopg.Cursor,
    table: str,
    template: str,
    copies: int,
    overrides: dict[str, str],
    where: str = "TRUE",
) -> int:
    """INSERT ... SELECT `copies` copies of the template's rows, copy after copy, in rank order.

    Every column is the template row's own unless `overrides` gives an expression for it (in
    terms of `q`, the copy from 0, and `t`, the template row).
    """
    names = columns(cur, table)
    unknown = set(overrides) - set(names)
    assert not unknown, (table, unknown)
    values = [overrides.get(name, f't."{name}"') for name in names]
    listed = ", ".join(f'"{name}"' for name in names)
    cur.execute(
        f'INSERT INTO "{table}" ({listed}) '
        f"SELECT {', '.join(values)} FROM generate_series(0, {int(copies) - 1}) AS q, "
        f"{template} AS t WHERE {where} ORDER BY q, t.r"
    )
    return cur.rowcount


def copy_clubs(url: str, clubs: int, casual: int) -> Generation:
    """Add clubs - 1 copies of the one club and `casual` casual games to the big database.

    Ids are given, not drawn from the sequences: within a club night, copy q of the template
    row ranked r gets base + q * (rows that night) + r, and a row's parents are found by the
    same rule from their ranks. Returns the seconds and rows per table.
    """
    generation = Generation()
    copies = clubs - 1  # club copies; the template club itself stays
    conn = connect(url, autocommit=False)
    cur = conn.cursor()
    cur.execute("SET synchronous_commit = off")
    # Foreign keys are checked once at the end (`check_foreign_keys`), not row by row: each
    # row's check would be a query planned once per session, when the tables were small.
    try:
        cur.execute("SET session_replication_role = replica")
        generation.triggers_off = True
    except psycopg.errors.InsufficientPrivilege:
        conn.rollback()
        log("  (not a superuser: foreign keys are checked row by row, which is slower)")
        cur.execute("SET synchronous_commit = off")
    cur.execute("SELECT id FROM club WHERE slug = %s", (TEMPLATE_SLUG,))
    club_id = cur.fetchone()[0]
    cur.execute("SELECT count(*) FROM game WHERE club_id = %s", (club_id,))
    per_club = cur.fetchone()[0]
    casual_copies = round(casual / per_club) if per_club else 0
    all_copies = copies + casual_copies
    log(
        f"  copying: {copies:,} clubs of {per_club:,} games, and {casual_copies:,} copies of "
        f"those games as casual games ({casual_copies * per_club:,})"
    )

    started = time.perf_counter()
    templates(cur, club_id)
    generation.add("(template tables)", time.perf_counter() - started, 0)
    base = {}
    for table in ("organiser", "club", "member", "season", "saved_rules", *GAME_TABLES):
        cur.execute(f'SELECT coalesce(max(id), 0) + 1 FROM "{table}"')
        base[table] = cur.fetchone()[0]
    count = {}
    for table in ("member", "season", "saved_rules"):
        cur.execute(f"SELECT count(*) FROM t_{table}")
        count[table] = cur.fetchone()[0]

    def member(q: str = "q") -> str:
        return f"{base['member']} + {q} * {count['member']} + t.m_r"

    def rules() -> str:
        return f"{base['saved_rules']} + q * {count['saved_rules']} + t.sr_r"

    club_of = f"{base['club']} + q"
    club_overrides = {
        "organiser": {
            "id": f"{base['organiser']} + q",
            "username": "'organiser-' || lpad((q + 1)::text, 4, '0')",
            "session_generation": "0",
        },
        "club": {
            "id": club_of,
            "slug": "'club-' || lpad((q + 1)::text, 4, '0')",
            "table_code": RANDOM_CODE,
        },
        "club_organiser": {"club_id": club_of, "organiser_id": f"{base['organiser']} + q"},
        "member": {"id": f"{base['member']} + q * {count['member']} + t.r", "club_id": club_of},
        "season": {"id": f"{base['season']} + q * {count['season']} + t.r", "club_id": club_of},
        "saved_rules": {
            "id": f"{base['saved_rules']} + q * {count['saved_rules']} + t.r",
            "club_id": club_of,
        },
    }
    for table in CLUB_TABLES:
        started = time.perf_counter()
        rows = copy_rows(cur, table, f"t_{table}", copies, club_overrides[table])
        generation.add(table, time.perf_counter() - started, rows)
    conn.commit()

    # Rows per club night and table, and where each night's copies start.
    nights: dict[date, dict[str, int]] = {}
    for table in GAME_TABLES:
        cur.execute(f"SELECT day, count(*) FROM t_{table} GROUP BY day")
        for day, rows in cur.fetchall():
            nights.setdefault(day, {})[table] = rows
    running = dict((table, base[table]) for table in GAME_TABLES)
    started_all = time.perf_counter()
    for done, day in enumerate(sorted(nights), start=1):
        n = nights[day]
        start = {}
        for table in GAME_TABLES:
            start[table] = running[table]
            made = copies if table in CLUB_ONLY else all_copies
            running[table] += made * n.get(table, 0)

        def new(table: str, rank: str = "t.r", start=start, n=n) -> str:
            return f"{start[table]} + q * {n.get(table, 0)} + {rank}"

        is_club = f"q < {copies}"
        day_overrides = {
            "game": {
                "id": new("game"),
                "secret": RANDOM_SECRET,
                "club_id": f"CASE WHEN {is_club} THEN {club_of} END",
                "saved_rules_id": f"CASE WHEN {is_club} THEN {rules()} END",
                "rules_name": f"CASE WHEN {is_club} THEN t.rules_name END",
            },
            "side": {"id": new("side"), "game_id": new("game", "t.g_r")},
            "player": {
                "id": new("player"),
                "side_id": new("side", "t.s_r"),
                "member_id": f"CASE WHEN {is_club} THEN {member()} END",
            },
            "deal": {"id": new("deal"), "game_id": new("game", "t.g_r")},
            "deal_score": {
                "id": new("deal_score"),
                "deal_id": new("deal", "t.d_r"),
                "side_id": new("side", "t.s_r"),
            },
            "member_result": {
                "id": new("member_result"),
                "club_id": club_of,
                "game_id": new("game", "t.g_r"),
                "side_id": new("side", "t.s_r"),
                "member_id": member(),
                "saved_rules_id": f"coalesce({rules()}, 0)",
            },
            "member_day": {
                "id": new("member_day"),
                "club_id": club_of,
                "member_id": member(),
                "saved_rules_id": f"coalesce({rules()}, 0)",
            },
        }
        for table in GAME_TABLES:
            if not n.get(table):
                continue
            made = copies if table in CLUB_ONLY else all_copies
            if not made:
                continue
            started = time.perf_counter()
            where = f"t.day = DATE '{day.isoformat()}'"
            rows = copy_rows(cur, table, f"t_{table}", made, day_overrides[table], where)
            generation.add(table, time.perf_counter() - started, rows)
        conn.commit()
        if done % 10 == 0 or done == len(nights):
            took = time.perf_counter() - started_all
            left = took / done * (len(nights) - done)
            log(f"  club night {done} of {len(nights)} copied ({took:.0f} s, {left:.0f} s left)")

    started = time.perf_counter()
    for table in ("organiser", "club", "member", "season", "saved_rules", *GAME_TABLES):
        cur.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f'(SELECT max(id) FROM "{table}"))'
        )
    conn.commit()
    generation.add("(sequences)", time.perf_counter() - started, 0)
    conn.close()
    return generation


def check_foreign_keys(url: str) -> float:
    """Every foreign key of the copied tables holds (one anti-join each); seconds taken."""
    started = time.perf_counter()
    with connect(url) as conn:
        keys = conn.execute(
            "SELECT c.conrelid::regclass::text, a.attname, c.confrelid::regclass::text, "
            "p.attname FROM pg_constraint c "
            "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] "
            "JOIN pg_attribute p ON p.attrelid = c.confrelid AND p.attnum = c.confkey[1] "
            "WHERE c.contype = 'f' AND cardinality(c.conkey) = 1 "
            "AND c.conrelid::regclass::text = ANY(%s)",
            ([*CLUB_TABLES, *GAME_TABLES],),
        ).fetchall()
        for child, column, parent, key in keys:
            broken = conn.execute(
                f'SELECT count(*) FROM {child} c WHERE c."{column}" IS NOT NULL AND NOT EXISTS '
                f'(SELECT 1 FROM {parent} p WHERE p."{key}" = c."{column}")'
            ).fetchone()[0]
            if broken:
                raise SystemExit(f"{broken} rows of {child}.{column} name no {parent}")
    return time.perf_counter() - started


def templates(cur: psycopg.Cursor, club_id: int) -> None:
    """The one club's rows, ranked, in temporary tables: what every copy is made from.

    `r` is a row's rank among its kind (per club for members, seasons and saved rule sets; per
    club night for games and what hangs off them); `g_r`, `s_r`, `d_r`, `m_r` and `sr_r` are
    the ranks of its game, side, deal, member and saved rule set.
    """
    statements = [
        "CREATE TEMP TABLE t_organiser AS SELECT o.*, row_number() OVER (ORDER BY o.id) - 1 AS r"
        f" FROM organiser o JOIN club_organiser co ON co.organiser_id = o.id"
        f" WHERE co.club_id = {club_id}",
        f"CREATE TEMP TABLE t_club AS SELECT c.*, 0 AS r FROM club c WHERE c.id = {club_id}",
        "CREATE TEMP TABLE t_club_organiser AS SELECT co.*, row_number() OVER ("
        f"ORDER BY co.organiser_id) - 1 AS r FROM club_organiser co WHERE co.club_id = {club_id}",
    ]
    for table in ("member", "season", "saved_rules"):
        statements.append(
            f"CREATE TEMP TABLE t_{table} AS SELECT x.*, row_number() OVER (ORDER BY x.id) - 1"
            f' AS r FROM "{table}" x WHERE x.club_id = {club_id}'
        )
    statements += [
        "CREATE TEMP TABLE t_game AS SELECT g.*, g.played_on AS day, tr.r AS sr_r,"
        " row_number() OVER (PARTITION BY g.played_on ORDER BY g.id) - 1 AS r"
        " FROM game g LEFT JOIN t_saved_rules tr ON tr.id = g.saved_rules_id"
        f" WHERE g.club_id = {club_id}",
        "CREATE TEMP TABLE t_side AS SELECT s.*, tg.day, tg.r AS g_r,"
        " row_number() OVER (PARTITION BY tg.day ORDER BY s.game_id, s.id) - 1 AS r"
        " FROM side s JOIN t_game tg ON tg.id = s.game_id",
        "CREATE TEMP TABLE t_player AS SELECT p.*, ts.day, ts.r AS s_r, tm.r AS m_r,"
        " row_number() OVER (PARTITION BY ts.day ORDER BY ts.game_id, p.side_id, p.id) - 1"
        " AS r FROM player p JOIN t_side ts ON ts.id = p.side_id"
        " LEFT JOIN t_member tm ON tm.id = p.member_id",
        "CREATE TEMP TABLE t_deal AS SELECT d.*, tg.day, tg.r AS g_r,"
        " row_number() OVER (PARTITION BY tg.day ORDER BY d.game_id, d.id) - 1 AS r"
        " FROM deal d JOIN t_game tg ON tg.id = d.game_id",
        "CREATE TEMP TABLE t_deal_score AS SELECT ds.*, td.day, td.r AS d_r, ts.r AS s_r,"
        " row_number() OVER (PARTITION BY td.day ORDER BY td.game_id, ds.deal_id, ds.id) - 1"
        " AS r FROM deal_score ds JOIN t_deal td ON td.id = ds.deal_id"
        " JOIN t_side ts ON ts.id = ds.side_id",
        "CREATE TEMP TABLE t_member_result AS SELECT mr.*, mr.played_on AS day, tg.r AS g_r,"
        " ts.r AS s_r, tm.r AS m_r, tr.r AS sr_r,"
        " row_number() OVER (PARTITION BY mr.played_on ORDER BY mr.game_id, mr.id) - 1 AS r"
        " FROM member_result mr JOIN t_game tg ON tg.id = mr.game_id"
        " JOIN t_side ts ON ts.id = mr.side_id JOIN t_member tm ON tm.id = mr.member_id"
        " LEFT JOIN t_saved_rules tr ON tr.id = mr.saved_rules_id",
        "CREATE TEMP TABLE t_member_day AS SELECT md.*, md.played_on AS day, tm.r AS m_r,"
        " tr.r AS sr_r, row_number() OVER (PARTITION BY md.played_on ORDER BY md.id) - 1 AS r"
        " FROM member_day md JOIN t_member tm ON tm.id = md.member_id"
        " LEFT JOIN t_saved_rules tr ON tr.id = md.saved_rules_id"
        f" WHERE md.club_id = {club_id}",
    ]
    for statement in statements:
        cur.execute(statement)
    for table in GAME_TABLES:
        cur.execute(f"CREATE INDEX ON t_{table} (day)")
        cur.execute(f"ANALYZE t_{table}")


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


# --- browsers ----------------------------------------------------------------------------------


class HttpBrowser:
    """A phone's browser over HTTP: its cookie jar, gzip accepted, a connection per request."""

    def __init__(self, port: int) -> None:
        self.port, self.cookies = port, SimpleCookie()

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        json_body: object = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        jar = "; ".join(f"{k}={v.value}" for k, v in self.cookies.items())
        sent = {"Accept-Encoding": "gzip", **({"Cookie": jar} if jar else {}), **(headers or {})}
        reply = call(self.port, method, path, form=form, json_body=json_body, headers=sent)
        if "set-cookie" in reply.headers:
            self.cookies.load(reply.headers["set-cookie"])
        return reply


class TestBrowser:
    """The same, through the Flask test client, in this process."""

    def __init__(self, app) -> None:
        self.client = app.test_client()

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        json_body: object = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        response = self.client.open(
            path, method=method, data=form, json=json_body, headers=headers or {}
        )
        got = {k.lower(): v for k, v in response.headers.items()}
        return Reply(response.status_code, got, response.get_data())


def get_ok(browser, path: str) -> Reply:
    reply = browser.request("GET", path)
    assert reply.status == 200, (path, reply.status, reply.body[:300])
    return reply


def new_casual_game(browser) -> str:
    """A classic casual game started through the API, as a phone's app would; its secret."""
    sides = [{"name": "North", "players": ["Ann", "Bob"]}, {"name": "South"}]
    body = {"ruleset": "classic", "sides": sides}
    reply = browser.request("POST", "/api/v1/games", json_body=body)
    assert reply.status == 201, reply.body[:300]
    return reply.json()["key"]


def csrf_token(browser, secret: str) -> str:
    page = get_ok(browser, f"/t/{secret}/deals/new")
    found = CSRF.search(page.body)
    assert found, "no CSRF token on the deal form"
    return found.group(1).decode()


def enter_deal(browser, secret: str, token: str) -> None:
    """POST the deal form and follow the redirect to the scoreboard."""
    form = {"csrf_token": token, "idempotency_key": uuid.uuid4().hex, **CLASSIC_DEAL}
    saved = browser.request("POST", f"/t/{secret}/deals/new", form=form)
    assert saved.status == 302, (saved.status, saved.body[:300])
    where = urlsplit(saved.headers["location"])
    board = browser.request("GET", where.path + (f"?{where.query}" if where.query else ""))
    assert board.status == 200, board.status


# --- what is timed -----------------------------------------------------------------------------


@dataclass
class Site:
    """One database's club and games, as the pages reach them."""

    name: str
    url: str
    slug: str
    member_id: int
    scoreboard: str  # the secret of the club's most recent finished game
    opened: list[str]  # secrets of finished club games the home phone has opened


def find_site(name: str, url: str, slug: str, member_name: str) -> Site:
    """The club's pages on one database.

    Within a copied club, game ids rise with the night and, within a night, with the template's
    ids; so ordering by (played_on, id) lists the same games in the same order on both.
    """
    with connect(url) as conn:
        club_id = conn.execute("SELECT id FROM club WHERE slug = %s", (slug,)).fetchone()[0]
        member_id = conn.execute(
            "SELECT id FROM member WHERE club_id = %s AND name = %s", (club_id, member_name)
        ).fetchone()[0]
        latest = conn.execute(
            "SELECT secret FROM game WHERE club_id = %s AND finished_at IS NOT NULL "
            "ORDER BY played_on DESC, id DESC LIMIT 3",
            (club_id,),
        ).fetchall()
    secrets = [row[0] for row in latest]
    return Site(name, url, slug, member_id, secrets[0], secrets)


def busiest_member(url: str) -> str:
    """The name of the one club's member with the most results."""
    with connect(url) as conn:
        return conn.execute(
            "SELECT m.name FROM member_result r JOIN member m ON m.id = r.member_id "
            "JOIN club c ON c.id = r.club_id WHERE c.slug = %s "
            "GROUP BY m.name ORDER BY count(*) DESC, m.name LIMIT 1",
            (TEMPLATE_SLUG,),
        ).fetchone()[0]


@dataclass
class Visitors:
    """The browsers that visit one site: a phone with games, a reader, a scorer."""

    site: Site
    home: object
    reader: object
    scorer: object
    token: str = ""
    game: str = ""
    deals: int = DEALS_PER_GAME


def visitors(site: Site, browser: Callable[[], object]) -> Visitors:
    """Make the browsers: the home phone opens its games, the scorer gets its form's token."""
    seen = Visitors(site, browser(), browser(), browser())
    token = ""
    for _ in range(2):  # two casual games in progress, each with two deals
        secret = new_casual_game(seen.home)
        token = token or csrf_token(seen.home, secret)
        for _deal in range(2):
            enter_deal(seen.home, secret, token)
    for secret in reversed(site.opened):
        get_ok(seen.home, f"/t/{secret}")
    seen.game = new_casual_game(seen.scorer)
    seen.token = csrf_token(seen.scorer, seen.game)
    seen.deals = 0
    return seen


@dataclass(frozen=True)
class Page:
    name: str
    run: Callable[[Visitors], None]
    prepare: Callable[[Visitors], None] = lambda seen: None


def _deal_prepare(seen: Visitors) -> None:
    if seen.deals >= DEALS_PER_GAME:
        seen.game, seen.deals = new_casual_game(seen.scorer), 0


def _deal_run(seen: Visitors) -> None:
    enter_deal(seen.scorer, seen.game, seen.token)
    seen.deals += 1


def _home(seen: Visitors) -> None:
    page = get_ok(seen.home, "/")
    assert page.body.count(b'href="/t/') >= 5, "the home page lists fewer than 5 games"


PAGES = (
    Page("home", _home),
    Page("scoreboard", lambda seen: get_ok(seen.reader, f"/t/{seen.site.scoreboard}")),
    Page("deal entry", _deal_run, _deal_prepare),
    Page("standings", lambda seen: get_ok(seen.reader, f"/clubs/{seen.site.slug}/standings")),
    Page(
        "standings, all seasons",
        lambda seen: get_ok(seen.reader, f"/clubs/{seen.site.slug}/standings?season=all"),
    ),
    Page(
        "member",
        lambda seen: get_ok(seen.reader, f"/clubs/{seen.site.slug}/members/{seen.site.member_id}"),
    ),
    Page("history", lambda seen: get_ok(seen.reader, f"/clubs/{seen.site.slug}/games")),
    Page(
        "games CSV",
        lambda seen: get_ok(seen.reader, f"/clubs/{seen.site.slug}/export/games.csv"),
    ),
)


def median(values: list[float]) -> float:
    return statistics.median(values)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(0.95 * len(ordered) + 0.5) - 1)]


def ratio_interval(small: list[float], big: list[float], rounds: int = 2000) -> tuple[float, float]:
    """A bootstrap 95% interval of median(big) / median(small).

    Rounds are resampled whole: the two requests of a round were made one after the other, on
    the same machine at the same moment, and stay together.
    """
    rng = random.Random(7)
    ratios = []
    for _ in range(rounds):
        picked = rng.choices(range(len(small)), k=len(small))
        ratios.append(median([big[i] for i in picked]) / median([small[i] for i in picked]))
    ratios.sort()
    return ratios[int(0.025 * rounds)], ratios[int(0.975 * rounds) - 1]


def time_pages(
    sites: list[Site], pages: list[Page], requests: int, warm_up: int
) -> dict[str, dict[str, list[float]]]:
    """Serve each database with its own gunicorn and time every page on both, taking turns."""
    times: dict[str, dict[str, list[float]]] = {p.name: {s.name: [] for s in sites} for p in pages}
    servers = [Server("scorekeeper:create_app()", {"DATABASE_URL": s.url}) for s in sites]
    with contextlib.ExitStack() as stack:
        ports = [stack.enter_context(server).port for server in servers]
        seen = [
            visitors(site, lambda port=port: HttpBrowser(port))
            for site, port in zip(sites, ports, strict=True)
        ]
        log(f"  {warm_up} warm-up rounds, then {requests} timed, every page on both in turn")
        started = time.perf_counter()
        for round_ in range(warm_up + requests):
            for index, page in enumerate(pages):
                order = seen if (round_ + index) % 2 == 0 else list(reversed(seen))
                for visitor in order:
                    page.prepare(visitor)
                    began = time.perf_counter()
                    page.run(visitor)
                    took = time.perf_counter() - began
                    if round_ >= warm_up:
                        times[page.name][visitor.site.name].append(took)
            if (round_ + 1) % 25 == 0:
                took = time.perf_counter() - started
                log(f"  round {round_ + 1} of {warm_up + requests} ({took:.0f} s)")
    return times


def print_table(times: dict[str, dict[str, list[float]]]) -> list[str]:
    """The table of medians, p95s and ratios; returns the pages over the target."""
    over = []
    log("")
    log(
        f"| page | {SMALL} median (p95) | {BIG} median (p95) | big/small "
        "(95% interval) | within 1.2× |"
    )
    log("|---|---|---|---|---|")
    for name, by_site in times.items():
        small, big = by_site[SMALL], by_site[BIG]
        ratio = median(big) / median(small)
        low, high = ratio_interval(small, big)
        ok = ratio <= TARGET
        if not ok:
            over.append(name)
        log(
            f"| {name} | {median(small) * 1000:.2f} ms ({p95(small) * 1000:.2f}) | "
            f"{median(big) * 1000:.2f} ms ({p95(big) * 1000:.2f}) | **{ratio:.2f}** "
            f"({low:.2f}–{high:.2f}) | {'yes' if ok else 'NO'} |"
        )
    return over


# --- finding the slow queries ------------------------------------------------------------------


@dataclass
class Statement:
    text: str
    params: object
    seconds: float


class Capture:
    """Every statement a request sends, with its time (SQLAlchemy cursor events)."""

    def __init__(self, engine) -> None:
        self.engine, self.on, self.statements = engine, False, []
        event.listen(engine, "before_cursor_execute", self._before)
        event.listen(engine, "after_cursor_execute", self._after)

    def _before(self, conn, cursor, statement, parameters, context, executemany) -> None:
        conn.info["scale_started"] = time.perf_counter()

    def _after(self, conn, cursor, statement, parameters, context, executemany) -> None:
        started = conn.info.pop("scale_started", None)
        if self.on and started is not None:
            took = time.perf_counter() - started
            # executemany: the first row's parameters (an INSERT of many VALUES has one dict).
            many = executemany and isinstance(parameters, list | tuple) and parameters
            params = parameters[0] if many else parameters
            self.statements.append(Statement(statement, params, took))


def diagnose(sites: list[Site], pages: list[Page], every_plan: set[str], runs: int = 11) -> None:
    """Run each page in process on both databases; print the statements slower on the big one.

    The five statements that grew most are printed, with their plans on both databases if they
    grew by more than 0.2 ms and 1.2 times (or whatever they did, for pages in `every_plan`).
    """
    from scorekeeper.plumbing.db import db

    apps = {}
    for site in sites:
        app = create_app({"SQLALCHEMY_DATABASE_URI": with_driver(site.url), "SECRET_KEY": "x"})
        with app.app_context():
            capture = Capture(db.engine)
        apps[site.name] = (app, capture, visitors(site, lambda app=app: TestBrowser(app)))
    for page in pages:
        log(f"\n### {page.name}: in process, {runs} runs on each database\n")
        per_text: dict[str, dict[str, list[float]]] = {}
        whole: dict[str, list[float]] = {}
        example: dict[tuple[str, str], Statement] = {}
        for run in range(runs + 2):
            for site in sites if run % 2 == 0 else reversed(sites):  # taking turns
                app, capture, seen = apps[site.name]
                page.prepare(seen)
                capture.statements, capture.on = [], True
                began = time.perf_counter()
                page.run(seen)
                took = time.perf_counter() - began
                capture.on = False
                if run < 2:
                    continue  # warm-up
                whole.setdefault(site.name, []).append(took)
                sums: dict[str, float] = {}
                for statement in capture.statements:
                    sums[statement.text] = sums.get(statement.text, 0.0) + statement.seconds
                    example.setdefault((site.name, statement.text), statement)
                for text, seconds in sums.items():
                    per_text.setdefault(text, {}).setdefault(site.name, []).append(seconds)
        sql = {s.name: sum(median(v.get(s.name, [0.0])) for v in per_text.values()) for s in sites}
        log(
            f"whole request: {SMALL} {median(whole[SMALL]) * 1000:.2f} ms "
            f"(SQL {sql[SMALL] * 1000:.2f} ms), {BIG} {median(whole[BIG]) * 1000:.2f} ms "
            f"(SQL {sql[BIG] * 1000:.2f} ms), {len(per_text)} distinct statements"
        )
        slower = []
        for text, by_site in per_text.items():
            small = median(by_site.get(SMALL, [0.0]))
            big = median(by_site.get(BIG, [0.0]))
            slower.append((big - small, small, big, text))
        slower.sort(reverse=True)
        for difference, small, big, text in slower[:5]:
            log(
                f"\n{small * 1000:.2f} ms on {SMALL}, {big * 1000:.2f} ms on {BIG} "
                f"({difference * 1000:+.2f} ms):\n    {squeeze(text)}"
            )
            grew = difference >= 0.0002 and big >= small * TARGET
            if not grew and page.name not in every_plan:
                continue
            for site in sites:
                app, _, _ = apps[site.name]
                log(f"\nEXPLAIN (ANALYZE, BUFFERS) on {site.name}:")
                for line in explain(app, example[site.name, text]):
                    log(f"    {line}")
    for app, _, _ in apps.values():
        with app.app_context():
            db.engine.dispose()


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def explain(app, statement: Statement) -> list[str]:
    """The plan of one captured statement, run for real in a transaction rolled back."""
    from scorekeeper.plumbing.db import db

    with app.app_context(), db.engine.connect() as conn:
        rows = conn.exec_driver_sql(
            "EXPLAIN (ANALYZE, BUFFERS) " + statement.text, statement.params
        ).all()
        conn.rollback()
    return [row[0] for row in rows]


# --- the run -----------------------------------------------------------------------------------


def server_settings(url: str) -> str:
    names = ("server_version", "shared_buffers", "work_mem", "effective_cache_size", "jit")
    with connect(url) as conn:
        return ", ".join(f"{name} {conn.execute(f'SHOW {name}').fetchone()[0]}" for name in names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL"),
        help="a PostgreSQL server the script may create databases in (any database on it)",
    )
    parser.add_argument("--clubs", type=int, default=1000, help="clubs in the big database")
    parser.add_argument("--games", type=int, default=1000, help="finished games per club")
    parser.add_argument(
        "--casual", type=int, default=100_000, help="casual games in the big database"
    )
    parser.add_argument(
        "--requests", type=int, default=200, help="timed requests per page (0: only --explain)"
    )
    parser.add_argument("--warm-up", type=int, default=10, help="warm-up requests per page")
    parser.add_argument("--revision", default="head", help="migrate both databases to this")
    parser.add_argument("--pages", default="", help="time only these pages (comma-separated)")
    parser.add_argument(
        "--explain",
        default="",
        help="diagnose these pages too, with plans (comma-separated, or all)",
    )
    parser.add_argument("--reuse", action="store_true", help="keep existing databases")
    parser.add_argument("--keep", action="store_true", help="do not drop the databases")
    args = parser.parse_args()
    if not args.database_url or not args.database_url.startswith(("postgres", "postgresql")):
        raise SystemExit("PostgreSQL only: set TEST_DATABASE_URL (scripts/with-postgres does).")
    pages = [p for p in PAGES if not args.pages or p.name in args.pages.split(",")]

    small_url = database_url(args.database_url, SMALL)
    big_url = database_url(args.database_url, BIG)
    admin = connect(database_url(args.database_url, make_url(args.database_url).database))
    log(f"machine: {machine()}")
    log(f"server: {server_settings(small_url if args.reuse else args.database_url)}")
    reuse = args.reuse and exists(admin, SMALL) and exists(admin, BIG)
    generated = time.perf_counter()
    if reuse:
        log(f"\nReusing {SMALL} and {BIG}; upgrading both to {args.revision}")
        for name, url in ((SMALL, small_url), (BIG, big_url)):
            log(f"  {name}: migrations took {migrate(url, args.revision):.1f} s")
        log(f"  vacuum and analyse {BIG}: {vacuum(big_url):.1f} s")
        vacuum(small_url)
    else:
        drop(admin, BIG)
        drop(admin, SMALL)
        admin.execute(f'CREATE DATABASE "{SMALL}"')
        log(f"\n{SMALL}: migrations to {args.revision}: {migrate(small_url, args.revision):.1f} s")
        log(f"{SMALL}: one club of {args.games:,} games by demo.fill_demo")
        filled = fill_small(small_url, args.games)
        log(f"  filled in {filled:.1f} s")
        vacuum(small_url)
        started = time.perf_counter()
        admin.execute(f'CREATE DATABASE "{BIG}" TEMPLATE "{SMALL}"')
        log(f"{BIG}: made from {SMALL} in {time.perf_counter() - started:.1f} s")
        with loading_settings(admin):
            generation = copy_clubs(big_url, args.clubs, args.casual)
        if generation.triggers_off:
            log(f"  every foreign key checked: {check_foreign_keys(big_url):.1f} s")
        log(f"  vacuum and analyse: {vacuum(big_url):.1f} s")
        log("\n| table | rows added | seconds | rows/s |")
        log("|---|---|---|---|")
        for table, seconds in generation.seconds.items():
            rows = generation.rows[table]
            rate = f"{rows / seconds:,.0f}" if rows and seconds else ""
            log(f"| {table} | {rows:,} | {seconds:.1f} | {rate} |")
        log(
            f"| **all** | {sum(generation.rows.values()):,} | "
            f"{sum(generation.seconds.values()):.1f} | |"
        )
    log(f"\nEverything before timing: {time.perf_counter() - generated:.0f} s")
    small_rows, big_rows = table_rows(small_url), table_rows(big_url)
    log(f"\n| table | {SMALL} | {BIG} |")
    log("|---|---|---|")
    for table in small_rows:
        log(f"| {table} | {small_rows[table]:,} | {big_rows[table]:,} |")
    log(f"| (database size) | {size_of(admin, SMALL)} | {size_of(admin, BIG)} |")

    with connect(big_url) as conn:
        clubs = conn.execute("SELECT count(*) FROM club").fetchone()[0]
    big_slug = f"club-{clubs // 2:04d}" if clubs > 1 else TEMPLATE_SLUG
    check_copy(small_url, big_url, big_slug)
    member_name = busiest_member(small_url)
    sites = [
        find_site(SMALL, small_url, TEMPLATE_SLUG, member_name),
        find_site(BIG, big_url, big_slug, member_name),
    ]
    log(f"\nTiming: gunicorn -w 1 (sync) on each database; the club {TEMPLATE_SLUG} on {SMALL}")
    log(f"and {big_slug} on {BIG}; the member page is {member_name}'s.")
    over = []
    if args.requests > 0:
        over = print_table(time_pages(sites, pages, args.requests, args.warm_up))
        if over:
            log(f"\nOver {TARGET}×: {', '.join(over)}")
        else:
            log(f"\nEvery page within {TARGET}× of its figure on {SMALL}.")
    asked = [p.strip() for p in args.explain.split(",") if p.strip()]
    diagnosed = [p for p in pages if p.name in over or p.name in asked or "all" in asked]
    if diagnosed:
        diagnose(sites, diagnosed, {p.name for p in pages if p.name in asked or "all" in asked})
    if not args.keep:
        for name in (BIG, SMALL):
            drop(admin, name)
    admin.close()
    log(f"\nThe whole run took {time.perf_counter() - generated:.0f} s.")


if __name__ == "__main__":
    main()
