"""The club's records files and its other pages read without signing in, at 10,000 games (issue 39).

Part of `bench/worst_request.py`. A public demo club of --club-games finished games is filled by
the app's own code (`demo.fill_demo`: every deal made up and scored by the engine; a minute or
two at 10,000), in a SQLite file of its own (or copied from --club-db, a file an earlier run
kept with --keep-club-db). Then each request below is sent as a stranger would, in process
(Flask's test client: the median CPU time of --runs, the body read and thrown away piece by
piece as a server would send it; then one run under tracemalloc for its peak) and against
gunicorn `-w 1` (sync) over HTTP (the worker's median CPU time, from /proc, and its peak RSS
growth, VmHWM reset before each request); each with the median wall time. With --before, the
files are served by that checkout's code too, in the same run, for a before-and-after figure:

- the club's games, deals and standings files over all seasons, the deals file of this season,
  and the deals file again with the ETag of the first (304);
- the club's pages whose work grows with its history: its front page, standings, the history
  of games (first and last page, and one member's), the busiest member's page, the API's
  standings, its rule sets.

The exports' per-address allowance is lifted for the bench (it measures what one costs).
Before issue 39 the deals file of this club cost 9.7 s of CPU and 456 MB (tracemalloc), the
games file 2.4 s and 119 MB; the issue's own club (2.3 MB of deals) 4.03 s and 73 MB.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import io
import os
import shutil
import statistics
import time
import tracemalloc
from pathlib import Path

from _serve import HOST, Server
from flask_migrate import upgrade
from sqlalchemy import func, select
from worst_request import Cost, memory, report, worker_of

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Player
from scorekeeper.services.demo import fill_demo

SLUG = "demo"
LIFTED = {"EXPORTS_PER_HOUR": 1_000_000, "ORGANISER_EXPORTS_PER_HOUR": 1_000_000}


def filled(folder: str, games: int, kept: str | None, keep: str | None) -> tuple[str, dict]:
    """A SQLite database holding the demo club of `games` games (copied from `kept` if given),
    at the migrations' head; its URL and the paths to ask."""
    path = Path(folder) / "club.sqlite"
    url = f"sqlite:///{path}"
    if kept:
        shutil.copyfile(kept, path)
    app = create_app({"SECRET_KEY": "worst-exports", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        with contextlib.redirect_stderr(io.StringIO()):  # alembic's INFO lines
            upgrade()
        if not kept:
            started = time.perf_counter()
            fill_demo(SLUG, games)
            print(f"  filled {games:,} games in {time.perf_counter() - started:.0f} s")
        held = db.session.scalar(select(func.count(Game.id)))
        busiest = db.session.execute(
            select(Player.member_id, func.count())
            .where(Player.member_id.is_not(None))
            .group_by(Player.member_id)
            .order_by(func.count().desc())
            .limit(1)
        ).first()[0]
        db.session.remove()
        db.engine.dispose()
    if keep:
        shutil.copyfile(path, keep)
    print(f"  the club holds {held:,} games; its busiest member is #{busiest}")
    last = held // 50 + 1
    asks = {
        "games.csv, all seasons": f"/clubs/{SLUG}/export/games.csv?season=all",
        "deals.csv, all seasons": f"/clubs/{SLUG}/export/deals.csv?season=all",
        "deals.csv, this season": f"/clubs/{SLUG}/export/deals.csv",
        "standings.csv, all seasons": f"/clubs/{SLUG}/export/standings.csv?season=all",
        "club page": f"/clubs/{SLUG}",
        "standings, all seasons": f"/clubs/{SLUG}/standings?season=all",
        "history, all seasons": f"/clubs/{SLUG}/games?season=all",
        f"history, all seasons, page {last}": f"/clubs/{SLUG}/games?season=all&page={last}",
        "history of the busiest member": f"/clubs/{SLUG}/games?season=all&player={busiest}",
        "busiest member's page, all seasons": f"/clubs/{SLUG}/members/{busiest}?season=all",
        "API standings, all seasons": f"/api/v1/clubs/{SLUG}/standings?season=all",
        "rule sets": f"/clubs/{SLUG}/rule-sets",
    }
    return url, asks


def in_process(client, path: str, headers: dict, runs: int) -> tuple[Cost, float]:
    """Median CPU time over `runs` with the body read and dropped, then one run's tracemalloc
    peak; and the median wall time."""

    def send() -> tuple[int, int]:
        answer = client.get(path, headers=headers)
        size = sum(len(piece) for piece in answer.iter_encoded())
        answer.close()
        return answer.status_code, size

    cpu, wall = [], []
    for _ in range(runs):
        started, used = time.perf_counter(), time.process_time()
        send()
        cpu.append(time.process_time() - used)
        wall.append(time.perf_counter() - started)
    tracemalloc.start()
    status, size = send()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return Cost(status, statistics.median(cpu), peak, size), statistics.median(wall)


def worker_cpu(pid: int) -> float:
    """The worker's CPU seconds so far (user and system; Linux, in clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def over_http(port: int, worker: int, path: str, headers: dict, runs: int) -> tuple[Cost, float]:
    """Median of the worker's CPU time over `runs`, the body read in pieces; the worker's
    largest peak RSS growth; and the median wall time."""
    cpu, wall, growth, status, size = [], [], 0, 0, 0
    for _ in range(runs):
        Path(f"/proc/{worker}/clear_refs").write_text("5")
        before = memory(worker, "VmRSS")
        used = worker_cpu(worker)
        conn = http.client.HTTPConnection(HOST, port, timeout=120)
        started = time.perf_counter()
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        status, size = response.status, 0
        while piece := response.read(65536):
            size += len(piece)
        wall.append(time.perf_counter() - started)
        conn.close()
        cpu.append(worker_cpu(worker) - used)
        growth = max(growth, memory(worker, "VmHWM") - before)
    return Cost(status, statistics.median(cpu), growth, size), statistics.median(wall)


def walls(measured: dict[str, tuple[Cost, float]]) -> None:
    """The wall times beside the CPU times (a machine shared by others: the CPU time is the
    cost, the wall time what the client waited)."""
    print(
        "  wall time, median: "
        + "; ".join(f"{k} {w * 1000:.0f} ms" for k, (_, w) in measured.items())
    )


def arguments(parser: argparse.ArgumentParser) -> None:
    """This part's options."""
    parser.add_argument("--club-games", type=int, default=10_000, help="0: no club (issue 39)")
    parser.add_argument("--club-db", help="a club's SQLite file kept by --keep-club-db")
    parser.add_argument("--keep-club-db", help="keep the filled club's SQLite file here")
    parser.add_argument(
        "--before", help="another checkout (git archive) whose exports are served too, after"
    )


def run(folder: str, args: argparse.Namespace) -> bool:
    """Every ask, in process and (unless --no-server) over HTTP; True if all within target."""
    games, runs, server = args.club_games, args.runs, not args.no_server
    kept, keep = args.club_db, args.keep_club_db
    print(f"\nA public club of {games:,} games, read without signing in (issue 39)")
    url, asks = filled(folder, games, kept, keep)
    app = create_app({"SECRET_KEY": "worst-exports", "SQLALCHEMY_DATABASE_URI": url, **LIFTED})
    client = app.test_client()
    deals = asks["deals.csv, all seasons"]
    etag = client.get(deals).headers["ETag"]
    todo = {label: (path, {}) for label, path in asks.items()}
    todo["deals.csv, all seasons, gzipped"] = (deals, {"Accept-Encoding": "gzip"})
    todo["deals.csv again, with its ETag (304)"] = (deals, {"If-None-Match": etag})
    sizes = dict.fromkeys(todo, 0)
    measured = {label: in_process(client, *ask, runs) for label, ask in todo.items()}
    fine = report(
        "In process (Flask test client; time: median CPU, memory: tracemalloc peak)",
        {label: cost for label, (cost, _) in measured.items()},
        sizes,
        "peak",
    )
    walls(measured)
    if server:
        env = {"DATABASE_URL": url, **{f"SCOREKEEPER_{k}": str(v) for k, v in LIFTED.items()}}
        with Server("scorekeeper:create_app()", env) as served:
            worker = worker_of(served.proc.pid)
            measured = {
                label: over_http(served.port, worker, *ask, runs) for label, ask in todo.items()
            }
        fine &= report(
            "gunicorn -w 1, sync, over HTTP (time: the worker's median CPU, memory: its peak RSS "
            "growth)",
            {label: cost for label, (cost, _) in measured.items()},
            sizes,
            "RSS growth",
        )
        walls(measured)
        if args.before:  # the same files from the code before, in the same run
            with Server("scorekeeper:create_app()", env, code=Path(args.before)) as served:
                worker = worker_of(served.proc.pid)
                files = {k: ask for k, ask in todo.items() if ".csv" in k and "ETag" not in k}
                measured = {k: over_http(served.port, worker, *a, runs) for k, a in files.items()}
            report(
                f"The same files served by {args.before} (the code before), as above",
                {label: cost for label, (cost, _) in measured.items()},
                sizes,
                "RSS growth",
            )
            walls(measured)
    return fine
