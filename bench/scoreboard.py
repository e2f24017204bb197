"""The scoreboard of a 10,000-point game with 30 deals, served by gunicorn.

Plays a ten-thousand game through the JSON API until a side passes 10,000 on the 30th deal,
then times the scoreboard page (`/t/<secret>`), its JSON twin (`/api/v1/games/<id>` with
`X-Game-Key: <secret>`) and a bare Flask route, alternating, one request per connection.
Prints the medians, p95s, each answer's size (and gzipped, as a phone receives it) and the
ratio to the bare route; then what drawing the QR code of the game's link (segno, as
`scorekeeper/web/sharing.py` draws it for `/t/<secret>/invite.svg`; before issue 18 every scoreboard
drew it into the page) takes in process.

    .venv/bin/python bench/scoreboard.py [--requests 200]
    scripts/with-postgres .venv/bin/python bench/scoreboard.py   # on PostgreSQL
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _serve import HOST, Server, call, init_db, machine, ms, on_database, warm_ups  # noqa: E402
from deal_entry import BARE_LINK  # noqa: E402

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


def timed(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[float, int]:
    started = time.perf_counter()
    reply = call(port, "GET", path, headers=headers)
    took = time.perf_counter() - started
    assert reply.status == 200, (path, reply.status)
    return took, len(reply.body)


def gzipped(port: int, path: str, headers: dict[str, str] | None = None) -> int:
    """Bytes of the answer's body on the wire when the client accepts gzip, as a phone does."""
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        sent = {"Connection": "close", "Accept-Encoding": "gzip", **(headers or {})}
        conn.request("GET", path, headers=sent)
        response = conn.getresponse()
        assert response.status == 200, (path, response.status)
        return len(response.read())
    finally:
        conn.close()


def qr_code_time(link: str, times: int = 200) -> list[float]:
    """Seconds to draw the QR code of this link, as `/t/<secret>/invite.svg` does."""
    from scorekeeper.web.sharing import qr_svg

    for _ in range(20):
        qr_svg(link, "warm-up")
    taken = []
    for _ in range(times):
        started = time.perf_counter()
        qr_svg(link, "QR code of this game's private link")
        taken.append(time.perf_counter() - started)
    return taken


def play(port: int) -> tuple[int, str]:
    """The game's id and its secret (the create answer's "key"), once its 30 deals are in."""
    sides = [{"name": "North", "players": ["Ann", "Bob"]}, {"name": "South"}]
    game = call(
        port, "POST", "/api/v1/games", json_body={"ruleset": "ten-thousand", "sides": sides}
    )
    assert game.status == 201, game.body
    created = json.loads(game.body)
    game_id, key = created["id"], {"X-Game-Key": created["key"]}
    for number in range(1, DEALS + 1):
        deal = QUIET if number < DEALS else LAST
        path = f"/api/v1/games/{game_id}/deals"
        reply = call(port, "POST", path, json_body=deal, headers=key)
        assert reply.status == 201, reply.body
    state = json.loads(call(port, "GET", f"/api/v1/games/{game_id}", headers=key).body)
    assert state["finished"] and state["deals_total"] == DEALS, state["sides"]
    print(f"game {game_id}: {[s['total'] for s in state['sides']]}, winners {state['winners']}")
    return game_id, created["key"]


def run(requests: int, database_url: str) -> None:
    init_db(database_url)
    app_server = Server("scorekeeper:create_app()", {"DATABASE_URL": database_url})
    bare_server = Server("bench.deal_entry:bare_app()", {})
    with app_server as app, bare_server as bare:
        game, secret = play(app.port)
        key = {"X-Game-Key": secret}
        asked = {"page": (f"/t/{secret}", None), "json": (f"/api/v1/games/{game}", key)}
        for _ in range(warm_ups(10)):
            for path, headers in asked.values():
                timed(app.port, path, headers)
            timed(bare.port, BARE_LINK)
        times: dict[str, list[float]] = {"page": [], "json": [], "bare": []}
        sizes: dict[str, int] = {}
        for _ in range(requests):
            for name, (path, headers) in asked.items():
                took, sizes[name] = timed(app.port, path, headers)
                times[name].append(took)
            took, sizes["bare"] = timed(bare.port, BARE_LINK)
            times["bare"].append(took)
        wire = {name: gzipped(app.port, path, headers) for name, (path, headers) in asked.items()}
        wire["bare"] = gzipped(bare.port, BARE_LINK)
        link = f"http://{HOST}:{app.port}/t/{secret}"
    bare_median = statistics.median(times["bare"])
    print(f"machine: {machine()}")
    print(f"database: {database_url.split(':', 1)[0]}, gunicorn -w 1 (sync), {requests} requests")
    for name, title in (("page", "scoreboard page"), ("json", "game JSON"), ("bare", "bare GET")):
        ratio = statistics.median(times[name]) / bare_median
        print(
            f"{title:16} {ms(times[name])}, {sizes[name]:6} bytes ({wire[name]:6} on the wire "
            f"with gzip), ratio {ratio:.2f}"
        )
    print(f"drawing the page's QR code of {link} in process: {ms(qr_code_time(link))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    on_database(lambda url: run(args.requests, url))


if __name__ == "__main__":
    main()
