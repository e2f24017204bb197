"""Load, a worker killed, then the master killed: no acknowledged deal lost or doubled (a script).

    .venv/bin/python bench/load_and_kill.py [--seconds 60] [--clients 34] [--workers 4]
    scripts/with-postgres .venv/bin/python bench/load_and_kill.py

The attack's run on the README's production settings (issue 26): gunicorn with the shipped
gunicorn.conf.py (4 workers of 12 threads) on 127.0.0.1, over a fresh SQLite file, or over the
PostgreSQL database TEST_DATABASE_URL names (scripts/with-postgres sets it). Half the clients
enter deals through the JSON API, each deal with its own Idempotency-Key and the game's
X-Game-Key, each writer on a game of its own (a new one every --deals-per-game deals); the rest
read the game's JSON and its scoreboard page in turn. A third of the way in, one worker is
killed (SIGKILL; the master starts another); two thirds of the way in, the master is killed
(SIGKILL; its workers leave at once, gunicorn.conf.py's post_fork) and a new server is started
at once on the same port and database. A writer whose deal got no 201 sends it again with the
same key until it does, as a phone does. Afterwards, straight from the database: every deal
acknowledged is stored exactly once, no key is stored twice, every game's deals are numbered
1..n with totals to match. Deals still unacknowledged at the end are sent once more, with their
keys, and each must then be stored exactly once. Some writers (--club-writers) finish a club's
games instead, whose ratings are folded after the commit by each process's folding thread:
once the run is over, the bench waits for the folders to leave no mark (the kills may have left
some) and `flask recompute --dry-run` must find no rating or figure to put right
(bench/_load_kill_club.py). Prints the figures; exits 1 if a check fails.
Nothing leaves 127.0.0.1. tests/reliability/test_crash.py is CI's shorter cousin (everything
killed at once, mid-load).
"""

from __future__ import annotations

import argparse
import os
import runpy
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.client import HTTPException
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench._load_kill_club import DEALS_PER_CLUB_GAME, club_games, ratings_after  # noqa: E402
from bench._serve import BENCH_WRITES, machine  # noqa: E402 -- needs the repository on the path
from bench.load import code_version, database_name, percentile  # noqa: E402
from tests.reliability import _server  # noqa: E402
from tests.reliability._server import (  # noqa: E402
    DEAL,
    NEW_GAME,
    POSTGRES_URL,
    Game,
    Gunicorn,
    call,
    children,
    new_key,
    proc_alive,
    read_db,
)

SHIPPED = ROOT / "gunicorn.conf.py"
WORKERS = runpy.run_path(str(SHIPPED))["workers"]
# A writer whose deal got no 201 waits this long before sending it again (a phone waits longer).
RETRY_SECONDS = 0.2
TROUBLE = ("database is locked", "Traceback", "Unhandled error", "WORKER TIMEOUT")
# How long a server may take to answer its first request (4 workers loading the app at once on a
# machine shared with other work can take half a minute).
START_WAIT = 120.0


@dataclass
class Entry:
    """One deal a writer entered: its key, its game, and what sending it came to."""

    key: str
    game: Game
    tries: int = 0
    acknowledged: bool = False
    replayed: bool = False  # the 201 said the key had already been saved


@dataclass
class Run:
    """Everything the clients did, and when the kills came."""

    entries: list[Entry] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    failed_sends: list[str] = field(default_factory=list)  # deal sends that got no 201
    reads: list[tuple[float, str | None]] = field(default_factory=list)  # seconds, problem
    events: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    serving_again: float = float("nan")  # seconds from the master's kill to the next 200
    lock: threading.Lock = field(default_factory=threading.Lock)


def start_game(port: int) -> Game:
    """A new game, asked until the server answers (it may be between servers)."""
    for _ in range(300):
        try:
            reply = call(port, "POST", "/api/v1/games", json_body=NEW_GAME, timeout=10)
        except (OSError, HTTPException):
            reply = None
        if reply is not None and reply.status == 201:
            created = reply.json()
            return Game(created["id"], created["key"])
        time.sleep(RETRY_SECONDS)
    raise RuntimeError("no new game in 60 s")


