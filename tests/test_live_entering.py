"""Who is entering a deal, seen by every other phone at the table: freshness, per game, names,
leaving, refusals, and CSRF on `entering`.

The rows are read from the database on every request (tests/test_live.py has two processes on
one database); a club game's rows are in tests/test_live_club_games.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from live_table import (
    PHONE_A,
    PHONE_B,
    PHONE_C,
    WRONG,
    api_deal,
    entering_of,
    entering_rows,
    form_of,
    live_of,
    say,
    start,
    text,
    wrong_table,
)
from sqlalchemy import update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Entering
from scorekeeper.services import live

# ------------------------------------------------------------------------- who is entering


def test_entering_is_seen_by_every_other_phone_but_not_its_own(app, client):
    game = start(client)
    answer = say(client, game, PHONE_A, 1, "Ann")
    assert answer.status_code == 204
    assert answer.get_data() == b""
    assert entering_of(live_of(client, game, PHONE_B)) == [{"name": "Ann", "deal": 1}]
    assert entering_of(live_of(client, game)) == [{"name": "Ann", "deal": 1}]
    assert entering_of(live_of(client, game, PHONE_A)) == []
    # Saying it again updates the phone's one row.
    assert say(client, game, PHONE_A, 1, "Ann Lee").status_code == 204
    assert entering_of(live_of(client, game, PHONE_B)) == [{"name": "Ann Lee", "deal": 1}]
    assert len(entering_rows(app)) == 1


def test_entering_changes_the_etag(client):
    game = start(client)
    etag = live_of(client, game, PHONE_B).headers["ETag"]
    say(client, game, PHONE_A)
    answer = live_of(client, game, PHONE_B, **{"If-None-Match": etag})
    assert answer.status_code == 200
    assert answer.get_json()["entering"]


def test_phones_are_listed_by_deal_then_name(client):
    game = start(client)
    say(client, game, PHONE_A, 2, "Zed")
    say(client, game, PHONE_B, 1, "Yan")
    say(client, game, PHONE_C, 1, "Bea")
    assert entering_of(live_of(client, game, "f" * 32)) == [
        {"name": "Bea", "deal": 1},
        {"name": "Yan", "deal": 1},
        {"name": "Zed", "deal": 2},
    ]


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("   ", "Someone"),
        ("", "Someone"),
        ("  Ann \t  Lee ", "Ann Lee"),
        ("x" * 60, "x" * 40),
        ("<b>Bo</b>", "<b>Bo</b>"),
    ],
    ids=["spaces", "empty", "runs-of-spaces", "60-characters", "markup"],
)
def test_names_are_tidied(client, typed, shown):
    game = start(client)
    assert say(client, game, PHONE_A, 1, typed).status_code == 204
    assert entering_of(live_of(client, game, PHONE_B)) == [{"name": shown, "deal": 1}]


def test_without_a_name_is_someone(client):
    game = start(client)
    answer = client.post(f"{game.link}/entering", data={"device": PHONE_A, "deal": "1"})
    assert answer.status_code == 204
    assert entering_of(live_of(client, game, PHONE_B)) == [{"name": "Someone", "deal": 1}]


@pytest.mark.parametrize(
    ("age", "listed"),
    [
        (timedelta(0), True),
        (live.FRESH - timedelta(seconds=5), True),
        (live.FRESH + timedelta(seconds=1), False),
        (timedelta(hours=2), False),
    ],
    ids=["now", "nearly-stale", "just-stale", "long-gone"],
)
def test_a_phone_not_heard_from_is_not_listed(app, client, age, listed):
    game = start(client)
    say(client, game, PHONE_A)
    with app.app_context():
        db.session.execute(update(Entering).values(seen_at=datetime.now(UTC) - age))
        db.session.commit()
    entering = entering_of(live_of(client, game, PHONE_B))
    assert entering == ([{"name": "Ann", "deal": 1}] if listed else [])


def test_long_forgotten_rows_are_swept_when_another_phone_writes(app, client):
    game = start(client)
    say(client, game, PHONE_A)
    with app.app_context():
        stale = datetime.now(UTC) - live.FORGOTTEN - timedelta(minutes=1)
        db.session.execute(update(Entering).values(seen_at=stale))
        db.session.commit()
    say(client, game, PHONE_B, name="Bea")
    assert [row[1] for row in entering_rows(app)] == [PHONE_B]


def test_a_deal_already_saved_is_not_listed(client):
    game = start(client)
    say(client, game, PHONE_A, 1, "Ann")
    say(client, game, PHONE_B, 2, "Bea")
    api_deal(client, game)
    assert entering_of(live_of(client, game, PHONE_C)) == [{"name": "Bea", "deal": 2}]
    # A phone still saying it enters deal 1 after deal 1 was saved is not listed either.
    say(client, game, PHONE_A, 1, "Ann")
    assert entering_of(live_of(client, game, PHONE_C)) == [{"name": "Bea", "deal": 2}]


def test_entering_is_per_game(client):
    one, other = start(client), start(client)
    say(client, one, PHONE_A)
    assert entering_of(live_of(client, other, PHONE_B)) == []
    assert entering_of(live_of(client, one, PHONE_B)) == [{"name": "Ann", "deal": 1}]


def test_leaving_removes_the_phone(app, client):
    game = start(client)
    say(client, game, PHONE_A, 1, "Ann")
    say(client, game, PHONE_B, 1, "Bea")
    assert say(client, game, PHONE_A, 1, "Ann", leaving="1").status_code == 204
    assert entering_of(live_of(client, game, PHONE_C)) == [{"name": "Bea", "deal": 1}]
    assert [row[1] for row in entering_rows(app)] == [PHONE_B]


@pytest.mark.parametrize(
    ("device", "deal", "named"),
    [
        ("", "1", "device"),
        ("xyz", "1", "device"),
        ("a" * 31, "1", "device"),
        ("a" * 33, "1", "device"),
        ("A" * 32, "1", "device"),
        ("g" * 32, "1", "device"),
        (PHONE_A, "", "deal"),
        (PHONE_A, "0", "deal"),
        (PHONE_A, "-1", "deal"),
        (PHONE_A, "1.5", "deal"),
        (PHONE_A, "two", "deal"),
        (PHONE_A, "10000", "deal"),
    ],
)
def test_a_bad_device_or_deal_is_400_naming_it(app, client, device, deal, named):
    game = start(client)
    answer = say(client, game, device, deal)
    assert answer.status_code == 400
    assert named in answer.get_json()["error"]
    assert entering_rows(app) == []


def test_leaving_with_a_bad_device_is_400(app, client):
    game = start(client)
    say(client, game, PHONE_A)
    assert say(client, game, "nope", 1, leaving="1").status_code == 400
    assert len(entering_rows(app)) == 1


@pytest.mark.parametrize("how", WRONG)
def test_entering_no_such_game_is_404(app, client, how):
    game = start(client)
    assert say(client, wrong_table(game, how)).status_code == 404
    assert entering_rows(app) == []


@pytest.mark.parametrize("number", ["{id}", 0, 999_999, 2**63])
def test_entering_at_an_old_address_is_404(app, client, number):
    game = start(client)
    path = f"/games/{str(number).format(id=game.id)}/entering"
    answer = client.post(path, data={"device": PHONE_A, "deal": "1", "name": "Ann"})
    assert answer.status_code == 404
    assert "Games now open with their private link" in text(answer)
    assert entering_rows(app) == []


# ------------------------------------------------------------------------- CSRF


@pytest.fixture
def guarded(app):
    """The same database, with CSRF checks on as in production."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app.test_client()


def test_entering_without_a_token_is_refused(app, client, guarded):
    game = start(client)
    answer = say(guarded, game)
    assert answer.status_code == 400
    assert entering_rows(app) == []


def test_entering_with_the_pages_token_is_accepted(app, client, guarded):
    game = start(client)
    page = form_of(guarded.get(f"{game.link}/deals/new"))
    token = page.hidden["csrf_token"]
    assert token
    answer = guarded.post(
        f"{game.link}/entering",
        data={"device": PHONE_A, "deal": "1", "name": "Ann"},
        headers={"X-CSRFToken": token},
    )
    assert answer.status_code == 204
    assert entering_rows(app) == [(game.id, PHONE_A, "Ann", 1)]
