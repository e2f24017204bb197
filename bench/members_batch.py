"""Members added in batches of 100 to a club of 4,000 (issue 39).

The third attack found each confirmed add of 100 names taking 3-5 s at 4,000 members (the
look-alike check alone 0.67 s): every new name was compared with every member. This script
builds a club of --members members in bulk (names of made-up syllables, so that names one
letter apart occur as they do in a real club), then adds --batches lists of 100 new names as
an organiser's phone does: the list sent (asked about, since a few of its names look like a
member's), the same list sent again confirmed (the timed add), and the member list after it.
Each step is timed in process through Flask's test client, wall and CPU seconds
(time.process_time: the app's and SQLite's work, not a PostgreSQL server's), median and max.
Target: each confirmed add under 0.5 s.

    .venv/bin/python bench/members_batch.py [--members 4000] [--batches 7]
    scripts/with-postgres .venv/bin/python bench/members_batch.py
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _serve import machine  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import func, insert, select  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.plumbing import alike_keys  # noqa: E402
from scorekeeper.plumbing.db import db  # noqa: E402
from scorekeeper.plumbing.models import Club, Member  # noqa: E402
from scorekeeper.services import members as club_members  # noqa: E402

TARGET_SECONDS = 0.5
BATCH = club_members.MOST_AT_ONCE
SLUG = "big-club"
PASSWORD = "Bench-batch-of-members-7"
SYLLABLES = (
    "an bel cor da el fa gi han is jo ka lu ma ne ol pe qui ra so ta ul vi wen xa yo zu "
    "bri cla dre fro gra kle mon pra sta tri vel"
).split()


def made_up_name(draw: random.Random) -> str:
    """A first and a last name of two or three made-up syllables each ("Kaneol Stavi")."""
    parts = ("".join(draw.choices(SYLLABLES, k=draw.choice((2, 3)))) for _ in range(2))
    return " ".join(part.capitalize() for part in parts)


def new_names(draw: random.Random, taken: set[str], count: int, like: list[str]) -> list[str]:
    """`count` names no member has, a few of them one letter off a member's (asked about)."""
    names: list[str] = []
    for other in draw.sample(like, 3):
        near = other[:-1]  # one letter dropped: looks alike
        if near.casefold() not in taken:
            names.append(near)
            taken.add(near.casefold())
    while len(names) < count:
        name = made_up_name(draw)
        if name.casefold() not in taken:
            names.append(name)
            taken.add(name.casefold())
    return names


def fill(app, members: int, draw: random.Random) -> tuple[set[str], list[str], float]:
    """The club's members inserted in one statement: the names taken, those listed, seconds."""
    started = time.perf_counter()
    with app.app_context():
        club_id = db.session.execute(select(Club.id).where(Club.slug == SLUG)).scalar_one()
        taken: set[str] = set()
        names: list[str] = []
        while len(names) < members:
            name = made_up_name(draw)
            if name.casefold() not in taken:
                taken.add(name.casefold())
                names.append(name)
        rows = [{"club_id": club_id, "name": name} for name in names]
        db.session.execute(insert(Member), [alike_keys.keyed(row) for row in rows])
        db.session.commit()
        counted = db.session.execute(
            select(func.count()).select_from(Member).where(Member.club_id == club_id)
        ).scalar_one()
        assert counted == members, counted
    return taken, names, time.perf_counter() - started


def timed(call: Callable[[], object]) -> tuple[object, float, float]:
    """What a call answered, its wall seconds and its CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    answer = call()
    return answer, time.perf_counter() - wall, time.process_time() - cpu


def summary(label: str, walls: list[float], cpus: list[float]) -> str:
    """One line: median and max of wall and CPU seconds."""
    return (
        f"  {label:<34} wall median {statistics.median(walls):6.3f} s, max {max(walls):6.3f} s;"
        f" CPU median {statistics.median(cpus):6.3f} s, max {max(cpus):6.3f} s"
    )


def run(url: str, members: int, batches: int) -> bool:
    """Build the club, add the batches, print the figures; whether the target was met."""
    app = create_app(
        {
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "SECRET_KEY": "members-batch-bench",
            "SQLALCHEMY_DATABASE_URI": url,
        }
    )
    with app.app_context():
        with contextlib.redirect_stderr(io.StringIO()):  # alembic's INFO lines
            upgrade()
    client = app.test_client()
    assert (
        client.post("/signup", data={"username": "olga", "password": PASSWORD}).status_code == 302
    )
    made = client.post("/clubs/new", data={"name": "Big Club", "slug": SLUG})
    assert made.status_code == 302, made.status_code
    draw = random.Random(39)
    taken, listed, seconds = fill(app, members, draw)
    print(f"{members:,} members filled in {seconds:.2f} s")
    page = f"/clubs/{SLUG}/members"
    steps: dict[str, tuple[list[float], list[float]]] = {
        "list sent (asked about)": ([], []),
        "list confirmed (added)": ([], []),
        "member list after it": ([], []),
    }
    for _ in range(batches):
        names = "\n".join(new_names(draw, taken, BATCH, listed))
        for step, form, status in (
            ("list sent (asked about)", {"names": names}, 200),
            ("list confirmed (added)", {"names": names, "confirm": "yes"}, 302),
        ):
            answer, wall, cpu = timed(lambda form=form: client.post(page, data=form))
            assert answer.status_code == status, (step, answer.status_code)
            steps[step][0].append(wall)
            steps[step][1].append(cpu)
        answer, wall, cpu = timed(lambda: client.get(page))
        assert answer.status_code == 200
        steps["member list after it"][0].append(wall)
        steps["member list after it"][1].append(cpu)
    with app.app_context():
        total = db.session.execute(select(func.count()).select_from(Member)).scalar_one()
        db.engine.dispose()
    print(f"{batches} batches of {BATCH}, the club growing to {total:,} members:")
    for step, (walls, cpus) in steps.items():
        print(summary(step, walls, cpus))
    worst = max(steps["list confirmed (added)"][0])
    met = worst < TARGET_SECONDS
    print(f"Target: each confirmed add under {TARGET_SECONDS} s: {'met' if met else 'NOT met'}")
    return met


def main() -> None:
    """Parse the options, run on DATABASE_URL / TEST_DATABASE_URL or a fresh SQLite file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--members", type=int, default=4000)
    parser.add_argument("--batches", type=int, default=7)
    options = parser.parse_args()
    print(machine())
    with open("/proc/loadavg") as load:
        print(f"load average: {load.read().split()[0]} (2 cores shared)")
    url = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL")
    print(f"database: {'PostgreSQL' if url else 'SQLite file'}")
    if url:
        run(url, options.members, options.batches)
        return
    with tempfile.TemporaryDirectory() as folder:
        run(f"sqlite:///{folder}/members.sqlite", options.members, options.batches)


if __name__ == "__main__":
    main()
