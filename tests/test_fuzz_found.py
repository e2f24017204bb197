"""Cases the fuzzing found (each a 500 or a wrong answer), kept as plain regression tests.

The club case among them is in test_fuzz_clubs.py, beside the club fixture it needs.
"""

from __future__ import annotations

import html

import pytest
from _fuzz_support import (
    PASSWORD,
    _corrections_unbounded,  # noqa: F401 (autouse: every test here)
    game_api,
    no_server_error,
    start,
    state,
)
from game_links import link

# ------------------------------------------------------------------------------ found by fuzzing
# Each case below was a 500 (or a wrong answer) that the fuzzing found; all were fixed in
# afde6cc. They stay as plain tests, each naming where the bug was.


def test_preview_of_a_deal_past_the_last_is_not_found(client):
    # web/games/entering.py preview(): preview_deal() indexed progress.deals[number - 1] past the
    # end.
    board = link(client, start(client, "classic"))
    assert client.post(f"{board}/deals/preview", data={}).status_code == 200  # the game is found
    for number in (0, 5):
        assert client.post(f"{board}/deals/{number}/preview", data={}).status_code == 404


def _deal_one(client, game_id: int) -> dict:
    """Deal 1 as the API shows it."""
    return state(client, game_id)["deals"][0]


@pytest.mark.parametrize(
    ("sent", "shown"),
    [("abc", "'abc'"), ("²", "'²'"), ("①", "'①'"), ("1.5", "'1.5'"), ("-1", "'-1'"), ("", None)],
)
def test_a_correction_whose_version_is_not_a_number_is_refused_alike_on_form_and_api(
    client, sent, shown
):
    # web/games/entering.py edit_deal() read a garbage version as "no version" and saved the
    # correction
    # without the stale check (302); the API refused the same thing. Now both refuse it, plainly.
    game_id = start(client, "classic")
    game_api(client, "POST", game_id, "/deals", json={"scores": [{}, {}]})
    before = _deal_one(client, game_id)
    if shown is None:
        expected = "This correction names no version of deal 1: open deal 1 again"
    else:
        expected = f"This correction names version {shown}, which is not a version: open deal 1"
    form = {"s0-red_threes_caught": "1", "version": sent}
    page = client.post(f"{link(client, game_id)}/deals/1/edit", data=form)
    assert page.status_code == 422
    assert expected in html.unescape(page.get_data(as_text=True))
    body = {"scores": [{"red_threes_caught": 1}, {}], "version": sent}
    api = game_api(client, "PUT", game_id, "/deals/1", json=body)
    assert api.status_code == 422
    [error] = api.get_json()["errors"]
    assert (error["side"], error["field"]) == (None, "version")
    assert error["message"].startswith(expected)
    assert _deal_one(client, game_id) == before  # nothing saved, version unchanged


def test_a_form_correction_without_a_version_is_refused(client):
    # No version was read as "any version": a correction form always carries one.
    game_id = start(client, "classic")
    game_api(client, "POST", game_id, "/deals", json={"scores": [{}, {}]})
    before = _deal_one(client, game_id)
    page = client.post(f"{link(client, game_id)}/deals/1/edit", data={"s0-red_threes_caught": "1"})
    assert page.status_code == 422
    assert "names no version of deal 1" in page.get_data(as_text=True)
    assert _deal_one(client, game_id) == before


@pytest.mark.parametrize("version", [True, 1.0, [1], {"v": 1}, "1"])
def test_an_api_version_of_another_type_is_refused(client, version):
    game_id = start(client, "classic")
    game_api(client, "POST", game_id, "/deals", json={"scores": [{}, {}]})
    body = {"scores": [{"red_threes_caught": 1}, {}], "version": version}
    api = game_api(client, "PUT", game_id, "/deals/1", json=body)
    assert api.status_code == 422
    assert [e["field"] for e in api.get_json()["errors"]] == ["version"]
    assert _deal_one(client, game_id)["version"] == 1


@pytest.mark.parametrize("where", ["api", "form"])
def test_correct_deal_version_past_a_column_is_no_server_error(client, where):
    # scoresheet.py correct_deal(): the version went into UPDATE ... WHERE version = ? and
    # overflowed the column (OverflowError on SQLite, out of range on PostgreSQL).
    game_id = start(client, "classic")
    game_api(client, "POST", game_id, "/deals", json={"scores": [{}, {}]})
    if where == "api":
        body = {"scores": [{"red_threes_caught": 1}, {}], "version": 10**25}
        answer = game_api(client, "PUT", game_id, "/deals/1", json=body)
    else:
        form = {"s0-red_threes_caught": "1", "version": "9" * 25}
        answer = client.post(f"{link(client, game_id)}/deals/1/edit", data=form)
    # No deal ever had that version: the deal was changed meanwhile, as far as anyone can know.
    assert answer.status_code == 409
    assert _deal_one(client, game_id)["version"] == 1


def test_no_player_is_on_two_sides(client):
    # scoresheet.py start_game() checked "cannot play on two sides" among listed players only:
    # a side given without players plays as its name, and was not checked.
    sides = [{"name": "Ann"}, {"name": "Bob & Ann", "players": ["Bob", "Ann"]}]
    answer = client.post("/api/v1/games", json={"ruleset": "classic", "sides": sides})
    assert answer.status_code == 422, answer.get_json()


def test_a_non_ascii_username_is_refused_or_signs_in_again(app):
    # clubs.py organiser_named() compared SQL lower(), ASCII-only on SQLite, with Python's
    # str.lower(): "Éva" could not sign in, and signing up again was a UNIQUE violation (500).
    account = {"username": "Éva Ortiz", "password": PASSWORD}
    first = app.test_client().post("/signup", data=account)
    no_server_error(first)
    if first.status_code == 302:
        assert app.test_client().post("/login", data=account).status_code == 302
    again = app.test_client().post("/signup", data=account)
    no_server_error(again)
    assert again.status_code == 422


@pytest.mark.parametrize("where", ["api side", "api player", "form side", "username", "member"])
def test_nul_in_a_name_is_refused_not_a_server_error(app, client, where):
    # PostgreSQL refuses NUL in text (psycopg DataError, 500), and the error page then failed
    # too for a signed-in organiser (errors.py did not roll the session back).
    if where == "api side":
        sides = [{"name": "A\x00B"}, {"name": "C"}]
        answer = client.post("/api/v1/games", json={"ruleset": "classic", "sides": sides})
    elif where == "api player":
        sides = [{"name": "A", "players": ["A\x00B"]}, {"name": "C"}]
        answer = client.post("/api/v1/games", json={"ruleset": "classic", "sides": sides})
    elif where == "form side":
        form = {"side0_name": "A\x00B", "side1_name": "C"}
        answer = client.post("/games/new?ruleset=classic", data=form)
    elif where == "username":
        answer = client.post("/signup", data={"username": "A\x00Bcd", "password": PASSWORD})
    else:
        assert (
            client.post("/signup", data={"username": "org", "password": PASSWORD}).status_code
            == 302
        )
        assert client.post("/clubs/new", data={"name": "N", "slug": "nul"}).status_code == 302
        answer = client.post("/clubs/nul/members", data={"name": "A\x00B"})
    no_server_error(answer)
    assert answer.status_code == 422
