"""Throughput and latency under 50 concurrent clients against gunicorn (a script, not a test).

    .venv/bin/python bench/load.py [--seconds 30] [--workers 4] [--writers 25] [--readers 25]
    scripts/with-postgres .venv/bin/python bench/load.py --seconds 30
    .venv/bin/python bench/load.py --database-url postgresql://user@127.0.0.1:5432/scratch

Without --database-url (or TEST_DATABASE_URL, which scripts/with-postgres sets) the app runs on
a fresh SQLite file in a temporary folder. The database is brought up to date with
`flask --app scorekeeper init-db`, then gunicorn serves the app on 127.0.0.1 (as the README
says production does). Writers enter deals through the JSON API, each with a fresh
Idempotency-Key and the game's `X-Game-Key` (the secret from the create answer's "key"), and
start a new game every --deals-per-game deals; readers fetch the scoreboard page at the game's
private link (`/t/<secret>`) and the game's JSON in turn. Every request is on its own
connection (gunicorn's sync workers close each one anyway). The client threads run on the same
cores as the server, so the figures are a floor for a machine where they do not. Nothing
leaves 127.0.0.1.
"""

from __future__ import annotations

import argparse
import math
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._serve import BENCH_GAMES_PER_HOUR, BENCH_WRITES, machine, warm_ups  # noqa: E402
from scorekeeper.rules.terms import DEAL_LIMIT  # noqa: E402
from tests.reliability._server import (  # noqa: E402
    DEAL,
    NEW_GAME,
    Gunicorn,
    call,
    children,
    new_key,
)

# Requests of each kind before the clock starts: templates compiled, pools open.
WARM_UP = warm_ups(20)
TROUBLE = ("database is locked", "Traceback", "Unhandled error", "WORKER TIMEOUT")


@dataclass
class Timed:
    """One request: what kind, how long, and what went wrong if anything."""

    kind: str  # "deal", "game" (a new game), "page" or "api"
    seconds: float
    problem: str | None = None


@dataclass
class Run:
    """Everything the clients did."""

    samples: list[Timed] = field(default_factory=list)
    elapsed: float = 0.0
    server_cpu: float = 0.0  # CPU seconds the gunicorn workers used during the run
    client_cpu: float = 0.0  # CPU seconds this process (the clients) used during the run
    database_cpu: float | None = None  # CPU seconds of a local PostgreSQL server, if found
    machine_cpu: float = 0.0  # CPU seconds every process on the machine used during the run
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, sample: Timed) -> None:
        with self.lock:
            self.samples.append(sample)

    def of(self, *kinds: str) -> list[Timed]:
        return [s for s in self.samples if s.kind in kinds]


def new_game(port: int) -> tuple[int, str]:
    """A new game's id and secret (the create answer's "key": every later request needs it)."""
    reply = call(port, "POST", "/api/v1/games", json_body=NEW_GAME)
    assert reply.status == 201, reply.text
    created = reply.json()
    return created["id"], created["key"]


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (share 0.95 for p95); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def timed(port: int, kind: str, method: str, path: str, **kwargs) -> tuple[Timed, object]:
    """Send one request and time it; a status other than the expected one is a problem."""
    expected = 201 if method == "POST" else 200
    t0 = time.perf_counter()
    reply = None
    try:
        reply = call(port, method, path, **kwargs)
        problem = None
        if reply.status != expected:
            problem = f"{method} {path}: {reply.status} {reply.body[:200]!r}"
    except Exception as exc:  # a refused or broken connection is a figure, not a crash
        problem = f"{method} {path}: {type(exc).__name__}: {exc}"
    return Timed(kind, time.perf_counter() - t0, problem), reply


