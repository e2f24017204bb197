"""Phones in step: how long a saved deal takes to reach every phone polling its game.

gunicorn serves the app with several sync workers (the README's way) over a fresh SQLite file,
or PostgreSQL with DATABASE_URL / TEST_DATABASE_URL. Phones poll the game's
`/t/<secret>/live` once a second with the ETag of their last answer, exactly as static/app.js
does; a scorer enters a deal through the API (`X-Game-Key: <secret>`, the secret from the
create answer's "key") every few seconds. For every deal and phone, the delay is from the moment
the scorer's save returned to the moment that phone's poll answered with the new version. Also
printed: what an unchanged poll (304) and a changed one (200) cost, and how many polls the
server answered.

    .venv/bin/python bench/live.py [--phones 12] [--deals 10] [--workers 4]
    scripts/with-postgres .venv/bin/python bench/live.py

Target (issue 7): every phone sees a new or corrected deal within 2 seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _serve import Server, call, init_db, machine, ms, on_database  # noqa: E402

POLL_SECONDS = 1.0  # as static/app.js
ENTRY = {
    "scores": [
        {"melded_points": 325},
        {"melded_points": 300},
    ]
}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(share * len(ordered) + 0.5) - 1)]


class Phone(threading.Thread):
    """One phone polling a game: when it first saw each version, and what each poll cost."""

    def __init__(self, port: int, secret: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.secret, self.stop = port, secret, stop
        self.device = secrets.token_hex(16)
        self.seen: dict[int, float] = {}
        self.unchanged: list[float] = []
        self.changed: list[float] = []
        self.errors = 0

    def run(self) -> None:
        etag = None
        # Phones do not poll in step with one another.
        time.sleep(POLL_SECONDS * int.from_bytes(os.urandom(2), "big") / 65536)
        while not self.stop.is_set():
            started = time.perf_counter()
            headers = {"If-None-Match": etag} if etag else {}
            path = f"/t/{self.secret}/live?device={self.device}"
            try:
                reply = call(self.port, "GET", path, headers=headers)
            except OSError:
                self.errors += 1
                continue
            took = time.perf_counter() - started
            if reply.status == 304:
                self.unchanged.append(took)
            elif reply.status == 200:
                self.changed.append(took)
                etag = reply.headers.get("etag")
                deals = json.loads(reply.body)["deals"]
                self.seen.setdefault(deals, time.perf_counter())
            else:
                self.errors += 1
            self.stop.wait(max(0.0, POLL_SECONDS - took))


def run(args: argparse.Namespace, database_url: str) -> None:
    init_db(database_url)
    with Server("scorekeeper:create_app()", {"DATABASE_URL": database_url}, args.workers) as app:
        sides = [{"name": "North"}, {"name": "South"}]
        body = {"ruleset": "ten-thousand", "sides": sides}
        reply = call(app.port, "POST", "/api/v1/games", json_body=body)
        assert reply.status == 201, reply.body[:300]
        created = json.loads(reply.body)
        game, secret = created["id"], created["key"]
        stop = threading.Event()
        phones = [Phone(app.port, secret, stop) for _ in range(args.phones)]
        for phone in phones:
            phone.start()
        time.sleep(2 * POLL_SECONDS)
        saved: dict[int, float] = {}
        for number in range(1, args.deals + 1):
            headers = {"Idempotency-Key": secrets.token_hex(16), "X-Game-Key": secret}
            path = f"/api/v1/games/{game}/deals"
            reply = call(app.port, "POST", path, json_body=ENTRY, headers=headers)
            assert reply.status == 201, reply.body[:300]
            saved[number] = time.perf_counter()
            time.sleep(args.gap)
        time.sleep(2 * POLL_SECONDS)
        stop.set()
        for phone in phones:
            phone.join()

    delays, missed = [], 0
    for number, at in saved.items():
        for phone in phones:
            if number in phone.seen:
                delays.append(phone.seen[number] - at)
            else:
                missed += 1
    unchanged = [t for p in phones for t in p.unchanged]
    changed = [t for p in phones for t in p.changed]
    print(f"machine: {machine()}")
    print(
        f"database: {database_url.split(':', 1)[0]}, gunicorn -w {args.workers} (sync); "
        f"{args.phones} phones polling every {POLL_SECONDS:.0f} s, {args.deals} deals "
        f"{args.gap:.0f} s apart"
    )
    print(
        f"save to seen, every phone and deal ({len(delays)}): median "
        f"{statistics.median(delays) * 1000:.0f} ms, p95 {percentile(delays, 0.95) * 1000:.0f}"
        f" ms, max {max(delays) * 1000:.0f} ms; missed {missed}; within 2 s: "
        f"{sum(d <= 2 for d in delays)}/{len(delays) + missed}"
    )
    print(f"poll, nothing changed (304, {len(unchanged)}): {ms(unchanged)}")
    print(f"poll, changed (200, {len(changed)}): {ms(changed)}")
    print(f"errors: {sum(p.errors for p in phones)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=12)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--gap", type=float, default=3.0, help="seconds between deals")
    parser.add_argument("--workers", type=int, default=4)
    args = parser.parse_args()
    on_database(lambda url: run(args, url))


if __name__ == "__main__":
    main()
