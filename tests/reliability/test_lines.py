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

Two phones at once on one side, and the whole deal against the last line: test_lines_phones.py.
The servers and helpers are in _lines_support.py.

The database is read directly after every round (`stored`): the deals with each side's figures,
and the lines kept. Every loop is bounded in count and time; only 127.0.0.1 is used.
"""

from __future__ import annotations

import time
from collections import Counter
from functools import partial

import pytest

from ._lines_support import (
    MIN_ROUNDS,
    ROUNDS,
    Phone,
    assert_deal_shown,
    at_once,
    line,
    line_path,
    line_sender,
    logs,
    normal,
    page_fields,
    rounds,
    save_whole_deal,
    servers_fixture,  # noqa: F401 (the fixture `servers`)
    start_game,
    state,
    stored,
    what,
)
from ._server import form_fields

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
