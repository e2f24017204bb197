"""The HTML pages: new game, deal entry and correction, scoreboard, preview, rule cards.

Forms are filled the way a browser does: the page is fetched, its inputs read back, the
figures typed in, and the whole form posted. Expected figures are worked out by hand from
/work/shared/rules/VARIANTS.md in the comments.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from game_links import key as game_key
from game_links import link, secret_of
from page_reader import read_page
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game

# ------------------------------------------------------------------------- helpers


def text(response) -> str:
    """A page's visible text, whitespace collapsed."""
    return " ".join(" ".join(read_page(response.get_data(as_text=True)).words).split())


def values(response) -> dict[str, str]:
    """What the page's form would post as it stands."""
    return read_page(response.get_data(as_text=True)).values


def number(n: int) -> str:
    """A pattern for a figure as pages show it: 3,800 or 3800, −150 (a true minus), +50 or 50."""
    digits = f"{abs(n):,}".replace(",", ",?")
    sign = "−" if n < 0 else r"\+?"
    return rf"(?<![\d,]){sign}{digits}(?![\d,])"


def near(page: str, label: str, n: int, gap: int = 40, *, numbers_between: bool = False) -> bool:
    """Whether the label is followed closely by the figure (by default with no number between)."""
    between = "." if numbers_between else r"[^\d]"
    return re.search(rf"{re.escape(label)}{between}{{0,{gap}}}?{number(n)}", page) is not None


def assert_side(page: str, name: str, total: int, needs: int) -> None:
    """The scoreboard shows the side's total and what it needs to open."""
    pattern = (
        rf"{re.escape(name)}\b(?:(?!needs).){{0,80}}?{number(total)}\s*needs\s+{needs}\s+to open"
    )
    assert re.search(pattern, page), f"{name}: {total:,}, needs {needs} — not in: {page}"


def assert_beside(response, field: str, words: str) -> None:
    """The message is shown right after the field's input, before any other input."""
    html = response.get_data(as_text=True)
    marker = f'name="{field}"'
    at = html.rfind(marker)
    assert at >= 0, f"no input {field}"
    message = html.find(words, at)
    assert message >= 0, f"{words!r} not after {field}"
    assert "<input" not in html[at + len(marker) : message], f"{words!r} is not beside {field}"


def game_id_from(client, location: str) -> int:
    """The game a redirect goes to: its private link `/t/<secret>`, looked up to the game's id."""
    found = re.search(r"/t/([A-Za-z0-9_-]{22})(?:#.*)?$", location)
    assert found, location
    with client.application.app_context():
        game_id = db.session.execute(
            select(Game.id).where(Game.secret == found.group(1))
        ).scalar_one_or_none()
    assert game_id is not None, f"no game has the link {location}"
    return game_id


def game_count(client) -> int:
    with client.application.app_context():
        return db.session.execute(select(func.count()).select_from(Game)).scalar_one()


