"""Helpers for the reliability tests: gunicorn on a SQLite file, a stdlib HTTP client, load.

Everything listens on and talks to 127.0.0.1 only; every loop is bounded in count and time.
Every request about a game carries its secret (the `X-Game-Key` header, or the `/t/<secret>`
page path): a wrong one is a miss, and 20 misses from 127.0.0.1 would make the app refuse every
game link with 429, so no load request ever sends a wrong one.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from html.parser import HTMLParser
from importlib.metadata import version
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# One entry per side: 50 melded points each, so every deal adds 50 to each total and a
# ten-thousand game goes on for hundreds of deals.
DEAL = {"scores": [{"melded_points": 50}, {"melded_points": 50}]}
# gunicorn 25.1+ opens a control socket in $HOME by default; parallel servers would share it.
_GUNICORN = tuple(int(p) for p in version("gunicorn").split(".")[:2] if p.isdigit())
NO_CONTROL_SOCKET = ["--no-control-socket"] if _GUNICORN >= (25, 1) else []
NEW_GAME = {"ruleset": "ten-thousand", "sides": [{"name": "North"}, {"name": "South"}]}


def free_port() -> int:
    """A port nobody listens on now (bound to 0, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


def call(
    port: int,
    method: str,
    path: str,
    *,
    json_body: Any = None,
    form: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> Reply:
    """One request on its own connection to 127.0.0.1 (no redirects followed)."""
    sent = {"Connection": "close", **(headers or {})}
    data = None
    if json_body is not None:
        data = json.dumps(json_body).encode()
        sent["Content-Type"] = "application/json"
    elif form is not None:
        data = urlencode(form).encode()
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        got = {k.lower(): v for k, v in response.getheaders()}
        return Reply(response.status, got, response.read())
    finally:
        conn.close()


@dataclass(frozen=True)
class Game:
    """A game started through the API: its id, and the secret every request about it needs."""

    id: int
    secret: str

    @property
    def api(self) -> str:
        """The game's JSON address (it opens only with `headers`)."""
        return f"/api/v1/games/{self.id}"

    @property
    def page(self) -> str:
        """The game's private link, as a path: its scoreboard page."""
        return f"/t/{self.secret}"

    @property
    def headers(self) -> dict[str, str]:
        """The header the API needs for this game."""
        return {"X-Game-Key": self.secret}


def new_game(port: int) -> Game:
    reply = call(port, "POST", "/api/v1/games", json_body=NEW_GAME)
    assert reply.status == 201, reply.text
    started = reply.json()
    game = Game(started["id"], started["key"])
    assert started["url"] == game.page, started
    return game


def every_deal(port: int, game: Game) -> list[dict[str, Any]]:
    """Every deal of the game through the API, following `next` page after page."""
    deals, path = [], game.api
    while path:
        state = call(port, "GET", path, headers=game.headers).json()
        deals += state["deals"]
        path = state["next"]
    return deals


def new_key(prefix: str) -> str:
    """A fresh Idempotency-Key (at most 64 of [A-Za-z0-9_.:-])."""
    return f"{prefix}-{uuid.uuid4().hex}"[:64]


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


def p95(values: list[float]) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


@dataclass
class Sample:
    kind: str  # "write" or "read"
    path: str
    started: float
    seconds: float
    status: int | None = None
    error: str | None = None
    key: str | None = None
    game: Game | None = None
    body: bytes = b""


def problem(s: Sample) -> str | None:
    """What went wrong: an exception, 5xx, "database is locked", a write not 201, a read not 200."""
    ok = 201 if s.kind == "write" else 200
    if s.error or s.status != ok or b"database is locked" in s.body:
        return f"{s.kind} {s.path}: {s.error or f'{s.status} {s.body[:300]!r}'}"
    return None


@dataclass
class Load:
    """What a load run did: every request with its outcome."""

    samples: list[Sample] = field(default_factory=list)
    elapsed: float = 0.0

    def of(self, kind: str) -> list[Sample]:
        return [s for s in self.samples if s.kind == kind]

    def acknowledged(self) -> list[Sample]:
        """Deals answered 201: the app said they are saved."""
        return [s for s in self.of("write") if s.status == 201]

    def problems(self) -> list[str]:
        """Every failed request (see `problem`)."""
        return [p for p in map(problem, self.samples) if p]

    def report(self, title: str) -> str:
        lines = [f"{title}: {len(self.samples)} requests in {self.elapsed:.1f} s"]
        for kind in ("write", "read"):
            done = self.of(kind)
            rate = len(done) / self.elapsed if self.elapsed else 0.0
            p95_ms = p95([s.seconds for s in done]) * 1000
            lines.append(
                f"  {kind + 's':6} {len(done):6} = {rate:7.1f} req/s, p95 {p95_ms:7.1f} ms"
            )
        total = len(self.samples) / self.elapsed if self.elapsed else 0.0
        lines.append(f"  total  {len(self.samples):6} = {total:7.1f} req/s")
        return "\n".join(lines)


def run_load(
    port: int,
    games: list[Game],
    *,
    writers: int,
    readers: int,
    seconds: float,
    stop: threading.Event | None = None,
    max_requests: int = 5000,
    on_started: threading.Event | None = None,
) -> Load:
    """`writers` threads enter deals (writer i on games[i % len]) with fresh keys; `readers`
    threads read the game's JSON and its scoreboard page; until `seconds` pass or `stop` is set.
    """
    stop = stop or threading.Event()
    load = Load()
    lock = threading.Lock()
    start = threading.Barrier(writers + readers + 1, timeout=30)
    deadline_box: list[float] = []

    def record(sample: Sample) -> None:
        with lock:
            load.samples.append(sample)

    def read(game: Game, path: str) -> None:
        t0 = time.monotonic()
        sample = Sample("read", path, t0, 0.0, game=game)
        try:
            # The page opens by its path, as a phone opens it; the API by the header.
            api = path.startswith("/api/")
            reply = call(port, "GET", path, headers=game.headers if api else None)
            sample.status = reply.status
            if reply.status >= 300 or b"database is locked" in reply.body:
                sample.body = reply.body
            elif api:
                # One consistent snapshot: every total is 50 for each deal the game holds
                # (deals_total: the answer lists one page of them).
                state = reply.json()
                totals = [side["total"] for side in state["sides"]]
                if totals != [50 * state["deals_total"]] * 2:
                    sample.error = f"inconsistent read: {state['deals_total']} deals, {totals}"
        except Exception as exc:  # any failure is data: the test decides
            sample.error = f"{type(exc).__name__}: {exc}"
        sample.seconds = time.monotonic() - t0
        record(sample)

    def writer(index: int) -> None:
        game = games[index % len(games)]
        start.wait()
        for n in range(max_requests):
            if stop.is_set() or time.monotonic() >= deadline_box[0]:
                return
            key = new_key(f"g{game.id}.w{index}.{n}")
            t0 = time.monotonic()
            sample = Sample("write", f"{game.api}/deals", t0, 0.0, key=key, game=game)
            try:
                reply = call(
                    port,
                    "POST",
                    sample.path,
                    json_body=DEAL,
                    headers={**game.headers, "Idempotency-Key": key},
                )
                sample.status = reply.status
                if reply.status != 201 or b"database is locked" in reply.body:
                    sample.body = reply.body
            except Exception as exc:
                sample.error = f"{type(exc).__name__}: {exc}"
            sample.seconds = time.monotonic() - t0
            record(sample)

    def reader(index: int) -> None:
        start.wait()
        for n in range(max_requests):
            if stop.is_set() or time.monotonic() >= deadline_box[0]:
                return
            game = games[(index + n) % len(games)]
            read(game, game.api if n % 2 == 0 else game.page)

    threads = [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(writers)]
    threads += [threading.Thread(target=reader, args=(i,), daemon=True) for i in range(readers)]
    for thread in threads:
        thread.start()
    began = time.monotonic()
    deadline_box.append(began + seconds)
    start.wait()
    if on_started is not None:
        on_started.set()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    load.elapsed = time.monotonic() - began
    assert not any(t.is_alive() for t in threads), "a load thread did not finish in time"
    return load


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
