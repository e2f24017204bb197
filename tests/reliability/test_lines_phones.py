"""Each side's own line of the next deal (issue 17), on TWO gunicorn servers: phones at once.

The same two app processes on one database as test_lines.py (_lines_support.py):

- Two phones sending the same side's line at once: the one entered later stands, whatever the
  order they arrive in; the earlier one is told (409) or was replaced; the deal takes the later.
- The whole deal from one phone and the last line from another at once: one deal is saved, the
  other phone gets 409 with its figures shown, never saved as a second deal.

The database is read directly after every round (`stored`): the deals with each side's figures,
and the lines kept. Every loop is bounded in count and time; only 127.0.0.1 is used.
"""

from __future__ import annotations

import time
from collections import Counter
from functools import partial

import pytest

from ._lines_support import (
    FEWER_ROUNDS,
    MIN_ROUNDS,
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
    servers_fixture,  # noqa: F401 (the fixture `servers`)
    start_game,
    state,
    stored,
    what,
)
from ._server import call, form_fields

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
