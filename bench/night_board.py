"""A club night's board polled by the room's phones, against one scoreboard's poll per phone.

Issue 29's target: a night board for 10 tables polled by 40 phones costs the server about what
one scoreboard's poll does per phone (304 when nothing changed). A club's night of 40 members
(10 tables of 4, classic rules, round 1 seated, a deal saved at every table) is made in process
on a fresh SQLite file (or DATABASE_URL / TEST_DATABASE_URL), then served by gunicorn with the
shipped `gunicorn.conf.py` (gthread; `-w 2` by default). Every phone holds the club's table
link (its session cookie), as a table's phone does.

1. In process (Flask's test client), the SQL statements each answer asks: the board unchanged
   (304), the board changed (200), and a table's scoreboard poll (`/t/<secret>/live`) unchanged
   and changed.
2. Over HTTP, one request at a time, taking turns: the time of each of those four answers
   (median, p95), a new connection each, as `bench/scoreboard.py` times its pages.
3. 40 phones for `--seconds`, each on its own keep-alive connection polling every second with
   its last ETag (as `static/board.js` does), while a scorer saves a deal at one table every
   `--gap` seconds through the API: first all 40 on the night board, then the same 40 on their
   own table's scoreboard (4 a table; a changed poll fetches the scoreboard page again, as
   `static/live.js` does, where the board's changed poll is its page). Prints polls/s, 200s
   and 304s, errors, p95 and the server's CPU per poll (its `/proc` counters), whose ratio is
   the figure the target asks for.

    .venv/bin/python bench/night_board.py [--seconds 60] [--gap 18] [--requests 300] [--workers 2]
    scripts/with-postgres .venv/bin/python bench/night_board.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _serve import (  # noqa: E402
    HOST,
    ROOT,
    Server,
    call,
    init_db,
    machine,
    ms,
    on_database,
    warm_ups,
)
from live import cpu_seconds, percentile  # noqa: E402

SLUG = "bench-night"
TABLES = 10
PHONES = 40
POLL_SECONDS = 1.0  # the board's poll (web/nights/pages.py BOARD_POLL)
TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')
# A quiet deal: neither side goes out, so no table's game ends while the bench runs.
QUIET = {"scores": [{"melded_points": 120}, {"melded_points": 90}]}


@dataclass
class Night:
    """What the bench polls: the board's path, each table's game (id, secret), the table code."""

    board: str
    games: list[tuple[int, str]] = field(default_factory=list)
    code: str = ""


def build(database_url: str) -> Night:
    """The club's night of 40 members on 10 tables, round 1 seated, one deal at each table."""
    from scorekeeper import create_app, with_driver
    from scorekeeper.plumbing.db import db
    from scorekeeper.services import accounts, clubs, deals
    from scorekeeper.services.access import Level
    from scorekeeper.services.nights import play as night_play

    app = create_app({"SQLALCHEMY_DATABASE_URI": with_driver(database_url)})
    with app.app_context():
        organiser = accounts.register("bench-organiser", secrets.token_hex(12))
        club = clubs.create_club("Bench Night Club", SLUG, organiser)
        ids = [clubs.add_member(club, f"Player {n:02d}").id for n in range(1, 4 * TABLES + 1)]
        night = night_play.open_night(club, ids, "", "classic", 3, "rotating", "no game")
        night_play.seat_round(night)
        found = Night(f"/clubs/{SLUG}/nights/{night.id}/board", code=club.table_code)
        for table in night.rounds[0].tables:
            deals.enter_deal(table.game, Level.TABLE, QUIET["scores"])
            found.games.append((table.game.id, table.game.secret))
        assert len(found.games) == TABLES, found.games
        db.session.remove()
        db.engine.dispose()
    return found


def table_link_cookie(port: int, code: str) -> str:
    """A phone that kept the club's table link (its button's POST): its session cookie."""
    page = call(port, "GET", f"/clubs/{SLUG}/table/{code}")
    cookie = page.headers.get("set-cookie", "").split(";")[0]
    token = TOKEN.search(page.body.decode())
    assert cookie and token, page.status
    kept = call(
        port,
        "POST",
        f"/clubs/{SLUG}/table/{code}",
        form={"csrf_token": token.group(1)},
        headers={"Cookie": cookie},
    )
    assert kept.status == 302, kept.status
    return kept.headers.get("set-cookie", cookie).split(";")[0]


# --- 1. statements asked, in process --------------------------------------------------------


