"""The club side of `load_and_kill.py`: club games finished under load, and the ratings after.

Since issue 39 a club game's finish only marks the club's ratings stale in its own transaction;
each process's folding thread folds the marks after the commit (services/ratings/folder.py).
A worker or master killed between the two leaves marks behind, which the restarted server's
folders must fold with no manual step. So some of the bench's writers finish club games (a
club of six members, classic games of four deals, the sides' players turning round the club),
and afterwards the bench waits until no mark is left and asks `flask recompute --dry-run`
whether any stored figure or rating differs from a fold from scratch.
"""

from __future__ import annotations

import subprocess
import time
from datetime import date, timedelta

from tests.reliability._server import BIN, ROOT, Game

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
# A club game ends after its fourth deal (classic): its writer then takes the next one.
DEALS_PER_CLUB_GAME = 4
# How long the folders may take to fold what the run left, once the load has stopped.
SETTLE_SECONDS = 180


def _app(database_url: str):
    from scorekeeper import create_app, with_driver

    # This process only builds and reads: the server's processes fold.
    config = {"SQLALCHEMY_DATABASE_URI": with_driver(database_url), "RATINGS_FOLD": "off"}
    return create_app({**config, "SECRET_KEY": "bench"})


def club_games(database_url: str, count: int) -> list[Game]:
    """A club of six members and `count` unfinished classic club games, started in process."""
    from scorekeeper.plumbing.db import db
    from scorekeeper.services import accounts, clubs, games
    from scorekeeper.services.games import SideSetup

    app = _app(database_url)
    started: list[Game] = []
    with app.app_context():
        owner = accounts.register("olga", "a long pass phrase for the bench")
        club = clubs.create_club("Bench Club", "bench-club", owner)
        for name in NAMES:
            clubs.add_member(club, name)
        for n in range(count):
            seats = [NAMES[(n + k) % len(NAMES)] for k in (0, 2, 1, 4)]
            sides = [SideSetup(" & ".join(seats[:2]), seats[:2])]
            sides.append(SideSetup(" & ".join(seats[2:]), seats[2:]))
            day = date(2026, 1, 1) + timedelta(days=n % 300)
            game = games.start_game("classic", sides, club=club, played_on=day)
            started.append(Game(game.id, game.secret))
        db.session.remove()
    return started


def ratings_after(database_url: str, env: dict[str, str]) -> tuple[list[str], list[str]]:
    """Wait for the folders to leave no mark, then `flask recompute --dry-run`. (figures, faults)"""
    from sqlalchemy import func, select

    from scorekeeper.plumbing.db import db
    from scorekeeper.plumbing.models import Game as GameRow
    from scorekeeper.plumbing.models import RatingMark, RatingStep

    app = _app(database_url)
    began, marks = time.monotonic(), -1
    with app.app_context():
        while time.monotonic() - began < SETTLE_SECONDS:
            marks = db.session.execute(select(func.count()).select_from(RatingMark)).scalar_one()
            db.session.remove()
            if marks == 0:
                break
            time.sleep(0.5)
        finished = db.session.execute(
            select(func.count())
            .select_from(GameRow)
            .where(GameRow.club_id.is_not(None), GameRow.finished_at.is_not(None))
        ).scalar_one()
        steps = db.session.execute(select(func.count()).select_from(RatingStep)).scalar_one()
        db.session.remove()
    waited = time.monotonic() - began
    faults = [] if marks == 0 else [f"ratings marks still unfolded after {waited:.0f} s: {marks}"]
    checked = subprocess.run(
        [str(BIN / "flask"), "--app", "scorekeeper", "recompute", "--dry-run"],
        cwd=ROOT,
        env={**env, "SCOREKEEPER_RATINGS_FOLD": "off"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    said = [line.strip() for line in checked.stdout.splitlines() if line.strip()]
    if checked.returncode != 0 or any("Dry run: nothing was changed" in line for line in said):
        faults.append("flask recompute --dry-run: " + " | ".join(said[-8:] or [checked.stderr]))
    put_right = [line for line in said if "put right" in line or "matched" in line]
    return [
        f"club games finished: {finished}; rating steps kept: {steps}; ratings marks left: "
        f"{marks}, {waited:.1f} s after the load stopped",
        f"flask recompute --dry-run: {'; '.join(put_right)}",
    ], faults
