"""Every count a player can enter is judged right, through the API and the forms alike.

The cases are the issue's, worked by hand from the rulebooks: a book's cards are counted once
among the melded cards, melded threes are refused where the rules forbid them, house rules are
held to what a score sheet can reach, and every refusal names the figures it is about.
"""

from __future__ import annotations

import re

import pytest
from game_links import key as game_key
from game_links import link
from sqlalchemy import select
from test_pages import (
    SINGLES,
    api_deal,
    api_game,
    api_state,
    assert_beside,
    deal_by_form,
    game_count,
    text,
    values,
)

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game

TWO_TEAMS = [("Us", ["Ann", "Bob"]), ("Them", ["Cat", "Dan"])]
# Cutthroat, going out with 3 clean books (one of black threes), a dirty and a wild one; every
# melded card counted, the book's seven black threes among them.
GOING_OUT = {
    "books": {"clean": 2, "black_threes": 1, "dirty": 1, "wild": 1},
    "went_out": True,
    "melded_cards": {"black_three": 7, "joker": 4, "two": 4, "ace": 14, "eight_to_king": 14},
}

# The same deal as typed on the deal form, side 0's figures.
GOING_OUT_ON_THE_FORM = {
    "s0-books-clean": "2",
    "s0-books-black_threes": "1",
    "s0-books-dirty": "1",
    "s0-books-wild": "1",
    "s0-melded_cards-black_three": "7",
    "s0-melded_cards-joker": "4",
    "s0-melded_cards-two": "4",
    "s0-melded_cards-ace": "14",
    "s0-melded_cards-eight_to_king": "14",
}


def post_deal(client, game_id: int, *scores):
    return client.post(
        f"/api/v1/games/{game_id}/deals",
        json={"scores": list(scores)},
        headers=game_key(client, game_id),
    )


@pytest.mark.parametrize("decks", [4, 7])
def test_black_threes_book_by_count_through_the_api(client, decks):
    """201 and 4,135 / 100 at 4 decks, as at 7: the book's threes are the melded threes."""
    game_id = api_game(client, "cutthroat", TWO_TEAMS, decks=decks)
    state = api_deal(client, game_id, GOING_OUT, {"melded_points": 100})
    assert [side["total"] for side in state["sides"]] == [4135, 100]
    lines = state["deals"][0]["scores"][0]["breakdown"]
    assert (lines["books"], lines["going_out"], lines["cards"]) == (3300, 100, 735)


def test_black_threes_book_by_count_through_the_deal_form(client):
    """The same deal typed on the phone's form is saved with the same totals."""
    game_id = api_game(client, "cutthroat", TWO_TEAMS, decks=4)
    figures = {**GOING_OUT_ON_THE_FORM, "s1-melded_points": "100"}
    saved = deal_by_form(client, game_id, figures, went_out="0")
    assert saved.status_code == 302, text(saved)
    assert [side["total"] for side in api_state(client, game_id)["sides"]] == [4135, 100]


def test_too_many_black_threes_named_at_every_figure_that_counted(client):
    """Nine black threes in 4 decks: refused, shown beside each figure that counted, once on top."""
    game_id = api_game(client, "cutthroat", TWO_TEAMS, decks=4)
    answer = post_deal(client, game_id, GOING_OUT, {"leftover_cards": {"black_three": 2}})
    assert answer.status_code == 422
    (error,) = answer.get_json()["errors"]
    assert (error["side"], error["field"]) == (None, "cards.black_three")
    assert error["message"].startswith("9 black threes entered, but 4 decks hold 8")
    assert {(i["side"], i["field"]) for i in error["inputs"]} == {
        (0, "books.black_threes"),
        (0, "melded_cards.black_three"),
        (1, "leftover_cards.black_three"),
    }
    figures = {**GOING_OUT_ON_THE_FORM, "s1-leftover_cards-black_three": "2"}
    page = deal_by_form(client, game_id, figures, went_out="0")
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    for field in ("s0-books-black_threes", "s0-melded_cards-black_three"):
        assert_beside(page, field, "9 black threes entered")
        assert re.search(rf'name="{field}"[^>]*aria-invalid="true"', html), field
    assert_beside(page, "s1-leftover_cards-black_three", "9 black threes entered")
    top = html[html.index('id="problems"') : html.index("</div>", html.index('id="problems"'))]
    assert top.count("9 black threes entered") == 1
    assert api_state(client, game_id)["deals"] == []
    # What was typed is still there to put right.
    assert values(page)["s1-leftover_cards-black_three"] == "2"


