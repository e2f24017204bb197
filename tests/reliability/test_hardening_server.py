"""gunicorn with the shipped gunicorn.conf.py (issue 14, items 4 and 11).

- Slow clients (headers sent a byte at a time) do not stall everyone else; with gunicorn's
  defaults (sync workers) the same clients do, which `test_the_attack_stalls_sync_workers` keeps
  proving so that the first test cannot pass by an attack that went soft.
- After the master is SIGKILLed, a server started at once on the same port serves within seconds,
  and the orphaned workers are gone, even one that a slow client was holding.
- Threads and SQLite: a short mixed load on the shipped settings has no errors.

To see the other tests fail on the old settings: HARDENING_CONFIG=sync pytest this file (or
HARDENING_CONFIG=path/to/another.conf.py).
"""

from __future__ import annotations

import inspect
import os
import runpy
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from . import _server
from ._server import HOST, ROOT, Gunicorn, call, new_game, proc_alive, run_load

SHIPPED = ROOT / "gunicorn.conf.py"
SETTINGS = runpy.run_path(str(SHIPPED))
WORKERS = SETTINGS["workers"]
# Two per worker: enough to hold every sync worker with some waiting behind them.
SLOW_CLIENTS = 2 * WORKERS
# One header byte per client this often: far slower than any phone, far faster than a timeout.
DRIP_SECONDS = 0.5
# A normal request must be answered within this while the slow clients are connected.
PROMPT_SECONDS = 2.0
# After the master is killed its workers are gone within this (graceful_timeout is longer).
ORPHANS_GONE_SECONDS = 3.0


def config_file(folder: Path) -> Path:
    """The settings under test: the shipped file, unless HARDENING_CONFIG names another file or
    says `sync` (gunicorn's defaults), to watch these tests fail on other settings."""
    other = os.environ.get("HARDENING_CONFIG", "")
    if other == "sync":
        return sync_config(folder)
    return Path(other) if other else SHIPPED


def sync_config(folder: Path) -> Path:
    """A config file with nothing in it: gunicorn's defaults, sync workers (the old way)."""
    path = folder / "sync.conf.py"
    path.write_text("# gunicorn's defaults: sync workers, one connection each\n")
    return path


def server(folder: Path, config: Path, db_path: Path | None = None) -> Gunicorn:
    """A Gunicorn (see _server) that reads `config`; -w from the helper matches the file's."""
    gunicorn = Gunicorn(folder, workers=WORKERS, db_path=db_path)
    # The helper's command line has no -c; gunicorn takes it from here (and command-line -w and
    # -b still win, as they would for an operator).
    gunicorn.env["GUNICORN_CMD_ARGS"] = f"-c {config}"
    return gunicorn


class Trickle:
    """Connections that each send `head` at once, then `drip` a byte at a time, never done."""

    def __init__(self, port: int, count: int, head: bytes, drip: bytes) -> None:
        self.port = port
        self.count = count
        self.head = head
        self.drip = drip
        self.sockets: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._drip, daemon=True)

    def __enter__(self) -> Trickle:
        for _ in range(self.count):
            sock = socket.create_connection((HOST, self.port), timeout=5)
            if self.head:
                sock.sendall(self.head)
            self.sockets.append(sock)
        self.thread.start()
        return self

    def _drip(self) -> None:
        """Send each open socket its next byte, then wait; a socket the server closed drops out."""
        for position in range(len(self.drip)):
            for sock in list(self.sockets):
                try:
                    sock.send(self.drip[position : position + 1])
                except OSError:
                    self.sockets.remove(sock)
            if self.stop.wait(DRIP_SECONDS):
                return

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=10)
        for sock in self.sockets:
            sock.close()


# A request's headers, sent a byte at a time and never finished: long enough to outlast any
# test here, and far below gunicorn's header limits.
SLOW_HEADER = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"s" * 2000


def SlowClients(port: int, count: int) -> Trickle:  # noqa: N802 -- reads as the thing it makes
    """Sockets that send a request's headers one byte at a time and never finish them."""
    return Trickle(port, count, b"", SLOW_HEADER)


@contextmanager
def served(folder: Path, config: Path) -> Iterator[Gunicorn]:
    """gunicorn with `config` on a fresh database, stopped afterwards."""
    gunicorn = server(folder, config)
    try:
        gunicorn.init_db()
        gunicorn.start()
        yield gunicorn
    finally:
        gunicorn.stop()


def timed_get(port: int) -> tuple[int | None, float]:
    """GET / on a new connection, giving up after PROMPT_SECONDS: its status (None) and time."""
    started = time.monotonic()
    try:
        status: int | None = call(port, "GET", "/", timeout=PROMPT_SECONDS).status
    except OSError:  # socket.timeout included: no answer in time
        status = None
    return status, time.monotonic() - started


def test_the_shipped_settings_are_threads():
    """The file says what the README promises: gthread workers, bounded waits."""
    assert SETTINGS["worker_class"] == "gthread"
    # More threads than the slow clients below, so they cannot fill even one worker.
    assert SETTINGS["threads"] > SLOW_CLIENTS
    assert 0 < SETTINGS["keepalive"] <= 10
    assert 0 < SETTINGS["graceful_timeout"] <= 10
    assert callable(SETTINGS["post_fork"]) and callable(SETTINGS["worker_exit"])


