"""The scoreboard of a 10,000-point game with 30 deals, served by gunicorn.

Plays a ten-thousand game through the JSON API until a side passes 10,000 on the 30th deal,
then times the scoreboard page, its JSON twin and a bare Flask route, alternating, one request
per connection. Prints the medians, p95s, the page's size and the ratio to the bare route.

    .venv/bin/python bench/scoreboard.py [--requests 200]
    scripts/with-postgres .venv/bin/python bench/scoreboard.py   # on PostgreSQL
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _serve import Server, call, init_db, machine, ms, on_database  # noqa: E402

DEALS = 30
# 29 deals of 325 and 300 melded leave North at 9,425; the 30th (North goes out with 3 clean,
# 1 dirty and 1 wild book: 1,500 + 300 + 1,500 + 100 + 300 melded = 3,700) ends the game.
QUIET = {"scores": [{"melded_points": 325}, {"melded_points": 300}]}
LAST = {
    "scores": [
        {"books": {"clean": 3, "dirty": 1, "wild": 1}, "went_out": True, "melded_points": 300},
        {"melded_points": 300},
    ]
}


def timed(port: int, path: str) -> tuple[float, int]:
    started = time.perf_counter()
    reply = call(port, "GET", path)
    took = time.perf_counter() - started
    assert reply.status == 200, (path, reply.status)
    return took, len(reply.body)


def play(port: int) -> int:
    sides = [{"name": "North", "players": ["Ann", "Bob"]}, {"name": "South"}]
    game = call(
        port, "POST", "/api/v1/games", json_body={"ruleset": "ten-thousand", "sides": sides}
    )
    assert game.status == 201, game.body
    game_id = json.loads(game.body)["id"]
    for number in range(1, DEALS + 1):
        deal = QUIET if number < DEALS else LAST
        reply = call(port, "POST", f"/api/v1/games/{game_id}/deals", json_body=deal)
        assert reply.status == 201, reply.body
    state = json.loads(call(port, "GET", f"/api/v1/games/{game_id}").body)
    assert state["finished"] and len(state["deals"]) == DEALS, state["sides"]
    print(f"game {game_id}: {[s['total'] for s in state['sides']]}, winners {state['winners']}")
    return game_id


def run(requests: int, database_url: str) -> None:
    init_db(database_url)
    app_server = Server("scorekeeper:create_app()", {"DATABASE_URL": database_url})
    bare_server = Server("bench.deal_entry:bare_app()", {})
    with app_server as app, bare_server as bare:
        game = play(app.port)
        paths = {"page": f"/games/{game}", "json": f"/api/v1/games/{game}"}
        for _ in range(10):
            for path in paths.values():
                timed(app.port, path)
            timed(bare.port, "/games/1")
        times: dict[str, list[float]] = {"page": [], "json": [], "bare": []}
        sizes: dict[str, int] = {}
        for _ in range(requests):
            for name, path in paths.items():
                took, sizes[name] = timed(app.port, path)
                times[name].append(took)
            took, sizes["bare"] = timed(bare.port, "/games/1")
            times["bare"].append(took)
    bare_median = statistics.median(times["bare"])
    print(f"machine: {machine()}")
    print(f"database: {database_url.split(':', 1)[0]}, gunicorn -w 1 (sync), {requests} requests")
    for name, title in (("page", "scoreboard page"), ("json", "game JSON"), ("bare", "bare GET")):
        ratio = statistics.median(times[name]) / bare_median
        print(f"{title:16} {ms(times[name])}, {sizes[name]:6} bytes, ratio {ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    on_database(lambda url: run(args.requests, url))


if __name__ == "__main__":
    main()
