"""Every phone at a table in step: the live answer, its ETag and version, two processes alike.

The live answer is read from the database on every request, so two app processes on one
database must answer alike, and an unchanged poll is answered from one query. Who is entering
is in tests/test_live_entering.py, the deal form's number and the offline pages in
tests/test_live_deal_form.py, club games in tests/test_live_club_games.py; the phones' helpers
are in tests/live_table.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from game_links import statements_asked
from live_table import (
    PHONE_A,
    PHONE_B,
    PHONE_C,
    QUIET,
    WRONG,
    Table,
    api_deal,
    entering_of,
    form_of,
    live_of,
    say,
    start,
    text,
    wrong_table,
)
from sqlalchemy import select

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Entering
from scorekeeper.services import live

# ------------------------------------------------------------------------- the live answer


def test_live_answer_is_json_with_an_etag_and_no_cache(client):
    game = start(client)
    answer = live_of(client, game)
    assert answer.status_code == 200
    assert answer.mimetype == "application/json"
    body = answer.get_json()
    assert set(body) == {
        "game",
        "version",
        "deals",
        "next_deal",
        "finished",
        "entering",
        "parts",
        "lines",
        "news",
        "next_game",
        "night",
        "waiting",
        "answers",
        "queries",
        "asking",
    }
    assert body["news"] is None and body["next_game"] is None
    # No deal yet: none waits for a side's answer.
    assert body["asking"] is False
    # A game of no club night: nothing of a night to follow, nothing to wait for.
    assert body["night"] == "" and body["waiting"] is False
    assert body["game"] == game.id
    assert isinstance(body["version"], str) and body["version"]
    assert (body["deals"], body["next_deal"], body["finished"], body["entering"]) == (
        0,
        1,
        False,
        [],
    )
    assert answer.headers["ETag"]
    # Asked again each time; kept by the phone alone, never by a cache shared with others.
    assert answer.headers["Cache-Control"] == "no-cache, private"


def test_same_etag_gets_an_empty_304(client):
    game = start(client)
    etag = live_of(client, game).headers["ETag"]
    again = live_of(client, game, **{"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == etag


def test_a_new_deal_changes_version_deals_and_etag(client):
    game = start(client)
    first = live_of(client, game)
    api_deal(client, game)
    after = live_of(client, game, **{"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200
    body = after.get_json()
    assert body["version"] != first.get_json()["version"]
    assert (body["deals"], body["next_deal"]) == (1, 2)
    assert after.headers["ETag"] != first.headers["ETag"]


@pytest.mark.parametrize("how", ["form", "api"])
def test_a_correction_changes_version_but_not_deals(client, how):
    game = start(client)
    api_deal(client, game)
    before = live_of(client, game)
    if how == "form":
        data = form_of(client.get(f"{game.link}/deals/1/edit")).values
        data["s1-melded_points"] = "100"
        assert client.post(f"{game.link}/deals/1/edit", data=data).status_code == 302
    else:
        scores = [QUIET[0], {"melded_points": 100}]
        answer = client.put(
            f"/api/v1/games/{game.id}/deals/1",
            json={"scores": scores, "version": 1},
            headers=game.key,
        )
        assert answer.status_code == 200, answer.get_json()
    after = live_of(client, game, **{"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200
    assert after.get_json()["version"] != before.get_json()["version"]
    assert after.get_json()["deals"] == before.get_json()["deals"] == 1


def test_the_last_deal_says_finished(client):
    game = start(client)
    for _ in range(4):
        api_deal(client, game)
    body = live_of(client, game).get_json()
    assert (body["deals"], body["finished"]) == (4, True)


@pytest.mark.parametrize("how", WRONG)
def test_live_of_no_such_game_is_404(client, how):
    game = start(client)
    assert live_of(client, wrong_table(game, how)).status_code == 404
    assert live_of(client, game).status_code == 200


@pytest.mark.parametrize("number", ["{id}", 0, 999_999, 2**63, 2**70])
def test_live_at_an_old_address_is_404(client, number):
    """The address from before private links opens nothing, not even a game that exists: the
    same page about private links whatever the number."""
    game = start(client)
    answer = client.get(f"/games/{str(number).format(id=game.id)}/live")
    assert answer.status_code == 404
    assert "Games now open with their private link" in text(answer)
    assert answer.get_data() == client.get(f"/games/{game.id}/live").get_data()


# ------------------------------------------------------------------------- two processes


def test_two_processes_on_one_database_answer_alike(app, client):
    """What one app process records, another sees: nothing is kept inside a process."""
    other_app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            "WTF_CSRF_ENABLED": False,
        }
    )
    try:
        other = other_app.test_client()
        game = start(client)
        first = live_of(other, game, PHONE_B)
        assert first.status_code == 200
        # The same game gets the same answer, and so the same ETag, from either process.
        same = live_of(client, game, PHONE_B, **{"If-None-Match": first.headers["ETag"]})
        assert same.status_code == 304

        assert say(client, game, PHONE_A, 1, "Ann").status_code == 204
        seen = live_of(other, game, PHONE_B, **{"If-None-Match": first.headers["ETag"]})
        assert seen.status_code == 200
        assert entering_of(seen) == [{"name": "Ann", "deal": 1}]

        api_deal(other, game)
        body = live_of(client, game, PHONE_B).get_json()
        assert (body["deals"], body["next_deal"], body["entering"]) == (1, 2, [])
        assert body["version"] == live_of(other, game, PHONE_B).get_json()["version"]

        assert say(other, game, PHONE_B, 2, "Bea").status_code == 204
        assert say(client, game, PHONE_A, 2, "Ann", leaving="1").status_code == 204
        assert entering_of(live_of(other, game, PHONE_C)) == [{"name": "Bea", "deal": 2}]
        assert entering_of(live_of(client, game, PHONE_C)) == [{"name": "Bea", "deal": 2}]
    finally:
        with other_app.app_context():
            db.session.remove()
            db.engine.dispose()


# ------------------------------------------------------- an unchanged poll: one query


def test_an_unchanged_poll_is_one_query_for_a_casual_game(app, client):
    game = start(client)
    etag = live_of(client, game, PHONE_B).headers["ETag"]
    status, asked = statements_asked(
        app, client, f"{game.link}/live?device={PHONE_B}", {"If-None-Match": etag}
    )
    assert status == 304
    selects = [s for s in asked if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 1, asked  # the link, with the game's club and live version
    assert "live_version" in selects[0]
    # A changed game is read in full.
    api_deal(client, game, {"melded_points": 50}, {})
    status, asked = statements_asked(
        app, client, f"{game.link}/live?device={PHONE_B}", {"If-None-Match": etag}
    )
    assert status == 200 and len(asked) > 1


def _etag(client, game: Table) -> str:
    return live_of(client, game, PHONE_C).headers["ETag"]


def test_everything_a_watching_phone_sees_moves_the_live_version_on(app, client):
    game, other = start(client), start(client)
    seen = [_etag(client, game)]

    def moved(why: str) -> None:
        now = _etag(client, game)
        assert now != seen[-1], f"{why} did not move the live version on"
        seen.append(now)

    assert client.post(f"{game.link}/first-dealer", data={"seat": "1"}).status_code == 302
    moved("choosing the first dealer")
    say(client, game)
    moved("a phone opening the deal form")
    say(client, game)
    moved("the entering phone's next word (its name stays fresh)")
    say(client, game, leaving="1")
    moved("the phone leaving the form")
    line = {"number": "1", "s0-melded_points": "50", "device": PHONE_A}
    assert client.post(f"{game.link}/deals/next/0", data=line).status_code == 302
    moved("a side's line")
    api_deal(client, game, {"melded_points": 50}, {})
    moved("a deal saved")
    answer = client.put(
        f"/api/v1/games/{game.id}/deals/1",
        json={"scores": [{"melded_points": 60}, {}]},
        headers={"X-Game-Key": game.secret},
    )
    assert answer.status_code == 200
    moved("a correction")
    # Another game's news, or a phone asking, moves nothing here.
    api_deal(client, other, {"melded_points": 50}, {})
    live_of(client, game, PHONE_A)
    assert _etag(client, game) == seen[-1]
    assert live_of(client, game, PHONE_C, **{"If-None-Match": seen[-1]}).status_code == 304


def test_a_name_stays_fresh_for_what_is_left_of_its_fifteen_seconds(app, client):
    game = start(client)
    say(client, game)
    with app.app_context():
        row = db.session.execute(select(Entering)).scalar_one()
        row.seen_at = datetime.now(UTC) - timedelta(seconds=10)
        db.session.commit()
    listed = live_of(client, game, PHONE_B).get_json()["entering"]
    assert [(one["name"], one["fresh_for"]) for one in listed] == [("Ann", 5)]


def test_a_phone_gone_quiet_leaves_every_screen_without_news(app, client):
    """An answer listing a phone entering is asked again in full: the name goes when stale."""
    game = start(client)
    say(client, game)
    first = live_of(client, game, PHONE_B)
    assert [one["name"] for one in first.get_json()["entering"]] == ["Ann"]
    assert first.headers["ETag"].endswith('e"')
    with app.app_context():
        row = db.session.execute(select(Entering)).scalar_one()
        row.seen_at = datetime.now(UTC) - live.FRESH - timedelta(seconds=1)
        db.session.commit()
    again = live_of(client, game, PHONE_B, **{"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200 and again.get_json()["entering"] == []
    quiet = live_of(client, game, PHONE_B, **{"If-None-Match": again.headers["ETag"]})
    assert quiet.status_code == 304


@pytest.mark.parametrize("poll", ["live", "scorer"])
def test_a_weak_etag_sent_back_is_answered_304(client, poll):
    """A browser sends back the tag it was given, and an answer over 1 KB goes gzipped with a
    weak one (W/"…", plumbing/compress.py): weakly equal, it is answered 304 all the same."""
    game = start(client)
    api_deal(client, game)
    etag = client.get(f"{game.link}/{poll}").headers["ETag"]
    weak = etag if etag.startswith("W/") else f"W/{etag}"
    again = client.get(f"{game.link}/{poll}", headers={"If-None-Match": weak})
    assert again.status_code == 304 and again.get_data() == b""
    api_deal(client, game)
    assert client.get(f"{game.link}/{poll}", headers={"If-None-Match": weak}).status_code == 200


def test_the_scorers_gzipped_answer_is_answered_304_to_its_own_weak_etag(client):
    """The scorer's state (the rules and the deals) is over 1 KB: it goes gzipped."""
    game = start(client)
    gzip = {"Accept-Encoding": "gzip"}
    first = client.get(f"{game.link}/scorer", headers=gzip)
    assert first.headers["Content-Encoding"] == "gzip"
    assert first.headers["ETag"].startswith('W/"')
    again = client.get(
        f"{game.link}/scorer", headers={**gzip, "If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304 and again.get_data() == b""
