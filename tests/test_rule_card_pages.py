"""The rule cards: each preset's numbers, the rules index, house rules from the form.

Forms are filled the way a browser does: the page is fetched, its inputs read back, the
figures typed in, and the whole form posted. Expected figures are worked out by hand from
/work/shared/rules/VARIANTS.md in the comments. The helpers are in _pages_support.py.
"""

from __future__ import annotations

import pytest
from _pages_support import (
    FIRST_DEAL,
    api_deal,
    assert_side,
    near,
    start_by_form,
    text,
)
from game_links import link

# ------------------------------------------------------------------------- rule cards

# Label on the card, and the figure that must follow it, from the rule table.
RULE_CARDS = {
    "classic": [
        ("Wild", 1500),
        ("Red three laid down", 100),
        ("Red three caught", 100),
        ("Going out", 100),
        ("Deal 1", 50),
        ("Deal 2", 90),
        ("Deal 3", 120),
        ("Deal 4", 150),
    ],
    "club": [
        ("Clean", 500),
        ("Dirty", 300),
        ("Red three laid down", 100),
        ("Red three caught", 500),
        ("Going out", 100),
    ],
    "family": [
        ("Clean sevens", 1500),
        ("Red three caught", 500),
        ("Going out", 0),
        ("Deal 1", 60),
        ("Deal 2", 90),
    ],
    "casual": [
        ("Wild", 300),
        ("Red three caught", 500),
        ("Extra bonus", 100),
        ("Going out", 100),
    ],
    "ten-thousand": [
        ("Wild", 1500),
        ("Red three caught", 300),
        ("below 1,500", 50),
        ("from 1,500", 90),
        ("from 3,000", 120),
        ("from 5,000", 150),
        ("reaches", 10000),
    ],
    "cutthroat": [
        ("Black threes", 500),
        ("Wild", 1500),
        ("Red three caught", 300),
        ("below 1,500", 50),
        ("from 5,000", 150),
    ],
}


@pytest.mark.parametrize("key", sorted(RULE_CARDS))
def test_rule_card_shows_the_presets_numbers(client, key):
    page = client.get(f"/rules/{key}")
    assert page.status_code == 200
    words = text(page)
    for label, figure in RULE_CARDS[key]:
        assert near(words, label, figure), f"{label} {figure:,} not on the {key} card"


def test_rule_card_says_family_and_casual_red_threes_cannot_be_laid(client):
    for key in ("family", "casual"):
        assert "cannot be laid down" in text(client.get(f"/rules/{key}")), key
    assert "cannot be laid down" not in text(client.get("/rules/club"))


def test_rules_index_links_every_card(client):
    html = client.get("/rules").get_data(as_text=True)
    for key in ("classic", "club", "family", "casual", "ten-thousand", "cutthroat"):
        assert f'href="/rules/{key}"' in html, key


def test_house_rules_from_the_form_show_on_the_games_rule_card(client):
    """Changed numbers show on the game's card and score the deals; the preset stays."""
    game_id = start_by_form(
        client,
        "classic",
        [("North", "Ann, Bob"), ("South", "Cat, Dan")],
        rule_going_out_bonus="250",
        rule_book_bonuses__clean="600",
    )
    card = text(client.get(f"{link(client, game_id)}/rules"))
    assert near(card, "Going out", 250)
    assert near(card, "Clean", 600)
    assert near(card, "Going-out bonus", 250)  # listed among the game's house rules
    preset = text(client.get("/rules/classic"))
    assert near(preset, "Going out", 100)
    assert near(preset, "Clean", 500)
    state = api_deal(client, game_id, *FIRST_DEAL)
    # 2×600 + 2×300 + 1500 = 3300; out 250; 500
    assert state["deals"][0]["scores"][0]["breakdown"]["books"] == 3300
    assert state["deals"][0]["scores"][0]["total"] == 4050


def test_house_rule_minimum_band_from_the_form(client):
    """Ten thousand with 100 (not 90) from 1,500: the board asks for the club's figure."""
    game_id = start_by_form(
        client,
        "ten-thousand",
        [("Us", "Ann, Bob"), ("Them", "Cat, Dan")],
        rule_opening_minimums__1="100",
    )
    api_deal(client, game_id, {"books": {"clean": 1, "dirty": 1}, "melded_points": 700}, {})
    board = text(client.get(link(client, game_id)))
    assert_side(board, "Us", 1500, 100)  # 800 + 700
    assert_side(board, "Them", 0, 50)
    assert near(text(client.get(f"{link(client, game_id)}/rules")), "from 1,500", 100)