def statements(database_url: str, night: Night) -> dict[str, tuple[int, int]]:
    """Per answer: (SQL statements, of which SELECTs), through the test client."""
    from sqlalchemy import event

    from scorekeeper import create_app, with_driver
    from scorekeeper.plumbing.db import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": with_driver(database_url)})
    client = app.test_client()
    page = client.get(f"/clubs/{SLUG}/table/{night.code}")
    token = TOKEN.search(page.text)
    assert token, page.status_code
    kept = client.post(f"/clubs/{SLUG}/table/{night.code}", data={"csrf_token": token.group(1)})
    assert kept.status_code == 302, kept.status_code
    with app.app_context():
        engine = db.engine
    asked: list[str] = []

    def count(_conn, _cursor, statement, *_):
        asked.append(statement)

    live = f"/t/{night.games[0][1]}/live?device={secrets.token_hex(16)}"
    found = {}
    event.listen(engine, "before_cursor_execute", count)
    try:
        for name, path in (("board", night.board), ("scoreboard", live)):
            etag = client.get(path).headers["ETag"]
            for kind, headers in (("304", {"If-None-Match": etag}), ("200", {})):
                asked.clear()
                answer = client.get(path, headers=headers)
                assert answer.status_code == int(kind), (path, answer.status_code)
                selects = sum(s.lstrip().upper().startswith("SELECT") for s in asked)
                found[f"{name} {kind}"] = (len(asked), selects)
    finally:
        event.remove(engine, "before_cursor_execute", count)
        with app.app_context():
            db.engine.dispose()
    return found


# --- 2. one at a time -----------------------------------------------------------------------


def turns(port: int, night: Night, cookie: str, requests: int) -> dict[str, list[float]]:
    """Each answer's seconds, taking turns, a new connection each time."""
    live = f"/t/{night.games[0][1]}/live?device={secrets.token_hex(16)}"
    phone = {"Cookie": cookie}
    etags = {
        "board": call(port, "GET", night.board, headers=phone).headers["etag"],
        "scoreboard": call(port, "GET", live, headers=phone).headers["etag"],
    }
    asked = {
        "board 304": (night.board, {**phone, "If-None-Match": etags["board"]}, 304),
        "board 200": (night.board, {**phone, "If-None-Match": '"n0.0.0"'}, 200),
        "scoreboard 304": (live, {**phone, "If-None-Match": etags["scoreboard"]}, 304),
        "scoreboard 200": (live, {**phone, "If-None-Match": '"0"'}, 200),
    }
    times: dict[str, list[float]] = {name: [] for name in asked}
    warm = warm_ups(20)
    for round_ in range(requests + warm):  # the first 20 warm the workers
        for name, (path, headers, status) in asked.items():
            started = time.perf_counter()
            reply = call(port, "GET", path, headers=headers)
            took = time.perf_counter() - started
            assert reply.status == status, (name, reply.status)
            if round_ >= warm:
                times[name].append(took)
    return times


# --- 3. forty phones at once ----------------------------------------------------------------


class Phone:
    """One phone on its own keep-alive connection, polling `path` with its last ETag; on a
    change, fetching `then` too (a scoreboard's page, as static/live.js fetches it again)."""

    def __init__(self, port: int, path: str, cookie: str, then: str = "") -> None:
        self.port, self.path, self.cookie, self.then = port, path, cookie, then
        self.etag: str | None = None
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def poll(self) -> int:
        """One poll; on a change after the first, the page it shows fetched too."""
        first = self.etag is None
        status = await self.ask(self.path, self.etag)
        if status == 200 and self.then and not first:
            await self.ask(self.then, None)
        return status

    async def ask(self, path: str, etag: str | None) -> int:
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            head = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Accept-Encoding: gzip"]
            head += [f"Cookie: {self.cookie}"] if self.cookie else []
            head += [f"If-None-Match: {etag}"] if etag else []
            self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
            try:
                await self.writer.drain()
                got = await self.reader.readuntil(b"\r\n\r\n")
            except (OSError, asyncio.IncompleteReadError):
                # gunicorn closed a connection left quiet past its keep-alive: open another.
                self.close()
                if attempt == 2:
                    raise
                continue
            lines = got.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            fields = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
            await self.reader.readexactly(int(fields.get("content-length", "0")))
            if path == self.path:
                self.etag = fields.get("etag", self.etag)
            if fields.get("connection", "").lower() == "close":
                self.close()
            return status
        raise OSError("no answer")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Crowd:
    """What the phones saw over one run."""

    took: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    errors: int = 0
    deals: int = 0


async def _watch(phone: Phone, until: float, crowd: Crowd) -> None:
    loop = asyncio.get_running_loop()
    # Phones do not poll in step with one another.
    await asyncio.sleep(POLL_SECONDS * int.from_bytes(os.urandom(2), "big") / 65536)
    while loop.time() < until:
        started = loop.time()
        try:
            status = await phone.poll()
            crowd.statuses[status] = crowd.statuses.get(status, 0) + 1
            crowd.errors += status not in (200, 304)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            crowd.errors += 1
            phone.close()
        crowd.took.append(loop.time() - started)
        await asyncio.sleep(max(0.0, POLL_SECONDS - (loop.time() - started)))
    phone.close()


