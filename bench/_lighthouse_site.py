"""What bench/lighthouse.py looks at: the demo club, a game in progress, a club night, the pages.

The demo club seeded through the app's own command, a casual game with a few deals through the
JSON API, a night made in process, every page by name, and the organiser's session cookie.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.reliability._server import BIN, Gunicorn, call  # noqa: E402 -- repository on the path

# A casual game in progress: two sides of two, three deals played.
GAME = {
    "ruleset": "classic",
    "sides": [
        {"name": "Harold & Linda", "players": ["Harold", "Linda"]},
        {"name": "Doug & Rosa", "players": ["Doug", "Rosa"]},
    ],
}
DEALS = [
    [
        {"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True, "melded_points": 310},
        {"books": {"dirty": 1}, "red_threes_down": 1, "melded_points": 185, "leftover_points": 95},
    ],
    [
        {"books": {"clean": 1, "dirty": 1}, "melded_points": 240, "leftover_points": 60},
        {"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True, "melded_points": 355},
    ],
    [
        {"books": {"clean": 2, "dirty": 3, "wild": 1}, "went_out": True, "melded_points": 420},
        {"books": {"clean": 1}, "red_threes_down": 2, "melded_points": 205, "leftover_points": 40},
    ],
]


def seed(server: Gunicorn, demo_games: int) -> None:
    """Fill the public demo club (slug "demo") through the app's own command."""
    subprocess.run(
        [str(BIN / "flask"), "--app", "scorekeeper", "demo", "--games", str(demo_games)],
        cwd=ROOT,
        env=server.env,
        check=True,
        capture_output=True,
        timeout=600,
    )


def game_in_progress(port: int) -> str:
    """A casual game with a few deals, entered through the JSON API; returns its secret."""
    reply = call(port, "POST", "/api/v1/games", json_body=GAME)
    if reply.status != 201:
        raise RuntimeError(f"starting the game: {reply.status} {reply.text[:500]}")
    game, secret = reply.json()["id"], reply.json()["key"]
    for number, scores in enumerate(DEALS, 1):
        reply = call(
            port,
            "POST",
            f"/api/v1/games/{game}/deals",
            json_body={"scores": scores},
            headers={"Idempotency-Key": f"bench-lighthouse-{number}", "X-Game-Key": secret},
        )
        if reply.status != 201:
            raise RuntimeError(f"deal {number}: {reply.status} {reply.text[:500]}")
    return secret


@dataclass
class Night:
    """The demo club's night as its pages are reached: its id, its board link's secret (issue
    37) and its table 1's game link secret."""

    id: int
    board_secret: str
    table_secret: str


def club_night(server: Gunicorn) -> Night:
    """Twelve of the demo club's members' night (issue 29), made in process: round 1 seated,
    a deal saved at each of its 3 tables; its id, board link and a table's game."""
    from scorekeeper import create_app, with_driver
    from scorekeeper.plumbing.db import db
    from scorekeeper.services import clubs, deals
    from scorekeeper.services.access import Level
    from scorekeeper.services.nights import play as night_play

    app = create_app({"SQLALCHEMY_DATABASE_URI": with_driver(server.env["DATABASE_URL"])})
    with app.app_context():
        club = clubs.club_by_slug("demo")
        ids = [m.id for m in club.members[:12]]
        night = night_play.open_night(club, ids, "", "classic", 3, "rotating", "no game")
        night_play.seat_round(night)
        for table in night.rounds[0].tables:
            deals.enter_deal(table.game, Level.TABLE, DEALS[table.number % len(DEALS)])
        found = Night(night.id, night.board_secret, night.rounds[0].tables[0].game.secret)
        db.session.remove()
        db.engine.dispose()
    return found


def pages(port: int, secret: str, night: Night) -> dict[str, str]:
    """Every page Lighthouse can look at, by name (ORGANISER_PAGES are looked at signed in)."""
    members = call(port, "GET", "/clubs/demo/members").text
    found = re.search(r'href="(/clubs/demo/members/\d+)"', members)
    if found is None:
        raise RuntimeError("no member link on /clubs/demo/members")
    return {
        "home": "/",
        "new-game": "/games/new",
        "scoreboard": f"/t/{secret}",
        "deal-entry": f"/t/{secret}/deals/new",
        "rules": "/rules",
        "rule-card": "/rules/classic",
        "club": "/clubs/demo",
        "standings": "/clubs/demo/standings",
        "member": found.group(1),
        # The organiser's phone (issue 28): the demo club as its organiser sees it.
        "club-members": "/clubs/demo/members",
        "club-member": found.group(1),
        "club-settings": "/clubs/demo/settings",
        "club-table-card": "/clubs/demo/settings/table-card",
        "club-new": "/clubs/new",
        "club-game": "/clubs/demo/games/new",
        # A club night (issue 29): the form, its page with round 1 playing, and its board.
        "night-new": "/clubs/demo/nights/new",
        "night": f"/clubs/demo/nights/{night.id}",
        "night-board": f"/clubs/demo/nights/{night.id}/board",
        # The club night as one evening (issue 37): the club's nights, the movement cards, a
        # night table's game as a fresh phone opens it, and the night's read-only link.
        "nights": "/clubs/demo/nights",
        "night-cards": f"/clubs/demo/nights/{night.id}/cards",
        "night-game": f"/t/{night.table_secret}",
        "night-link-board": f"/n/{night.board_secret}",
        "night-link-results": f"/n/{night.board_secret}/results",
    }


# Looked at signed in as the demo club's organiser (its session cookie sent with every request).
ORGANISER_PAGES = {
    "club-members",
    "club-member",
    "club-settings",
    "club-table-card",
    "club-new",
    "club-game",
    "night-new",
    "night",
    "night-board",
    "nights",
    "night-cards",
}
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def organiser_cookie(port: int) -> str:
    """The demo club's organiser signed in through the sign-in form: the session cookie."""
    from scorekeeper.services.demo import ORGANISER, PASSWORD

    form = call(port, "GET", "/login")
    cookie = form.headers.get("set-cookie", "").split(";")[0]
    token = TOKEN.search(form.text)
    if not cookie or token is None:
        raise RuntimeError("the sign-in form gave no session cookie or CSRF token")
    fields = {"csrf_token": token.group(1), "username": ORGANISER, "password": PASSWORD}
    signed = call(port, "POST", "/login", form=fields, headers={"Cookie": cookie})
    if signed.status != 302:
        raise RuntimeError(f"signing in as {ORGANISER}: {signed.status}")
    return signed.headers.get("set-cookie", "").split(";")[0]
