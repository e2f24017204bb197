"""The worst requests a client that is not signed in can send, and what each costs (issue 26).

Before issue 26, one `POST /api/v1/games` with a side of 1,150,000 players (5.75 MB) cost a
worker 30-42 s and 1.35 GB, and 400,000 unknown keys on a deal or a line 12 s. Each body now
has an allowance it is refused past before it is read (`scorekeeper/plumbing/bodies.py`), sides and
players are counted before they are read, and an answer lists at most MAX_ERRORS_LISTED
errors. This script sends, each at the largest its allowance lets it be:

- a new game of as many sides as fit, and of one side with as many players as fit;
- the attack's own body (1,150,000 players, 5.75 MB), and a body sent in chunks with no length;
- a deal, a correction and a line of as many unknown keys as fit (on a game of 12 sides), and a
  deal of as many unknown book kinds;
- house rules of as many unknown rules as fit, and one rule (card_values) of as many unknown
  cards;
- the deepest nesting the API reads (32 levels) as many times as its count of brackets lets
  it, as many empty lists as fit, and one body nested 100,000 deep;
- forms of as many fields as fit: the new game form (with its CSRF token, as a page gives it),
  the same without a token (refused by the CSRF check, after reading it), and a side's line;
  and a side's line of one figure as long as fits (the page shown again quotes it);
- the records upload (6 MB, the one route that takes it) from a client not signed in;
- a public club of 10,000 games: its records files and pages (`bench/_worst_exports.py`).

Twice: in process through Flask's test client (the app with CSRF on, a temporary SQLite
database), timing each request (median of --runs) and then taking its tracemalloc peak alone;
and against gunicorn `-w 1` (sync) over HTTP, timing it and reading the worker's peak resident
memory (Linux: VmHWM, reset through /proc/<pid>/clear_refs before each request) less what it
held before. Target: each under 1 s and 50 MB.

    .venv/bin/python bench/worst_request.py [--runs 3] [--no-server] [--club-games 10000]
"""

from __future__ import annotations

import argparse
import http.client
import io
import os
import re
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _serve import HOST, Server, init_db, machine  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.plumbing import bodies
from scorekeeper.rules.terms import MAX_SIDES  # noqa: E402
from scorekeeper.web.api import MAX_BRACKETS  # noqa: E402

TARGET_SECONDS = 1.0
TARGET_BYTES = 50 * 1024 * 1024
MB = 1024 * 1024
JSON = "application/json"
FORM = "application/x-www-form-urlencoded"


@dataclass
class Ask:
    """One request: what it is, and how to send it (its body built before anything is timed)."""

    label: str
    method: str
    path: str
    body: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)
    chunked: bool = False  # sent with no Content-Length, as a stream the client ends


def filled(head: bytes, item: Callable[[int], bytes], tail: bytes, most: int) -> bytes:
    """head + items joined by commas + tail, as many items as keep it within `most` bytes."""
    parts, size, n = [], len(head) + len(tail), 0
    while True:
        piece = item(n)
        if size + len(piece) + 1 > most:
            break
        parts.append(piece)
        size += len(piece) + 1
        n += 1
    return head + b",".join(parts) + tail


def keys(n: int) -> bytes:
    return b'"k%d":0' % n


def nested(depth: int) -> bytes:
    """A list nested `depth` levels deep (the body's object and `scores` are two more)."""
    return b"[" * depth + b"]" * depth


