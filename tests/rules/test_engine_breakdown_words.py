"""A deal's breakdown as the table reads it: every line's words, and a side's line read back."""

import pytest

from scorekeeper.rules import DealEntry, Side, check_deal, ruleset, score_deal, score_side
from scorekeeper.rules.lines import line_summary

from ._engine_support import NOTHING, lines, teams

E = DealEntry

# Cutthroat, worked out by hand from VARIANTS.md. Us go out: books 3×500 + 300 + 1,500 = 3,300;
# 2 red threes laid 200; going out 100; cards 3 jokers + 4 aces = 230, a two left 20: 210;
# Them's open books move across: 500 + 300 + 190 card points = 990. Total 4,800.
US = E(
    books={"clean": 3, "dirty": 1, "wild": 1},
    went_out=True,
    red_threes_down=2,
    melded_cards={"joker": 3, "ace": 4},
    leftover_cards={"two": 1},
)
# Them: 500 − 300 + (150 − 80) = 270; their own open books score nothing for them.
THEM = E(
    books={"clean": 1},
    red_threes_caught=1,
    melded_points=150,
    leftover_points=80,
    open_books={"clean": 1, "dirty": 1},
    open_book_points=190,
)
SIDES = [Side("Us"), Side("Them")]


def test_cutthroat_breakdown_in_words():
    """Each line of both sides, with the words beside it, the open books named by their side."""
    us, them = score_deal(ruleset("cutthroat"), 5, SIDES, [US, THEM])
    assert us.breakdown() == {
        "books": 3300,
        "red_threes": 200,
        "going_out": 100,
        "cards": 210,
        "extras": 0,
        "moved": 990,
        "total": 4800,
        "melded_points": 230,
        "leftover_points": 20,
        "details": {
            "books": "3 clean × 500, 1 dirty × 300, 1 wild × 1,500",
            "red_threes": "2 laid down, 0 caught",
            "going_out": "went out",
            "cards": "230 melded − 20 left",
            "extras": "",
            "moved": "Open books of Them: 1 clean × 500, 1 dirty × 300 + 190 card points",
        },
    }
    assert them.breakdown()["details"] == {
        "books": "1 clean × 500",
        "red_threes": "0 laid down, 1 caught",
        "going_out": "",
        "cards": "150 melded − 80 left",
        "extras": "",
        "moved": "",
    }
    assert lines(them) == {
        "books": 500,
        "red_threes": -300,
        "going_out": 0,
        "cards": 70,
        "extras": 0,
        "moved": 0,
        "total": 270,
    }


def test_casual_extras_in_words():
    """Casual: two exact-22 pickups are 200, worded by what they were paid for."""
    (score, _) = score_deal(ruleset("casual"), 5, teams(2), [E(bonuses={"exact_22": 2}), NOTHING])
    assert score.breakdown()["details"] == {
        "books": "",
        "red_threes": "",
        "going_out": "",
        "cards": "0 melded − 0 left",
        "extras": "2 × picked up exactly 22 cards",
        "moved": "",
    }
    assert (score.extras, score.total) == (200, 200)


def test_nothing_moves_outside_cutthroat_even_between_two_sides():
    """Two sides under ten-thousand: open books are refused, and nothing moves across."""
    entries = [E(books={"clean": 1}), E(books={"dirty": 1})]
    scores = score_deal(ruleset("ten-thousand"), 3, SIDES, entries)
    assert [(s.moved, s.breakdown()["details"]["moved"]) for s in scores] == [(0, ""), (0, "")]


def test_red_threes_worth_nothing_by_house_rule():
    """A house rule laying red threes down for 0: they are allowed and score 0, not 1 each."""
    rules = ruleset("classic", {"red_three_down": 0})
    entries = [E(red_threes_down=2), NOTHING]
    assert check_deal(rules, 3, teams(2), entries) == []
    (score, _) = score_deal(rules, 3, teams(2), entries)
    assert (score.red_threes, score.total) == (0, 0)


# --- a line read back before it is checked --------------------------------------------------


@pytest.mark.parametrize(
    ("key", "entry", "said"),
    [
        pytest.param(
            "cutthroat",
            US,
            "3 clean books, 1 dirty book, 1 wild book · 2 red threes down · went out"
            " · 230 melded − 20 left = +3,810",
            id="cards counted",
        ),
        pytest.param(
            "cutthroat",
            THEM,
            "1 clean book · 1 red three caught · 150 melded − 80 left"
            " · left open: 1 clean book, 1 dirty book, 190 points = +270",
            id="open books",
        ),
        pytest.param(
            "cutthroat",
            E(open_book_points=45),
            "no books · 0 melded − 0 left · left open: no books, 45 points = +0",
            id="open points alone",
        ),
        pytest.param(
            "classic",
            E(red_threes_down=1, red_threes_caught=1),
            "no books · 1 red three down · 1 red three caught · 0 melded − 0 left = +0",
            id="one of each",
        ),
        pytest.param(
            "casual",
            E(bonuses={"exact_22": 1}, leftover_points=35),
            "no books · 0 melded − 35 left · 1 × picked up exactly 22 cards = +65",
            id="extras",
        ),
    ],
)
def test_a_line_read_back(key, entry, said):
    """A side's line in one sentence, each figure in its words, what it scores on its own."""
    assert line_summary(ruleset(key), entry) == said


@pytest.mark.parametrize(
    ("key", "entry", "said"),
    [
        pytest.param(
            "club", E(books={"wild": 1}), "1 wild book · 0 melded − 0 left = +0", id="book"
        ),
        pytest.param(
            "family",
            E(red_threes_down=2),
            "no books · 2 red threes down · 0 melded − 0 left = +0",
            id="red three",
        ),
        pytest.param(
            "classic",
            E(bonuses={"exact_22": 1}),
            "no books · 0 melded − 0 left · 1 × picked up exactly 22 cards = +0",
            id="bonus",
        ),
    ],
)
def test_what_the_rules_do_not_score_scores_nothing(key, entry, said):
    """Read back before its checks, a figure these rules have no value for scores 0."""
    assert line_summary(ruleset(key), entry) == said


def test_an_unscored_book_is_worded_at_nothing():
    """A book kind the rules lack, scored unchecked: 0 points, and its detail says × 0."""
    score = score_side(ruleset("club"), E(books={"wild": 1}, open_books={}))
    assert (score.books, score.breakdown()["details"]["books"]) == (0, "1 wild × 0")
    moved = score_side(ruleset("cutthroat"), NOTHING, E(open_books={"clean_sevens": 1}), "Them")
    assert moved.moved == 0