def test_melded_black_threes_refused_where_the_rules_forbid_them(client):
    """Club rules: threes cannot be melded; the refusal is the side's own, with the reason."""
    game_id = api_game(client, "club", SINGLES)
    answer = post_deal(client, game_id, {"melded_cards": {"black_three": 2, "ace": 3}}, {})
    assert answer.status_code == 422
    (error,) = answer.get_json()["errors"]
    assert (error["side"], error["field"]) == (0, "melded_cards.black_three")
    assert "threes cannot be melded under the Club individual rules" in error["message"]
    assert [(i["side"], i["field"]) for i in error["inputs"]] == [(0, "melded_cards.black_three")]
    page = deal_by_form(client, game_id, {"s0-melded_cards-black_three": "2"})
    assert page.status_code == 422
    assert_beside(page, "s0-melded_cards-black_three", "threes cannot be melded")
    # Left in a hand, black threes are just cards.
    assert (
        api_deal(client, game_id, {"leftover_cards": {"black_three": 2}}, {})["sides"][0]["total"]
        == -10
    )


def test_house_rules_refusals_say_these_house_rules(client):
    """Under house rules, a refusal names them, not the preset they started from."""
    game_id = api_game(client, "club", SINGLES, rules={"red_three_caught": 300})
    answer = post_deal(client, game_id, {"melded_cards": {"black_three": 1}}, {})
    assert "under these house rules" in answer.get_json()["errors"][0]["message"]
    assert "Club individual" not in answer.get_json()["errors"][0]["message"]


def test_a_house_rule_lets_threes_be_melded_from_the_form(client):
    """The new-game form's house rules offer the black-threes ruling; the rule card shows it."""
    form = client.get("/games/new?ruleset=club")
    html = form.get_data(as_text=True)
    assert 'name="rule_melded_black_threes"' in html
    data = values(form)
    data.update(
        side0_name="Ann", side1_name="Cat", ruleset="club", rule_melded_black_threes="always"
    )
    started = client.post("/games/new", data=data)
    assert started.status_code == 302, text(started)
    with client.application.app_context():
        game = db.session.execute(select(Game)).scalar_one()
        assert game.house_rules == {"melded_black_threes": "always"}
        game_id = game.id
    state = api_deal(client, game_id, {"melded_cards": {"black_three": 2}}, {})
    assert state["sides"][0]["total"] == 10
    card = text(client.get(f"{link(client, game_id)}/rules"))
    assert "Melded black threes: Black threes may be melded at any time" in card
    assert "(rule set: Black threes are never melded" in card


@pytest.mark.parametrize(
    ("rules", "figure", "words"),
    [
        ({"going_out_bonus": 103}, "going_out_bonus", "Going-out bonus must be a multiple of 5"),
        ({"book_bonuses": {"clean": 502}}, "book_bonuses.clean", "Clean book bonus must be"),
        ({"red_three_down": 99}, "red_three_down", "Red three laid down must be a multiple"),
        ({"red_three_caught": 301}, "red_three_caught", "Red three caught"),
    ],
)
def test_house_rules_off_the_fives_refused_through_the_api(client, rules, figure, words):
    """422 naming the rule and why; no game is started."""
    answer = client.post(
        "/api/v1/games",
        json={"ruleset": "classic", "sides": [{"name": "A"}, {"name": "B"}], "rules": rules},
    )
    assert answer.status_code == 422
    (error,) = answer.get_json()["errors"]
    assert error["field"] == "rules"
    assert words in error["message"]
    assert [(i["side"], i["field"]) for i in error["inputs"]] == [(None, f"rules.{figure}")]
    assert game_count(client) == 0