def send(port: int, entry: Entry, run: Run) -> None:
    """Send the deal once; note a 201 (and whether it was a replay), or what went wrong."""
    entry.tries += 1
    headers = {**entry.game.headers, "Idempotency-Key": entry.key}
    try:
        reply = call(port, "POST", f"{entry.game.api}/deals", json_body=DEAL, headers=headers)
    except (OSError, HTTPException) as exc:  # refused, reset, cut short: a server being killed
        problem = f"{type(exc).__name__}: {exc}"
    else:
        if reply.status == 201:
            entry.acknowledged = True
            entry.replayed = reply.headers.get("idempotent-replayed") == "true"
            return
        problem = f"{reply.status} {reply.body[:200]!r}"
    with run.lock:
        run.failed_sends.append(problem)


def load(port: int, server: list[Gunicorn], args: argparse.Namespace, club: list[Game]) -> Run:
    """The clients and the killer, until `args.seconds` pass.

    The first `args.club_writers` writers finish the club's games (`club`, taken in turn), the
    others write casual games of their own."""
    run = Run()
    writers = args.clients // 2
    readers = args.clients - writers
    pool = iter(club)
    run.games = [next(pool) if i < args.club_writers else start_game(port) for i in range(writers)]
    games = list(run.games)  # slot i: writer i's current game
    deadline = [0.0]
    start = threading.Barrier(args.clients + 2, timeout=60)

    def writer(index: int) -> None:
        start.wait()
        entered, in_club = 0, index < args.club_writers
        most = DEALS_PER_CLUB_GAME if in_club else args.deals_per_game
        for n in range(1_000_000):
            if time.monotonic() >= deadline[0]:
                return
            if entered >= most:
                if in_club:
                    with run.lock:
                        game = next(pool, None)
                else:
                    game = start_game(port)
                if game is None:
                    return  # the club's games all finished: this writer is done
                with run.lock:
                    run.games.append(game)
                games[index], entered = game, 0
            entry = Entry(new_key(f"k{index}.{n}"), games[index])
            with run.lock:
                run.entries.append(entry)
            send(port, entry, run)
            while not entry.acknowledged and time.monotonic() < deadline[0]:
                time.sleep(RETRY_SECONDS)
                send(port, entry, run)
            entered += 1

    def reader(index: int) -> None:
        start.wait()
        for n in range(1_000_000):
            if time.monotonic() >= deadline[0]:
                return
            game = games[(index + n) % len(games)]
            api = n % 2 == 0
            t0 = time.monotonic()
            problem = None
            try:
                reply = call(port, "GET", game.api if api else game.page, headers=game.headers)
                if reply.status != 200:
                    problem = f"{reply.status}"
                elif api:
                    state = reply.json()
                    totals = [side["total"] for side in state["sides"]]
                    # deals_total: the game's deals (the answer lists one page of them).
                    if totals != [50 * state["deals_total"]] * 2:
                        problem = f"inconsistent read: {state['deals_total']} deals, {totals}"
            except (OSError, HTTPException) as exc:
                problem = f"{type(exc).__name__}"
            with run.lock:
                run.reads.append((time.monotonic() - t0, problem))
            if problem:
                time.sleep(RETRY_SECONDS)  # no server, or a dying one: a phone waits too

    def killer(began: float) -> None:
        start.wait()
        time.sleep(max(0.0, began + args.seconds / 3 - time.monotonic()))
        worker = children(server[0].proc.pid)[0]
        os.kill(worker, signal.SIGKILL)
        run.events.append(f"{time.monotonic() - began:5.1f} s: worker {worker} killed (SIGKILL)")
        time.sleep(max(0.0, began + 2 * args.seconds / 3 - time.monotonic()))
        first = server[0]
        master = first.proc.pid
        orphans = children(master)
        os.kill(master, signal.SIGKILL)
        first.proc.wait(timeout=10)
        killed_at = time.monotonic()
        run.events.append(f"{killed_at - began:5.1f} s: master {master} killed (SIGKILL)")
        _server.free_port = lambda: port  # the same port, at once: that is the point
        for tries in range(1, 11):
            again = Gunicorn(first.folder, workers=args.workers, db_path=first.db_path)
            again.env.update(first.env)
            server.append(again)
            try:
                again.start(wait=START_WAIT)
                break
            except RuntimeError as exc:
                # An old worker still holds the port (on a loaded machine its exit is slow) and
                # gunicorn gave up binding after 5 s: started again, as an operator would.
                if "Address already in use" not in str(exc) or tries == 10:
                    raise
        run.serving_again = time.monotonic() - killed_at
        left = [pid for pid in orphans if proc_alive(pid)]
        run.events.append(
            f"{time.monotonic() - began:5.1f} s: a new server serving on the same port, "
            f"{run.serving_again:.1f} s after the kill ("
            f"{'the port free at once' if tries == 1 else f'started {tries} times: port held'}"
            f"); old workers still running: {left or 0}"
        )

    threads = [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(writers)]
    threads += [threading.Thread(target=reader, args=(i,), daemon=True) for i in range(readers)]
    began = time.monotonic()
    threads.append(threading.Thread(target=killer, args=(began,), daemon=True))
    for thread in threads:
        thread.start()
    deadline[0] = began + args.seconds
    start.wait()
    for thread in threads:
        thread.join(timeout=args.seconds + 120)
    run.elapsed = time.monotonic() - began
    if any(thread.is_alive() for thread in threads):
        raise RuntimeError("a client thread did not finish in time")
    return run


