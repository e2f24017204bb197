"""Each side's own line of the next deal (issue 17), on TWO gunicorn servers on one database.

Two app processes (gunicorn A and B, two workers each, one deployment: the same database and
the same SECRET_KEY) stand for a server behind a load balancer: two phones sending at the same
moment reach different processes, so only the database (the game's row lock on PostgreSQL,
BEGIN IMMEDIATE on SQLite, the deal table's one row per number) can keep them in turn.

- The last two lines of a deal arriving at once, one on each process, save one deal holding
  exactly the lines' figures, and no line is left over; 20 rounds each by the page form, the
  API and the two mixed, and a three-side game where the last two of three arrive at once.
- A stale line (its deal saved meanwhile as a whole deal) is answered 409; the page shows the
  saved deal and keeps the line's figures in the form (sent again, they are the next deal's
  line); nothing new is saved.
- Two phones sending the same side's line at once: the one entered later stands, whatever the
  order they arrive in; the earlier one is told (409) or was replaced; the deal takes the later.
- The whole deal from one phone and the last line from another at once: one deal is saved, the
  other phone gets 409 with its figures shown, never saved as a second deal.

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
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
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


@pytest.fixture(scope="module")
def servers(tmp_path_factory) -> Iterator[tuple[Gunicorn, Gunicorn]]:
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
        return form_fields(reply.text, path)


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
    fields = phone.open(path)
    assert fields["number"] == str(number), fields
    fields.update(page_fields(side, entry))
    fields.update(
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


# --- the last two lines at once ----------------------------------------------------------------


@pytest.mark.parametrize("ways", [("page", "page"), ("api", "api"), ("page", "api")])
def test_last_two_lines_at_once_on_two_processes_save_one_deal(servers, ways):
    a, b = servers
    game = start_game(a.port)
    seen: Counter[str] = Counter()
    done = 0
    for r in rounds(ROUNDS):
        number = r + 1
        lines = [line(0, r), line(1, r)]
        # Side 0 goes to A in even rounds, to B in odd ones; each side by its own way.
        ports = [servers[(side + r) % 2].port for side in (0, 1)]
        senders = [
            line_sender(
                ways[side], ports[side], game, side, lines[side], number=number, sent_by=f"P{side}"
            )
            for side in (0, 1)
        ]

        replies = at_once(senders)

        outcomes = [what(reply) for reply in replies]
        now = stored(a.db_path, game)
        context = f"round {r}: answers {outcomes}, database {now}"
        assert sorted(outcomes) == ["kept", "saved"], f"{context}\n{logs(servers)}"
        assert now.numbers == list(range(1, number + 1)), context
        assert now.deals[-1][1] == [normal(s, lines[s]) for s in (0, 1)], context
        assert now.parts == {}, context
        seen[f"side {outcomes.index('saved')} saved"] += 1
        done += 1
    print(f"\n{ways}: {done} rounds, {dict(seen)}")
    assert done >= MIN_ROUNDS


def test_last_two_of_three_lines_at_once_save_one_deal(servers):
    a, b = servers
    game = start_game(a.port, sides=3)
    done = 0
    for r in rounds(ROUNDS):
        number = r + 1
        lines = [line(side, r) for side in range(3)]
        first = r % 3
        ways = ("page", "api") if r % 2 else ("api", "page")
        early = line_sender(
            "api", servers[r % 2].port, game, first, lines[first], number=number, sent_by="Early"
        )
        assert what(early()) == "kept"
        last_two = [side for side in range(3) if side != first]
        senders = [
            line_sender(
                ways[i], servers[i].port, game, side, lines[side], number=number, sent_by=f"P{side}"
            )
            for i, side in enumerate(last_two)
        ]

        replies = at_once(senders)

        outcomes = [what(reply) for reply in replies]
        now = stored(a.db_path, game)
        context = f"round {r} (sides {last_two} at once): {outcomes}, {now}"
        assert sorted(outcomes) == ["kept", "saved"], f"{context}\n{logs(servers)}"
        assert now.numbers == list(range(1, number + 1)), context
        assert now.deals[-1][1] == [normal(s, lines[s]) for s in range(3)], context
        assert now.parts == {}, context
        done += 1
    assert done >= MIN_ROUNDS


# --- a stale line ------------------------------------------------------------------------------


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


@pytest.mark.parametrize("saved_by", ["api", "page"])
@pytest.mark.parametrize("way", ["page", "api"])
def test_a_stale_line_is_409_and_its_figures_are_shown_never_lost(servers, way, saved_by):
    a, b = servers
    game = start_game(a.port)
    # South's phone opens its line of deal 1 on B; North's line of deal 1 is in.
    south, phone = line(1, 0), Phone(b.port, "Sam")
    late = line_sender(way, b.port, game, 1, south, number=1, sent_by="Sam", phone=phone)
    north = line_sender("api", b.port, game, 0, line(0, 0), number=1, sent_by="Nora")
    assert what(north()) == "kept"
    # Meanwhile deal 1 is saved whole on A (from the figures one phone holds).
    whole = [line(0, 0), line(1, 0, extra=3)]
    assert what(save_whole_deal(saved_by, a.port, game, whole)) == "saved"
    before = stored(a.db_path, game)
    assert before.numbers == [1] and before.parts == {}

    reply = late()

    assert what(reply) == "stale", reply.text[:1000]
    assert reply.status == 409
    after = stored(a.db_path, game)
    assert after == before, "a stale line saved or kept something"
    assert after.deals[0][1] == [normal(s, whole[s]) for s in (0, 1)]
    if way == "api":
        assert reply.json()["errors"][0]["field"] == "deal"
        # The client still holds its figures: sent as deal 2's line, they are kept.
        again = line_sender("api", b.port, game, 1, south, number=2, sent_by="Sam")
    else:
        # Shown: the deal saved meanwhile, beside the line's own figures, kept in the form.
        assert "Deal 1 was saved meanwhile" in reply.text
        assert_deal_shown(reply.text, state(a.port, game), 1)
        path = line_path(game, 1)
        kept = form_fields(reply.text, path)
        assert {k: kept[k] for k in page_fields(1, south)} == page_fields(1, south), kept
        assert kept["number"] == "2"  # sent again, it is deal 2's line
        # Sent again from that page (the phone fills in who and when, as app.js does).
        kept.update(device=phone.device, sent_by="Sam", entered_at=str(round(time.time() * 1000)))
        again = partial(phone.request, "POST", path, kept)
    assert what(again()) == "kept"
    final = stored(a.db_path, game)
    assert final.numbers == [1]
    assert {side: (n, e) for side, (n, e, _, _) in final.parts.items()} == {
        1: (2, normal(1, south))
    }


# --- two phones, one side ----------------------------------------------------------------------


@pytest.mark.parametrize("way", ["page", "api"])
def test_two_phones_one_side_at_once_the_later_entered_line_stands(servers, way):
    a, b = servers
    game = start_game(a.port)
    seen: Counter[str] = Counter()
    done = 0
    for r in rounds(FEWER_ROUNDS):
        number = r + 1
        # Two phones of North's, one on each server; the one entered a second later stands.
        # Which server it goes to alternates; both moments are a minute in the past.
        later_on = r % 2
        earlier = time.time() - 60
        figures = [line(0, r, extra=i) for i in (0, 1)]
        moments = [earlier + (1.0 if i == later_on else 0.0) for i in (0, 1)]
        names = [f"{'Later' if i == later_on else 'Earlier'}{r}" for i in (0, 1)]
        senders = [
            line_sender(
                way,
                servers[i].port,
                game,
                0,
                figures[i],
                number=number,
                sent_by=names[i],
                entered_at=moments[i],
            )
            for i in (0, 1)
        ]

        replies = at_once(senders)

        outcomes = [what(reply) for reply in replies]
        now = stored(a.db_path, game)
        context = f"round {r} (later on {'AB'[later_on]}): {outcomes}, {now}"
        assert outcomes[later_on] == "kept", f"{context}\n{logs(servers)}"
        # The earlier one: told that a later line stands, or kept first and then replaced.
        assert outcomes[1 - later_on] in ("later", "kept"), f"{context}\n{logs(servers)}"
        assert now.numbers == list(range(1, number)), context
        assert list(now.parts) == [0], context
        deal, entry, by, _ = now.parts[0]
        assert (deal, entry, by) == (number, normal(0, figures[later_on]), names[later_on]), context
        if outcomes[1 - later_on] == "later" and way == "page":
            # Not lost either: the earlier phone's figures stay in its form, theirs are shown.
            page = replies[1 - later_on].text
            kept = form_fields(page, line_path(game, 0))
            mine = page_fields(0, figures[1 - later_on])
            assert {k: kept[k] for k in mine} == mine, context
            assert f"{names[later_on]} sent a later line for North" in page, context
        seen[f"earlier {outcomes[1 - later_on]}"] += 1
        # South's line completes the deal: it holds the later line.
        south = line_sender("api", b.port, game, 1, line(1, r), number=number, sent_by="S")
        assert what(south()) == "saved"
        now = stored(a.db_path, game)
        assert now.deals[-1] == (number, [normal(0, figures[later_on]), normal(1, line(1, r))])
        assert now.parts == {}
        done += 1
    print(f"\n{way}: {done} rounds, {dict(seen)}")
    assert done >= MIN_ROUNDS


# --- the whole deal and the last line at once -----------------------------------------------------


@pytest.mark.parametrize(
    ("whole_way", "way"),
    [
        ("page", "page"),
        ("page", "api"),
        ("api", "api"),
    ],
)
def test_whole_deal_and_last_line_at_once_save_one_deal(servers, whole_way, way):
    """The whole deal from one phone (`whole_way`: the page's form, which carries the deal it
    was opened for; or the API, sending it as "deal"), and South's line (the last one: North's
    is in) by `way`, at once on the two processes."""
    a, b = servers
    game = start_game(a.port)
    deal_path = f"{game.page}/deals/new"
    seen: Counter[str] = Counter()
    done = 0
    for r in rounds(FEWER_ROUNDS):
        number = r + 1
        whole_on, line_on = servers[r % 2], servers[1 - r % 2]
        north, south = line(0, r), line(1, r)
        early = line_sender("api", line_on.port, game, 0, north, number=number, sent_by="N")
        assert what(early()) == "kept"
        # One phone takes North's line in and counts South's hand itself, a little differently.
        whole = [north, line(1, r, extra=7)]
        if whole_way == "api":
            body = {"scores": whole, "deal": number}
            send_whole = partial(
                call,
                whole_on.port,
                "POST",
                f"{game.api}/deals",
                json_body=body,
                headers=game.headers,
            )
        else:
            phone = Phone(whole_on.port, "Whole")
            fields = phone.open(deal_path)
            assert fields["number"] == str(number)
            assert fields["s0-melded_points"] == str(north["melded_points"])  # from the line
            for side, entry in enumerate(whole):
                fields.update(page_fields(side, entry))
            send_whole = partial(phone.request, "POST", deal_path, fields)
        senders = [
            send_whole,
            line_sender(way, line_on.port, game, 1, south, number=number, sent_by="S"),
        ]

        replies = at_once(senders)

        outcomes = [what(reply) for reply in replies]
        now = stored(a.db_path, game)
        context = f"round {r}: whole deal, line: {outcomes}, {now}"
        assert sorted(outcomes) == ["saved", "stale"], f"{context}\n{logs(servers)}"
        assert now.numbers == list(range(1, number + 1)), context
        assert now.parts == {}, context
        won = whole if outcomes[0] == "saved" else [north, south]
        assert now.deals[-1][1] == [normal(s, won[s]) for s in (0, 1)], context
        # The other phone's figures are shown beside the saved deal, never lost (an API client
        # holds its own: it is told which figure is stale).
        loser = replies[outcomes.index("stale")]
        if loser.headers.get("content-type", "").startswith("application/json"):
            assert [e["field"] for e in loser.json()["errors"]] == ["deal"], context
        else:
            if outcomes[0] == "stale":
                kept = form_fields(loser.text, deal_path)
                typed = {**page_fields(0, whole[0]), **page_fields(1, whole[1])}
            else:
                kept = form_fields(loser.text, line_path(game, 1))
                typed = page_fields(1, south)
            assert {k: kept[k] for k in typed} == typed, context
            assert kept["number"] == str(number + 1), context
            assert_deal_shown(loser.text, state(a.port, game), number)
        seen["whole deal saved" if outcomes[0] == "saved" else "line saved"] += 1
        done += 1
    print(f"\n{whole_way} whole deal, {way} line: {done} rounds, {dict(seen)}")
    assert done >= MIN_ROUNDS
