"""The deal form's pages: refused deals, corrections through the edit form, the preview.

Forms are filled the way a browser does: the page is fetched, its inputs read back, the
figures typed in, and the whole form posted. Expected figures are worked out by hand from
/work/shared/rules/VARIANTS.md in the comments. The helpers are in _pages_support.py.
"""

from __future__ import annotations

from _pages_support import (
    FIRST_DEAL,
    SINGLES,
    TEAMS,
    api_deal,
    api_game,
    api_state,
    assert_beside,
    assert_side,
    deal_by_form,
    near,
    text,
    values,
)
from game_links import link

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
