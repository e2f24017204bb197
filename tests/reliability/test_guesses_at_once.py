"""Issue 26: wrong guesses sent all at once are counted one by one, on a real server.

"100 link guesses sent at once got 34-40 lookups, not 20": each request counted the address's
misses, found room, and wrote its own. Now a miss is written only while the allowance lasts,
in one statement that queues per address (scorekeeper/services/links.py, record_miss), so of 100
wrong
guesses sent together exactly MISSES_ALLOWED are answered 404 and every other one 429, on
SQLite and on PostgreSQL (scripts/with-postgres), whatever the mix of game links on the pages,
game keys on the API and clubs' table codes, and from addresses across one IPv6 /64.

gunicorn serves the app as shipped (gunicorn.conf.py: 4 workers of 12 threads), trusting one
proxy on 127.0.0.1, so that each round can come from an address of its own (X-Forwarded-For).
"""

from __future__ import annotations

import secrets
import threading
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from scorekeeper.services.links import MISSES_ALLOWED

from ._server import Gunicorn, call

GUESSES = 100
# Each round's guesses, as (method, path, headers) for the n-th of them.
Guess = Callable[[int], tuple[str, str, dict[str, str]]]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Gunicorn]:
    """gunicorn as gunicorn.conf.py has it, trusting the proxy on 127.0.0.1."""
    gunicorn = Gunicorn(tmp_path_factory.mktemp("guesses"))
    gunicorn.env["SCOREKEEPER_PROXIES"] = "1"
    try:
        gunicorn.init_db()
        gunicorn.start()
        yield gunicorn
    finally:
        gunicorn.stop()


def _wrong() -> str:
    return secrets.token_urlsafe(16)


def _all_at_once(port: int, guess: Guess) -> Counter:
    """Send GUESSES requests at the same moment, each on its own connection; their statuses."""
    statuses: list[int | str] = []
    lock = threading.Lock()
    start = threading.Barrier(GUESSES, timeout=30)

    def send(n: int) -> None:
        method, path, headers = guess(n)
        start.wait()
        try:
            status: int | str = call(port, method, path, headers=headers, timeout=60).status
        except Exception as exc:  # any failure is data: the test decides
            status = f"{type(exc).__name__}: {exc}"
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(GUESSES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return Counter(statuses)


def _from(address: str, **headers: str) -> dict[str, str]:
    return {"X-Forwarded-For": address, **headers}


ROUNDS: dict[str, Guess] = {
    "game links on the pages": lambda n: ("GET", f"/t/{_wrong()}", _from("192.0.2.1")),
    "game keys on the API": lambda n: (
        "GET",
        f"/api/v1/games/{n + 1}",
        _from("192.0.2.2", **{"X-Game-Key": _wrong()}),
    ),
    "table codes": lambda n: (
        "GET",
        "/api/v1/clubs/somewhere/standings",
        _from("192.0.2.3", **{"X-Table-Code": _wrong()}),
    ),
    "a mix, posted and read": lambda n: [
        ("GET", f"/t/{_wrong()}/invite.svg", _from("192.0.2.4")),
        ("POST", f"/t/{_wrong()}/entering", _from("192.0.2.4")),
        ("GET", f"/clubs/somewhere/table/{_wrong()}", _from("192.0.2.4")),
        ("GET", "/api/v1/clubs/x/rule-sets", _from("192.0.2.4", **{"X-Table-Code": _wrong()})),
    ][n % 4],
    "every guess from its own address in one IPv6 /64": lambda n: (
        "GET",
        f"/t/{_wrong()}",
        _from(f"2001:db8:26:1:{n:x}::1"),
    ),
}


@pytest.mark.parametrize("kind", list(ROUNDS))
def test_exactly_the_allowance_of_guesses_sent_at_once_is_looked_at(server, kind):
    statuses = _all_at_once(server.port, ROUNDS[kind])
    assert statuses == Counter({404: MISSES_ALLOWED, 429: GUESSES - MISSES_ALLOWED}), (
        f"{kind}: {dict(statuses)}\n{server.log()[-3000:]}"
    )
