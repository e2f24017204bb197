"""The largest game the rules allow, served by gunicorn: what it costs, and what it costs others.

Builds, in process, a game of the most sides the rules take (`MAX_SIDES`, individuals of the
club preset) whose house rules hold it to the most deals a house rule allows
(`MAX_DEAL_LIMIT`), with no end that play reaches first, filled to `--room` deals short of it.
Then, against gunicorn with the shipped `gunicorn.conf.py` (gthread; `-w` from `--workers`),
one request per connection, it times:

- a save of the next deal (`POST /api/v1/games/<id>/deals`), `--room` times, the last one
  filling the game;
- a correction of deal 1 (`PUT /api/v1/games/<id>/deals/1`), which replays every deal after it;
- the scoreboard page (`/t/<secret>`), the live answer (`/t/<secret>/live`), the phone's
  scorer (`/t/<secret>/scorer`) and the game's JSON (`/api/v1/games/<id>`): time, bytes as
  sent and gzipped;

and finally other tables' saves (each of `--tables` games takes deal after deal from its own
thread), p50 and max, first alone for `--seconds`, then for as long again while `--attackers`
threads correct deal 1 of the worst game without pause.

    .venv/bin/python bench/worst_game.py [--workers 2] [--room 10] [--seconds 15]
    scripts/with-postgres .venv/bin/python bench/worst_game.py
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _serve import ROOT, Server, call, init_db, machine, on_database  # noqa: E402

from scorekeeper.rules.terms import MAX_DEAL_LIMIT, MAX_RULE_NUMBER, MAX_SIDES  # noqa: E402

# Individuals: one player a side, so the most sides fit in the fewest decks the rules allow.
RULESET = "club"
# No end that play reaches before the limit: a target far above what the deals add up to.
HOUSE_RULES = {
    "deal_limit": MAX_DEAL_LIMIT,
    "end_after_deals": None,
    "target_score": 10 * MAX_RULE_NUMBER,
}
# Another table's game, for the saves timed while the worst game is corrected.
OTHER_GAME = {"ruleset": "ten-thousand", "sides": [{"name": "North"}, {"name": "South"}]}
OTHER_DEAL = {"scores": [{"melded_points": 50}, {"melded_points": 50}]}
# An ordinary game, for the same flood of corrections aimed at it: a four-deal evening.
ORDINARY_DEALS = 4


def entry(side: int, melded: int = 200) -> dict[str, object]:
    """One side's line of a quiet deal: a clean book, some points melded and left over."""
    line: dict[str, object] = {
        "books": {"clean": 1},
        "melded_points": melded,
        "leftover_points": 40,
    }
    if side == 0:
        line["red_threes_down"] = 1
    return line


def deal(melded: int = 200) -> dict[str, object]:
    """A whole deal's body: every side's line."""
    return {"scores": [entry(side, melded if side == 0 else 200) for side in range(MAX_SIDES)]}


def build(database_url: str, deals: int) -> tuple[int, str]:
    """The worst game, `deals` deals in, made in process: its id and secret."""
    from scorekeeper import create_app, with_driver
    from scorekeeper.plumbing.db import db
    from scorekeeper.rules import DealEntry
    from scorekeeper.services.games import SideSetup, record_game

    app = create_app({"SQLALCHEMY_DATABASE_URI": with_driver(database_url)})
    with app.app_context():
        sides = [SideSetup(f"Player {n + 1}", [f"Player {n + 1}"]) for n in range(MAX_SIDES)]
        one = [DealEntry.from_dict(line) for line in deal()["scores"]]
        game = record_game(RULESET, sides, [one] * deals, house_rules=dict(HOUSE_RULES))
        found = game.id, game.secret
        db.session.remove()
        db.engine.dispose()
    return found


def timed(port: int, method: str, path: str, **kwargs: object) -> tuple[float, int, bytes]:
    """Seconds, status and body of one request."""
    started = time.perf_counter()
    reply = call(port, method, path, **kwargs)  # type: ignore[arg-type]
    return time.perf_counter() - started, reply.status, reply.body


def figures(values: list[float]) -> str:
    """Median and max, in milliseconds."""
    return f"p50 {statistics.median(values) * 1000:7.1f} ms, max {max(values) * 1000:7.1f} ms"