def api_state(client, game_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/v1/games/{game_id}", headers=game_key(client, game_id))
    assert answer.status_code == 200
    return answer.get_json()


def api_game(client, ruleset: str, sides: list[tuple[str, list[str]]], **more: Any) -> int:
    """A game started through the API (for tests about other pages)."""
    answer = client.post(
        "/api/v1/games",
        json={"ruleset": ruleset, "sides": [{"name": n, "players": p} for n, p in sides], **more},
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def api_deal(client, game_id: int, *scores: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(
        f"/api/v1/games/{game_id}/deals",
        json={"scores": list(scores)},
        headers=game_key(client, game_id),
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


TEAMS = [("North", ["Ann", "Bob"]), ("South", ["Cat", "Dan"])]
SINGLES = [("Ann", ["Ann"]), ("Cat", ["Cat"])]


def start_by_form(client, ruleset: str, sides: list[tuple[str, str]], **rules: str) -> int:
    """Fill in the new-game form as fetched (prefilled house rules included) and post it."""
    form = client.get(f"/games/new?ruleset={ruleset}")
    assert form.status_code == 200
    data = values(form)
    assert data.get("ruleset") == ruleset
    for index, (name, players) in enumerate(sides):
        data[f"side{index}_name"] = name
        if players:  # individual rule sets ask for names only
            data[f"side{index}_players"] = players
    data.update(rules)
    answer = client.post("/games/new", data=data)
    assert answer.status_code == 302, text(answer)
    return game_id_from(client, answer.headers["Location"])


def deal_by_form(client, game_id: int, figures: dict[str, str], went_out: str = ""):
    """Fill in the deal form as fetched and post it; the response, not followed."""
    form = client.get(f"{link(client, game_id)}/deals/new")
    assert form.status_code == 200
    data = values(form)
    missing = set(figures) - set(read_page(form.get_data(as_text=True)).inputs)
    assert not missing, f"the deal form has no {missing}"
    data.update(figures)
    data["went_out"] = went_out
    return client.post(f"{link(client, game_id)}/deals/new", data=data)


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


# ------------------------------------------------------------------------- refused deals


def test_refused_deal_keeps_every_typed_value(client):
    """An engine refusal: 422, the message beside the field, every figure kept, nothing saved."""
    game_id = api_game(client, "classic", TEAMS)
    figures = {
        "s0-books-clean": "2",
        "s0-books-dirty": "2",
        "s0-books-wild": "1",
        "s0-melded_points": "500",
        "s1-melded_points": "123",
        "s1-leftover_points": "40",
        "s1-melded_cards-joker": "",
    }
    page = deal_by_form(client, game_id, figures, went_out="0")
    assert page.status_code == 422
    assert "not a multiple of 5" in text(page)
    assert_beside(page, "s1-melded_points", "not a multiple of 5")
    kept = values(page)
    for field, value in figures.items():
        assert kept.get(field, "") == value, field
    assert kept.get("went_out") == "0"
    assert api_state(client, game_id)["deals"] == []


def test_refused_figure_that_is_not_a_number(client):
    """A figure that is not a whole number is refused beside its field, as typed."""
    game_id = api_game(client, "club", SINGLES)
    page = deal_by_form(
        client, game_id, {"s0-books-clean": "1", "s1-leftover_points": "12a"}, went_out=""
    )
    assert page.status_code == 422
    assert_beside(page, "s1-leftover_points", "whole number")
    kept = values(page)
    assert kept["s1-leftover_points"] == "12a"
    assert kept["s0-books-clean"] == "1"
    assert api_state(client, game_id)["deals"] == []


def test_points_and_counted_cards_together_are_refused(client):
    game_id = api_game(client, "club", SINGLES)
    figures = {"s0-melded_points": "100", "s0-melded_cards-ace": "5"}
    page = deal_by_form(client, game_id, figures)
    assert page.status_code == 422
    assert "not both" in text(page)
    kept = values(page)
    assert (kept["s0-melded_points"], kept["s0-melded_cards-ace"]) == ("100", "5")
    assert api_state(client, game_id)["deals"] == []


def test_going_out_without_the_books_is_refused_at_who_went_out(client):
    """The message names the missing books, beside the went-out choice."""
    game_id = api_game(client, "classic", TEAMS)
    page = deal_by_form(
        client, game_id, {"s0-books-clean": "2", "s0-books-dirty": "1"}, went_out="0"
    )
    assert page.status_code == 422
    assert_beside(page, "went_out", "missing")
    words = text(page)
    assert "1 dirty book" in words and "1 wild book" in words
    assert values(page)["s0-books-dirty"] == "1"
    assert api_state(client, game_id)["deals"] == []


def test_deal_wide_refusal_is_listed_for_the_whole_deal(client):
    """Over the decks' red threes (5 decks hold 10; 6 + 5 = 11): listed, nothing saved."""
    game_id = api_game(client, "classic", TEAMS)
    page = deal_by_form(
        client, game_id, {"s0-red_threes_down": "6", "s1-red_threes_caught": "5"}, went_out=""
    )
    assert page.status_code == 422
    words = text(page)
    assert "11 red threes" in words
    assert values(page)["s0-red_threes_down"] == "6"
    assert api_state(client, game_id)["deals"] == []


def test_card_count_fields_add_up_the_points(client):
    """Counting cards instead of points: the app adds them up with the card values."""
    game_id = api_game(client, "club", SINGLES)
    saved = deal_by_form(
        client,
        game_id,
        {
            "s0-books-dirty": "1",
            "s0-melded_cards-joker": "1",
            "s0-melded_cards-two": "2",
            "s0-melded_cards-ace": "3",
            "s0-melded_cards-eight_to_king": "4",
            "s0-melded_cards-four_to_seven": "6",
            "s0-leftover_cards-ace": "1",
            "s0-leftover_cards-four_to_seven": "2",
            "s1-leftover_cards-joker": "1",
        },
    )
    assert saved.status_code == 302, text(saved)
    # melded 50 + 2×20 + 3×20 + 4×10 + 6×5 = 220; left 20 + 2×5 = 30 → cards 190;
    # with the dirty book 300 → 490. Cat: a joker left → −50.
    board = text(client.get(link(client, game_id)))
    assert_side(board, "Ann", 490, 90)
    assert_side(board, "Cat", -50, 90)
    scores = api_state(client, game_id)["deals"][0]["scores"]
    assert [s["breakdown"]["cards"] for s in scores] == [190, -50]
    # The correction form shows the counts again, not points.
    data = values(client.get(f"{link(client, game_id)}/deals/1/edit"))
    assert data["s0-melded_cards-ace"] == "3"
    assert data["s0-leftover_cards-four_to_seven"] == "2"
    assert data["s1-leftover_cards-joker"] == "1"
    assert data["s0-melded_points"] == ""
    assert data["went_out"] == ""


def test_melded_below_the_minimum_is_saved_with_a_warning(client):
    """40 melded when deal 1 needs 50: not refused, but the deal says to check it."""
    game_id = api_game(client, "classic", TEAMS)
    preview = client.post(
        f"{link(client, game_id)}/deals/preview", data={"s0-melded_points": "40", "went_out": ""}
    )
    assert "below the 50 needed to open" in text(preview)
    saved = deal_by_form(client, game_id, {"s0-melded_points": "40"})
    assert saved.status_code == 302, text(saved)
    board = text(client.get(link(client, game_id)))
    assert_side(board, "North", 40, 90)
    assert "below the 50 needed to open" in board


# ------------------------------------------------------------------------- corrections

FIRST_DEAL = (
    {"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True, "melded_points": 500},
    {"melded_points": 200},
)


def test_edit_form_is_filled_in_and_corrects_the_totals(client):
    """The edit form shows the saved figures; saving a change recomputes later totals."""
    game_id = api_game(client, "classic", TEAMS)
    api_deal(client, game_id, *FIRST_DEAL)  # 3100 + 100 + 500 = 3700; 200
    api_deal(client, game_id, {"melded_points": 100}, {"books": {"clean": 1}})  # 3800; 700
    form = client.get(f"{link(client, game_id)}/deals/1/edit")
    assert form.status_code == 200
    data = values(form)
    assert data["s0-books-clean"] == "2"
    assert data["s0-books-wild"] == "1"
    assert data["s0-melded_points"] == "500"
    assert data["s1-melded_points"] == "200"
    assert data["went_out"] == "0"
    assert data["version"] == "1"

    data["s1-melded_points"] = "400"
    saved = client.post(f"{link(client, game_id)}/deals/1/edit", data=data)
    assert saved.status_code == 302, text(saved)
    board = text(client.get(saved.headers["Location"]))
    # South: 400 + 500 = 900 after deal 2; North unchanged at 3,800; deal 3 needs 120
    assert_side(board, "North", 3800, 120)
    assert_side(board, "South", 900, 120)
    state = api_state(client, game_id)
    assert [d["version"] for d in state["deals"]] == [2, 1]

    # The same page posted again is a correction of version 1, which is gone now.
    data["s1-melded_points"] = "600"
    stale = client.post(f"{link(client, game_id)}/deals/1/edit", data=data)
    assert stale.status_code == 409
    assert "changed" in text(stale)
    assert values(stale)["s1-melded_points"] == "600"
    assert api_state(client, game_id) == state


def test_edit_form_refusal_saves_nothing(client):
    game_id = api_game(client, "classic", TEAMS)
    api_deal(client, game_id, *FIRST_DEAL)
    before = api_state(client, game_id)
    data = values(client.get(f"{link(client, game_id)}/deals/1/edit"))
    data["s0-books-wild"] = "0"  # no wild book left, yet still went out
    page = client.post(f"{link(client, game_id)}/deals/1/edit", data=data)
    assert page.status_code == 422
    assert "1 wild book" in text(page)
    assert api_state(client, game_id) == before


def test_edit_unknown_deal_is_404(client):
    game_id = api_game(client, "classic", TEAMS)
    assert client.get(f"{link(client, game_id)}/deals/1/edit").status_code == 404


# ------------------------------------------------------------------------- preview


def test_preview_shows_the_breakdown_without_saving(client):
    game_id = api_game(client, "classic", TEAMS)
    answer = client.post(
        f"{link(client, game_id)}/deals/preview",
        data={
            "s0-books-clean": "2",
            "s0-books-dirty": "2",
            "s0-books-wild": "1",
            "s0-red_threes_down": "1",
            "s0-melded_points": "500",
            "s1-red_threes_caught": "1",
            "s1-melded_points": "200",
            "s1-leftover_points": "150",
            "went_out": "0",
        },
    )
    assert answer.status_code == 200
    words = text(answer)
    # the line's detail (2 clean × 500, ...) comes between the label and its figure
    assert near(words, "Books", 3100, gap=80, numbers_between=True)  # 2×500 + 2×300 + 1500
    assert near(words, "Going out", 100, gap=20)
    assert near(words, "Cards", 500, gap=40, numbers_between=True)  # 500 − 0
    assert near(words, "Cards", 50, gap=40, numbers_between=True)  # 200 − 150
    assert near(words, "Deal total", 3800, gap=5)  # 3100 + 100 + 100 + 500
    assert near(words, "Deal total", -50, gap=5)  # −100 + (200 − 150)
    assert "<html" not in answer.get_data(as_text=True).lower()  # a fragment
    assert api_state(client, game_id)["deals"] == []


def test_preview_shows_refusals(client):
    game_id = api_game(client, "family", TEAMS)
    answer = client.post(
        f"{link(client, game_id)}/deals/preview",
        data={"s0-melded_points": "123", "s1-books-clean": "x", "went_out": ""},
    )
    words = text(answer)
    assert "whole number" in words or "multiple of 5" in words
    answer = client.post(
        f"{link(client, game_id)}/deals/preview",
        data={"s0-books-clean": "1", "s0-books-dirty": "1", "went_out": "0"},
    )
    assert "1 dirty book" in text(answer)
    assert api_state(client, game_id)["deals"] == []


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


# ------------------------------------------------------------------------- the game's end


def finish_club(client) -> int:
    game_id = api_game(client, "club", SINGLES)
    for _ in range(3):
        api_deal(client, game_id, {"books": {"clean": 1}}, {})
    api_deal(client, game_id, {}, {"books": {"dirty": 1}})  # Ann 1,500, Cat 300
    return game_id


def test_finished_game_refuses_a_new_deal_with_a_message(client):
    game_id = finish_club(client)
    before = api_state(client, game_id)
    assert before["finished"] is True
    answer = client.get(f"{link(client, game_id)}/deals/new")
    assert answer.status_code == 302
    assert game_id_from(client, answer.headers["Location"]) == game_id
    assert "game is over" in text(client.get(answer.headers["Location"])).lower()
    posted = client.post(
        f"{link(client, game_id)}/deals/new", data={"s0-books-clean": "1", "went_out": ""}
    )
    assert posted.status_code == 302
    assert api_state(client, game_id) == before


def test_scoreboard_shows_the_winner(client):
    game_id = finish_club(client)
    board = text(client.get(link(client, game_id)))
    assert "Game over" in board
    assert re.search(r"Winner: Ann ?, 1,500", board), board  # 3 × 500 against 300
    assert "Enter deal" not in board


def test_scoreboard_shows_a_shared_win(client):
    game_id = api_game(client, "classic", TEAMS)
    for _ in range(4):
        api_deal(client, game_id, {"books": {"clean": 1}}, {"books": {"clean": 1}})
    board = text(client.get(link(client, game_id)))
    assert re.search(r"Shared win: North and South ?, 2,000 each", board), board


def test_scoreboard_lists_deals_as_details(client):
    game_id = api_game(client, "classic", TEAMS)
    api_deal(client, game_id, *FIRST_DEAL)
    html = client.get(link(client, game_id)).get_data(as_text=True)
    assert "<details" in html
    words = text(client.get(link(client, game_id)))
    assert near(words, "Deal total", 3700, gap=5)  # 3100 + 100 + 500
    assert f"{link(client, game_id)}/deals/1/edit" in html


def home_words_and_html(client) -> tuple[str, str, str]:
    """The home page's text before and after "recently finished", and its HTML."""
    page = client.get("/")
    assert page.status_code == 200
    words = text(page)
    split = re.search(r"recently finished", words, re.IGNORECASE)
    assert split, words
    return words[: split.start()], words[split.end() :], page.get_data(as_text=True)


def test_home_lists_games_in_progress_and_finished(app, client):
    """This phone's games: one it started, one it opened through its link; no other phone's."""
    playing = start_by_form(client, "classic", [("Owls", "Ann, Bob"), ("Larks", "Cat, Dan")])
    finished = finish_club(client)  # started through the API: this phone opens its link
    assert client.get(link(client, finished)).status_code == 200
    in_progress, done, html = home_words_and_html(client)
    assert "Owls" in in_progress and "Owls" not in done
    assert "Ann" in done and "1,500" in done
    assert link(client, playing) in html and link(client, finished) in html

    # Another phone, which neither started nor opened them, is shown neither game.
    other = app.test_client()
    in_progress, done, html = home_words_and_html(other)
    assert "No game in progress on this phone" in in_progress
    assert "No finished game on this phone" in done
    for name in ("Owls", "Larks", "Ann", "Cat"):
        assert not re.search(rf"\b{name}\b", in_progress + done), name
    assert "1,500" not in done
    assert secret_of(app, playing) not in html and secret_of(app, finished) not in html
    # Knowing a game's id is not enough either: its old address opens nothing.
    assert other.get(f"/games/{playing}").status_code == 404
    assert "Owls" not in home_words_and_html(other)[0]


def test_forgetting_my_games_empties_the_home_list(client):
    """The button to forget this phone's games empties its list; each game opens by its link."""
    game_id = start_by_form(client, "classic", [("Owls", "Ann, Bob"), ("Larks", "Cat, Dan")])
    assert "Owls" in home_words_and_html(client)[0]
    forgot = client.post("/my-games/forget")
    assert forgot.status_code == 302
    in_progress, done, html = home_words_and_html(client)
    assert "Owls" not in in_progress + done
    assert link(client, game_id) not in html
    assert "Owls" in text(client.get(link(client, game_id)))  # the game itself stays
    assert "Owls" in home_words_and_html(client)[0]  # and, opened again, is listed again


# ------------------------------------------------------------------------- 404s, escaping


# A link of the right shape that no game has, and one of the wrong shape.
NO_SUCH_LINK = "/t/" + "A" * 22


@pytest.mark.parametrize(
    "path",
    [
        NO_SUCH_LINK,
        f"{NO_SUCH_LINK}/deals/new",
        f"{NO_SUCH_LINK}/deals/1/edit",
        f"{NO_SUCH_LINK}/rules",
        "/t/not-a-link",
        "/rules/poker",
    ],
)
def test_unknown_pages_are_404_pages(client, path):
    api_game(client, "classic", TEAMS)  # a game exists; these paths still open nothing
    page = client.get(path)
    assert page.status_code == 404
    assert page.mimetype == "text/html"
    assert "Traceback" not in page.get_data(as_text=True)
    assert "Not found" in text(page)


@pytest.mark.parametrize("path", ["/games/{id}", "/games/{id}/deals/new", "/games/{id}/rules"])
@pytest.mark.parametrize("game", ["existing", "missing"])
def test_old_game_addresses_are_404_pages_that_point_to_the_links(client, path, game):
    """Addresses by id, from before private links: the same 404 whether or not the game exists."""
    game_id = api_game(client, "classic", [("Owls", ["Ann", "Bob"]), ("Larks", ["Cat", "Dan"])])
    page = client.get(path.format(id=game_id if game == "existing" else 999))
    assert page.status_code == 404
    assert page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "Traceback" not in html
    assert "Games now open with their private link" in text(page)
    assert "Owls" not in html and "Larks" not in html
    assert secret_of(client, game_id) not in html


def test_names_with_html_are_escaped(client):
    """A side's name is shown as typed, never run as markup."""
    evil = "<script>alert(1)</script>"
    game_id = start_by_form(client, "classic", [(evil, "Ann, Bob"), ("<b>South</b>", "Cat, Dan")])
    pages = {
        "scoreboard": client.get(link(client, game_id)),
        "deal form": client.get(f"{link(client, game_id)}/deals/new"),
        "home": client.get("/"),
        "refused deal": deal_by_form(client, game_id, {"s0-melded_points": "7"}),
    }
    for what, page in pages.items():
        html = page.get_data(as_text=True)
        assert evil not in html, what
        assert "<b>South</b>" not in html, what
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, what
        assert evil in text(page), what


def test_the_winner_reads_right_with_any_side_name(client):
    """A player, a team, or a side called "Us": "Winner: Us, 200", never "Us win"."""
    for ruleset, sides, said in (
        ("club", [{"name": "Ann"}, {"name": "Bob"}], "Winner: <b>Ann</b>, 200</p>"),
        (
            "classic",
            [{"name": "Ann & Bob", "players": ["Ann", "Bob"]}, {"name": "Cat & Dan"}],
            "Winner: <b>Ann &amp; Bob</b>, 200</p>",
        ),
        (
            "classic",
            [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them"}],
            "Winner: <b>Us</b>, 200</p>",
        ),
    ):
        game = client.post("/api/v1/games", json={"ruleset": ruleset, "sides": sides}).json
        deal = {"scores": [{"melded_points": 50}, {}]}
        header = {"X-Game-Key": game["key"]}
        for _ in range(4):
            answer = client.post(f"/api/v1/games/{game['id']}/deals", json=deal, headers=header)
            assert answer.status_code == 201
        board = " ".join(client.get(game["url"]).get_data(as_text=True).split())
        assert said in board, board