def asks(game: dict, token: str, secret: str) -> list[Ask]:
    """The worst requests, each as large as its allowance lets it be."""
    most = bodies.MAX_JSON_BODY - 1
    form_most = bodies.MAX_FORM_BODY - 1
    key = {"X-Game-Key": game["key"]}
    base = f"/api/v1/games/{game['id']}"
    two = b'{"ruleset":"classic","sides":[{"name":"A"},{"name":"B"}],"rules":{'
    many_sides = filled(
        b'{"ruleset":"classic","sides":[', lambda n: b'{"name":"s%d"}' % n, b"]}", most
    )
    players = filled(
        b'{"ruleset":"classic","sides":[{"name":"B"},{"name":"A","players":[',
        lambda n: b'"p"',
        b"]}]}",
        most,
    )
    attack = (
        b'{"ruleset":"classic","sides":[{"name":"A","players":['
        + b",".join([b'"ab"'] * 1_150_000)
        + b']},{"name":"B"}]}'
    )
    per_entry = most // MAX_SIDES
    entry = filled(b"{", keys, b"}", per_entry - 2)
    scores = b'{"scores":[' + b",".join([entry] * MAX_SIDES) + b"]}"
    correction = b'{"version":1,"scores":[' + b",".join([entry] * MAX_SIDES) + b"]}"
    line = filled(b'{"deal":2,"entry":{', keys, b"}}", most)
    books = filled(b'{"scores":[{"books":{', keys, b"}}]}", most)
    rules = filled(two, keys, b"}}", most)
    card_kinds = filled(two + b'"card_values":{', keys, b"}}}", most)
    # The deepest nesting read, as often as the count of brackets lets it (then as many
    # empty lists as fit, refused by that count).
    deep = b'{"scores":[' + b",".join([nested(30)] * (MAX_BRACKETS // 30 - 1)) + b"]}"
    lists = filled(b'{"scores":[', lambda n: b"[]", b"]}", most)
    too_deep = b'{"scores":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    csrf = f"csrf_token={token}&".encode()
    fields = filled(csrf, lambda n: b"a", b"", form_most).replace(b",", b"&")
    no_token = filled(b"", lambda n: b"a", b"", form_most).replace(b",", b"&")
    line_form = filled(csrf + b"number=2&", lambda n: b"s0-books-clean=1", b"", form_most)
    line_form = line_form.replace(b",", b"&")
    # One figure as long as fits: the page shown again quotes it.
    long_figure = csrf + b"number=2&s0-books-clean=" + b"9" * (form_most - len(csrf) - 40)
    boundary = "worstrequestboundary"
    upload = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="deals.csv"\r\n'
        f"Content-Type: text/csv\r\n\r\n".encode()
        + b"x" * (bodies.MAX_UPLOAD - 1024)
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return [
        Ask("new game: as many sides as fit", "POST", "/api/v1/games", many_sides, JSON),
        Ask("new game: a side of as many players as fit", "POST", "/api/v1/games", players, JSON),
        Ask(
            "new game: the attack (1,150,000 players, 5.75 MB)",
            "POST",
            "/api/v1/games",
            attack,
            JSON,
        ),
        Ask(
            "new game: 5.75 MB in chunks, no length",
            "POST",
            "/api/v1/games",
            attack,
            JSON,
            chunked=True,
        ),
        Ask("new game: as many unknown house rules as fit", "POST", "/api/v1/games", rules, JSON),
        Ask(
            "new game: a house rule of as many unknown cards",
            "POST",
            "/api/v1/games",
            card_kinds,
            JSON,
        ),
        Ask("deal: 12 entries of unknown keys", "POST", f"{base}/deals", scores, JSON, key),
        Ask("deal: as many unknown book kinds as fit", "POST", f"{base}/deals", books, JSON, key),
        Ask(
            "correction: 12 entries of unknown keys",
            "PUT",
            f"{base}/deals/1",
            correction,
            JSON,
            key,
        ),
        Ask(
            "line: as many unknown keys as fit",
            "PUT",
            f"{base}/deals/next/parts/0",
            line,
            JSON,
            key,
        ),
        Ask("deal: 32 levels deep, as often as read", "POST", f"{base}/deals", deep, JSON, key),
        Ask("deal: as many empty lists as fit", "POST", f"{base}/deals", lists, JSON, key),
        Ask("deal: 100,000 levels deep", "POST", f"{base}/deals", too_deep, JSON, key),
        Ask(
            "new game form: as many fields as fit",
            "POST",
            "/games/new?ruleset=classic",
            fields,
            FORM,
        ),
        Ask(
            "new game form: as many fields, no CSRF token",
            "POST",
            "/games/new?ruleset=classic",
            no_token,
            FORM,
        ),
        Ask(
            "line form: as many fields as fit", "POST", f"/t/{secret}/deals/next/0", line_form, FORM
        ),
        Ask(
            "line form: one figure as long as fits",
            "POST",
            f"/t/{secret}/deals/next/0",
            long_figure,
            FORM,
        ),
        Ask(
            "records upload: 6 MB, not signed in",
            "POST",
            "/clubs/anyclub/import",
            upload,
            f"multipart/form-data; boundary={boundary}",
        ),
    ]


@dataclass
class Cost:
    status: int
    seconds: float
    peak: int  # bytes: tracemalloc's peak in process, the worker's peak RSS growth over HTTP
    answer: int  # bytes of the answer


def in_process(client, ask: Ask, cookie: str, runs: int) -> Cost:
    """Median time over `runs`, then one run under tracemalloc for its peak."""

    def send():
        headers = {**ask.headers, "Cookie": cookie, "Content-Type": ask.content_type}
        if ask.chunked:
            return client.open(
                ask.path,
                method=ask.method,
                input_stream=io.BytesIO(ask.body),
                headers={**headers, "Transfer-Encoding": "chunked"},
                environ_overrides={"wsgi.input_terminated": True},
            )
        return client.open(ask.path, method=ask.method, data=ask.body, headers=headers)

    times = []
    for _ in range(runs):
        start = time.perf_counter()
        answer = send()
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    answer = send()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return Cost(answer.status_code, statistics.median(times), peak, len(answer.data))


def worker_of(master: int) -> int:
    """gunicorn's one worker: the master's child."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return int(children[0])


def memory(pid: int, name: str) -> int:
    found = re.search(rf"^{name}:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text(), re.M)
    return int(found.group(1)) * 1024 if found else 0


def over_http(port: int, worker: int, ask: Ask, cookie: str, runs: int) -> Cost:
    """Median time over `runs`; the largest growth of the worker's peak RSS in any of them."""
    times, growth, status, size = [], 0, 0, 0
    for _ in range(runs):
        Path(f"/proc/{worker}/clear_refs").write_text("5")  # the peak starts again from now
        before = memory(worker, "VmRSS")
        conn = http.client.HTTPConnection(HOST, port, timeout=120)
        headers = {**ask.headers, "Cookie": cookie, "Content-Type": ask.content_type}
        start = time.perf_counter()
        try:
            if ask.chunked:
                body_sent = iter([ask.body])
                conn.request(
                    ask.method, ask.path, body=body_sent, headers=headers, encode_chunked=True
                )
            else:
                conn.request(ask.method, ask.path, body=ask.body, headers=headers)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered before reading it all (413), and closed: read its answer
        try:
            response = conn.getresponse()
            status, size = response.status, len(response.read())
        except (ConnectionError, http.client.HTTPException):
            status, size = 0, 0  # closed with no answer
        times.append(time.perf_counter() - start)
        conn.close()
        growth = max(growth, memory(worker, "VmHWM") - before)
    return Cost(status, statistics.median(times), growth, size)


def setup(client) -> tuple[dict, str, str]:
    """A game of 12 sides with one deal; a CSRF token and the cookie it goes with."""
    sides = [{"name": f"Side {n}"} for n in range(MAX_SIDES)]
    made = client.post("/api/v1/games", json={"ruleset": "classic", "sides": sides})
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    dealt = client.post(
        f"/api/v1/games/{game['id']}/deals",
        json={"scores": [{}] * MAX_SIDES},
        headers={"X-Game-Key": game["key"]},
    )
    assert dealt.status_code == 201, dealt.get_json()
    page = client.get("/games/new?ruleset=classic")
    token = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page.data).group(1)
    cookie = client.get_cookie("session")
    return game, token.decode(), f"session={cookie.value}"


def report(label: str, costs: dict[str, Cost], size: dict[str, int], what: str) -> bool:
    print(f"\n{label}")
    print(f"  {'request':52} {'body':>10} {'status':>6} {'time':>9} {what:>12} {'answer':>9}")
    fine = True
    for name, cost in costs.items():
        over = cost.seconds >= TARGET_SECONDS or cost.peak >= TARGET_BYTES
        fine &= not over
        print(
            f"  {name:52} {size[name] / 1024:8.0f} KB {cost.status:6} "
            f"{cost.seconds * 1000:7.1f} ms {cost.peak / MB:9.1f} MB {cost.answer:7,} B"
            + ("  OVER TARGET" if over else "")
        )
    return fine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each request")
    parser.add_argument("--no-server", action="store_true", help="only in process")
    from _worst_exports import arguments, run  # a club's records and pages (issue 39)

    arguments(parser)
    args = parser.parse_args()
    print(f"Machine: {machine()}")
    print(
        f"Allowances: API JSON {bodies.MAX_JSON_BODY:,} B, forms {bodies.MAX_FORM_BODY:,} B, "
        f"the records upload {bodies.MAX_UPLOAD:,} B. Target: each under "
        f"{TARGET_SECONDS:.0f} s and {TARGET_BYTES // MB} MB."
    )
    fine = True
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/worst.sqlite"
        init_db(url)
        os.environ["DATABASE_URL"] = url
        app = create_app({"SECRET_KEY": "worst-request-bench"})
        client = app.test_client()
        game, token, cookie = setup(client)
        secret = game["link"].rstrip("/").rsplit("/t/", 1)[1]
        todo = asks(game, token, secret)
        size = {ask.label: len(ask.body) for ask in todo}
        costs = {ask.label: in_process(client, ask, cookie, args.runs) for ask in todo}
        fine &= report(
            "In process (Flask test client; time: median, memory: tracemalloc peak)",
            costs,
            size,
            "peak",
        )
        if not args.no_server:
            with Server("scorekeeper:create_app()", {"DATABASE_URL": url}) as server:
                # The server signs with a key of its own: a token and cookie from it.
                conn = http.client.HTTPConnection(HOST, server.port, timeout=30)
                conn.request("GET", "/games/new?ruleset=classic")
                page = conn.getresponse()
                served_cookie = page.getheader("Set-Cookie", "").split(";", 1)[0]
                found = re.search(rb'name="csrf_token" type="hidden" value="([^"]+)"', page.read())
                conn.close()
                todo = asks(game, found.group(1).decode(), secret)
                worker = worker_of(server.proc.pid)
                costs = {
                    ask.label: over_http(server.port, worker, ask, served_cookie, args.runs)
                    for ask in todo
                }
                fine &= report(
                    "gunicorn -w 1, sync, over HTTP (time: median, memory: the worker's peak "
                    "RSS growth)",
                    costs,
                    {ask.label: len(ask.body) for ask in todo},
                    "RSS growth",
                )
        if args.club_games:
            fine &= run(folder, args)
    print("\nEvery request within the target." if fine else "\nSome request is OVER TARGET.")


if __name__ == "__main__":
    main()
