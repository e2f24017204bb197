"""The HTML pages: the new-game form, and every rule set played through the forms.

Forms are filled the way a browser does: the page is fetched, its inputs read back, the
figures typed in, and the whole form posted. Expected figures are worked out by hand from
/work/shared/rules/VARIANTS.md in the comments. The helpers are in _pages_support.py.
"""

from __future__ import annotations

import pytest

# Named here too for the tests that import them from test_pages (their home is
# _pages_support.py).
from _pages_support import (  # noqa: F401
    SINGLES,
    TEAMS,
    api_deal,
    api_game,
    api_state,
    assert_beside,
    assert_side,
    deal_by_form,
    game_count,
    game_id_from,
    start_by_form,
    text,
    values,
)
from game_links import link
from page_reader import read_page

# ------------------------------------------------------------------------- every rule set

# (ruleset, sides as typed, decks by default, deal figures, who went out,
#  [(side name, total, needs to open next)] worked out by hand)
FORM_GAMES = [
    pytest.param(
        "classic",
        [("North", "Ann, Bob"), ("South", "Cat, Dan")],
        5,  # 4 players + 1
        {
            "s0-books-clean": "2",
            "s0-books-dirty": "2",
            "s0-books-wild": "1",
            "s0-red_threes_down": "1",
            "s0-melded_points": "500",
            "s1-books-clean": "1",
            "s1-red_threes_caught": "1",
            "s1-melded_points": "200",
            "s1-leftover_points": "150",
        },
        "0",
        # 2×500 + 2×300 + 1500 + 100 + out 100 + 500 = 3800; 500 − 100 + (200 − 150) = 450
        [("North", 3800, 90), ("South", 450, 90)],
        id="classic",
    ),
    pytest.param(
        "club",
        [("Ann", ""), ("Bob", ""), ("Cal", "")],
        4,  # 3 players + 1
        {
            "s0-books-clean": "2",
            "s0-books-dirty": "2",
            "s0-melded_points": "300",
            "s1-books-clean": "1",
            "s1-red_threes_caught": "1",
            "s1-melded_points": "100",
            "s1-leftover_points": "50",
            "s2-books-dirty": "1",
            "s2-leftover_points": "200",
        },
        "0",
        # 1000 + 600 + out 100 + 300 = 2000; 500 − 500 + 50 = 50; 300 − 200 = 100
        [("Ann", 2000, 90), ("Bob", 50, 90), ("Cal", 100, 90)],
        id="club",
    ),
    pytest.param(
        "family",
        [("Parents", "Mum, Dad"), ("Kids", "Kim, Lee")],
        4,
        {
            "s0-books-clean_sevens": "1",
            "s0-books-dirty": "2",
            "s0-melded_points": "350",
            "s1-books-clean": "1",
            "s1-red_threes_caught": "1",
            "s1-melded_points": "100",
            "s1-leftover_points": "250",
        },
        "0",
        # 1500 + 600 + out 0 + 350 = 2450; 500 − 500 + (100 − 250) = −150; deal 2 needs 90
        [("Parents", 2450, 90), ("Kids", -150, 90)],
        id="family",
    ),
    pytest.param(
        "casual",
        [("Reds", "Ann, Bob"), ("Blues", "Cat, Dan")],
        5,
        {
            "s0-books-clean": "2",
            "s0-books-dirty": "2",
            "s0-bonuses-exact_22": "1",
            "s0-melded_points": "400",
            "s1-books-wild": "1",
            "s1-red_threes_caught": "1",
            "s1-bonuses-exact_22": "2",
            "s1-melded_points": "150",
            "s1-leftover_points": "100",
        },
        "0",
        # 1600 + out 100 + 400 + 100 = 2200; wild 300 − 500 + 50 + 2×100 = 50
        [("Reds", 2200, 90), ("Blues", 50, 90)],
        id="casual",
    ),
    pytest.param(
        "ten-thousand",
        [("Us", "Ann, Bob"), ("Them", "Cat, Dan")],
        3,  # 4 players − 1
        {
            "s0-books-clean": "3",
            "s0-books-dirty": "1",
            "s0-books-wild": "1",
            "s0-red_threes_down": "1",
            "s0-melded_points": "600",
            "s1-books-clean": "2",
            "s1-red_threes_caught": "1",
            "s1-melded_points": "300",
            "s1-leftover_points": "100",
        },
        "0",
        # 1500 + 300 + 1500 + 100 + 100 + 600 = 4100 → 3,000–4,995 needs 120;
        # 1000 − 300 + 200 = 900 → below 1,500 needs 50
        [("Us", 4100, 120), ("Them", 900, 50)],
        id="ten-thousand",
    ),
    pytest.param(
        "cutthroat",
        [("Us", "Ann, Bob"), ("Them", "Cat, Dan")],
        3,
        {
            "s0-books-clean": "3",
            "s0-books-dirty": "1",
            "s0-books-wild": "1",
            "s0-melded_points": "500",
            "s1-books-clean": "1",
            "s1-melded_points": "200",
            "s1-leftover_points": "150",
            "s1-open_books-dirty": "1",
            "s1-open_book_points": "80",
        },
        "0",
        # 3300 + out 100 + 500 + Them's open dirty meld 300 + 80 = 4280 → needs 120;
        # 500 + 50 = 550 → needs 50
        [("Us", 4280, 120), ("Them", 550, 50)],
        id="cutthroat",
    ),
]


