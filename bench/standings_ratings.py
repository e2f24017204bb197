"""Time the standings with their Rating column for a club of 1,000 members and 10,000 games,
against the same standings without it (a script, not a test; issue 30).

    .venv/bin/python bench/standings_ratings.py [--members 1000] [--games 10000] [--requests 50]

One fresh SQLite database in a temporary folder, filled by `fill_demo` with the demo club's
members replaced by `--members` of them (so a game's four to six players are drawn from all of
them). Seeding skips the ratings' fold game by game (it is not what is timed, and a commit of
200 games would fold the whole club again each time); the ratings are then built once by
`kept.rebuild_club`, as `flask recompute` would. Then, in the same process, each view is timed
with the ratings kept (the page as it now is) and without the Rating column: the same page
with `services.standings.rating_scope` answering None, so its query joins no rating, which is
the standings as they were before issue 30 (its sums alone, its blank cells).
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
from pathlib import Path

from flask_migrate import upgrade
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Member, Rating, RatingStep
from scorekeeper.services import demo, standings
from scorekeeper.services.ratings import kept

SLUG = "demo"
WARM_UP = 5
PAGE = f"/clubs/{SLUG}/standings"
API = f"/api/v1/clubs/{SLUG}/standings"
# The views timed: (what, path, query); every season at once is the heaviest.
VIEWS = (
    ("page, all seasons", PAGE, {"season": "all"}),
    ("page, all seasons, sorted by rating", PAGE, {"season": "all", "sort": "rating"}),
    ("page, this season", PAGE, {}),
    ("API, all seasons", API, {"season": "all"}),
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
        with _patched(demo, "MEMBERS", names), _patched(kept, "game_changed", lambda _g: None):
            club = demo.fill_demo(SLUG, games)
        filled = time.perf_counter() - started
        started = time.perf_counter()
        kept.rebuild_club(club.id)
        db.session.commit()
        rated = time.perf_counter() - started
        held = {
            model.__tablename__: db.session.execute(
                select(func.count()).select_from(model).where(model.club_id == club.id)
            ).scalar_one()
            for model in (Member, Game, Rating, RatingStep)
        }
        lines = len(standings.standings(club, standings.Filters()))
        db.session.remove()
    return app, filled, rated, held, lines


@contextlib.contextmanager
def _patched(owner: object, name: str, value: object):
    """`owner.name` is `value` for the block."""
    before = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, before)


def _time(call: Callable[[], object], requests: int) -> list[float]:
    """Milliseconds per call, after the warm-up calls."""
    times = []
    for n in range(WARM_UP + requests):
        started = time.perf_counter()
        call()
        if n >= WARM_UP:
            times.append((time.perf_counter() - started) * 1000)
    return times


def _p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20, method="inclusive")[18]


def main() -> None:
    """Seed, then time each view with and without the ratings, interleaved in rounds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--requests", type=int, default=50, help="timed requests per view")
    parser.add_argument("--rounds", type=int, default=3, help="with/without, alternated")
    args = parser.parse_args()
    print(
        f"Machine: {platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs; "
        f"Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}"
    )
    with tempfile.TemporaryDirectory() as folder:
        app, filled, rated, held, lines = seed(args.members, args.games, Path(folder))
        print(
            f"Seeded {held['game']:,} games, {held['member']:,} members in {filled:.0f} s; "
            f"ratings built once in {rated:.1f} s ({held['rating']:,} ratings, "
            f"{held['rating_step']:,} steps); {lines:,} standings lines this season"
        )
        client = app.test_client()
        timed: dict[tuple[str, bool], list[float]] = {}
        for _ in range(args.rounds):
            for label, path, query in VIEWS:
                for with_ratings in (True, False):
                    context = (
                        contextlib.nullcontext()
                        if with_ratings
                        else _patched(standings, "rating_scope", lambda _filters: None)
                    )
                    with context:

                        def get(path: str = path, query: dict = query) -> None:
                            answer = client.get(path, query_string=query)
                            assert answer.status_code == 200, answer.status_code

                        times = _time(get, args.requests)
                    timed.setdefault((label, with_ratings), []).extend(times)
        with app.app_context():
            db.engine.dispose()
    print(
        f"\nWarm-up {WARM_UP}, then {args.requests} timed, per view and round; "
        f"{args.rounds} rounds alternating.\n"
    )
    print("| View | With ratings: median (p95) | Without the Rating column: median (p95) | Ratio |")
    print("|---|---:|---:|---:|")
    for label, _, _ in VIEWS:
        on, off = timed[(label, True)], timed[(label, False)]
        ratio = statistics.median(on) / statistics.median(off)
        print(
            f"| {label} | {statistics.median(on):.2f} ms ({_p95(on):.2f}) | "
            f"{statistics.median(off):.2f} ms ({_p95(off):.2f}) | {ratio:.2f} |"
        )


if __name__ == "__main__":
    main()