async def _score(port: int, night: Night, until: float, gap: float, crowd: Crowd) -> None:
    """A deal saved at the next table every `gap` seconds, through the API, as a phone would."""
    loop = asyncio.get_running_loop()
    table = 0
    await asyncio.sleep(gap / 2)
    while loop.time() < until - gap / 2:
        game, secret = night.games[table % len(night.games)]
        # A private club's game: the API client shows the club's table code too.
        headers = {"X-Game-Key": secret, "X-Table-Code": night.code}
        headers["Idempotency-Key"] = secrets.token_hex(16)
        path = f"/api/v1/games/{game}/deals"
        reply = await asyncio.to_thread(call, port, "POST", path, json_body=QUIET, headers=headers)
        assert reply.status == 201, reply.body[:300]
        crowd.deals += 1
        table += 1
        await asyncio.sleep(gap)


def crowd(port: int, night: Night, paths: list[tuple[str, str, str]], args) -> tuple[Crowd, float]:
    """The phones polling their paths for `args.seconds`: what they saw, the server's CPU."""

    async def go(master: int) -> Crowd:
        seen = Crowd()
        until = asyncio.get_running_loop().time() + args.seconds
        phones = [Phone(port, path, cookie, then) for path, cookie, then in paths]
        await asyncio.gather(
            _score(port, night, until, args.gap, seen), *(_watch(p, until, seen) for p in phones)
        )
        return seen

    used = cpu_seconds(args.master)
    seen = asyncio.run(go(args.master))
    return seen, cpu_seconds(args.master) - used


def run(args: argparse.Namespace, database_url: str) -> None:
    init_db(database_url)
    night = build(database_url)
    counted = statements(database_url, night)
    config = ["-c", str(ROOT / "gunicorn.conf.py")]
    with Server(
        "scorekeeper:create_app()", {"DATABASE_URL": database_url}, args.workers, config
    ) as app:
        args.master = app.proc.pid
        cookie = table_link_cookie(app.port, night.code)
        times = turns(app.port, night, cookie, args.requests)
        board = [(night.board, cookie, "")] * PHONES
        # Each table's four phones on their own game's scoreboard: 40 phones, 10 games; a
        # changed poll fetches the scoreboard again, as the board's 200 is its page.
        tables = []
        for n in range(PHONES):
            secret = night.games[n // 4][1]
            live = f"/t/{secret}/live?device={secrets.token_hex(16)}"
            tables.append((live, cookie, f"/t/{secret}"))
        runs = {}
        for name, paths in (("night board", board), ("scoreboards", tables)):
            runs[name] = crowd(app.port, night, paths, args)
        check = json.loads(
            call(
                app.port,
                "GET",
                f"/api/v1/games/{night.games[0][0]}",
                headers={"X-Game-Key": night.games[0][1], "X-Table-Code": night.code},
            ).body
        )

    print(f"machine: {machine()}")
    print(
        f"database: {database_url.split(':', 1)[0]}; gunicorn -c gunicorn.conf.py -w "
        f"{args.workers} (gthread); a night of {4 * TABLES} players on {TABLES} tables of 4, "
        f"round 1 seated; table 1's game now at deal {check['deals_total']}"
    )
    print("\nSQL statements an answer asks (in process; of which SELECT):")
    for name, (every, selects) in counted.items():
        print(f"  {name:15} {every} ({selects})")
    print(f"\none request at a time, taking turns, a new connection each ({args.requests} each):")
    for name, taken in times.items():
        print(f"  {name:15} {ms(taken)}")
    ratio = statistics.median(times["board 304"]) / statistics.median(times["scoreboard 304"])
    print(f"  board 304 / scoreboard 304: {ratio:.2f}x")
    print(
        f"\n{PHONES} phones polling every {POLL_SECONDS:.0f} s for {args.seconds:.0f} s, each on "
        f"its own keep-alive connection, a deal saved every {args.gap:.0f} s:"
    )
    per_poll = {}
    for name, (seen, cpu) in runs.items():
        polls = len(seen.took)
        per_poll[name] = cpu / max(1, polls)
        codes = ", ".join(f"{n} x {code}" for code, n in sorted(seen.statuses.items()))
        print(
            f"  {name:12} {polls / args.seconds:6.1f} polls/s ({codes}), errors {seen.errors}, "
            f"p50 {statistics.median(seen.took) * 1000:.1f} ms, "
            f"p95 {percentile(seen.took, 0.95) * 1000:.1f} ms; server CPU "
            f"{per_poll[name] * 1000:.2f} ms a poll; {seen.deals} deals saved"
        )
    print(
        f"  server CPU per poll, night board / scoreboard: "
        f"{per_poll['night board'] / per_poll['scoreboards']:.2f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="each crowd's run")
    parser.add_argument("--requests", type=int, default=300, help="one at a time, each answer")
    parser.add_argument("--gap", type=float, default=18.0, help="seconds between deals saved")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    on_database(lambda url: run(args, url))


if __name__ == "__main__":
    main()
