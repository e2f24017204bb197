"""The JSON API for each side's own line of the next deal (issue 17).

PUT /api/v1/games/<id>/deals/next/parts/<side> keeps one side's line, or, when it is the last
one in, saves the deal (201, the game's state); GET .../deals/next/parts lists the lines, and the
game's state shows them as `parts`. Every refusal leaves the lines and the deals as they were:
the tests read the database (deal, deal_score, deal_part) before and after.

Figures, classic rules: 2 clean × 500 + 2 dirty × 300 + 1 wild × 1500 + out 100 + 400 melded
= 3,600; 1 clean × 500 + 200 melded − 60 left = 640.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import func, select
from test_api import assert_errors, game_key, post_deal, start, state

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealPart, DealScore
from scorekeeper.services import clubs

pytestmark = pytest.mark.usefixtures("quick_hashing")

OUT = {"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True, "melded_points": 400}
STAYED_IN = {"books": {"clean": 1}, "melded_points": 200, "leftover_points": 60}
BLACK_THREES = {"melded_cards": {"black_three": 2}}  # melded without going out: refused


def send(client, game: dict[str, Any], side: int, headers=None, **body: Any):
    """The answer to sending side `side`'s line (`entry`, `deal`, `sent_by`, `entered_at`).

    A line names its deal: the game's next one as it stands, unless `deal` is given.
    """
    if "deal" not in body:
        with client.application.app_context():
            held = select(func.count()).select_from(Deal).where(Deal.game_id == game["id"])
            body["deal"] = db.session.scalar(held) + 1
    return client.put(
        f"/api/v1/games/{game['id']}/deals/next/parts/{side}",
        json=body,
        headers=game_key(game) if headers is None else headers,
    )


def lines(client, game: dict[str, Any]) -> dict[str, Any]:
    """GET .../deals/next/parts, asserting 200."""
    answer = client.get(f"/api/v1/games/{game['id']}/deals/next/parts", headers=game_key(game))
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def saved(client) -> dict[str, Any]:
    """What the database holds: deals, each deal's scores' figures, the lines kept."""
    with client.application.app_context():
        deals = db.session.scalars(select(Deal).order_by(Deal.number)).all()
        return {
            "deals": len(deals),
            "scores": [
                [score.entry for score in sorted(d.scores, key=lambda s: s.side_position)]
                for d in deals
            ],
            "parts": {
                row.side_position: (row.entry, row.sent_by, row.problem)
                for row in db.session.scalars(select(DealPart))
            },
        }


def ago(seconds: int) -> str:
    """An RFC 3339 moment that many seconds before now."""
    return (datetime.now(UTC) - timedelta(seconds=seconds)).isoformat()


def pointers_of(errors: list[dict[str, Any]]) -> list[list[str]]:
    return [[named["pointer"] for named in error["inputs"]] for error in errors]


# --------------------------------------------------------------------------- kept, saved


def test_the_first_line_is_kept_and_the_deal_waits_for_the_other(client):
    game = start(client, "classic")
    answer = send(client, game, 0, entry=OUT, sent_by="Ann", entered_at=ago(5))
    assert answer.status_code == 200, answer.get_json()
    kept = answer.get_json()
    assert (kept["deal"], kept["saved"]) == (1, False)
    ours, theirs = kept["parts"]
    assert ours == {
        "side": 0,
        "name": "Ann & Bob",
        "in": True,
        "sent_by": "Ann",
        "mine": False,
        "problem": None,
        "entry": OUT,
    }
    assert theirs["in"] is False and theirs["entry"] is None and theirs["sent_by"] is None
    assert theirs["name"] == "Cat & Dan"
    # Kept as a line, not a deal.
    assert saved(client) == {"deals": 0, "scores": [], "parts": {0: (OUT, "Ann", None)}}
    assert state(client, game)["deals_total"] == 0


def test_the_last_line_saves_the_deal_once_and_the_lines_go(client):
    game = start(client, "classic")
    assert send(client, game, 1, entry=STAYED_IN, sent_by="Cat").status_code == 200
    answer = send(client, game, 0, entry=OUT, sent_by="Ann")
    assert answer.status_code == 201, answer.get_json()
    after = answer.get_json()
    assert [side["total"] for side in after["sides"]] == [3600, 640]
    assert after["deals_total"] == 1 and after["next_deal"] == 2
    assert [score["entry"] for score in after["deals"][0]["scores"]] == [OUT, STAYED_IN]
    assert [line["in"] for line in after["parts"]] == [False, False]
    assert saved(client) == {"deals": 1, "scores": [[OUT, STAYED_IN]], "parts": {}}
    with client.application.app_context():
        assert db.session.scalar(select(func.count()).select_from(DealScore)) == 2


def test_a_side_sending_again_replaces_its_line(client):
    game = start(client, "classic")
    assert send(client, game, 1, entry={"books": {"clean": 1}}).status_code == 200
    again = send(client, game, 1, entry=STAYED_IN, sent_by="Dan")
    assert again.status_code == 200
    assert again.get_json()["parts"][1]["entry"] == STAYED_IN
    assert saved(client)["parts"] == {1: (STAYED_IN, "Dan", None)}


@pytest.mark.parametrize(
    ("sent", "shown"),
    [
        (None, "Someone"),
        ("", "Someone"),
        ("  Ann\u200b \t Lee ", "Ann Lee"),
        ("Z" * 60, "Z" * 40),
    ],
)
def test_sent_by_is_cleaned_and_cut(client, sent, shown):
    game = start(client, "classic")
    body = {"entry": STAYED_IN} if sent is None else {"entry": STAYED_IN, "sent_by": sent}
    answer = send(client, game, 1, **body)
    assert answer.status_code == 200
    assert answer.get_json()["parts"][1]["sent_by"] == shown
    assert saved(client)["parts"][1][1] == shown


# --------------------------------------------------------------------------- refused


@pytest.mark.parametrize(
    ("entry", "field", "pointer"),
    [
        (BLACK_THREES, "melded_cards.black_three", "/entry/melded_cards/black_three"),
        ({"books": {"golden": 1}}, "books.golden", "/entry/books/golden"),
        ({"red_threes_down": -1}, "red_threes_down", "/entry/red_threes_down"),
        ({"went_out": "yes"}, "went_out", "/entry/went_out"),
        ({"odd.key": 1}, "odd.key", "/entry/odd.key"),
        (None, "", "/entry"),
        ([1, 2], "", "/entry"),
    ],
)
def test_a_line_refused_on_its_own_figures_is_422_and_nothing_is_kept(
    client, entry, field, pointer
):
    game = start(client, "classic")
    assert send(client, game, 0, entry=OUT).status_code == 200
    before = saved(client)
    answer = send(client, game, 1, entry=entry) if entry is not None else send(client, game, 1)
    errors = assert_errors(answer)
    mine = [e for e in errors if e["field"] == field]
    assert mine and mine[0]["side"] == 1, errors
    assert pointers_of(mine) == [[pointer]]
    assert mine[0]["message"].startswith("Cat & Dan")
    assert saved(client) == before
    assert [line["in"] for line in lines(client, game)["parts"]] == [True, False]


def test_two_sides_going_out_refuses_the_second_and_flags_the_first(client):
    game = start(client, "classic")
    assert send(client, game, 0, entry=OUT, sent_by="Ann").status_code == 200
    answer = send(client, game, 1, entry=OUT, sent_by="Cat")
    errors = assert_errors(answer)
    both = [e for e in errors if "Only one side can go out" in e["message"]]
    assert len(both) == 1, errors
    assert both[0]["side"] is None and both[0]["field"] == "went_out"
    # Side 0's went_out is not in this body: only this side's figure is pointed at.
    assert both[0]["inputs"] == [{"side": 1, "field": "went_out", "pointer": "/entry/went_out"}]
    ours, theirs = lines(client, game)["parts"]
    assert ours["in"] is True and ours["entry"] == OUT
    assert "Only one side can go out" in ours["problem"]
    assert theirs["in"] is False
    assert saved(client)["deals"] == 0 and set(saved(client)["parts"]) == {0}
    # Side 0 sends its line again: the problem it was flagged with goes.
    assert send(client, game, 0, entry=OUT, sent_by="Ann").get_json()["parts"][0]["problem"] is None


def test_a_line_for_a_deal_saved_meanwhile_is_409_and_nothing_is_kept(client):
    game = start(client, "classic")
    assert post_deal(client, game, json={"scores": [{}, STAYED_IN]}).status_code == 201
    answer = send(client, game, 0, entry=OUT, deal=1)
    errors = assert_errors(answer, 409)
    assert [(e["field"], e["inputs"]) for e in errors] == [("deal", [])]
    assert "saved deal 1" in errors[0]["message"]
    assert saved(client)["parts"] == {}
    assert [line["in"] for line in lines(client, game)["parts"]] == [False, False]
    # The deal it was for is the next one: kept.
    assert send(client, game, 0, entry=OUT, deal=2).get_json()["deal"] == 2


def test_a_line_for_a_deal_not_yet_reached_is_422_at_deal(client):
    game = start(client, "classic")
    errors = assert_errors(send(client, game, 0, entry=OUT, deal=57), 422)
    assert [(e["message"], pointers_of([e])) for e in errors] == [
        ("There is no deal 57 yet: the next deal is 1.", [["/deal"]])
    ]
    assert saved(client)["parts"] == {}


@pytest.mark.parametrize("later_first", [True, False], ids=["later-first", "later-last"])
def test_of_two_lines_for_one_side_the_one_entered_later_stands(client, later_first):
    game = start(client, "classic")
    older = {"entry": {"books": {"clean": 1}}, "sent_by": "Cat", "entered_at": ago(60)}
    later = {"entry": STAYED_IN, "sent_by": "Dan", "entered_at": ago(30)}
    if later_first:
        assert send(client, game, 1, **later).status_code == 200
        answer = send(client, game, 1, **older)
        errors = assert_errors(answer, 409)
        assert [(e["side"], e["field"], e["inputs"]) for e in errors] == [(1, "entered_at", [])]
        said = errors[0]["message"]
        assert "Dan sent a line for Cat & Dan entered 30 seconds after yours" in said
    else:
        assert send(client, game, 1, **older).status_code == 200
        assert send(client, game, 1, **later).status_code == 200
    line = lines(client, game)["parts"][1]
    assert (line["entry"], line["sent_by"]) == (STAYED_IN, "Dan")
    assert saved(client)["parts"][1][:2] == (STAYED_IN, "Dan")


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"entered_at": "garbage"}, "/entered_at"),
        ({"entered_at": "2026-04-30"}, "/entered_at"),
        ({"entered_at": "2026-04-30T19:05:00"}, "/entered_at"),  # no offset
        ({"entered_at": "2026-13-01T19:05:00Z"}, "/entered_at"),
        ({"entered_at": "0001-01-01T00:00:00+01:00"}, "/entered_at"),  # before year 1 in UTC
        ({"entered_at": 1714503900000}, "/entered_at"),
        ({"deal": "one"}, "/deal"),
        ({"deal": 0}, "/deal"),
        ({"deal": True}, "/deal"),
        ({"sent_by": ["Ann"]}, "/sent_by"),
    ],
)
def test_a_line_not_sent_as_documented_is_422_naming_the_member(client, body, pointer):
    game = start(client, "classic")
    answer = send(client, game, 0, entry=OUT, **body)
    errors = assert_errors(answer)
    assert pointers_of(errors) == [[pointer]]
    assert saved(client)["parts"] == {}


@pytest.mark.parametrize("written", ["+05:30", "-08:00", "z"])
def test_entered_at_is_the_moment_whatever_its_offset(client, written):
    """Kept as the moment it names: an offset is not taken for UTC, nor lost on the way."""
    game = start(client, "classic")
    moment = datetime.now(UTC).replace(microsecond=250000) - timedelta(minutes=1)
    if written == "z":
        sent = moment.isoformat().replace("+00:00", "z").replace("T", "t")
    else:
        hours, minutes = map(int, written[1:].split(":"))
        offset = timedelta(hours=hours, minutes=minutes) * (-1 if written[0] == "-" else 1)
        sent = moment.astimezone(timezone(offset)).isoformat()
        assert sent.endswith(written)
    assert send(client, game, 0, entry=OUT, entered_at=sent).status_code == 200
    with client.application.app_context():
        kept = db.session.scalars(select(DealPart.entered_at)).one()
    assert (kept if kept.tzinfo else kept.replace(tzinfo=UTC)) == moment


# --------------------------------------------------------------------------- not found, access


def test_a_side_the_game_does_not_have_is_404(client):
    game = start(client, "classic")
    for side in (2, 99):
        answer = send(client, game, side, entry=OUT)
        assert answer.status_code == 404, side
        assert answer.get_json()["errors"]
    assert saved(client)["parts"] == {}


def test_without_the_game_key_the_lines_are_404(client):
    game = start(client, "classic")
    path = f"/api/v1/games/{game['id']}/deals/next/parts"
    for headers in ({}, {"X-Game-Key": game["key"].swapcase()}):
        assert send(client, game, 0, headers=headers, entry=OUT).status_code == 404
        assert client.get(path, headers=headers).status_code == 404
    assert send(client, {**game, "id": 999}, 0, entry=OUT).status_code == 404
    assert saved(client)["parts"] == {}


def test_a_club_game_takes_lines_with_its_key_alone(app, client):
    """A game's key is enough to score it, club game or not (issue 37); without it the game is
    not found; another game of the club still takes the table code."""
    organiser = app.test_client()
    signed_up = organiser.post("/signup", data={"username": "org", "password": "secret-pass-9"})
    assert signed_up.status_code == 302
    made = organiser.post("/clubs/new", data={"name": "Tue", "slug": "tue", "public": "y"})
    assert made.status_code == 302
    with app.app_context():
        table = {"X-Table-Code": clubs.club_by_slug("tue").table_code}
    body = {"ruleset": "classic", "club": "tue", "sides": [{"name": "A"}, {"name": "B"}]}
    started = client.post("/api/v1/games", json=body, headers=table)
    assert started.status_code == 201, started.get_json()
    game = started.get_json()
    assert lines(client, game)["deal"] == 1
    assert send(client, game, 0, headers={}, entry=OUT).status_code == 404
    assert saved(client)["parts"] == {}
    assert send(client, game, 0, entry=OUT).status_code == 200
    assert set(saved(client)["parts"]) == {0}
    assert client.post("/api/v1/games", json=body).status_code == 403


# --------------------------------------------------------------------------- reading the lines


def test_get_lines_and_the_game_state_show_each_side(client):
    game = start(client, "classic")
    empty = lines(client, game)
    assert empty["deal"] == 1 and empty["saved"] is False
    assert [(line["side"], line["in"]) for line in empty["parts"]] == [(0, False), (1, False)]
    send(client, game, 1, entry=STAYED_IN, sent_by="Cat")
    listed = lines(client, game)["parts"]
    assert [(line["in"], line["sent_by"]) for line in listed] == [(False, None), (True, "Cat")]
    assert listed[1]["entry"] == STAYED_IN
    # The game's state holds the same lines.
    assert state(client, game)["parts"] == listed


def test_a_finished_game_has_no_lines_and_takes_none(client):
    game = start(client, "classic", rules={"end_after_deals": 1})
    finished = post_deal(client, game, json={"scores": [OUT, STAYED_IN]}).get_json()
    assert finished["finished"] is True and finished["parts"] == []
    assert lines(client, game) == {"deal": None, "saved": False, "parts": []}
    errors = assert_errors(send(client, game, 0, entry=OUT), 409)
    assert "over" in errors[0]["message"] and errors[0]["inputs"] == []
    assert saved(client)["parts"] == {}


def test_a_whole_deal_entered_while_lines_are_in_is_saved_and_the_lines_go(client):
    game = start(client, "classic")
    assert send(client, game, 1, entry={"books": {"clean": 1}}, sent_by="Cat").status_code == 200
    answer = post_deal(client, game, json={"scores": [OUT, STAYED_IN]})
    assert answer.status_code == 201, answer.get_json()
    assert [side["total"] for side in answer.get_json()["sides"]] == [3600, 640]
    assert [line["in"] for line in answer.get_json()["parts"]] == [False, False]
    assert saved(client) == {"deals": 1, "scores": [[OUT, STAYED_IN]], "parts": {}}
    # The next deal's lines start afresh.
    assert send(client, game, 0, entry=OUT).get_json()["deal"] == 2


def test_a_whole_deal_names_the_deal_it_is_for(client):
    """A script racing the sides' lines: the deal they saved is not saved again as the next."""
    game = start(client, "classic")
    send(client, game, 0, entry=OUT, deal=1)
    assert send(client, game, 1, entry=STAYED_IN, deal=1).status_code == 201
    late = post_deal(client, game, json={"scores": [OUT, STAYED_IN], "deal": 1})
    errors = assert_errors(late, 409)
    assert [(e["field"], e["inputs"]) for e in errors] == [("deal", [])]
    ahead = post_deal(client, game, json={"scores": [OUT, STAYED_IN], "deal": 3})
    errors = assert_errors(ahead, 422)
    assert [e["message"] for e in errors] == ["There is no deal 3 yet: the next deal is 2."]
    assert pointers_of(errors) == [["/deal"]]
    bad = post_deal(client, game, json={"scores": [OUT, STAYED_IN], "deal": "2"})
    assert pointers_of(assert_errors(bad, 422)) == [["/deal"]]
    assert saved(client)["deals"] == 1
    assert post_deal(client, game, json={"scores": [OUT, STAYED_IN], "deal": 2}).status_code == 201