def check(run: Run, port: int, db_path: Path) -> tuple[list[str], list[str]]:
    """Every acknowledged deal stored once, none doubled; then the rest resent. (figures, faults)"""
    faults: list[str] = []
    stored = read_db(db_path)
    if stored["integrity"] != ["ok"]:
        faults.append(f"integrity check: {stored['integrity'][:5]}")
    keys = Counter(key for rows in stored["deals"].values() for _, _, key in rows)
    acknowledged = [e for e in run.entries if e.acknowledged]
    lost = [e.key for e in acknowledged if keys[e.key] == 0]
    doubled = [key for key, times in keys.items() if times > 1]
    sent = {e.key for e in run.entries}
    unknown = [key for key in keys if key not in sent]
    faults += [f"acknowledged, not stored: {k}" for k in lost[:10]]
    faults += [f"stored more than once: {k}" for k in doubled[:10]]
    faults += [f"stored, never sent: {k}" for k in unknown[:10]]
    for game in run.games:
        rows = stored["deals"].get(game.id, [])
        n = len(rows)
        if [number for number, _, _ in rows] != list(range(1, n + 1)):
            faults.append(f"game {game.id}: deals numbered {[r[0] for r in rows][:20]}")
        if stored["scores"].get(game.id, (0, 0)) != (2 * n, 100 * n):
            faults.append(f"game {game.id}: {n} deals, scores {stored['scores'].get(game.id)}")
    for game_id, _, final_total, played in stored["sides"]:
        n = len(stored["deals"].get(game_id, []))
        if (final_total, played) != (50 * n, n):
            faults.append(f"game {game_id}: a side at {final_total} after {played} of {n} deals")

    # The deals still unacknowledged at the end, sent again with their keys: each lands once.
    pending = [e for e in run.entries if not e.acknowledged]
    had_landed = sum(keys[e.key] == 1 for e in pending)
    for entry in pending:
        send(port, entry, run)
        if not entry.acknowledged:
            faults.append(f"resent after the run, not saved: {entry.key}")
    after = Counter(key for rows in read_db(db_path)["deals"].values() for _, _, key in rows)
    if sorted(after) != sorted(sent) or max(after.values(), default=1) != 1:
        faults.append(
            f"after resending: {len(after)} keys stored for {len(sent)} sent, "
            f"most of one key {max(after.values(), default=0)}"
        )

    retried = [e for e in acknowledged if e.tries > 1]
    kinds = Counter(problem.split(":")[0][:40] for problem in run.failed_sends)
    figures = [
        f"deals: {len(run.entries)} entered, {len(acknowledged)} acknowledged, "
        f"{sum(keys.values())} stored at the end of the run, in {len(run.games)} games",
        f"  sends that got no 201 (during the kills): {len(run.failed_sends)}; deals sent more "
        f"than once until acknowledged: {len(retried)}, of which the 201 was a replay (had "
        f"landed before): {sum(e.replayed for e in retried)}",
        f"  what the sends without a 201 got: {dict(kinds.most_common(5))}",
        f"  acknowledged but not stored: {len(lost)}; stored twice: {len(doubled)}; stored but "
        f"never sent: {len(unknown)}",
        f"  unacknowledged at the end: {len(pending)} (already stored: {had_landed}); resent, "
        f"each now stored once: {'yes' if not any('resent' in f for f in faults) else 'NO'}",
    ]
    return figures, faults