def other_tables(
    port: int,
    tables: int,
    seconds: float,
    attackers: int,
    worst: tuple[int, str],
    correction: Callable[[int], dict[str, object]] = deal,
):
    """Other tables' save times over `seconds`, with `attackers` threads correcting deal 1 of
    the game `worst` (id, secret) with `correction(melded)`."""
    games = []
    for _ in range(tables):
        reply = call(port, "POST", "/api/v1/games", json_body=OTHER_GAME)
        assert reply.status == 201, reply.body
        started = reply.json()
        games.append((started["id"], {"X-Game-Key": started["key"]}))
    saves: list[float] = []
    corrections: list[float] = []
    problems: list[int] = []
    stop = threading.Event()

    def table(game_id: int, headers: dict[str, str]) -> None:
        while not stop.is_set():
            sent = {**headers, "Idempotency-Key": uuid.uuid4().hex}
            took, status, _ = timed(
                port, "POST", f"/api/v1/games/{game_id}/deals", json_body=OTHER_DEAL, headers=sent
            )
            (saves if status == 201 else problems).append(took if status == 201 else status)
            time.sleep(0.2)  # a table saves a deal every few minutes; this is a busy night

    def attacker(n: int) -> None:
        game_id, secret = worst
        melded = 205
        while not stop.is_set():
            melded = 210 if melded == 205 else 205
            took, status, _ = timed(
                port,
                "PUT",
                f"/api/v1/games/{game_id}/deals/1",
                json_body=correction(melded),
                headers={"X-Game-Key": secret},
            )
            (corrections if status == 200 else problems).append(took if status == 200 else status)

    threads = [threading.Thread(target=table, args=g) for g in games]
    threads += [threading.Thread(target=attacker, args=(n,)) for n in range(attackers)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return saves, corrections, problems


def run(args: argparse.Namespace, database_url: str) -> None:
    init_db(database_url)
    filled = MAX_DEAL_LIMIT - args.room
    started = time.perf_counter()
    game_id, secret = build(database_url, filled)
    print(f"machine: {machine()}")
    print(
        f"database: {database_url.split(':', 1)[0]}; gunicorn.conf.py with -w {args.workers}; "
        f"the worst game: {MAX_SIDES} sides, house rules {HOUSE_RULES}, {filled} deals "
        f"(made in {time.perf_counter() - started:.1f} s)"
    )
    key = {"X-Game-Key": secret}
    config = ["-c", str(ROOT / "gunicorn.conf.py")]
    with Server(
        "scorekeeper:create_app()", {"DATABASE_URL": database_url}, args.workers, config
    ) as app:
        port = app.port
        saves = []
        for _ in range(args.room):
            sent = {**key, "Idempotency-Key": uuid.uuid4().hex}
            took, status, body = timed(
                port, "POST", f"/api/v1/games/{game_id}/deals", json_body=deal(), headers=sent
            )
            assert status == 201, (status, body[:300])
            saves.append(took)
        full = call(port, "POST", f"/api/v1/games/{game_id}/deals", json_body=deal(), headers=key)
        print(
            f"save of the next deal ({len(saves)}, up to deal {MAX_DEAL_LIMIT}): {figures(saves)}"
        )
        print(f"  one more once full: {full.status}, {full.json()['errors'][0]['message']}")
        corrections = []
        for n in range(args.requests):
            took, status, body = timed(
                port,
                "PUT",
                f"/api/v1/games/{game_id}/deals/1",
                json_body=deal(210 if n % 2 else 205),
                headers=key,
            )
            assert status == 200, (status, body[:300])
            corrections.append(took)
        print(f"correction of deal 1 ({len(corrections)}): {figures(corrections)}")
        pages = {
            "scoreboard page": (f"/t/{secret}", None),
            "scoreboard, earliest deals": (f"/t/{secret}?deals_to=1", None),
            "live answer": (f"/t/{secret}/live", None),
            "phone's scorer": (f"/t/{secret}/scorer", None),
            "game JSON": (f"/api/v1/games/{game_id}", key),
        }
        for title, (path, headers) in pages.items():
            times, size, wire = [], 0, 0
            for _ in range(args.requests):
                took, status, body = timed(port, "GET", path, headers=headers)
                assert status == 200, (path, status)
                times.append(took)
                size, wire = len(body), len(gzip.compress(body))
            print(f"{title:27} {figures(times)}, {size:9,} bytes ({wire:7,} gzipped)")
        alone, _, problems = other_tables(port, args.tables, args.seconds, 0, (game_id, secret))
        print(
            f"other tables' saves ({args.tables} tables), alone: {figures(alone)} "
            f"({len(alone)} saves, {len(problems)} failed)"
        )
        during, corrected, problems = other_tables(
            port, args.tables, args.seconds, args.attackers, (game_id, secret)
        )
        print(
            f"  while {args.attackers} threads correct deal 1 of the worst game: {figures(during)} "
            f"({len(during)} saves; {len(corrected)} corrections, "
            f"{figures(corrected) if corrected else '-'}; failed: {problems[:10] or 'none'})"
        )
        # The same flood aimed at an ordinary game: what any client with a game's link can
        # cost others by sending corrections without pause, whatever the game's size. The
        # worst game's cost to others is what it adds to this.
        ordinary = call(port, "POST", "/api/v1/games", json_body=OTHER_GAME).json()
        for _ in range(ORDINARY_DEALS):
            sent = {"X-Game-Key": ordinary["key"], "Idempotency-Key": uuid.uuid4().hex}
            call(
                port,
                "POST",
                f"/api/v1/games/{ordinary['id']}/deals",
                json_body=OTHER_DEAL,
                headers=sent,
            )
        during, corrected, problems = other_tables(
            port,
            args.tables,
            args.seconds,
            args.attackers,
            (ordinary["id"], ordinary["key"]),
            lambda melded: {"scores": [{"melded_points": melded}, {"melded_points": 50}]},
        )
        print(
            f"  while {args.attackers} threads correct deal 1 of an ordinary game (2 sides, "
            f"{ORDINARY_DEALS} deals): {figures(during)} ({len(during)} saves; "
            f"{len(corrected)} corrections, {figures(corrected) if corrected else '-'}; "
            f"failed: {problems[:10] or 'none'})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--room", type=int, default=10, help="deals timed as saves")
    parser.add_argument("--requests", type=int, default=20, help="of each GET and correction")
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--attackers", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=15)
    args = parser.parse_args()
    on_database(lambda url: run(args, url))


if __name__ == "__main__":
    main()