@pytest.mark.parametrize(
    ("ruleset", "sides", "decks", "figures", "went_out", "expected"), FORM_GAMES
)
def test_every_rule_set_through_the_forms(
    client, ruleset, sides, decks, figures, went_out, expected
):
    """Start through the new-game form, enter a deal through the deal form, read the board."""
    game_id = start_by_form(client, ruleset, sides)
    state = api_state(client, game_id)
    assert state["ruleset"] == ruleset
    assert state["decks"] == decks
    assert [s["name"] for s in state["sides"]] == [name for name, _, _ in expected]

    board = text(client.get(link(client, game_id)))
    first = 60 if ruleset == "family" else 50
    for name, _, _ in expected:
        assert_side(board, name, 0, first)

    saved = deal_by_form(client, game_id, figures, went_out)
    assert saved.status_code == 302, text(saved)
    assert game_id_from(client, saved.headers["Location"]) == game_id
    board = text(client.get(saved.headers["Location"]))
    for name, total, needs in expected:
        assert_side(board, name, total, needs)
    assert "Deal 1" in board
    assert [s["total"] for s in api_state(client, game_id)["sides"]] == [t for _, t, _ in expected]


# The new-game form arrives filled in with each preset's numbers.
PREFILLED = {
    "classic": {"rule_book_bonuses__wild": "1500", "rule_red_three_caught": "100"},
    "club": {"rule_red_three_caught": "500", "rule_going_out_bonus": "100"},
    "family": {"rule_book_bonuses__clean_sevens": "1500", "rule_going_out_bonus": "0"},
    "casual": {"rule_extra_bonuses__exact_22": "100", "rule_book_bonuses__wild": "300"},
    "ten-thousand": {"rule_target_score": "10000", "rule_red_three_caught": "300"},
    "cutthroat": {"rule_book_bonuses__black_threes": "500", "rule_red_three_down": "100"},
}


@pytest.mark.parametrize("ruleset", sorted(PREFILLED))
def test_new_game_form_is_prefilled_with_the_preset(client, ruleset):
    page = client.get(f"/games/new?ruleset={ruleset}")
    assert page.status_code == 200
    data = values(page)
    for field, value in PREFILLED[ruleset].items():
        assert data.get(field) == value, field
    assert data["rule_book_bonuses__clean"] == "500"
    assert data["rule_book_bonuses__dirty"] == "300"
    for index in range(6):
        assert f"side{index}_name" in data
        if ruleset != "club":  # club: every player is a side, so names only
            assert f"side{index}_players" in data
    assert "decks" in data


def test_family_form_has_no_red_three_laid_down(client):
    """Family red threes cannot be laid down: neither a house rule nor a deal figure for it."""
    assert "rule_red_three_down" not in values(client.get("/games/new?ruleset=family"))
    game_id = api_game(client, "family", TEAMS)
    form = client.get(f"{link(client, game_id)}/deals/new")
    fields = read_page(form.get_data(as_text=True)).inputs
    assert "s0-red_threes_down" not in fields
    assert "s0-red_threes_caught" in fields
    assert "s0-books-clean_sevens" in fields


def test_choosing_a_rule_set_lists_all_six(client):
    page = client.get("/games/new")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    for key in ("classic", "club", "family", "casual", "ten-thousand", "cutthroat"):
        assert f"/games/new?ruleset={key}" in html, key


def test_new_game_form_refusal_keeps_the_typed_sides(client):
    """One side only: 422, the reason shown, the typed names kept, nothing saved."""
    page = client.post(
        "/games/new",
        data={"ruleset": "classic", "side0_name": "Lonely", "side0_players": "Ann, Bob"},
    )
    assert page.status_code == 422
    assert "at least 2 sides" in text(page) or "two sides" in text(page)
    kept = values(page)
    assert kept["side0_name"] == "Lonely"
    assert kept["side0_players"] == "Ann, Bob"
    assert game_count(client) == 0


def test_new_game_form_decks_and_players(client):
    """Typed decks are used; comma-separated players become the side's players."""
    game_id = start_by_form(
        client, "classic", [("North", "Ann,  Bob "), ("", "Cat, Dan")], decks="6"
    )
    state = api_state(client, game_id)
    assert state["decks"] == 6
    assert [s["players"] for s in state["sides"]] == [["Ann", "Bob"], ["Cat", "Dan"]]
    assert state["sides"][1]["name"]  # a blank name is made from the players
