"""Private links: can timing tell a wrong key for an existing game from a game that does not exist?

Every game request first asks one query (`scorekeeper/services/links.py`, `open_link`) that counts
the
asking address's recent misses and finds the game by its secret. A wrong secret for a real
game and a secret for no game at all should then cost the same. This script serves the app as
the other benches do (gunicorn `-w 1`, sync, on a fresh SQLite file or on DATABASE_URL /
TEST_DATABASE_URL), starts a few games through the API, and times, taking turns in a shuffled
order every round so that machine noise falls on all alike:

- (a) `GET /api/v1/games/<real id>` with a wrong, well-formed `X-Game-Key` (404);
- (b) `GET /api/v1/games/<id no game has>` with a well-formed key (404);
- (c) `GET /t/<wrong secret>`, a page (404);
- (d) `GET /t/<real secret>/live`, the hit path a phone polls every second (200).

An address that misses 20 times in 10 minutes is refused (429). So that the throttle never
answers, the server trusts one proxy (`SCOREKEEPER_PROXIES=1`, werkzeug's ProxyFix) and every
request says it comes from an address of its own in `X-Forwarded-For`. Then, with the server
stopped, it times `links.open_link` alone in process on the same database: a hit (the query a
game request now asks before anything else) and a miss (the query, then a `link_miss` row
written).

    .venv/bin/python bench/link_guess.py [--rounds 500] [--games 20] [--lookups 2000]
    scripts/with-postgres .venv/bin/python bench/link_guess.py   # on PostgreSQL

Prints each request's median and p95, the difference (a) - (b) with a bootstrap 95% interval
(of the difference of medians, and of the round-by-round differences), and the chance that an
(a) request is slower than a (b) one (0.5: the two cannot be told apart).
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import secrets
import statistics
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _serve import Server, call, init_db, machine, on_database, warm_ups  # noqa: E402
from deal_entry import GameLink  # noqa: E402

# One deal in each game, so that its live answer is an ordinary one.
DEAL = {"scores": [{"melded_points": 325}, {"melded_points": 300}]}
NEW_GAME = {"ruleset": "classic", "sides": [{"name": "North"}, {"name": "South"}]}
WARM_UP_ROUNDS = warm_ups(20)
BOOTSTRAP = 2000  # resamples for each interval


@dataclass
class Kind:
    """One kind of request: how to make the next one, what it must answer, what it took."""

    label: str
    expected: int
    make: Callable[[], tuple[str, dict[str, str]]]  # path and headers of the next request
    seconds: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)


class Addresses:
    """A different client address for every request (10.0.0.0/8: 16 million of them)."""

    def __init__(self) -> None:
        self.used = 0

    def next(self) -> str:
        self.used += 1
        n = self.used
        return f"10.{(n >> 16) & 255}.{(n >> 8) & 255}.{n & 255}"


def wrong_key(*not_these: str) -> str:
    """A well-formed secret (22 URL-safe characters) that is none of the given ones."""
    while True:
        key = secrets.token_urlsafe(16)
        if key not in not_these:
            return key


def start_games(port: int, count: int) -> list[GameLink]:
    """Games started through the API, one deal in each (entered with the game's key)."""
    games = []
    for _ in range(count):
        reply = call(port, "POST", "/api/v1/games", json_body=NEW_GAME)
        assert reply.status == 201, reply.body[:300]
        created = json.loads(reply.body)
        game = GameLink(created["id"], created["key"])
        assert created["url"] == game.link, created["url"]
        headers = {"X-Game-Key": game.key, "Idempotency-Key": secrets.token_hex(16)}
        path = f"/api/v1/games/{game.id}/deals"
        reply = call(port, "POST", path, json_body=DEAL, headers=headers)
        assert reply.status == 201, reply.body[:300]
        games.append(game)
    return games


def kinds(games: list[GameLink], pick: random.Random) -> list[Kind]:
    """The four requests timed, each made afresh (a random game, a fresh wrong key) each time."""
    keys = [g.key for g in games]
    # Ids no game has: well past the last one.
    missing = max(g.id for g in games) + 1000

    def api_wrong_key() -> tuple[str, dict[str, str]]:
        game = pick.choice(games)
        return f"/api/v1/games/{game.id}", {"X-Game-Key": wrong_key(*keys)}

    def api_no_game() -> tuple[str, dict[str, str]]:
        return f"/api/v1/games/{missing + pick.randrange(1_000_000)}", {
            "X-Game-Key": wrong_key(*keys)
        }

    def page_wrong_link() -> tuple[str, dict[str, str]]:
        return f"/t/{wrong_key(*keys)}", {}

    def live_hit() -> tuple[str, dict[str, str]]:
        return f"{pick.choice(games).link}/live", {}

    return [
        Kind("(a) API, real id, wrong key", 404, api_wrong_key),
        Kind("(b) API, no such id, a key", 404, api_no_game),
        Kind("(c) page /t/<wrong secret>", 404, page_wrong_link),
        Kind("(d) /t/<secret>/live (hit)", 200, live_hit),
    ]


def ask(port: int, kind: Kind, addresses: Addresses) -> float:
    """Send the kind's next request from an address of its own; returns the seconds it took."""
    path, headers = kind.make()
    headers = {**headers, "X-Forwarded-For": addresses.next()}
    started = time.perf_counter()
    reply = call(port, "GET", path, headers=headers)
    took = time.perf_counter() - started
    kind.statuses[reply.status] += 1
    return took


def measure(port: int, games: list[GameLink], rounds: int, pick: random.Random) -> list[Kind]:
    """Each round, every kind once, in a freshly shuffled order."""
    addresses = Addresses()
    timed = kinds(games, pick)
    for _ in range(WARM_UP_ROUNDS):
        for kind in timed:
            ask(port, kind, addresses)
    for kind in timed:
        kind.statuses.clear()
    for _ in range(rounds):
        order = list(timed)
        pick.shuffle(order)
        for kind in order:
            kind.seconds.append(ask(port, kind, addresses))
    return timed


def p95(values: list[float]) -> float:
    """Nearest-rank 95th percentile (as `_serve.ms`)."""
    ordered = sorted(values)
    return ordered[max(0, int(0.95 * len(ordered) + 0.5) - 1)]


def interval(
    estimate: Callable[[random.Random], float], pick: random.Random
) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of an estimate over bootstrap resamples."""
    found = sorted(estimate(pick) for _ in range(BOOTSTRAP))
    return found[int(0.025 * BOOTSTRAP)], found[int(0.975 * BOOTSTRAP) - 1]


def resample(values: list[float], pick: random.Random) -> list[float]:
    return pick.choices(values, k=len(values))


def slower_share(a: list[float], b: list[float]) -> float:
    """The chance that a random (a) took longer than a random (b); ties count half."""
    ordered = sorted(b)
    wins = 0.0
    for x in a:
        below, up_to = bisect.bisect_left(ordered, x), bisect.bisect_right(ordered, x)
        wins += below + (up_to - below) / 2
    return wins / (len(a) * len(b))


@dataclass(frozen=True)
class Lookups:
    """`links.open_link` alone, in process: seconds for each hit and each miss."""

    hits: list[float]
    misses: list[float]
    miss_rows: int
    miss_addresses: int


def time_lookups(database_url: str, games: list[GameLink], count: int) -> Lookups:
    """Time the link lookup alone, hits and misses taking turns, each in a fresh transaction.

    The connection is checked out (and pinged, `pool_pre_ping`) before the clock starts: a
    request pays that once whatever its first query is, so what is timed is what the lookup
    adds to a request.
    """
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("SECRET_KEY", secrets.token_hex(32))
    from sqlalchemy import distinct, func, select

    from scorekeeper import create_app
    from scorekeeper.plumbing.db import db
    from scorekeeper.plumbing.models import LinkMiss
    from scorekeeper.services import links

    app = create_app()

    def lookup(secret: str, address: str) -> tuple[links.Opened, float]:
        # As in a GET request (on SQLite, a GET's transaction begins without the write lock).
        with app.test_request_context("/", method="GET"):
            db.session.connection()
            started = time.perf_counter()
            opened = links.open_link(secret, address)
            took = time.perf_counter() - started
            db.session.remove()
        return opened, took

    hits: list[float] = []
    misses: list[float] = []
    keys = [g.key for g in games]
    with app.app_context():
        warm = warm_ups(50)
        for n in range(count + warm):  # the first 50 warm the pool and the statements
            game = games[n % len(games)]
            found, took = lookup(game.key, f"in-process-hit-{n}")
            # With its club and live version (one deal saved): the game is what counts here.
            assert isinstance(found, links.Found) and found.game_id == game.id, found
            if n >= warm:
                hits.append(took)
            missed, took = lookup(wrong_key(*keys), f"in-process-miss-{n}")
            assert isinstance(missed, links.Missed), missed
            if n >= warm:
                misses.append(took)
        rows, addresses = db.session.execute(
            select(func.count(), func.count(distinct(LinkMiss.address)))
        ).one()
        db.session.remove()
        db.engine.dispose()
    return Lookups(hits, misses, rows, addresses)


def say(text: str) -> None:
    """Print a long line wrapped at 100 columns."""
    print(textwrap.fill(text, 100, subsequent_indent="  "))


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:+.3f} ms"


def report(timed: list[Kind], lookups: Lookups, args: argparse.Namespace, database: str) -> None:
    pick = random.Random(args.seed + 1)
    print(f"machine: {machine()}")
    say(
        f"database: {database}, gunicorn -w 1 (sync); {args.games} games, {args.rounds} rounds "
        f"of 4 requests in shuffled order, each from its own X-Forwarded-For address"
    )
    print()
    print(f"{'request':32} {'answered':>14} {'median':>10} {'p95':>10}")
    for kind in timed:
        answered = ", ".join(f"{n}x {s}" for s, n in sorted(kind.statuses.items()))
        print(
            f"{kind.label:32} {answered:>14} {statistics.median(kind.seconds) * 1000:7.3f} ms "
            f"{p95(kind.seconds) * 1000:7.3f} ms"
        )
    wrong = [k for k in timed if set(k.statuses) != {k.expected}]
    for kind in wrong:
        print(f"warning: {kind.label} answered {dict(kind.statuses)}, not only {kind.expected}")

    a, b = timed[0].seconds, timed[1].seconds
    difference = statistics.median(a) - statistics.median(b)
    low, high = interval(
        lambda r: statistics.median(resample(a, r)) - statistics.median(resample(b, r)), pick
    )
    paired = [x - y for x, y in zip(a, b, strict=True)]
    paired_low, paired_high = interval(lambda r: statistics.median(resample(paired, r)), pick)
    share = slower_share(a, b)
    scale = statistics.median(b)
    print()
    say(
        f"(a) - (b), difference of medians: {milliseconds(difference)} "
        f"({difference / scale:+.1%} of (b)); 95% bootstrap interval "
        f"{milliseconds(low)} to {milliseconds(high)}"
    )
    say(
        f"(a) - (b), median of the {len(paired)} round-by-round differences: "
        f"{milliseconds(statistics.median(paired))}; 95% interval {milliseconds(paired_low)} "
        f"to {milliseconds(paired_high)}"
    )
    print(f"chance an (a) request took longer than a (b) one: {share:.3f} (0.5: no difference)")
    if low <= 0 <= high:
        say(
            "note: the interval includes 0, so at this sample size a wrong key for a real game "
            f"and a missing game cannot be told apart; a difference under about "
            f"{max(-low, high) * 1000:.3f} ms could still hide in the noise, and each address "
            "gets 20 guesses in 10 minutes before it is refused."
        )
    else:
        say(
            "note: the interval excludes 0: at this sample size the two differ by about "
            f"{abs(difference) * 1000:.3f} ms ({abs(difference) / scale:.1%}). Rerun before "
            "reading much into it: on a shared machine a slow stretch can fall unevenly, and "
            "an address gets only 20 guesses in 10 minutes before it is refused."
        )
    print()
    print(f"links.open_link alone, in process, {len(lookups.hits)} of each, taking turns:")
    rows = (("hit (one SELECT)", lookups.hits), ("miss (SELECT, a row written)", lookups.misses))
    for title, values in rows:
        print(
            f"  {title:34} median {statistics.median(values) * 1000:.3f} ms, "
            f"p95 {p95(values) * 1000:.3f} ms"
        )
    print(f"link_miss rows: {lookups.miss_rows} from {lookups.miss_addresses} addresses", end="")
    if lookups.miss_rows == lookups.miss_addresses:
        print(" (every miss from an address of its own: none could be throttled)")
    else:
        print(" (some addresses missed more than once: was X-Forwarded-For trusted?)")


def run(args: argparse.Namespace, database_url: str) -> None:
    init_db(database_url)
    pick = random.Random(args.seed)
    env = {"DATABASE_URL": database_url, "SCOREKEEPER_PROXIES": "1"}
    with Server("scorekeeper:create_app()", env) as app:
        games = start_games(app.port, args.games)
        timed = measure(app.port, games, args.rounds, pick)
    lookups = time_lookups(database_url, games, args.lookups)
    report(timed, lookups, args, database_url.split(":", 1)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=500, help="rounds of the 4 requests")
    parser.add_argument("--games", type=int, default=20, help="games started (real ids)")
    parser.add_argument("--lookups", type=int, default=2000, help="in-process hits and misses")
    parser.add_argument("--seed", type=int, default=13, help="for the order and the bootstrap")
    args = parser.parse_args()
    if args.rounds < 20 or args.games < 1 or args.lookups < 1:
        parser.error("--rounds must be at least 20, --games and --lookups at least 1")
    on_database(lambda url: run(args, url))


if __name__ == "__main__":
    main()
