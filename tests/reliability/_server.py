"""Helpers for the reliability tests: gunicorn on a SQLite file, a stdlib HTTP client, load.

Everything listens on and talks to 127.0.0.1 only; every loop is bounded in count and time.
Every request about a game carries its secret (the `X-Game-Key` header, or the `/t/<secret>`
page path): a wrong one is a miss, and 20 misses from 127.0.0.1 would make the app refuse every
game link with 429, so no load request ever sends a wrong one.

The client is in _client.py and the load in _load.py; both are imported from here.
"""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from html.parser import HTMLParser
from importlib.metadata import version
from pathlib import Path
from typing import Any

# The client (_client.py) and the load (_load.py), imported from here by the tests and bench/.
from ._client import (  # noqa: F401
    DEAL,
    HOST,
    NEW_GAME,
    Game,
    Reply,
    call,
    every_deal,
    free_port,
    new_game,
    new_key,
)
from ._load import Load, Sample, p95, problem, run_load  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# gunicorn 25.1+ opens a control socket in $HOME by default; parallel servers would share it.
_GUNICORN = tuple(int(p) for p in version("gunicorn").split(".")[:2] if p.isdigit())
NO_CONTROL_SOCKET = ["--no-control-socket"] if _GUNICORN >= (25, 1) else []


def proc_alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    state = next((line for line in status.splitlines() if line.startswith("State:")), "")
    return "Z" not in state.split()[1:2]


