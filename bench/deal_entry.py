"""Entering a deal, against a bare Flask route served the same way in the same run.

A deal is entered as a phone does it: POST the deal form at the game's private link
(`/t/<secret>/deals/new`: CSRF token, idempotency key, every figure), follow the 302 to the
scoreboard (`/t/<secret>`) with the session cookie, accepting gzip. Each of those requests
first opens the link (one query, `scorekeeper/services/links.py`), as every game request does. A
bare
route is the same shape with nothing in it: a POST that answers 302 and the GET it points to,
each returning a line of text. Two bare routes are timed:

- in the app: the same gunicorn process serves the app with two bare routes added, so they pass
  through everything every route of the app passes through (session cookie, CSRF check,
  security headers, gzip) and do nothing else. The ratio to them is what entering a deal
  costs over a route of this app that does nothing.
- in a bare Flask app: `bare_app()`, Flask and nothing else, under its own gunicorn.

Both servers are gunicorn with one sync worker (the app on a fresh SQLite file or on
DATABASE_URL); the client takes turns between the three so all see the same machine, and the
ratios of medians are printed.

    .venv/bin/python bench/deal_entry.py [--games 25] [--long 30]
    scripts/with-postgres .venv/bin/python bench/deal_entry.py   # on PostgreSQL

Target: a deal costs at most 3 times the bare route.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
import uuid
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _serve import Server, call, init_db, machine, ms, on_database, warm_ups  # noqa: E402
from flask import Flask, redirect  # noqa: E402

# A typical classic deal: North goes out with 2 clean, 2 dirty and 1 wild book and a red three;
# South melded 130 and was caught with 30.
CLASSIC_DEAL = {
    "s0-books-clean": "2",
    "s0-books-dirty": "2",
    "s0-books-wild": "1",
    "s0-red_threes_down": "1",
    "s0-melded_points": "480",
    "s1-melded_points": "130",
    "s1-leftover_points": "30",
    "went_out": "0",
}
# Ten-thousand: nobody goes out, 325 and 300 melded: 30 deals stay under 10,000.
LONG_DEAL = {"s0-melded_points": "325", "s1-melded_points": "300", "went_out": ""}
CSRF = re.compile(rb'name="csrf_token" type="hidden" value="([^"]+)"')
# The bare routes' addresses have the shape of a game's private link (22 characters).
BARE_LINK = "/t/" + "b" * 22


@dataclass(frozen=True)
class GameLink:
    """A game started through the API: its id, and its secret (the create answer's "key")."""

    id: int
    key: str

    @property
    def link(self) -> str:
        """The game's private link, as a path: its scoreboard."""
        return f"/t/{self.key}"


def bare_app() -> Flask:
    """The yardstick: a POST that redirects, and the page it redirects to."""
    app = Flask("bare")

    @app.post(f"{BARE_LINK}/deals/new")
    def enter():
        return redirect(BARE_LINK)

    @app.get(BARE_LINK)
    def scoreboard():
        return "<!doctype html><title>Scoreboard</title><p>Deal saved.</p>"

    @app.get("/")
    def home():
        return "ok"

    return app


def app_with_bare_routes() -> Flask:
    """The app itself, with a POST that redirects and a GET that answers, doing nothing else."""
    from scorekeeper import create_app

    app = create_app()

    @app.post("/bench/bare")
    def bare_enter():
        return redirect("/bench/bare/done")

    @app.get("/bench/bare/done")
    def bare_done():
        return "<!doctype html><title>Scoreboard</title><p>Deal saved.</p>"

    return app


class Phone:
    """A browser's cookie jar and CSRF token for one game's deal page."""

    def __init__(self, port: int) -> None:
        self.port, self.cookies = port, SimpleCookie()

    def request(self, method: str, path: str, form: dict[str, str] | None = None):
        jar = "; ".join(f"{k}={v.value}" for k, v in self.cookies.items())
        # What a phone's browser sends: it accepts gzip, and its cookies.
        headers = {"Accept-Encoding": "gzip, deflate, br", **({"Cookie": jar} if jar else {})}
        reply = call(self.port, method, path, form=form, headers=headers)
        if "set-cookie" in reply.headers:
            self.cookies.load(reply.headers["set-cookie"])
        return reply

    def token(self, game: GameLink) -> str:
        page = self.request("GET", f"{game.link}/deals/new")
        found = CSRF.search(page.body)
        assert page.status == 200 and found, page.status
        return found.group(1).decode()

    def enter(self, game: GameLink, token: str, figures: dict[str, str]) -> float:
        """POST one deal and follow the redirect; returns the seconds both took."""
        return self.pair(f"{game.link}/deals/new", token, figures)

    def pair(self, path: str, token: str, figures: dict[str, str]) -> float:
        """POST a form and follow the redirect; returns the seconds both took."""
        form = {"csrf_token": token, "idempotency_key": uuid.uuid4().hex, **figures}
        started = time.perf_counter()
        saved = self.request("POST", path, form)
        board = self.request("GET", saved.headers.get("location", "/").split("#")[0])
        took = time.perf_counter() - started
        assert saved.status == 302 and board.status == 200, (saved.status, saved.body[:300])
        return took


def bare_pair(port: int) -> float:
    started = time.perf_counter()
    saved = call(port, "POST", f"{BARE_LINK}/deals/new", form=CLASSIC_DEAL)
    board = call(port, "GET", saved.headers["location"])
    took = time.perf_counter() - started
    assert saved.status == 302 and board.status == 200
    return took


def new_game(port: int, ruleset: str) -> GameLink:
    """Start a game through the API; its secret comes once, in the answer's "key"."""
    sides = [{"name": "North", "players": ["Ann", "Bob"]}, {"name": "South"}]
    reply = call(port, "POST", "/api/v1/games", json_body={"ruleset": ruleset, "sides": sides})
    assert reply.status == 201, reply.body
    answer = json.loads(reply.body)
    return GameLink(answer["id"], answer["key"])


def run(args: argparse.Namespace, database_url: str) -> None:
    init_db(database_url)
    app_server = Server("bench.deal_entry:app_with_bare_routes()", {"DATABASE_URL": database_url})
    bare_server = Server("bench.deal_entry:bare_app()", {})
    with app_server as app, bare_server as bare:
        warm = new_game(app.port, "classic")
        phone = Phone(app.port)
        token = phone.token(warm)
        for _ in range(warm_ups(20)):  # warm all three: imports, templates, connections
            bare_pair(bare.port)
            phone.pair("/bench/bare", token, CLASSIC_DEAL)
        phone.enter(warm, token, CLASSIC_DEAL)

        in_app, in_flask = [], []

        def yardsticks() -> None:
            in_app.append(phone.pair("/bench/bare", token, CLASSIC_DEAL))
            in_flask.append(bare_pair(bare.port))

        short = []
        for _ in range(args.games):
            game = new_game(app.port, "classic")
            for _deal in range(4):
                short.append(phone.enter(game, token, CLASSIC_DEAL))
                yardsticks()

        long_game = new_game(app.port, "ten-thousand")
        by_deal = []
        for _deal in range(args.long):
            by_deal.append(phone.enter(long_game, token, LONG_DEAL))
            yardsticks()

    print(f"machine: {machine()}")
    print(f"database: {database_url.split(':', 1)[0]}, gunicorn -w 1 (sync) for each server")
    print(f"bare route in the app (POST + redirected GET):   {ms(in_app)}")
    print(f"bare route in bare Flask (POST + redirected GET): {ms(in_flask)}")
    rows = [
        (f"classic, deals 1-4 of {args.games} games", short),
        (f"ten-thousand, deals 1-{args.long}", by_deal),
        (f"ten-thousand, deals {args.long - 4}-{args.long}", by_deal[-5:]),
    ]
    for title, values in rows:
        median = statistics.median(values)
        print(
            f"deal entry, {title}: {ms(values)}; ratio {median / statistics.median(in_app):.2f}"
            f" to the app's bare route, {median / statistics.median(in_flask):.2f} to bare Flask"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=25, help="classic games of 4 deals")
    parser.add_argument("--long", type=int, default=30, help="deals of one ten-thousand game")
    args = parser.parse_args()
    on_database(lambda url: run(args, url))


if __name__ == "__main__":
    main()
