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
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _scale_copy import check_foreign_keys, copy_clubs  # noqa: E402
from _scale_db import (  # noqa: E402
    BIG,
    SMALL,
    TARGET,
    TEMPLATE_SLUG,
    check_copy,
    connect,
    database_url,
    drop,
    exists,
    fill_small,
    loading_settings,
    log,
    migrate,
    size_of,
    table_rows,
    vacuum,
)
from _scale_explain import diagnose  # noqa: E402
from _scale_pages import PAGES, busiest_member, find_site, print_table, time_pages  # noqa: E402
from _serve import machine  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

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
