"""The JSON API v1 contract for deals: every refused deal, and the figures the decks allow.

Expected figures are worked out by hand from /work/shared/rules/VARIANTS.md, in comments.
A refused request must leave what is saved exactly as it was: each refusal test reads the
game before and after and compares.
"""

from __future__ import annotations

import pytest
from _api_support import assert_errors, deal, find, post_deal, start, state

# ------------------------------------------------------------------------- refused deals

# (ruleset, scores, side, field, words the message must contain)
REFUSALS = [
    pytest.param(
        "classic", [{"red_threes_caught": -1}, {}], 0, "red_threes_caught", ["negative"], id="neg"
    ),
    pytest.param(
        "classic", [{"melded_points": -5}, {}], 0, "melded_points", ["negative"], id="neg-points"
    ),
    pytest.param(
        "classic", [{}, {"books": {"clean": -1}}], 1, "books.clean", ["negative"], id="neg-books"
    ),
    pytest.param(
        "classic", [{"melded_points": 102.5}, {}], 0, "melded_points", ["whole"], id="fraction"
    ),
    pytest.param(
        "classic", [{}, {"books": {"dirty": 1.5}}], 1, "books.dirty", ["whole"], id="frac-books"
    ),
    pytest.param(
        "classic", [{"melded_points": "100"}, {}], 0, "melded_points", ["whole"], id="str-points"
    ),
    pytest.param(
        "classic", [{"books": {"clean": "2"}}, {}], 0, "books.clean", ["whole"], id="str-books"
    ),
    pytest.param(
        "classic", [{"red_threes_down": True}, {}], 0, "red_threes_down", ["whole"], id="bool"
    ),
    pytest.param(
        "classic", [{"went_out": "yes"}, {}], 0, "went_out", ["true or false"], id="str-went-out"
    ),
    pytest.param(
        "classic",
        [{"melded_points": 123}, {}],
        0,
        "melded_points",
        ["123", "multiple of 5"],
        id="points-not-multiple-of-5",
    ),
    pytest.param(
        "family",
        [{}, {"leftover_points": 7}],
        1,
        "leftover_points",
        ["multiple of 5"],
        id="leftover-not-multiple-of-5",
    ),
    pytest.param("club", [{"books": {"wild": 1}}, {}], 0, "books.wild", ["wild"], id="club-wild"),
    pytest.param(
        "family",
        [{"books": {"wild": 1}}, {}],
        0,
        "books.wild",
        ["wild"],
        id="family-wild",
    ),
    pytest.param(
        "classic",
        [{"books": {"clean_sevens": 1}}, {}],
        0,
        "books.clean_sevens",
        ["clean sevens"],
        id="classic-sevens",
    ),
    pytest.param(
        "family",
        [{"red_threes_down": 1}, {}],
        0,
        "red_threes_down",
        ["laid down"],
        id="family-red-three-down",
    ),
    pytest.param(
        "casual",
        [{"red_threes_down": 1}, {}],
        0,
        "red_threes_down",
        ["laid down"],
        id="casual-red-three-down",
    ),
    pytest.param(
        "classic",
        [
            {"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True},
            {"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True},
        ],
        None,
        "went_out",
        ["one side", "Ann & Bob", "Cat & Dan"],
        id="two-went-out",
    ),
    pytest.param(
        "classic",
        [{"books": {"clean": 2, "dirty": 1}, "went_out": True}, {}],
        0,
        "went_out",
        ["1 dirty book", "1 wild book"],
        id="classic-out-without-dirty-and-wild",
    ),
    pytest.param(
        "club",
        [{"books": {"clean": 1, "dirty": 2}, "went_out": True}, {}],
        0,
        "went_out",
        ["1 clean book"],
        id="club-out-without-clean",
    ),
    pytest.param(
        "family",
        [{}, {"books": {"clean": 3, "dirty": 1}, "went_out": True}],
        1,
        "went_out",
        ["1 dirty book"],
        id="family-extra-clean-is-not-dirty",
    ),
    pytest.param(
        "ten-thousand",
        [{"books": {"clean": 5, "dirty": 1}, "went_out": True}, {}],
        0,
        "went_out",
        ["1 wild book"],
        id="ten-thousand-out-without-wild",
    ),
    pytest.param(
        "classic",  # 4 players → 5 decks hold 2 × 5 = 10 red threes
        [{"red_threes_down": 6}, {"red_threes_caught": 5}],
        None,
        "red_threes",
        ["11", "10"],
        id="red-threes-over-2-per-deck",
    ),
    pytest.param(
        "ten-thousand",  # 3 decks hold 6 × 3 = 18 wild cards; 3 wild books need 21
        [{"books": {"wild": 2}}, {"books": {"wild": 1}}],
        None,
        "books",
        ["21", "18"],
        id="wild-cards-over-6-per-deck",
    ),
    pytest.param(
        "classic",  # 5 decks hold 2 × 5 = 10 jokers
        [{"melded_cards": {"joker": 6}}, {"leftover_cards": {"joker": 5}}],
        None,
        "cards.joker",
        ["11", "10"],
        id="jokers-over-2-per-deck",
    ),
    pytest.param(
        "ten-thousand",  # 3 decks hold 590 × 3 = 1,770 card points
        [{"melded_points": 1000}, {"melded_points": 775}],
        None,
        "card_points",
        ["1,775", "1,770"],
        id="card-points-over-590-per-deck",
    ),
    pytest.param(
        "classic",  # 5 decks hold 44 × 5 = 220 naturals; 32 clean books need 224
        [{"books": {"clean": 20}}, {"books": {"clean": 12}}],
        None,
        "books",
        ["224", "220"],
        id="naturals-over-44-per-deck",
    ),
    pytest.param(
        "family",  # 4 decks hold 16 sevens; 3 books of sevens need 21
        [{"books": {"clean_sevens": 2}}, {"books": {"clean_sevens": 1}}],
        None,
        "books.clean_sevens",
        ["21", "16"],
        id="sevens-over-4-per-deck",
    ),
    pytest.param(
        "cutthroat",  # 3 decks hold 6 black threes; a book of them needs 7
        [{"books": {"black_threes": 1}, "went_out": False}, {}],
        None,
        "cards.black_three",
        ["7", "6"],
        id="black-threes-over-2-per-deck",
    ),
    pytest.param(
        "cutthroat",  # open melds count toward the limits: 3 open wild books need 21 of 18
        [{"open_books": {"wild": 2}}, {"open_books": {"wild": 1}}],
        None,
        "books",
        ["21", "18"],
        id="open-wild-books-over-the-decks",
    ),
    pytest.param(
        "cutthroat",  # open-meld card points count toward the 590 × 3 = 1,770 too
        [{"melded_points": 1000}, {"open_books": {"dirty": 1}, "open_book_points": 775}],
        None,
        "card_points",
        ["1,775", "1,770"],
        id="open-book-points-over-590-per-deck",
    ),
    pytest.param(
        "cutthroat",
        [{}, {"open_books": {"dirty": 1}, "open_book_points": 83}],
        1,
        "open_book_points",
        ["multiple of 5"],
        id="open-book-points-not-multiple-of-5",
    ),
    pytest.param(
        "classic",
        [{"melded_points": 10**30}, {}],
        0,
        "melded_points",
        ["far more"],
        id="absurd-figure",
    ),
    pytest.param("classic", [{}], None, "scores", ["2"], id="one-entry-for-two-sides"),
    pytest.param("classic", [{}, {}, {}], None, "scores", ["2"], id="three-entries"),
    pytest.param("classic", {"a": {}}, None, "scores", [], id="scores-not-a-list"),
    pytest.param("classic", None, None, "scores", [], id="scores-missing"),
    pytest.param("classic", [{"points": 5}, {}], 0, "points", ["points"], id="unknown-figure"),
    pytest.param(
        "classic", [{"books": {"golden": 1}}, {}], 0, "books.golden", ["golden"], id="unknown-book"
    ),
    pytest.param(
        "classic",
        [{"melded_points": 100, "melded_cards": {"ace": 5}}, {}],
        0,
        "melded_cards",
        ["not both"],
        id="points-and-cards",
    ),
    pytest.param(
        "ten-thousand",
        [{"open_books": {"dirty": 1}}, {}],
        0,
        "open_books",
        ["open"],
        id="open-books-outside-cutthroat",
    ),
    pytest.param(
        "classic",
        [{"bonuses": {"exact_22": 1}}, {}],
        0,
        "bonuses.exact_22",
        ["exact_22"],
        id="exact-22-outside-casual",
    ),
    pytest.param(
        "casual",  # a side of 2 players: the bonus counts at most twice
        [{"bonuses": {"exact_22": 3}}, {}],
        0,
        "bonuses.exact_22",
        ["3", "2"],
        id="exact-22-more-than-players",
    ),
]


@pytest.mark.parametrize(("ruleset", "scores", "side", "field", "words"), REFUSALS)
def test_refused_deal_is_422_and_saves_nothing(client, ruleset, scores, side, field, words):
    """Each refusal names the side and figure, explains itself, and keeps what was saved."""
    game = start(client, ruleset)
    deal(client, game, {"books": {"clean": 1}, "melded_points": 100}, {"melded_points": 50})
    before = state(client, game)
    body = {} if scores is None else {"scores": scores}
    errors = assert_errors(post_deal(client, game, json=body))
    message = find(errors, side, field)["message"]
    for word in words:
        assert word in message, (word, message)
    assert state(client, game) == before


@pytest.mark.parametrize(
    ("ruleset", "decks", "scores"),
    [
        pytest.param(
            "classic", 5, [{"red_threes_down": 5}, {"red_threes_caught": 5}], id="10-red-threes"
        ),
        pytest.param(
            "classic",
            5,
            [{"melded_cards": {"joker": 6}}, {"leftover_cards": {"joker": 4}}],
            id="10-jokers",
        ),
        pytest.param(
            "classic", 5, [{"melded_points": 2000}, {"leftover_points": 950}], id="2950-points"
        ),
        pytest.param(
            "classic",
            5,
            [{"books": {"wild": 4}}, {"books": {"dirty": 2}}],  # 4×7 + 2×1 = 30 wild cards
            id="30-wild-cards",
        ),
        pytest.param(
            "classic",
            5,
            [{"books": {"clean": 30}}, {"books": {"dirty": 2}}],  # 30×7 + 2×5 = 220 naturals
            id="220-naturals",
        ),
        pytest.param(
            "cutthroat",
            4,
            [
                {
                    "books": {"clean": 2, "black_threes": 1, "dirty": 1, "wild": 1},
                    "went_out": True,
                },
                {"leftover_cards": {"black_three": 1}},  # 7 + 1 = 8 black threes
            ],
            id="8-black-threes",
        ),
    ],
)
def test_figures_at_the_physical_limit_are_accepted(client, ruleset, decks, scores):
    """The limits are what the decks hold: reaching them exactly is an honest entry."""
    game = start(client, ruleset, decks=decks)
    answer = post_deal(client, game, json={"scores": scores})
    assert answer.status_code == 201, answer.get_json()


def test_black_threes_book_without_going_out_is_refused(client):
    """Cutthroat: a side that did not go out cannot hold a closed book of black threes."""
    game = start(client, "cutthroat", decks=4)
    before = state(client, game)
    answer = post_deal(client, game, json={"scores": [{"books": {"black_threes": 1}}, {}]})
    errors = assert_errors(answer)
    assert any(e["side"] == 0 and "black_threes" in (e["field"] or "") for e in errors)
    assert state(client, game) == before


def test_every_figure_of_every_side_is_named_at_once(client):
    """Several bad figures are all reported, each with its side and field."""
    game = start(client, "classic")
    errors = assert_errors(
        post_deal(client, game, json={"scores": [{"melded_points": -5}, {"books": {"dirty": "x"}}]})
    )
    find(errors, 0, "melded_points")
    find(errors, 1, "books.dirty")
    assert state(client, game)["deals"] == []
