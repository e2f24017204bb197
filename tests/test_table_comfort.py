"""The table's comfort on a game's pages (issue 40, items 5-7), as the server sends them.

- Who holds the phone is asked once, on the first game page it opens (scoreboard or deal form),
  by a form that works without a script; answered or skipped, never again; the name given
  goes with what the phone sends when it names nobody itself ("Ann saved deal 1").
- The sides keep the table's order on the deal form after a phone sent a line; that side is
  labelled "Your side: ..." there and on the scoreboard.
- The game's pages load static/comfort.js (wake lock, larger text), its words from the page.
"""

from __future__ import annotations

import re

import pytest
from _pages_support import TEAMS, api_game, text
from game_links import link

from scorekeeper.rules.terms import MAX_DEVICE_NAME
from scorekeeper.web.phone_name import NAME

ASKED = "Who is holding this phone?"
# Deal 1 as test_deal_lines.py enters it: North goes out, South is caught.
NORTH = {
    "s0-books-clean": "2",
    "s0-books-dirty": "2",
    "s0-books-wild": "1",
    "s0-red_threes_down": "1",
    "s0-melded_points": "320",
    "went_out": "0",
}
SOUTH = {"s1-books-clean": "1", "s1-melded_points": "240", "s1-leftover_points": "85"}


@pytest.fixture
def game(client) -> str:
    """A new game of North (Ann, Bob) against South (Cat, Dan), by its private link."""
    return link(client, api_game(client, "classic", TEAMS))


def board(client, game: str) -> str:
    return client.get(game).get_data(as_text=True)


def asks(client, path: str) -> bool:
    return ASKED in text(client.get(path))


@pytest.mark.parametrize("first", ["", "/deals/new"])
def test_the_first_game_page_asks_once_and_a_name_given_is_not_asked_again(client, game, first):
    assert asks(client, game + first)
    answer = client.post("/name", data={"name": " Ann ", "next": game + first})
    assert answer.status_code == 303 and answer.headers["Location"] == game + first
    with client.session_transaction() as session:
        assert session[NAME] == "Ann"
    assert not asks(client, game) and not asks(client, game + "/deals/new")
    # The name is the one the table sees where the phone names nobody itself.
    assert "Other phones see you as Ann" in text(client.get(game + "/deals/new"))


def test_skipped_is_asked_no_more_and_the_phone_stays_someone(client, game):
    assert client.post("/name", data={"skip": "1", "name": "Ann", "next": game}).status_code == 303
    with client.session_transaction() as session:
        assert session[NAME] == ""
    assert not asks(client, game) and not asks(client, game + "/deals/new")
    assert "Other phones see you as Someone" in text(client.get(game + "/deals/new"))


def test_the_phones_script_is_answered_with_no_page_and_a_name_is_cleaned_and_cut(client, game):
    long = "Ann\u202e" + "x" * 100
    answer = client.post("/name", data={"name": long, "quiet": "1"})
    assert answer.status_code == 204 and answer.get_data() == b""
    with client.session_transaction() as session:
        assert session[NAME] == ("Ann" + "x" * 100)[:MAX_DEVICE_NAME]
        assert "\u202e" not in session[NAME]


@pytest.mark.parametrize("back", ["https://elsewhere.example/", "//elsewhere.example/x", ""])
def test_back_goes_only_to_a_page_of_this_site(client, back):
    answer = client.post("/name", data={"name": "Ann", "next": back})
    assert answer.status_code == 303 and answer.headers["Location"] == "/"


def test_the_name_given_names_the_deal_saved_in_the_tables_news(client, game):
    client.post("/name", data={"name": "Ann"})
    assert client.post(game + "/deals/new", data={**NORTH, **SOUTH}).status_code in (302, 303)
    news = client.get(game + "/live").get_json()["news"]
    assert news["text"] == "Ann saved deal 1."


def test_a_line_sent_names_its_sender_and_the_sides_keep_the_tables_order(client, game):
    client.post("/name", data={"name": "Cat"})
    line = {**SOUTH, "number": "1", "device": "c" * 32}
    assert client.post(game + "/deals/next/1", data=line).status_code == 302
    assert "South: in, from Cat" in text(client.get(game))
    html = client.get(game + "/deals/new").get_data(as_text=True)
    # North then South, as the table sits, whoever sent a line; South is labelled as this phone's.
    assert html.index('data-side="0"') < html.index('data-side="1"')
    legends = re.findall(r"<legend>([^<]*)<span", html)
    assert [legend.strip() for legend in legends] == ["North", "Your side: South"]
    assert "Your side: South" in text(client.get(game))
    assert "Your side" not in text(client.get(link(client, api_game(client, "classic", TEAMS))))


def test_a_phone_that_sent_no_line_sees_no_side_of_its_own(client, game):
    assert "Your side" not in text(client.get(game + "/deals/new"))
    assert "Your side" not in text(client.get(game))


def test_the_game_pages_load_the_comfort_script_and_the_scoreboard_offers_larger_text(client, game):
    for page in (game, game + "/deals/new", game + "/deals/next/0"):
        html = client.get(page).get_data(as_text=True)
        assert re.search(r'<script src="/static/comfort\.js[^"]*" defer data-comfort', html), page
        assert 'data-dim="This phone may dim its screen' in html
    board = client.get(game).get_data(as_text=True)
    toggle = (
        r'<button type="button" class="link" data-larger="/static/larger\.css[^"]*" aria-pressed='
    )
    assert re.search(toggle + '"false">Larger text', board)
    assert "data-larger" not in client.get(game + "/deals/new").get_data(as_text=True)


def test_larger_text_chosen_is_set_by_the_server_from_the_first_paint(client, game):
    assert '<html lang="en">' in client.get(game).get_data(as_text=True)
    assert "larger.css" not in re.sub(r"<button[^>]*data-larger=[^>]*>", "", board(client, game))
    client.set_cookie("hf-larger", "1")
    html = board(client, game)
    assert '<html lang="en" class="larger">' in html
    # Its one rule comes with the page only when chosen: no other phone fetches it.
    assert re.search(
        r'<link rel="stylesheet" href="/static/larger\.css[^"]*" data-larger-css>', html
    )
    # Only the scoreboard offers it; the deal form keeps its size.
    assert '<html lang="en">' in client.get(game + "/deals/new").get_data(as_text=True)
    client.set_cookie("hf-larger", "0")
    assert '<html lang="en">' in client.get(game).get_data(as_text=True)


def test_a_signed_in_organiser_goes_by_their_name_and_is_not_asked(client, game, app):
    from werkzeug.security import generate_password_hash

    from scorekeeper.plumbing.db import db
    from scorekeeper.plumbing.models import Organiser

    with app.app_context():
        db.session.add(Organiser(username="owner", password_hash=generate_password_hash("pw")))
        db.session.commit()
    client.post("/login", data={"username": "owner", "password": "pw"})
    assert not asks(client, game)
    assert "Other phones see you as owner" in text(client.get(game + "/deals/new"))
