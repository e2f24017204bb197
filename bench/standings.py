"""Time the club standings page on demo clubs of 100 and 10,000 games (a script, not a test).

    .venv/bin/python bench/standings.py [--sizes 100,10000] [--requests 50]

Each size gets a fresh SQLite database in a temporary folder, filled by `fill_demo`. The page
is timed through the Flask test client; if it is not there yet (404), the JSON API's standings,
and failing that `standings.standings` itself. The script prints which one it timed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flask_migrate import upgrade
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealScore, Game, Player, Side
from scorekeeper.services import clubs, standings
from scorekeeper.services.demo import fill_demo

SLUG = "demo"
WARM_UP = 5
PAGE = f"/clubs/{SLUG}/standings"
API = f"/api/v1/clubs/{SLUG}/standings"
TARGET_MEDIAN_MS = 50.0
TARGET_RATIO = 3.0


@dataclass(frozen=True)
class Figures:
    """What one size measured."""

    games: int
    db_rows: int
    standings_rows: int
    fill_seconds: float
    timed: str
    median_ms: float
    p95_ms: float
    min_ms: float
    all_seasons_ms: float | None


def measure(games: int, requests: int, folder: Path) -> Figures:
    """Fill a fresh database with a demo club of `games` games and time its standings."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / f'bench-{games}.sqlite'}",
        }
    )
    with app.app_context():
        with contextlib.redirect_stderr(io.StringIO()):  # alembic's INFO lines
            upgrade()
        started = time.perf_counter()
        club = fill_demo(SLUG, games)
        fill_seconds = time.perf_counter() - started
        counted = db.session.execute(
            select(func.count()).select_from(Game).where(Game.club_id == club.id)
        ).scalar_one()
        db_rows = sum(
            db.session.execute(select(func.count()).select_from(model)).scalar_one()
            for model in (Game, Side, Player, Deal, DealScore)
        )
        standings_rows = len(standings.standings(club, standings.Filters()))
        db.session.remove()

    client = app.test_client()
    timed, call = _target(app, client)
    times = _time(call, requests)
    # The page defaults to this season; every season at once is the heaviest view.
    all_seasons = None
    if timed == f"GET {PAGE}":
        all_seasons = statistics.median(
            _time(lambda: client.get(PAGE, query_string={"season": "all"}), requests)
        )
    with app.app_context():
        db.engine.dispose()
    return Figures(
        games=counted,
        db_rows=db_rows,
        standings_rows=standings_rows,
        fill_seconds=fill_seconds,
        timed=timed,
        median_ms=statistics.median(times),
        p95_ms=_p95(times),
        min_ms=min(times),
        all_seasons_ms=all_seasons,
    )


def _time(call: Callable[[], object], requests: int) -> list[float]:
    """Milliseconds per call, after the warm-up calls."""
    times = []
    for n in range(WARM_UP + requests):
        started = time.perf_counter()
        call()
        if n >= WARM_UP:
            times.append((time.perf_counter() - started) * 1000)
    return times


def _target(app, client) -> tuple[str, Callable[[], None]]:
    """The standings page if it answers, else the API, else the service function."""
    for path in (PAGE, API):
        status = client.get(path).status_code
        if status == 200:

            def get(path: str = path) -> None:
                response = client.get(path)
                assert response.status_code == 200, response.status_code

            return f"GET {path}", get
        print(f"  GET {path} answered {status}; falling back")

    def direct() -> None:
        with app.app_context():
            club = clubs.club_by_slug(SLUG)
            standings.standings(club, standings.Filters())
            db.session.remove()

    return "standings.standings(club, Filters()) (direct call, in a fresh app context)", direct


def _p95(times: list[float]) -> float:
    if len(times) < 2:
        return times[0]
    return statistics.quantiles(times, n=20, method="inclusive")[18]


def main() -> None:
    """Run the sizes asked for and print the figures and whether the targets hold."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,10000", help="games per club, comma-separated")
    parser.add_argument("--requests", type=int, default=50, help="timed requests per size")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]

    print(
        f"Machine: {platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs; "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}"
    )
    print(f"Warm-up {WARM_UP} requests, then {args.requests} timed, per size.\n")
    results: dict[int, Figures] = {}
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            print(f"{size:,} games:")
            figures = measure(size, args.requests, Path(folder))
            results[size] = figures
            print(
                f"  filled in {figures.fill_seconds:.1f} s "
                f"({figures.games:,} games, {figures.db_rows:,} rows in games/sides/players/"
                f"deals/scores, {figures.standings_rows} standings rows over all seasons)"
            )
            print(f"  timed: {figures.timed}")
            print(
                f"  median {figures.median_ms:.2f} ms, p95 {figures.p95_ms:.2f} ms, "
                f"min {figures.min_ms:.2f} ms"
            )
            if figures.all_seasons_ms is not None:
                print(f"  all seasons (?season=all): median {figures.all_seasons_ms:.2f} ms")
            print()

    small, large = min(results), max(results)
    if small == large:
        return
    ratio = results[large].median_ms / results[small].median_ms
    median_ok = results[large].median_ms < TARGET_MEDIAN_MS
    print(f"Ratio median({large:,}) / median({small:,}): {ratio:.2f}")
    print(
        f"Target: median at {large:,} under {TARGET_MEDIAN_MS:.0f} ms: "
        f"{'holds' if median_ok else 'MISSED'} ({results[large].median_ms:.2f} ms)"
    )
    print(
        f"Target: ratio at most {TARGET_RATIO:.0f}: "
        f"{'holds' if ratio <= TARGET_RATIO else 'MISSED'} ({ratio:.2f})"
    )


if __name__ == "__main__":
    main()