def test_slow_clients_do_not_stall_a_normal_request(tmp_path):
    """Slow clients hold a thread each, not a worker each: a GET is still answered at once."""
    with served(tmp_path, config_file(tmp_path)) as gunicorn:
        with SlowClients(gunicorn.port, SLOW_CLIENTS) as slow:
            time.sleep(2 * DRIP_SECONDS)  # every slow client is accepted and being read
            answers = [timed_get(gunicorn.port) for _ in range(5)]
            assert len(slow.sockets) == SLOW_CLIENTS, "the server dropped a slow client"
        for status, seconds in answers:
            assert status == 200 and seconds < PROMPT_SECONDS, answers
        assert "Using worker: gthread" in gunicorn.log()


def test_the_attack_stalls_sync_workers(tmp_path):
    """The same clients against gunicorn's defaults (sync, -w 4): no answer in time.

    This is what the pentest saw; it keeps the test above honest.
    """
    with served(tmp_path, sync_config(tmp_path)) as gunicorn:
        assert timed_get(gunicorn.port)[0] == 200  # answered while nobody is slow
        with SlowClients(gunicorn.port, SLOW_CLIENTS):
            time.sleep(2 * DRIP_SECONDS)
            status, seconds = timed_get(gunicorn.port)
        assert status is None and seconds >= PROMPT_SECONDS


def watch(pids: list[int], gone: list[float]) -> None:
    """Note in `gone` when none of `pids` runs any more (looking for ORPHANS_GONE_SECONDS)."""
    deadline = time.monotonic() + ORPHANS_GONE_SECONDS
    while time.monotonic() < deadline:
        if not any(map(proc_alive, pids)):
            gone.append(time.monotonic())
            return
        time.sleep(0.02)


def test_after_the_master_is_killed_a_new_server_takes_the_port_at_once(tmp_path, monkeypatch):
    """SIGKILL the master (a slow client holding one worker): every orphaned worker is gone at
    once, and a server started at once serves on the same port within seconds."""
    config = config_file(tmp_path)
    first = server(tmp_path, config)
    again = server(tmp_path, config, db_path=first.db_path)
    try:
        first.init_db()
        first.start()
        assert first.proc is not None
        orphans = list(first.worker_pids)
        assert len(orphans) == WORKERS
        gone: list[float] = []
        with SlowClients(first.port, 1):
            time.sleep(2 * DRIP_SECONDS)
            os.kill(first.proc.pid, signal.SIGKILL)
            first.proc.wait(timeout=10)
            killed_at = time.monotonic()
            watcher = threading.Thread(target=watch, args=(orphans, gone), daemon=True)
            watcher.start()
            # Started at once, on the same port, not a free one: that is the point.
            monkeypatch.setattr(_server, "free_port", lambda: first.port)
            again.start(wait=20)
            took = time.monotonic() - killed_at
            assert call(again.port, "GET", "/", timeout=5).status == 200
            watcher.join(timeout=ORPHANS_GONE_SECONDS + 1)
        print(f"\nserving again {took:.1f} s after the kill (booting the app included)")
        alive = [pid for pid in orphans if proc_alive(pid)]
        assert alive == [], f"orphaned workers still running: {alive}"
        # They left at once (told by the kernel), not after draining the slow client.
        assert gone and gone[0] - killed_at < ORPHANS_GONE_SECONDS
        # So the new master found the port free: bound at once, or at its first retry at worst
        # (it tries five times, a second apart, then gives up).
        assert again.log().count("Connection in use") <= 1, again.log()
    finally:
        again.stop()
        first.stop()


def test_threads_on_sqlite_under_load(tmp_path):
    """A short mixed load on the shipped settings: no failed request, no error in the log."""
    with served(tmp_path, config_file(tmp_path)) as gunicorn:
        games = [new_game(gunicorn.port) for _ in range(8)]
        load = run_load(gunicorn.port, games, writers=8, readers=8, seconds=5)
        print()
        print(load.report("gthread load: 8 writers + 8 readers"))
        assert load.acknowledged(), "no deal was saved"
        problems = load.problems()
        assert problems == [], f"{len(problems)} failed requests, e.g. {problems[:5]}"
        log = gunicorn.log()
        for trouble in ("database is locked", "Traceback", "WORKER TIMEOUT"):
            assert trouble not in log, f"{trouble!r} in the server log:\n{log[-3000:]}"


def test_every_setting_in_the_file_is_one_gunicorn_knows():
    """gunicorn ignores a name it does not know: a misspelt setting would silently do nothing."""
    from gunicorn.config import Config

    written = {
        name
        for name, value in SETTINGS.items()
        if not name.startswith("_") and (isinstance(value, int | str) or inspect.isfunction(value))
    }
    assert {"worker_class", "threads", "graceful_timeout", "worker_exit"} <= written
    assert written - set(Config().settings) == set()