def test_house_rules_off_the_fives_refused_on_the_form(client):
    """The new-game form shows the refusal beside the house rule, its box open; nothing starts."""
    form = client.get("/games/new?ruleset=classic")
    data = values(form)
    data.update(side0_name="Us", side1_name="Them", rule_going_out_bonus="103")
    page = client.post("/games/new", data=data)
    assert page.status_code == 422
    assert_beside(page, "rule_going_out_bonus", "Going-out bonus must be a multiple of 5")
    assert '<details class="card house-rules" open>' in page.get_data(as_text=True)
    assert values(page)["rule_going_out_bonus"] == "103"
    assert game_count(client) == 0


def test_decks_that_cannot_deal_the_hands_are_refused(client):
    """Two teams of two at 13 + 13 take 104 cards: one deck is refused, by API and form."""
    answer = client.post(
        "/api/v1/games",
        json={
            "ruleset": "classic",
            "sides": [{"name": n, "players": p} for n, p in TWO_TEAMS],
            "decks": 1,
        },
    )
    assert answer.status_code == 422
    (error,) = answer.get_json()["errors"]
    assert error["field"] == "decks"
    assert "104 cards" in error["message"] and "at least 2 decks" in error["message"]
    form = client.get("/games/new?ruleset=classic")
    data = values(form)
    data.update(side0_name="Us", side0_players="Ann, Bob", side1_name="Them")
    data.update(side1_players="Cat, Dan", decks="1")
    page = client.post("/games/new", data=data)
    assert page.status_code == 422
    assert_beside(page, "decks", "at least 2 decks")
    assert game_count(client) == 0


def test_a_game_saved_before_a_ruling_still_opens_and_corrects(client):
    """A deal saved under an older check is replayed as saved, and later deals still correct."""
    game_id = api_game(client, "club", SINGLES, rules={"melded_black_threes": "always"})
    api_deal(client, game_id, {"melded_cards": {"black_three": 2}}, {})
    api_deal(client, game_id, {"melded_points": 50}, {})
    # As if the deal had been saved before melded threes were refused: no house rule now.
    with client.application.app_context():
        game = db.session.get(Game, game_id)
        game.house_rules = {}
        db.session.commit()
    board = client.get(link(client, game_id))
    assert board.status_code == 200
    assert [side["total"] for side in api_state(client, game_id)["sides"]] == [60, 0]
    corrected = client.put(
        f"/api/v1/games/{game_id}/deals/2",
        json={"scores": [{"melded_points": 100}, {}], "version": 1},
        headers=game_key(client, game_id),
    )
    assert corrected.status_code == 200, corrected.get_json()
    assert [side["total"] for side in corrected.get_json()["sides"]] == [110, 0]
    # The old deal itself, corrected, must now pass today's checks.
    again = client.put(
        f"/api/v1/games/{game_id}/deals/1",
        json={"scores": [{"melded_cards": {"black_three": 3}}, {}], "version": 1},
        headers=game_key(client, game_id),
    )
    assert again.status_code == 422
    assert again.get_json()["errors"][0]["field"] == "melded_cards.black_three"


def test_a_refused_house_rule_points_at_itself(client):
    """A house rule out of range is refused with a pointer to that very rule in the body."""
    answer = client.post(
        "/api/v1/games",
        json={
            "ruleset": "classic",
            "sides": [{"name": "A"}, {"name": "B"}],
            "rules": {"hand_size": 0, "going_out_bonus": 100, "moon": 1},
        },
    )
    assert answer.status_code == 422
    pointers = {e["inputs"][0]["pointer"] for e in answer.get_json()["errors"]}
    assert pointers == {"/rules/hand_size", "/rules/moon"}
