"""Servers and helpers for the tests of each side's own line of the next deal (test_lines*.py).

Two app processes (gunicorn A and B, two workers each, one deployment: the same database and
the same SECRET_KEY) stand for a server behind a load balancer: two phones sending at the same
moment reach different processes, so only the database (the game's row lock on PostgreSQL,
BEGIN IMMEDIATE on SQLite, the deal table's one row per number) can keep them in turn.

The database is read directly after every round (`stored`): the deals with each side's figures,
and the lines kept. Every loop is bounded in count and time; only 127.0.0.1 is used.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import DealEntry

from ._server import POSTGRES_URL, Game, Gunicorn, Reply, call, form_fields

WORKERS = 2
# Rounds of the racing tests, and the time they may take; a slow machine stops early (but
# never before MIN_ROUNDS).
ROUNDS = 20
FEWER_ROUNDS = 10
ROUNDS_SECONDS = 120.0
MIN_ROUNDS = 5
NAMES = ("North", "East", "South")


@pytest.fixture(scope="module", name="servers")
def servers_fixture(tmp_path_factory) -> Iterator[tuple[Gunicorn, Gunicorn]]:
    """gunicorn A and B on one database: two app processes behind one address, as it were."""
    folder = tmp_path_factory.mktemp("lines")
    a = Gunicorn(folder, workers=WORKERS)
    b = Gunicorn(folder, workers=WORKERS, db_path=a.db_path)
    # One deployment: a page's session cookie (and its CSRF token) holds on either process.
    b.env["SECRET_KEY"] = a.env["SECRET_KEY"]
    try:
        a.init_db()
        a.start()
        b.start()
        yield a, b
    finally:
        b.stop()
        a.stop()


# --- a game, its lines, and what the database holds --------------------------------------------


def start_game(port: int, sides: int = 2) -> Game:
    body = {"ruleset": "ten-thousand", "sides": [{"name": n} for n in NAMES[:sides]]}
    reply = call(port, "POST", "/api/v1/games", json_body=body)
    assert reply.status == 201, reply.text
    return Game(reply.json()["id"], reply.json()["key"])


def line(side: int, r: int, extra: int = 0) -> dict[str, Any]:
    """Side `side`'s figures in round `r`: different for every side, round and `extra`.

    Nobody goes out and no book is closed, so a ten-thousand game stays far below its target
    (every deal adds at most a few hundred to a side) for every round of every test.
    """
    melded = 100 + 5 * r + 25 * side + 5 * extra
    return [
        {"melded_points": melded, "red_threes_down": 1},
        {"melded_points": melded, "leftover_points": 5 + 5 * (r % 3)},
        {"melded_points": melded},
    ][side]


def normal(side: int, entry: dict[str, Any]) -> dict[str, Any]:
    """An entry as the app keeps it."""
    return DealEntry.from_dict(entry, side).to_dict()


def page_fields(side: int, entry: dict[str, Any]) -> dict[str, str]:
    """An entry as the deal and line forms take it."""
    fields = {}
    for name, value in entry.items():
        if isinstance(value, dict):
            fields.update({f"s{side}-{name}-{k}": str(v) for k, v in value.items()})
        elif name == "went_out":
            if value:
                fields["went_out"] = str(side)
        else:
            fields[f"s{side}-{name}"] = str(value)
    return fields


@dataclass
class Stored:
    """One game as the database holds it."""

    deals: list[tuple[int, list[dict[str, Any]]]]  # (number, each side's figures)
    parts: dict[int, tuple[int, dict[str, Any], str, str | None]]  # side: (deal, entry, by, dev)

    @property
    def numbers(self) -> list[int]:
        return [number for number, _ in self.deals]


def stored(db_path: Path, game: Game) -> Stored:
    """Straight from the database (SQLite file, or the PostgreSQL test database)."""
    if POSTGRES_URL:
        import psycopg

        conn: Any = psycopg.connect(POSTGRES_URL)
        mark = "%s"
    else:
        conn = sqlite3.connect(db_path, timeout=30)
        mark = "?"

    def loaded(value: Any) -> Any:
        return json.loads(value) if isinstance(value, str) else value

    try:
        numbers = [
            row[0]
            for row in conn.execute(
                f"SELECT number FROM deal WHERE game_id = {mark} ORDER BY number", (game.id,)
            )
        ]
        scores: dict[int, list[dict[str, Any]]] = {n: [] for n in numbers}
        for number, entry in conn.execute(
            "SELECT d.number, s.entry FROM deal_score s JOIN deal d ON d.id = s.deal_id "
            f"WHERE d.game_id = {mark} ORDER BY d.number, s.side_position",
            (game.id,),
        ):
            scores[number].append(loaded(entry))
        parts = {
            side: (number, loaded(entry), by, device)
            for side, number, entry, by, device in conn.execute(
                "SELECT side_position, deal_number, entry, sent_by, device FROM deal_part "
                f"WHERE game_id = {mark}",
                (game.id,),
            )
        }
    finally:
        conn.close()
    return Stored([(n, scores[n]) for n in numbers], parts)


# --- phones --------------------------------------------------------------------------------


@dataclass
class Phone:
    """A browser on one server: it keeps its session cookie (the CSRF token is bound to it)."""

    port: int
    name: str
    device: str = field(default_factory=lambda: uuid.uuid4().hex)
    cookie: str = ""

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> Reply:
        reply = call(
            self.port,
            method,
            path,
            form=form,
            headers={"Cookie": self.cookie} if self.cookie else {},
        )
        if "set-cookie" in reply.headers:
            self.cookie = reply.headers["set-cookie"].split(";")[0]
        return reply

    def open(self, path: str) -> dict[str, str]:
        """The fields of the form at `path`, as the page gives them."""
        reply = self.request("GET", path)
        assert reply.status == 200, reply.text[:500]
        return form_fields(reply.text, path.split("?")[0])


def rfc3339(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="milliseconds")


def line_sender(
    way: str,
    port: int,
    game: Game,
    side: int,
    entry: dict[str, Any],
    *,
    number: int,
    sent_by: str,
    entered_at: float | None = None,
    phone: Phone | None = None,
) -> Callable[[], Reply]:
    """Everything a phone does before it sends a line (open the form, type the figures); the
    call that sends it. `way` is "page" (the line's form, on `phone` or a new one) or "api"
    (PUT .../parts/<side>)."""
    moment = time.time() if entered_at is None else entered_at
    if way == "api":
        path = f"{game.api}/deals/next/parts/{side}"
        body = {"entry": entry, "deal": number, "sent_by": sent_by, "entered_at": rfc3339(moment)}
        return lambda: call(port, "PUT", path, json_body=body, headers=game.headers)
    phone = phone or Phone(port, sent_by)
    path = line_path(game, side)
    # The phone is on the side whose line it sends (issue 40: another side's line is only shown).
    fields = phone.open(f"{path}?on_side={side}")
    assert fields["number"] == str(number), fields
    fields.update(page_fields(side, entry))
    fields.update(
        on_side=str(side),
        number=str(number),
        device=phone.device,
        sent_by=sent_by,
        entered_at=str(round(moment * 1000)),
    )
    return lambda: phone.request("POST", path, fields)


def line_path(game: Game, side: int) -> str:
    return f"{game.page}/deals/next/{side}"


def what(reply: Reply | BaseException) -> str:
    """What an answer to a line or a whole deal came to, by page or API."""
    if isinstance(reply, BaseException):
        return f"error {type(reply).__name__}: {reply}"
    location = reply.headers.get("location", "")
    if reply.status == 302 and location.endswith("#lines"):
        return "kept"
    if reply.status == 302 and location.endswith("#totals"):
        return "saved"
    if reply.status == 200 and reply.headers.get("content-type", "").startswith("application/"):
        return "kept"
    if reply.status == 201:
        return "saved"
    if reply.status == 409:
        if reply.headers.get("content-type", "").startswith("application/json"):
            fields = [e.get("field") for e in reply.json()["errors"]]
            return {"deal": "stale", "entered_at": "later"}.get(fields[0], f"409 {fields}")
        if re.search(r"Deals? [0-9–]+ (was|were) saved", reply.text):
            return "stale"
        if "sent a later line for" in reply.text:
            return "later"
    return f"{reply.status} {location} {reply.text[:300]!r}"


def at_once(senders: list[Callable[[], Reply]]) -> list[Reply | BaseException]:
    """Run each sender in its own thread, all released together by a barrier."""
    barrier = threading.Barrier(len(senders), timeout=30)
    replies: list[Reply | BaseException | None] = [None] * len(senders)

    def run(i: int) -> None:
        try:
            barrier.wait()
            replies[i] = senders[i]()
        except BaseException as exc:  # kept and asserted on by the test
            replies[i] = exc

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(len(senders))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a request did not finish in 60 s"
    return replies  # type: ignore[return-value]


def rounds(count: int) -> Iterator[int]:
    """Round numbers from 0, until `count` or ROUNDS_SECONDS (never fewer than MIN_ROUNDS)."""
    deadline = time.monotonic() + ROUNDS_SECONDS
    for r in range(count):
        if r >= MIN_ROUNDS and time.monotonic() > deadline:
            return
        yield r


def logs(servers: tuple[Gunicorn, Gunicorn]) -> str:
    """The two servers' logs' ends, for a failure's message."""
    return "\n".join(f"--- {s.port}:\n{s.log()[-3000:]}" for s in servers)


def save_whole_deal(way: str, port: int, game: Game, entries: list[dict[str, Any]]) -> Reply:
    """The whole deal from one phone: POST .../deals, or the page's whole-deal form."""
    if way == "api":
        return call(
            port, "POST", f"{game.api}/deals", json_body={"scores": entries}, headers=game.headers
        )
    phone = Phone(port, "Whole")
    path = f"{game.page}/deals/new"
    fields = phone.open(path)
    for side, entry in enumerate(entries):
        fields.update(page_fields(side, entry))
    return phone.request("POST", path, fields)


def state(port: int, game: Game) -> dict[str, Any]:
    reply = call(port, "GET", game.api, headers=game.headers)
    assert reply.status == 200, reply.text
    return reply.json()


def assert_deal_shown(page: str, game_state: dict[str, Any], number: int) -> None:
    """The 409 page shows deal `number` as saved: its number and each side's score in it."""
    deal = game_state["deals"][number - 1]
    assert f"Deal {number}:" in page
    for side, score in zip(game_state["sides"], deal["scores"], strict=True):
        assert f"{side['name']} {score['total']:+,} →" in page, (side, score)
