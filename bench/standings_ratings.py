"""Time the standings with their Rating column for a club of 1,000 members and 10,000 games,
against the standings as they were before issue 30, on the same machine and the same database
(a script, not a test; issue 30).

    .venv/bin/python bench/standings_ratings.py [--members 1000] [--games 10000] [--requests 50]

One fresh SQLite database in a temporary folder, filled by `fill_demo` with the demo club's
members replaced by `--members` of them (so a game's four to six players are drawn from all of
them). The fill folds no rating as it commits its batches; it builds them once at its end
(`kept.held`, one whole-club fold after its last commit, `refold.fold_club`), timed on its
own. Then each
view is timed three ways, each in a fresh process of its own (`_standings_timer.py`),
alternating in rounds:

- **now**: this checkout, with the Rating column (the ratings as kept: nothing is folded for a
  request);
- **before issue 30**: the code of `BEFORE`, the last commit before ratings, from a git worktree
  of it, against a copy of the same database downgraded to that commit's schema (the standings'
  "current time" the issue's target names);
- **now without the column**: this checkout with `services.standings.rating_scope` answering
  None, so no rating is joined and the cells are blank: what the column itself costs today.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from flask_migrate import downgrade, upgrade
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Member, Rating, RatingStep
from scorekeeper.services import demo, standings
from scorekeeper.services.ratings import refold

SLUG = "demo"
WARM_UP = 5
PAGE = f"/clubs/{SLUG}/standings"
API = f"/api/v1/clubs/{SLUG}/standings"
# The views timed: (what, path, query); every season at once is the heaviest.
# (Before issue 30 the rating sort did not exist: that view is timed by win %, its default.)
VIEWS = (
    ("page, all seasons", PAGE, "?season=all"),
    ("page, all seasons, sorted by rating", PAGE, "?season=all&sort=rating"),
    ("page, this season", PAGE, ""),
    ("API, all seasons", API, "?season=all"),
)


def seed(members: int, games: int, folder: Path):
    """A fresh database holding the demo club of `members` members and `games` games, its
    ratings built once; the app, and what it holds."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench-ratings.sqlite'}",
        }
    )
    names = tuple(f"Player {n:04d}" for n in range(1, members + 1))
    with app.app_context():
        with contextlib.redirect_stderr(io.StringIO()):  # alembic's INFO lines
            upgrade()
        started = time.perf_counter()
        with _patched(demo, "MEMBERS", names), _patched(refold, "fold_club", _timed_fold):
            club = demo.fill_demo(SLUG, games)
        filled = time.perf_counter() - started - REBUILT[0]
        rated = REBUILT[0]
        held = {
            model.__tablename__: db.session.execute(
                select(func.count()).select_from(model).where(model.club_id == club.id)
            ).scalar_one()
            for model in (Member, Game, Rating, RatingStep)
        }
        lines = len(standings.standings(club, standings.Filters()))
        db.session.remove()
    return app, filled, rated, held, lines


# How long `fill_demo`'s one fold of the club's ratings took (seconds): run at once after its
# last commit (a TESTING app folds so), the whole club rebuilt.
REBUILT = [0.0]
_fold = refold.fold_club


def _timed_fold(club_id: int) -> bool:
    started = time.perf_counter()
    folded = _fold(club_id)
    REBUILT[0] += time.perf_counter() - started
    return folded


@contextlib.contextmanager
def _patched(owner: object, name: str, value: object):
    """`owner.name` is `value` for the block."""
    before = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, before)


# The last commit before issue 30's ratings: the standings as they were when it was filed, and
# its database's schema (the same games, downgraded to it: no ratings, no index added since).
BEFORE = "53eb7eb"
BEFORE_SCHEMA = "0015"


def as_before(database: Path) -> Path:
    """A copy of the database downgraded to `BEFORE_SCHEMA`, beside it."""
    copy = database.with_name("before.sqlite")
    with sqlite3.connect(database) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{copy}"}
    )
    with app.app_context(), contextlib.redirect_stderr(io.StringIO()):
        downgrade(revision=BEFORE_SCHEMA)
        db.engine.dispose()
    return copy


HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# How each way is run: (label, the checkout's root or None for the worktree, the timer's mode).
WAYS = (
    ("now", ROOT, "with"),
    ("before issue 30", None, "with"),
    ("now without the column", ROOT, "without"),
)


def _time(database: Path, code: Path, path: str, mode: str, requests: int) -> list[float]:
    """Milliseconds per request of one view, timed in a fresh process running `code`."""
    answer = subprocess.run(
        [
            sys.executable,
            str(HERE / "_standings_timer.py"),
            str(database),
            path,
            mode,
            str(requests),
            str(WARM_UP),
        ],
        cwd=code,
        env={**os.environ, "PYTHONPATH": str(code)},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(answer.stdout)


def _p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20, method="inclusive")[18]


@contextlib.contextmanager
def _worktree(folder: Path):
    """A git worktree of `BEFORE` in `folder`, removed after."""
    git = ["git", "-C", str(ROOT)]
    subprocess.run([*git, "worktree", "add", "--detach", "-q", str(folder), BEFORE], check=True)
    try:
        yield folder
    finally:
        subprocess.run([*git, "worktree", "remove", "--force", str(folder)], check=True)


def main() -> None:
    """Seed, then time each view the three ways, alternated in rounds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--requests", type=int, default=50, help="timed requests per view")
    parser.add_argument("--rounds", type=int, default=3, help="the three ways, alternated")
    # tests/test_bench_smoke.py: one view, and not the code before issue 30 (a git worktree of
    # a commit a shallow checkout lacks, and a database downgraded to its schema).
    parser.add_argument("--smoke", action="store_true", help="one view, two ways: a smoke run")
    args = parser.parse_args()
    views = VIEWS[:1] if args.smoke else VIEWS
    ways = [way for way in WAYS if way[1] is not None or not args.smoke]
    print(
        f"Machine: {platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs; "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}"
    )
    with tempfile.TemporaryDirectory() as folder:
        app, filled, rated, held, lines = seed(args.members, args.games, Path(folder))
        with app.app_context():
            db.engine.dispose()
        print(
            f"Seeded {held['game']:,} games, {held['member']:,} members in {filled:.0f} s; "
            f"ratings built once in {rated:.1f} s ({held['rating']:,} ratings, "
            f"{held['rating_step']:,} steps); {lines:,} standings lines this season"
        )
        database = Path(folder) / "bench-ratings.sqlite"
        databases = {ROOT: database}
        timed: dict[tuple[str, str], list[float]] = {}
        with contextlib.ExitStack() as stack:
            if len(ways) == len(WAYS):
                databases[None] = as_before(database)
                before = stack.enter_context(_worktree(Path(folder) / "before"))
            for _ in range(args.rounds):
                for label, path, query in views:
                    for way, code, mode in ways:
                        times = _time(
                            databases[code], code or before, path + query, mode, args.requests
                        )
                        timed.setdefault((label, way), []).extend(times)
    print(
        f"\nWarm-up {WARM_UP}, then {args.requests} timed, per view, way and round; "
        f"{args.rounds} rounds alternating; each a fresh process.\n"
    )
    print(
        "| View | Now: median (p95) | Before issue 30: median (p95) | Now / before "
        "| Now without the column: median (p95) | Now / without |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for label, _, _ in views:
        # Left out (--smoke), the code before counts as this checkout's, so the line still prints.
        now, before, without = (
            timed.get((label, way), timed[(label, "now")]) for way, _, _ in WAYS
        )
        print(
            f"| {label} | {statistics.median(now):.2f} ms ({_p95(now):.2f}) | "
            f"{statistics.median(before):.2f} ms ({_p95(before):.2f}) | "
            f"{statistics.median(now) / statistics.median(before):.2f} | "
            f"{statistics.median(without):.2f} ms ({_p95(without):.2f}) | "
            f"{statistics.median(now) / statistics.median(without):.2f} |"
        )


if __name__ == "__main__":
    main()
