"""bench/scale.py's copy of the club inside PostgreSQL: a thousand clubs from one, by SQL."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import psycopg  # noqa: E402
from _scale_db import (  # noqa: E402
    CLUB_ONLY,
    CLUB_TABLES,
    GAME_TABLES,
    RANDOM_CODE,
    RANDOM_SECRET,
    TEMPLATE_SLUG,
    connect,
    log,
)

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