def main() -> int:
    """Parse the options, start the server, load it, kill it twice, check, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to load (60)")
    parser.add_argument("--clients", type=int, default=34, help="client threads, half writing")
    parser.add_argument(
        "--deals-per-game", type=int, default=50, help="deals before a writer starts a new game"
    )
    parser.add_argument(
        "--club-writers",
        type=int,
        default=4,
        help="of the writers, how many finish club games (4 deals each), rated after the commit",
    )
    parser.add_argument("--workers", type=int, default=WORKERS, help="gunicorn.conf.py's 4")
    args = parser.parse_args()
    if not 6 <= args.seconds <= 3600 or not 2 <= args.clients <= 200:
        parser.error("--seconds must be 6 to 3600, --clients 2 to 200")
    if not 1 <= args.deals_per_game <= 90:  # a game holds at most 100 deals
        parser.error("--deals-per-game must be 1 to 90")
    if not 0 <= args.club_writers <= args.clients // 2:
        parser.error("--club-writers must be 0 to half the clients")

    with tempfile.TemporaryDirectory(prefix="bench-load-kill-") as folder:
        first = Gunicorn(Path(folder), workers=args.workers)
        first.env["GUNICORN_CMD_ARGS"] = f"-c {SHIPPED}"
        # Every client is 127.0.0.1, one address: the writers start more games than one
        # address may in an hour (README, Limits), as a venue's tables behind one address would.
        first.env["SCOREKEEPER_GAMES_PER_HOUR"] = "100000"
        first.env.update(BENCH_WRITES)  # and more deals than one address may send (writes.py)
        servers = [first]
        db = database_name(POSTGRES_URL or None)
        print(f"setting up: {db}, gunicorn -c gunicorn.conf.py ({args.workers} workers) ...")
        try:
            first.init_db()
            # Enough club games for the club's writers at a deal each 0.2 s (more than they get).
            club = club_games(first.env["DATABASE_URL"], args.club_writers * int(args.seconds + 20))
            first.start(wait=START_WAIT)
            print(f"{args.clients} clients for {args.seconds:g} s, killing as they go ...")
            run = load(first.port, servers, args, club)
            figures, faults = check(run, first.port, first.db_path)
            if args.club_writers:
                # The marks the kills left are folded by the new server's folders, unasked.
                rated, unrated = ratings_after(first.env["DATABASE_URL"], servers[-1].env)
                figures, faults = figures + rated, faults + unrated
        finally:
            for server in servers:
                server.stop()
        log = "".join(server.log() for server in servers)

    reads = [seconds * 1000 for seconds, _ in run.reads]
    read_problems = [p for _, p in run.reads if p]
    inconsistent = [p for p in read_problems if p.startswith("inconsistent")]
    print(
        f"load and kill: {args.clients} clients ({args.clients // 2} writing) for "
        f"{run.elapsed:.1f} s"
    )
    print(f"server: gunicorn -c gunicorn.conf.py, {args.workers} workers, on 127.0.0.1")
    print(f"database: {db}")
    print(f"machine: {machine()}")
    print(f"code: {code_version()}")
    for event in run.events:
        print(f"  {event}")
    print(*figures, sep="\n")
    print(
        f"reads: {len(reads)}, p50 {percentile(reads, 0.5):.1f} ms, p95 "
        f"{percentile(reads, 0.95):.1f} ms; failed {len(read_problems)} (during the kills), "
        f"inconsistent {len(inconsistent)}"
    )
    trouble = {t: log.count(t) for t in TROUBLE if t in log}
    print("server logs: " + (", ".join(f"{t!r} x{n}" for t, n in trouble.items()) or "clean"))
    faults += inconsistent[:10]
    faults += [f"{t!r} in the server log" for t in trouble if t != "WORKER TIMEOUT"]
    if faults:
        print(f"FAILED: {len(faults)} faults, e.g.", *faults[:20], sep="\n  ")
        return 1
    print("every acknowledged deal stored exactly once, none doubled")
    return 0


if __name__ == "__main__":
    sys.exit(main())