def load(
    server: Gunicorn,
    *,
    writers: int,
    readers: int,
    seconds: float,
    deals_per_game: int,
    database_url: str | None = None,
) -> Run:
    """Run the writers and readers for `seconds`; every loop also stops at a request cap."""
    run, port = Run(), server.port
    # Slot i: writer i's current game, as (id, secret).
    games = [new_game(port) for _ in range(writers)]
    cap = max(1000, int(seconds * 2000))  # per thread: far above what a thread can reach
    start = threading.Barrier(writers + readers + 1, timeout=60)
    deadline = [0.0]  # set before the barrier opens: no thread reads it earlier

    def writer(index: int) -> None:
        start.wait()
        entered = 0
        for n in range(cap):
            if time.monotonic() >= deadline[0]:
                return
            if entered >= deals_per_game:
                sample, reply = timed(port, "game", "POST", "/api/v1/games", json_body=NEW_GAME)
                run.add(sample)
                if sample.problem is None:
                    created = reply.json()
                    games[index] = (created["id"], created["key"])
                    entered = 0
                continue
            game, secret = games[index]
            path = f"/api/v1/games/{game}/deals"
            headers = {"Idempotency-Key": new_key(f"b{index}.{n}"), "X-Game-Key": secret}
            sample, _ = timed(port, "deal", "POST", path, json_body=DEAL, headers=headers)
            run.add(sample)
            entered += sample.problem is None

    def reader(index: int) -> None:
        start.wait()
        for n in range(cap):
            if time.monotonic() >= deadline[0]:
                return
            game, secret = games[(index + n) % len(games)]
            if n % 2:
                sample, _ = timed(port, "page", "GET", f"/t/{secret}")
            else:
                key = {"X-Game-Key": secret}
                sample, reply = timed(port, "api", "GET", f"/api/v1/games/{game}", headers=key)
                if sample.problem is None:
                    # One consistent snapshot: every deal adds 50 to each side's total
                    # (deals_total: the answer lists one page of the game's deals).
                    state = reply.json()
                    totals = [side["total"] for side in state["sides"]]
                    if totals != [50 * state["deals_total"]] * len(totals):
                        sample.problem = f"inconsistent read of game {game}: {totals}"
            run.add(sample)

    threads = [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(writers)]
    threads += [threading.Thread(target=reader, args=(i,), daemon=True) for i in range(readers)]
    for thread in threads:
        thread.start()
    workers = children(server.proc.pid)
    database = postgres_pids(database_url)
    server_before, client_before = cpu_seconds(workers), _own_cpu()
    database_before, machine_before = cpu_seconds(database), machine_busy()
    began = time.monotonic()
    deadline[0] = began + seconds
    start.wait()
    for thread in threads:
        thread.join(timeout=seconds + 120)
    run.elapsed = time.monotonic() - began
    run.client_cpu = _own_cpu() - client_before
    run.machine_cpu = machine_busy() - machine_before
    if database:
        # Backends that started during the run (new connections) count from zero.
        now = sorted(set(database) | set(postgres_pids(database_url)))
        run.database_cpu = cpu_seconds(now) - database_before
    # Workers that started during the run (a replaced one) count from zero.
    run.server_cpu = cpu_seconds(sorted(set(workers) | set(children(server.proc.pid))))
    run.server_cpu -= server_before
    if any(thread.is_alive() for thread in threads):
        raise RuntimeError("a client thread did not finish in time")
    return run


def _own_cpu() -> float:
    """CPU seconds this process has used."""
    times = os.times()
    return times.user + times.system


def warm_up(port: int) -> None:
    """A few requests of each kind, so no figure includes a worker's first request."""
    game, secret = new_game(port)
    for n in range(WARM_UP):
        headers = {"Idempotency-Key": new_key(f"warm{n}"), "X-Game-Key": secret}
        call(port, "POST", f"/api/v1/games/{game}/deals", json_body=DEAL, headers=headers)
        call(port, "GET", f"/t/{secret}")
        call(port, "GET", f"/api/v1/games/{game}", headers={"X-Game-Key": secret})


def machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (not idle, not waiting on disk) so far."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    # Guests are already counted in user time: only the first eight fields add up.
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def postgres_pids(url: str | None) -> list[int]:
    """The local PostgreSQL server of `url` and its backends, found by port in /proc; or []."""
    if not url:
        return []
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.host not in (None, "", "localhost", "127.0.0.1", "::1"):
        return []
    port = str(parsed.port or 5432)
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            argv = proc.joinpath("cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        words = [a.decode(errors="replace") for a in argv if a]
        if not words or not words[0].endswith("postgres"):
            continue
        given = next((b for a, b in zip(words, words[1:], strict=False) if a == "-p"), "5432")
        if given == port:
            return [int(proc.name), *children(int(proc.name))]
    return []


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time the given processes have used so far (from /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            # Fields after the command name (which may hold spaces): utime and stime are 12, 13.
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks


def code_version() -> str:
    """The commit the figures belong to, and whether the work tree differs from it."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except OSError:
        return "unknown"
    return f"{head or 'unknown'}" + (" with uncommitted changes" if dirty else "")


def database_name(url: str | None) -> str:
    """What the app stores its data in, with the server's version."""
    if not url:
        return f"SQLite {sqlite3.sqlite_version} (one file, WAL)"
    from sqlalchemy import create_engine, text

    from scorekeeper import with_driver

    engine = create_engine(with_driver(url))
    try:
        with engine.connect() as conn:
            version = conn.execute(text("SHOW server_version")).scalar()
    except Exception as exc:  # the figure is still worth printing without the version
        version = f"version unknown: {type(exc).__name__}"
    finally:
        engine.dispose()
    return f"PostgreSQL {version}"


def line(label: str, samples: list[Timed], elapsed: float) -> str:
    """Count, rate and latency percentiles of some requests."""
    ms = [s.seconds * 1000 for s in samples]
    rate = len(samples) / elapsed if elapsed else 0.0
    p50, p95, p99 = (percentile(ms, q) for q in (0.50, 0.95, 0.99))
    return (
        f"  {label:<18} {len(samples):7} {rate:8.1f}/s   p50 {p50:7.1f} ms   "
        f"p95 {p95:7.1f} ms   p99 {p99:7.1f} ms   max {max(ms, default=float('nan')):7.1f} ms"
    )


def report(run: Run, args: argparse.Namespace, db: str, server: Gunicorn) -> str:
    """The figures, as printed."""
    problems = [s.problem for s in run.samples if s.problem]
    log = server.log()
    trouble = {t: log.count(t) for t in TROUBLE if t in log}
    writes, reads = run.of("deal", "game"), run.of("page", "api")
    total = len(run.samples) / run.elapsed if run.elapsed else 0.0
    cores = len(os.sched_getaffinity(0))
    per_request = 1000 * run.server_cpu / len(run.samples) if run.samples else float("nan")
    ours = run.server_cpu + run.client_cpu + (run.database_cpu or 0.0)
    others = max(0.0, run.machine_cpu - ours)
    database = "" if run.database_cpu is None else f", database {run.database_cpu:.1f} s"
    lines = [
        f"load: {args.writers} writers + {args.readers} readers for {run.elapsed:.1f} s, "
        f"a new game every {args.deals_per_game} deals",
        f"server: gunicorn -w {args.workers} (sync workers) on 127.0.0.1",
        f"database: {db}",
        f"machine: {machine()}",
        f"code: {code_version()}",
        f"requests: {len(run.samples)} = {total:.1f} req/s",
        line("writes", writes, run.elapsed),
        line("  deals (POST)", run.of("deal"), run.elapsed),
        line("  new games (POST)", run.of("game"), run.elapsed),
        line("reads", reads, run.elapsed),
        line("  scoreboard page", run.of("page"), run.elapsed),
        line("  game JSON", run.of("api"), run.elapsed),
        f"cpu: server {run.server_cpu:.1f} s{database}, clients {run.client_cpu:.1f} s, "
        f"other processes {others:.1f} s, of {run.elapsed * cores:.1f} s on {cores} cores",
        f"server cpu per request: {per_request:.1f} ms (a busy machine changes it less than "
        "the rates)",
        f"errors: {len(problems)}" + (f", e.g. {problems[:3]}" if problems else ""),
        "server log: " + (", ".join(f"{t!r} x{n}" for t, n in trouble.items()) or "clean"),
    ]
    if others > 0.15 * run.elapsed * cores:
        lines.append(
            f"warning: other processes took {others / (run.elapsed * cores):.0%} of the CPU "
            "during the run, so the rates are low and the latencies high"
        )
    return "\n".join(lines)


def main() -> int:
    """Parse the options, start the server, load it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="how long to load (30)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers (4)")
    parser.add_argument("--writers", type=int, default=25, help="threads entering deals (25)")
    parser.add_argument("--readers", type=int, default=25, help="threads reading games (25)")
    parser.add_argument(
        "--deals-per-game", type=int, default=10, help="deals before a writer starts a new game"
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("TEST_DATABASE_URL") or None,
        help="PostgreSQL URL (default: TEST_DATABASE_URL, else a fresh SQLite file)",
    )
    args = parser.parse_args()
    if not (0 < args.seconds <= 3600) or args.writers < 1 or args.readers < 0:
        parser.error("--seconds must be in (0, 3600], --writers >= 1, --readers >= 0")
    if not 1 <= args.deals_per_game <= DEAL_LIMIT:  # a game holds at most DEAL_LIMIT deals
        parser.error(f"--deals-per-game must be 1 to {DEAL_LIMIT}")

    with tempfile.TemporaryDirectory(prefix="bench-load-") as folder:
        server = Gunicorn(Path(folder), workers=args.workers)
        if args.database_url:
            server.env["DATABASE_URL"] = args.database_url
        # The writers start a game every few deals, far more than one address may in an hour
        # (scorekeeper/services/creations.py): this measures the load, not that allowance.
        server.env["SCOREKEEPER_GAMES_PER_HOUR"] = str(BENCH_GAMES_PER_HOUR)
        server.env.update(BENCH_WRITES)  # and deals and corrections (writes.py)
        db = database_name(args.database_url)
        print(f"setting up: {db}, gunicorn -w {args.workers} ...", flush=True)
        try:
            server.init_db()
            server.start()
            warm_up(server.port)
            print(f"loading for {args.seconds:g} s ...", flush=True)
            run = load(
                server,
                writers=args.writers,
                readers=args.readers,
                seconds=args.seconds,
                deals_per_game=args.deals_per_game,
                database_url=args.database_url,
            )
        finally:
            server.stop()
        print(report(run, args, db, server))
    return 0


if __name__ == "__main__":
    sys.exit(main())
