"""Shared by the benchmarks: serve a WSGI app with gunicorn, talk to it over HTTP, summarise.

Everything listens on and talks to 127.0.0.1 only.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import platform
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlencode

# The reliability tests already know how to find a free port and what a reply holds.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.reliability._server import BIN, HOST, ROOT, Reply, free_port  # noqa: E402

# tests/test_bench_smoke.py sets BENCH_SMOKE: every warm-up is cut to one round there. A smoke
# run only checks that each step still runs; what a bench measures at its sizes is unchanged.
SMOKE = bool(os.environ.get("BENCH_SMOKE"))


def warm_ups(usual: int) -> int:
    """Warm-up rounds before the clock starts: `usual`, or 1 in a smoke run."""
    return 1 if SMOKE else usual


def machine() -> str:
    """Cores, CPU model, system and Python version: where the figures came from."""
    model = "unknown CPU"
    try:
        found = re.search(r"model name\s*:\s*(.+)", Path("/proc/cpuinfo").read_text())
        model = found.group(1).strip() if found else model
    except OSError:
        pass
    return (
        f"{len(os.sched_getaffinity(0))} cores, {model}, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}"
    )


def call(
    port: int,
    method: str,
    path: str,
    *,
    form: dict[str, str] | None = None,
    json_body: object = None,
    headers: dict[str, str] | None = None,
) -> Reply:
    """One request on its own connection, as a phone's browser would after a pause."""
    sent = {"Connection": "close", **(headers or {})}
    body = None
    if form is not None:
        body = urlencode(form).encode()
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    elif json_body is not None:
        body = json.dumps(json_body).encode()
        sent["Content-Type"] = "application/json"
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    try:
        conn.request(method, path, body=body, headers=sent)
        response = conn.getresponse()
        got = {k.lower(): v for k, v in response.getheaders()}
        body = response.read()
        if got.get("content-encoding") == "gzip":
            body = gzip.decompress(body)  # as the browser would, before it shows the page
        return Reply(response.status, got, body)
    finally:
        conn.close()


# The games one address may start in an hour, as the benchmarks' servers are set: they start
# games far faster than any club night (scorekeeper/services/creations.py), and measure something
# else.
BENCH_GAMES_PER_HOUR = 1_000_000
# The deals, lines and corrections one game and one address may send within ten minutes, as the
# benchmarks' servers are set (scorekeeper/services/writes.py): they write far faster than any
# table, all from one address, and measure something else (bench/worst_game.py measures these).
BENCH_WRITES = {
    f"SCOREKEEPER_{setting}": "1000000"
    for setting in (
        "CORRECTIONS_PER_GAME",
        "CORRECTIONS_PER_ADDRESS",
        "ENTRIES_PER_GAME",
        "ENTRIES_PER_ADDRESS",
    )
}

# The club records files one address may download in an hour, as the benchmarks' servers are set
# (scorekeeper/services/exports.py): bench/scale.py asks for a club's games file hundreds of times.
BENCH_EXPORTS = {"SCOREKEEPER_EXPORTS_PER_HOUR": "1000000"}


class Server:
    """gunicorn serving `target` (a "module:factory()" string) on a free port."""

    def __init__(
        self,
        target: str,
        env: dict[str, str],
        workers: int = 1,
        config: list[str] | None = None,
        code: Path | None = None,
    ) -> None:
        self.target, self.workers, self.port = target, workers, free_port()
        self.env = {
            **os.environ,
            "SECRET_KEY": secrets.token_hex(32),
            "SCOREKEEPER_GAMES_PER_HOUR": str(BENCH_GAMES_PER_HOUR),
            **BENCH_WRITES,
            **BENCH_EXPORTS,
            **env,
        }
        if code is not None:
            # Another checkout's code (an earlier commit, for a before-and-after figure).
            self.env["PYTHONPATH"] = str(code)
        # How gunicorn runs its workers: sync by default (how the older figures were taken).
        self.config = config if config is not None else ["--worker-class", "sync"]
        self.cwd = code or ROOT
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Server:
        self.proc = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                # Sync workers, as the figures in docs/PERFORMANCE.md were measured (gunicorn
                # would otherwise read the shipped gunicorn.conf.py in this folder: gthread).
                *self.config,
                "-w",
                str(self.workers),
                "-b",
                f"{HOST}:{self.port}",
                "--log-level",
                "warning",
                self.target,
            ],
            cwd=self.cwd,
            env=self.env,
            start_new_session=True,
        )
        for _ in range(300):
            try:
                call(self.port, "GET", "/")
                return self
            except OSError:
                time.sleep(0.1)
        self.__exit__()
        raise RuntimeError(f"gunicorn for {self.target} did not answer")

    def __exit__(self, *exc: object) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=30)


def on_database(run: Callable[[str], None]) -> None:
    """Run a bench on DATABASE_URL / TEST_DATABASE_URL if set, else on a fresh SQLite file."""
    database_url = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL")
    if database_url:
        run(database_url)
        return
    with tempfile.TemporaryDirectory() as folder:
        run(f"sqlite:///{folder}/bench.sqlite")


def init_db(database_url: str, code: Path | None = None) -> None:
    """Create the schema with the app's own command (of another checkout's code, if given)."""
    env = {**os.environ, "DATABASE_URL": database_url}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    subprocess.run(
        [str(BIN / "flask"), "--app", "scorekeeper", "init-db"],
        cwd=code or ROOT,
        env=env,
        check=True,
        capture_output=True,
    )


def ms(values: list[float]) -> str:
    """Median and p95 of timings in seconds, as milliseconds."""
    ordered = sorted(values)
    p95 = ordered[max(0, int(0.95 * len(ordered) + 0.5) - 1)]
    return f"median {statistics.median(ordered) * 1000:6.2f} ms, p95 {p95 * 1000:6.2f} ms"
