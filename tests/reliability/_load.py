"""Load for the reliability tests: writers and readers on games for a time, and what they got.

Re-exported by _server.py, where the tests and bench/ import them from. Every loop is bounded
in count and time; only 127.0.0.1 is used.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass, field

from ._client import DEAL, Game, call, new_key


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
