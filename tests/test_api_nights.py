"""A club night through the JSON API (issue 29): listed, read, opened and seated round by round.

Who may: organisers (signed in) open and seat; organisers and holders of the club's table link
(X-Table-Code) read, games' keys and all; anyone else is refused as the night pages refuse
them (404 in a private club, 403 in a public one). Every refusal is a 4xx naming its figure,
and every answer matches the OpenAPI document's schema.

The API's refusals of a night's setup and bodies are in test_api_night_refusals.py; the
helpers both use are in _api_nights_support.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from _api_nights_support import (
    NIGHTS,
    error,
    finish,
    ids,
    matches,
    pointers,
    seat,
    start,
    started,
    table_code,
)
from night_club import TWELVE
from test_clubs import SLUG, add_members, new_club

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.rules import PRESETS
from scorekeeper.rules.nights import MOST_ROUNDS
from scorekeeper.services import clubs

pytestmark = pytest.mark.usefixtures("quick_hashing")


@pytest.fixture
def document(client) -> dict[str, Any]:
    return client.get("/api/v1/openapi.json").get_json()


# ------------------------------------------------------------------------- opening, seating


def test_a_night_opened_then_round_one_seated_makes_games_the_api_reads(app, olga, document):
    answer = start(app, olga)
    assert answer.status_code == 201
    night = answer.get_json()
    matches(document, "Night", night)
    assert answer.headers["Location"] == night["url"] == f"{NIGHTS}/{night['id']}"
    kept_for = {d.strip() for d in answer.headers["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= kept_for
    assert (night["rounds_planned"], night["rounds_seated"], night["rounds"]) == (2, 0, [])
    assert (night["partners"], night["sit_out"], night["shape"]) == ("rotating", "no game", "fours")
    assert night["rules_called"] == PRESETS["classic"].name
    assert sorted(p["name"] for p in night["players"]) == sorted(TWELVE)
    assert all(p["here"] and p["member_id"] == ids(app)[p["name"]] for p in night["players"])
    # Round 1 is what the engine would seat now.
    planned = night["next_round"]
    assert planned["number"] == 1 and len(planned["tables"]) == 3
    assert night["why_no_next"] is None and night["round_over"] and not night["done"]

    seated = seat(olga, night, 1)
    assert seated.status_code == 201, seated.get_json()
    after = seated.get_json()
    matches(document, "Night", after)
    assert seated.headers["Location"] == night["url"]
    (one,) = after["rounds"]
    # Seated as the engine planned it.
    assert [t["sides"] for t in planned["tables"]] == [
        [s["players"] for s in t["sides"]] for t in one["tables"]
    ]
    assert after["next_round"] is None and not after["round_over"]
    code = table_code(app)
    for table in one["tables"]:
        game = table["game"]
        assert game["url"] == f"/t/{game['key']}" and game["link"].endswith(game["url"])
        state = olga.get(f"/api/v1/games/{game['id']}", headers={"X-Game-Key": game["key"]})
        assert state.status_code == 200
        assert [s["name"] for s in state.get_json()["sides"]] == [s["name"] for s in table["sides"]]
        phone = app.test_client().get(
            f"/api/v1/games/{game['id']}", headers={"X-Game-Key": game["key"], **code}
        )
        assert phone.status_code == 200
    # The club's night, as its pages keep it.
    with app.app_context():
        kept = db.session.get(Night, night["id"])
        games = [t.game_id for t in kept.rounds[0].tables]
        assert games == [t["game"]["id"] for t in one["tables"]]


def test_the_next_round_once_the_last_table_finishes_then_the_night_is_done(app, olga, document):
    night = started(app, olga)
    code = table_code(app)
    night = seat(olga, night, 1).get_json()
    # Still playing: round 2 cannot be seated yet (409, in words).
    playing = error(seat(olga, night, 2), 409)
    assert (
        playing["field"] == "round"
        and "Round 1 is still playing at table 1, 2, 3." in (playing["message"])
    )
    finish(app.test_client(), night, code)
    read = olga.get(night["url"]).get_json()
    matches(document, "Night", read)
    assert read["round_over"] and read["next_round"]["number"] == 2
    tables = read["rounds"][0]["tables"]
    assert all(t["finished"] and t["deals"] == 4 for t in tables)
    assert all(sum(s["won"] for s in t["sides"]) == 1 for t in tables)
    # Twelve players, each one game: every standing counted, six winners.
    assert sorted(s["games"] for s in read["standings"]) == [1] * 12
    assert sum(s["wins"] for s in read["standings"]) == 6
    night = seat(olga, night, 2).get_json()
    assert len(night["rounds"]) == 2
    finish(app.test_client(), night, code)
    done = olga.get(night["url"]).get_json()
    matches(document, "Night", done)
    assert done["done"] and done["next_round"] is None and done["why_no_next"] is None
    over = error(seat(olga, done, 3), 409)
    assert "All 2 rounds planned are seated." in over["message"]


def test_a_round_sent_twice_is_seated_once(app, olga):
    night = started(app, olga)
    assert seat(olga, night, 1).status_code == 201
    again = error(seat(olga, night, 1), 409)
    assert again == {
        "side": None,
        "field": "round",
        "message": "Round 1 is seated already.",
        "inputs": [],
    }
    ahead = seat(olga, night, 3)
    assert error(ahead, 422)["message"] == "Round 3 is not next: round 2 is."
    assert pointers(ahead) == ["/round"]
    with app.app_context():
        assert len(db.session.get(Night, night["id"]).rounds) == 1


@pytest.mark.parametrize(
    ("body", "pointer", "words"),
    [
        ({}, "/round", "round is required"),
        ({"round": "1"}, "/round", "round is the number"),
        ({"round": True}, "/round", "round is the number"),
        ({"round": 0}, "/round", "round is the number"),
        ({"round": 10**30}, "/round", "round is the number"),
    ],
)
def test_a_round_that_is_no_number_is_refused(app, olga, body, pointer, words):
    night = started(app, olga)
    answer = olga.post(f"{night['url']}/rounds", json=body)
    assert words in error(answer, 422)["message"]
    assert pointers(answer) == [pointer]


def test_guests_and_a_saved_rule_set_fixed_partners_and_zero_for_a_sit_out(app, olga, document):
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        saved = clubs.create_saved_rules(club, "Tuesday rules", "classic", {})
        saved_id = saved.id
    night = started(
        app,
        olga,
        names=TWELVE[:8],
        guests=["Sue", "Tom"],
        saved_rules=saved_id,
        ruleset=None,
        partners="fixed",
        sit_out="zero",
        rounds=1,
    )
    matches(document, "Night", night)
    assert night["rules_called"] == "Tuesday rules" and night["saved_rules_id"] == saved_id
    assert (night["partners"], night["sit_out"]) == ("fixed", "zero")
    guests = [p for p in night["players"] if p["member_id"] is None]
    assert sorted(p["name"] for p in guests) == ["Sue", "Tom"]
    # Ten players at tables of 4: two sit round 1 out.
    assert len(night["next_round"]["sitting_out"]) == 2
    assert "0 points" in night["sit_out_rule"]


# ------------------------------------------------------------------------- reading, listing


def test_the_members_by_id_open_a_night(app, olga, document):
    phone = app.test_client()
    listed = phone.get(f"/api/v1/clubs/{SLUG}/members", headers=table_code(app))
    assert listed.status_code == 200
    members = listed.get_json()
    for member in members:
        matches(document, "Member", member)
    assert [m["name"] for m in members] == sorted(TWELVE)
    assert olga.get(f"/api/v1/clubs/{SLUG}/members").get_json() == members
    assert app.test_client().get(f"/api/v1/clubs/{SLUG}/members").status_code == 404
    body = {"members": [m["id"] for m in members[:4]], "ruleset": "classic", "rounds": 1}
    assert olga.post(NIGHTS, json=body).status_code == 201


def test_the_list_is_the_newest_first_and_as_long_as_asked(app, olga, document):
    first, second = started(app, olga), started(app, olga, rounds=1)
    listed = olga.get(NIGHTS)
    assert listed.status_code == 200
    matches(document, "NightBrief", listed.get_json()[0])
    assert [n["id"] for n in listed.get_json()] == [second["id"], first["id"]]
    assert listed.get_json()[0]["players"] == 12
    assert [n["id"] for n in olga.get(f"{NIGHTS}?limit=1").get_json()] == [second["id"]]
    for limit in ("0", "101", "abc", "1" * 40, "-1", "1.5"):
        refused = error(olga.get(f"{NIGHTS}?limit={limit}"), 422)
        assert refused["field"] == "limit" and "limit is how many nights" in refused["message"]


def test_who_may_read_a_night_in_a_private_club(app, olga):
    night = started(app, olga)
    seat(olga, night, 1)
    phone = app.test_client()
    read = phone.get(night["url"], headers=table_code(app))
    assert read.status_code == 200 and not read.get_json()["may_run"]
    assert all(t["game"]["key"] for t in read.get_json()["rounds"][0]["tables"])
    listed = phone.get(NIGHTS, headers=table_code(app))
    assert listed.status_code == 200 and listed.get_json()[0]["id"] == night["id"]
    # A stranger, or a wrong code: the club is not there.
    for headers in ({}, {"X-Table-Code": "x" * 24}):
        for path in (night["url"], NIGHTS):
            assert app.test_client().get(path, headers=headers).status_code == 404
    # The table link reads; it does not open or seat (organisers do).
    opened = phone.post(NIGHTS, json={"ruleset": "classic"}, headers=table_code(app))
    assert opened.status_code == 403
    refused = phone.post(f"{night['url']}/rounds", json={"round": 2}, headers=table_code(app))
    assert refused.status_code == 403
    stranger = app.test_client().post(f"{night['url']}/rounds", json={"round": 2})
    assert stranger.status_code == 404


def test_the_table_link_runs_nights_where_the_club_allows(app, olga, document):
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        clubs.update_settings(
            club,
            name=club.name,
            public=False,
            min_games=club.min_games_ranked,
            tables_run_nights=True,
        )
    phone, code = app.test_client(), table_code(app)
    body = {"members": list(ids(app).values()), "ruleset": "classic", "rounds": 1}
    opened = phone.post(NIGHTS, json=body, headers=code)
    assert opened.status_code == 201, opened.get_json()
    night = opened.get_json()
    assert night["may_run"]
    seated = phone.post(f"{night['url']}/rounds", json={"round": 1}, headers=code)
    assert seated.status_code == 201
    matches(document, "Night", seated.get_json())
    assert all(t["game"]["key"] for t in seated.get_json()["rounds"][0]["tables"])


def test_a_seating_drawn_again_since_it_was_read_is_not_seated_unseen(app, olga):
    night = started(app, olga)
    assert night["draw"] == 0 and olga.get(night["url"]).get_json()["may_run"]
    stale = olga.post(f"{night['url']}/rounds", json={"round": 1, "draw": night["draw"] + 1})
    assert "drawn again meanwhile" in error(stale, 409)["message"]
    assert olga.post(f"{night['url']}/rounds", json={"round": 1, "draw": "0"}).status_code == 422
    assert olga.post(f"{night['url']}/rounds", json={"round": 1, "draw": 0}).status_code == 201


def test_a_public_clubs_nights_are_403_to_a_stranger(app, olga):
    new_club(olga, slug="open-club", name="Open Club", public=True)
    add_members(olga, "open-club", "Ann", "Bob", "Cat", "Dan")
    members = list(ids(app, "open-club").values())
    path = "/api/v1/clubs/open-club/nights"
    answer = olga.post(path, json={"members": members, "ruleset": "classic", "rounds": 1})
    assert answer.status_code == 201
    night = answer.get_json()
    stranger = app.test_client()
    # Its members are as public as its members page; its nights name games' keys.
    assert stranger.get("/api/v1/clubs/open-club/members").status_code == 200
    assert stranger.get(path).status_code == 403
    assert stranger.get(night["url"]).status_code == 403
    assert stranger.post(path, json={}).status_code == 403
    assert stranger.get(night["url"], headers=table_code(app, "open-club")).status_code == 200


def test_another_clubs_night_and_no_night_are_404(app, olga):
    night = started(app, olga)
    new_club(olga, slug="other-club", name="Other Club")
    other = f"/api/v1/clubs/other-club/nights/{night['id']}"
    assert olga.get(other).status_code == 404
    assert olga.post(f"{other}/rounds", json={"round": 1}).status_code == 404
    for missing in (night["id"] + 1, 2**63, 10**30):
        assert olga.get(f"{NIGHTS}/{missing}").status_code == 404
    assert olga.get(f"/api/v1/clubs/no-such-club/nights/{night['id']}").status_code == 404


# ------------------------------------------------------------------------- OpenAPI


def test_the_most_rounds_is_the_engines(document):
    setup = document["components"]["schemas"]["NightSetup"]["properties"]
    assert setup["rounds"]["maximum"] == MOST_ROUNDS
    paths = document["paths"]
    assert {"get", "post"} <= set(paths["/api/v1/clubs/{slug}/nights"])
    assert "get" in paths["/api/v1/clubs/{slug}/nights/{night_id}"]
    seat_answers = paths["/api/v1/clubs/{slug}/nights/{night_id}/rounds"]["post"]["responses"]
    assert {"201", "403", "404", "409", "422"} <= set(seat_answers)