def children(pid: int) -> list[int]:
    """Direct children of a process, from /proc/<pid>/task/*/children."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(p) for p in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return sorted(set(found))


def _is_ours(pid: int, marker: str) -> bool:
    """Whether pid still runs the command we started (guards against reused pids)."""
    try:
        return marker in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except (FileNotFoundError, ProcessLookupError):
        return False


# With TEST_DATABASE_URL (scripts/with-postgres), the servers use that PostgreSQL database,
# emptied when a test's first server creates its schema; otherwise a SQLite file each.
POSTGRES_URL = os.environ.get("TEST_DATABASE_URL", "")


def _postgres() -> str:
    from scorekeeper import with_driver

    return with_driver(POSTGRES_URL)


def _empty_postgres() -> None:
    """Drop everything in the PostgreSQL test database: the next init-db migrates afresh."""
    from sqlalchemy import create_engine, text

    engine = create_engine(_postgres())
    try:
        with engine.begin() as connection:
            connection.execute(text("DROP SCHEMA public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


# The first database init-db made in this process, on SQLite (Gunicorn.init_db).
_MIGRATED: Path | None = None


class Gunicorn:
    """gunicorn -w N on 127.0.0.1 with the app on one SQLite file (or the PostgreSQL test
    database); stop() in a finally."""

    def __init__(self, folder: Path, workers: int = 4, db_path: Path | None = None) -> None:
        self.folder = folder
        self.db_path = db_path or folder / "x.sqlite"
        self.workers = workers
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.worker_pids: list[int] = []
        self.log_path = folder / f"gunicorn-{uuid.uuid4().hex[:6]}.log"
        self.env = {
            **os.environ,
            "DATABASE_URL": _postgres() if POSTGRES_URL else f"sqlite:///{self.db_path}",
            "SECRET_KEY": secrets.token_hex(32),
        }
        self.env.pop("FLASK_APP", None)

    def init_db(self) -> None:
        """A fresh database at head, made by `flask init-db` as a deployment makes it. On SQLite
        the process's first is kept and copied for the next server: the same file, without
        running every migration again (3 s each time)."""
        global _MIGRATED
        if not POSTGRES_URL and _MIGRATED is not None:
            shutil.copyfile(_MIGRATED, self.db_path)
            return
        if POSTGRES_URL:
            _empty_postgres()
        subprocess.run(
            [str(BIN / "flask"), "--app", "scorekeeper", "init-db"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
            timeout=120,
        )
        if not POSTGRES_URL and not Path(f"{self.db_path}-wal").exists():
            # init-db has closed every connection: SQLite's write-ahead log is back in the
            # file, and the file alone is the whole database.
            kept = Path(tempfile.mkdtemp(prefix="migrated-")) / "migrated.sqlite"
            atexit.register(shutil.rmtree, kept.parent, True)
            shutil.copyfile(self.db_path, kept)
            _MIGRATED = kept

    def start(self, wait: float = 30.0) -> Gunicorn:
        self.port = free_port()
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                [
                    str(BIN / "gunicorn"),
                    "-w",
                    str(self.workers),
                    "-b",
                    f"{HOST}:{self.port}",
                    *NO_CONTROL_SOCKET,
                    "scorekeeper:create_app()",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline, answered = time.monotonic() + wait, False
        for _ in range(int(wait * 10) + 1):
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited {self.proc.returncode}:\n{self.log()}")
            try:
                answered = call(self.port, "GET", "/", timeout=2).status == 200
            except OSError:
                pass
            if answered or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        if not answered:
            self.stop()
            raise RuntimeError(f"gunicorn did not answer in {wait} s:\n{self.log()}")
        # Every worker forked (the master starts them all before the first answer, mostly).
        for _ in range(50):
            self.worker_pids = children(self.proc.pid)
            if len(self.worker_pids) >= self.workers:
                break
            time.sleep(0.1)
        return self

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def sigkill_all(self) -> list[int]:
        """SIGKILL the master and every worker by pid, at once; returns the pids killed."""
        assert self.proc is not None
        master = self.proc.pid
        workers = children(master)
        self.worker_pids = sorted(set(self.worker_pids) | set(workers))
        os.kill(master, signal.SIGKILL)
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait(timeout=10)
        for _ in range(100):  # orphaned workers are reaped by init
            if not any(proc_alive(p) for p in workers):
                break
            time.sleep(0.05)
        return [master, *workers]

    def stop(self) -> None:
        """Quick stop (SIGQUIT), then SIGKILL by pid for anything of ours still running."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.worker_pids = sorted(set(self.worker_pids) | set(children(self.proc.pid)))
            self.proc.send_signal(signal.SIGQUIT)  # quick shutdown
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for pid in self.worker_pids:
            if proc_alive(pid) and _is_ours(pid, "gunicorn"):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def read_db(path: Path) -> dict[str, Any]:
    """Straight from the database: integrity, and every game's deals, keys and totals.

    SQLite: the file at `path`, with SQLite's integrity check. PostgreSQL: the test database
    (it keeps its own integrity: "ok" once it answers).
    """
    if POSTGRES_URL:
        import psycopg

        conn: Any = psycopg.connect(POSTGRES_URL)
        integrity = ["ok"]
    else:
        conn = sqlite3.connect(path, timeout=30)
        integrity = []
    try:
        if not integrity:
            integrity = [row[0] for row in conn.execute("PRAGMA integrity_check")]
        deals: dict[int, list[tuple[int, int, str | None]]] = {}
        for game, number, version, key in conn.execute(
            "SELECT game_id, number, version, idempotency_key FROM deal ORDER BY game_id, number"
        ):
            deals.setdefault(game, []).append((number, version, key))
        score_rows = conn.execute(
            "SELECT d.game_id, COUNT(*), SUM(s.total) FROM deal_score s "
            "JOIN deal d ON d.id = s.deal_id GROUP BY d.game_id"
        ).fetchall()
        sides = conn.execute(
            "SELECT game_id, position, final_total, deals_played FROM side ORDER BY game_id"
        ).fetchall()
    finally:
        conn.close()
    return {
        "integrity": integrity,
        "deals": deals,
        "scores": {g: (n, total) for g, n, total in score_rows},
        "sides": sides,
    }


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: dict[str, dict[str, str]] = {}
        self._current: dict[str, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        got = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._current = self.forms.setdefault(got.get("action", ""), {})
        elif tag == "input" and self._current is not None and got.get("name"):
            if got.get("type") in ("radio", "checkbox") and "checked" not in got:
                return
            self._current[got["name"]] = got.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._current = None


def form_fields(html: str, action: str) -> dict[str, str]:
    """The fields a browser would send from the form posting to `action` (checked radios)."""
    parser = _Forms()
    parser.feed(html)
    assert action in parser.forms, f"no form posting to {action}: {sorted(parser.forms)}"
    return parser.forms[action]
