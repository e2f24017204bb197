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
import asyncio
import json
import os
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _serve import HOST, ROOT, Server, call, init_db, machine, ms, on_database  # noqa: E402

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


# --- capacity: watching phones one core carries ------------------------------------------------

# A table's phones: four players, each watching the scoreboard.
PHONES_PER_TABLE = 4
# What a phone asks for, and how it reads the answer: one keep-alive connection per phone, as a
# browser keeps one; gunicorn closes it after its `keepalive` seconds of quiet, and the phone
# opens another.
REQUEST = (
    "GET /t/{secret}/live?device={device} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    "Accept-Encoding: gzip\r\n{etag}\r\n"
)


class Watcher:
    """One phone watching a game, polling every `every` seconds with its last ETag."""

    def __init__(self, port: int, secret: str, every: float) -> None:
        self.port, self.secret, self.every = port, secret, every
        self.device = secrets.token_hex(16)
        self.etag: str | None = None
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def poll(self) -> int:
        """One poll; its status (OSError if the connection failed)."""
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            etag = f"If-None-Match: {self.etag}\r\n" if self.etag else ""
            self.writer.write(
                REQUEST.format(secret=self.secret, device=self.device, etag=etag).encode()
            )
            try:
                await self.writer.drain()
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (OSError, asyncio.IncompleteReadError):
                # The server closed a connection left quiet past its keep-alive: open another.
                self.close()
                if attempt == 2:
                    raise
                continue
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            fields = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
            await self.reader.readexactly(int(fields.get("content-length", "0")))
            self.etag = fields.get("etag", self.etag)
            if fields.get("connection", "").lower() == "close":
                self.close()
            return status
        raise OSError("no answer")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def _watch(phone: Watcher, until: float, record: list[float], errors: list[int]) -> None:
    loop = asyncio.get_running_loop()
    # Phones do not poll in step with one another.
    await asyncio.sleep(phone.every * int.from_bytes(os.urandom(2), "big") / 65536)
    while loop.time() < until:
        started = loop.time()
        try:
            status = await phone.poll()
            if status not in (200, 304):
                errors[0] += 1
        except (OSError, asyncio.IncompleteReadError, ValueError):
            errors[0] += 1
            phone.close()
        record.append(loop.time() - started)
        await asyncio.sleep(max(0.0, phone.every - (loop.time() - started)))
    phone.close()


def step(port: int, secrets_: list[str], phones: int, every: float, seconds: float):
    """`phones` phones watching the games for `seconds`: poll p95, errors, polls answered."""

    async def go() -> tuple[list[float], int]:
        record: list[float] = []
        errors = [0]
        until = asyncio.get_running_loop().time() + seconds
        watchers = [
            Watcher(port, secrets_[i // PHONES_PER_TABLE % len(secrets_)], every)
            for i in range(phones)
        ]
        await asyncio.gather(*(_watch(w, until, record, errors) for w in watchers))
        return record, errors[0]

    record, errors = asyncio.run(go())
    return percentile(record, 0.95) if record else float("inf"), errors, len(record)


def cpu_seconds(master: int) -> float:
    """CPU seconds used so far by gunicorn's master and its workers (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        pid, parent = int(stat.parent.name), int(fields[1])
        if master in (pid, parent):
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def capacity(args: argparse.Namespace, database_url: str, code: Path | None, every: float):
    """The most watching phones one gunicorn process (a core) answers: 0 errors, p95 < 200 ms."""
    init_db(database_url, code)
    config = ["-c", str(ROOT / "gunicorn.conf.py")]
    env = {"DATABASE_URL": database_url}
    with Server("scorekeeper:create_app()", env, 1, config=config, code=code) as app:
        tables: list[str] = []
        best, phones, rows = 0, args.start, []
        while phones <= args.most:
            while len(tables) * PHONES_PER_TABLE < phones:
                body = {"ruleset": "classic", "sides": [{"name": "Us"}, {"name": "Them"}]}
                reply = call(app.port, "POST", "/api/v1/games", json_body=body)
                assert reply.status == 201, reply.body[:300]
                tables.append(json.loads(reply.body)["key"])
            used = cpu_seconds(app.proc.pid)
            p95, errors, polls = step(app.port, tables, phones, every, args.seconds)
            # At least a clock tick (/proc counts in them): a step too short to use one is not free.
            tick = 1 / os.sysconf("SC_CLK_TCK")
            per_poll = max(cpu_seconds(app.proc.pid) - used, tick) / max(1, polls)
            rows.append((phones, p95, errors, polls / args.seconds, per_poll))
            print(
                f"  {phones:5d} phones polling every {every:.0f} s: {polls / args.seconds:7.1f} "
                f"polls/s, p95 {p95 * 1000:7.1f} ms, errors {errors}; server CPU "
                f"{per_poll * 1000:.2f} ms a poll, so one core answers {1 / per_poll:,.0f} "
                f"polls/s: {every / per_poll:,.0f} such phones",
                flush=True,
            )
            if errors or p95 >= 0.2:
                break
            best = phones
            phones = int(phones * args.factor)
    return best, rows


def run_capacity(args: argparse.Namespace, database_url: str) -> None:
    print(f"machine: {machine()}")
    print(
        f"database: {database_url.split(':', 1)[0]}; gunicorn -c gunicorn.conf.py -w 1 "
        f"(one process: gthread, 12 threads); {PHONES_PER_TABLE} phones a table; each step "
        f"{args.seconds:.0f} s"
    )
    found = {}
    for label, code, every in (
        ("before", Path(args.before) if args.before else None, 1.0),
        ("after, idle tables", None, 5.0),
        ("after, someone entering", None, 1.0),
    ):
        if label == "before" and not args.before:
            continue
        print(f"{label}: {code or ROOT}")
        with tempfile.TemporaryDirectory() as folder:
            url = database_url
            if url.startswith("sqlite"):
                url = f"sqlite:///{folder}/capacity.sqlite"
            else:
                _empty(url)
            found[label] = capacity(args, url, code, every)[0]
        print(f"  => {found[label]} watching phones per core")
    if "before" in found and found["before"]:
        for label, phones in found.items():
            print(f"{label}: {phones} phones, {phones / found['before']:.1f}x before")


def _empty(url: str) -> None:
    """Drop every table of a PostgreSQL database, so each run starts from its own schema."""
    import sqlalchemy

    engine = sqlalchemy.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=12)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--gap", type=float, default=3.0, help="seconds between deals")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument(
        "--capacity",
        action="store_true",
        help="instead: the most watching phones one process carries (0 errors, poll p95 < 200 ms)",
    )
    parser.add_argument("--before", help="with --capacity: a checkout of the code to compare")
    parser.add_argument("--start", type=int, default=100, help="phones in the first step")
    parser.add_argument("--factor", type=float, default=1.5, help="more phones each step")
    parser.add_argument("--most", type=int, default=20000)
    parser.add_argument("--seconds", type=float, default=20.0, help="each step's length")
    args = parser.parse_args()
    if args.capacity:
        on_database(lambda url: run_capacity(args, url))
    else:
        on_database(lambda url: run(args, url))


if __name__ == "__main__":
    main()
