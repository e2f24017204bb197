"""A fold of a club's ratings killed midway (SIGKILL of the process folding, issue 39): after a
restart of the app the ratings equal a fold from scratch, with no manual step.

The club is built in process with the app folding nothing (`RATINGS_FOLD` off), the oldest
game corrected, and `flask fold` folds the correction's marks in short transactions (a small
`SCOREKEEPER_RATINGS_FOLD_BATCH`) until it is killed between two of them. Then gunicorn starts
on the same database as a restarted server would: its first request starts each process's
folding thread, whose first look finds the marks left, takes the club over once the killed
folder's lease (`SCOREKEEPER_RATINGS_FOLD_LEASE`) has run out, and folds them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from datetime import date, timedelta

from sqlalchemy import func, select

from scorekeeper import create_app, with_driver
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, RatingMark, RatingStep
from scorekeeper.rules import DealEntry
from scorekeeper.services import accounts, clubs, deals, games
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup
from scorekeeper.services.ratings import kept

from ._server import BIN, ROOT, Gunicorn, call

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
GAMES = 16
LEASE_SECONDS = 2


def _line(books: int) -> DealEntry:
    return DealEntry.from_dict({"books": {"clean": books}})


def build(app) -> tuple[int, int]:
    """A club of six members and `GAMES` finished games, every one rated; (club id, oldest)."""
    with app.app_context():
        olga = accounts.register("olga", "a long pass phrase for olga")
        club = clubs.create_club("Tuesday Club", "tuesday", olga)
        for name in NAMES:
            clubs.add_member(club, name)
        first = None
        for n in range(GAMES):
            seats = [NAMES[(n + k) % len(NAMES)] for k in (0, 1, 2, 3)]
            sides = [SideSetup(" & ".join(seats[:2]), seats[:2])]
            sides.append(SideSetup(" & ".join(seats[2:]), seats[2:]))
            deal = [_line(1 + n % 3), _line(2)]
            game = games.record_game(
                "classic", sides, [deal] * 4, club=club, played_on=date(2026, 1, 1) + timedelta(n)
            )
            first = first or game.id
        club_id = club.id
        db.session.remove()
    return club_id, first


def count(app, model) -> int:
    with app.app_context():
        found = db.session.execute(select(func.count()).select_from(model)).scalar_one()
        db.session.remove()
    return found


def test_a_fold_killed_midway_is_finished_by_the_restarted_app(tmp_path):
    server = Gunicorn(tmp_path, workers=2)
    server.env["SCOREKEEPER_RATINGS_FOLD_LEASE"] = str(LEASE_SECONDS)
    server.init_db()
    uri = with_driver(server.env["DATABASE_URL"])
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": "x", "RATINGS_FOLD": "at_once"})
    club_id, oldest = build(app)
    steps = count(app, RatingStep)
    app.config["RATINGS_FOLD"] = "off"
    killed_midway = False
    for _attempt in range(3):  # the kill must land between two of the fold's transactions
        with app.app_context():
            # The oldest game's deal 1 won by the other side, by more each attempt.
            fixed = [{"books": {"clean": 3 + _attempt}}, {"books": {"clean": 1}}]
            oldest_game = db.session.get(Game, oldest)
            # A finished club game is locked (issue 40): an organiser corrects it with a reason.
            done = deals.correct_deal(
                oldest_game, Level.ORGANISER, 1, fixed, None, reason="The score sheet said so."
            )
            assert type(done).__name__ == "Saved", done
            db.session.remove()
        assert count(app, RatingMark) == 1
        folding = subprocess.Popen(
            [str(BIN / "flask"), "--app", "scorekeeper", "fold"],
            cwd=ROOT,
            env={**server.env, "SCOREKEEPER_RATINGS_FOLD_BATCH": "1"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        # Killed once it has written some of the steps again and not yet the end.
        while count(app, RatingStep) >= steps and folding.poll() is None:
            assert time.monotonic() < deadline, "the fold never began writing"
        os.kill(folding.pid, signal.SIGKILL)
        folding.wait(30)
        if count(app, RatingMark):
            killed_midway = True
            break
    assert killed_midway, "each fold finished before the kill"
    with app.app_context():
        assert kept.updating(club_id)
        assert kept.recompute_club(db.session.get(Club, club_id), dry_run=True) > 0
        db.session.remove()
    server.start()
    try:
        assert call(server.port, "GET", "/").status == 200  # a first request: the folder starts
        deadline = time.monotonic() + 60
        while count(app, RatingMark):
            assert time.monotonic() < deadline, f"never folded:\n{server.log()}"
            time.sleep(0.1)
    finally:
        server.stop()
    with app.app_context():
        assert kept.recompute_club(db.session.get(Club, club_id), dry_run=True) == 0
        db.session.remove()
        db.engine.dispose()
