"""Scoring one deal, by hand from VARIANTS.md: card counts and values, red threes, going out."""

import pytest

from scorekeeper.rules import CARD_CATEGORIES, PRESETS, Side, ruleset, score_deal

from ._engine_support import lines, teams
from ._scoring_support import E, _b


def test_card_counts_add_up_to_points():
    """Cards entered by count: jokers 50, twos 20, aces 20, 8-K 10, 4-7 5, black threes 5."""
    entry = E(
        books={"clean": 1},
        # 2×50 + 3×20 + 4×20 + 10×10 + 6×5 + 1×5 = 100 + 60 + 80 + 100 + 30 + 5 = 375
        melded_cards={
            "joker": 2,
            "two": 3,
            "ace": 4,
            "eight_to_king": 10,
            "four_to_seven": 6,
            "black_three": 1,
        },
        # 1×50 + 1×20 + 2×5 = 80
        leftover_cards={"joker": 1, "ace": 1, "four_to_seven": 2},
    )
    # A melded black three needs the house rule that allows one (threes are never melded).
    rules = ruleset("classic", {"melded_black_threes": "always"})
    (score, _) = score_deal(rules, 2, teams(2), [entry, E()])
    data = score.breakdown()
    assert data["melded_points"] == 375
    assert data["leftover_points"] == 80
    # 500 + (375 − 80) = 795
    assert lines(score) == _b(500, 0, 0, 295, 0, 0, 795)


CARD_VALUES = {
    "joker": 50,
    "two": 20,
    "ace": 20,
    "eight_to_king": 10,
    "four_to_seven": 5,
    "black_three": 5,
}


@pytest.mark.parametrize("category", CARD_CATEGORIES)
@pytest.mark.parametrize("key", sorted(PRESETS))
def test_each_card_category_value(key, category):
    """Two cards melded and one left over of a category score one card's value."""
    entry = E(melded_cards={category: 2}, leftover_cards={category: 1})
    # Black threes melded at any time, not only as the rule sets allow (tested elsewhere).
    rules = ruleset(key, {"melded_black_threes": "always"})
    (score, _) = score_deal(rules, 4, teams(2), [entry, E()])
    value = CARD_VALUES[category]
    assert (score.melded, score.leftover) == (2 * value, value)
    assert score.cards == value
    assert score.total == value


@pytest.mark.parametrize(
    ("key", "caught", "line"),
    [
        ("classic", 2, -200),  # 2 × −100
        ("club", 2, -1000),  # 2 × −500
        ("family", 2, -1000),  # 2 × −500
        ("casual", 2, -1000),  # 2 × −500
        ("ten-thousand", 2, -600),  # 2 × −300
        ("cutthroat", 2, -600),  # 2 × −300
    ],
)
def test_red_three_caught_penalty(key, caught, line):
    """Each preset's penalty for a red three caught in hand or foot."""
    (score, _) = score_deal(ruleset(key), 4, teams(2), [E(red_threes_caught=caught), E()])
    assert score.red_threes == line
    assert score.total == line


@pytest.mark.parametrize(
    ("key", "books", "bonus"),
    [
        ("classic", {"clean": 2, "dirty": 2, "wild": 1}, 100),
        ("club", {"clean": 2, "dirty": 2}, 100),
        ("family", {"clean": 1, "dirty": 2}, 0),
        ("casual", {"clean": 2, "dirty": 2}, 100),
        ("ten-thousand", {"clean": 3, "dirty": 1, "wild": 1}, 100),
        ("cutthroat", {"clean": 3, "dirty": 1, "wild": 1}, 100),
    ],
)
def test_going_out_bonus_with_the_required_books(key, books, bonus):
    """Exactly the books the preset requires suffice to go out, for its bonus."""
    (score, _) = score_deal(ruleset(key), 5, teams(2), [E(books=books, went_out=True), E()])
    assert score.going_out == bonus


def test_no_going_out_bonus_when_the_stock_ran_out():
    """Nobody went out: no going-out line for anyone."""
    entries = [E(books={"clean": 2, "dirty": 2, "wild": 1}), E(books={"clean": 2, "dirty": 2})]
    scores = score_deal(ruleset("classic"), 5, teams(2), entries)
    assert [s.going_out for s in scores] == [0, 0]
    # 1000 + 600 + 1500 = 3100; 1000 + 600 = 1600
    assert [s.total for s in scores] == [3100, 1600]


def test_casual_wild_book_scores_as_dirty():
    """Casual: a wild book is worth 300, not 1,500."""
    (score, _) = score_deal(ruleset("casual"), 5, teams(2), [E(books={"wild": 2}), E()])
    assert score.books == 600  # 2 × 300


def test_family_clean_sevens_worth_1500():
    """Family: a clean book of sevens is 1,500 where a clean book is 500."""
    (score, _) = score_deal(
        ruleset("family"), 4, teams(2), [E(books={"clean_sevens": 1, "clean": 1}), E()]
    )
    assert score.books == 2000  # 1500 + 500


def test_exact_22_for_a_single_player_side():
    """Casual individuals: one exact-22 pickup for a side of one player is +100."""
    sides = [Side("Ann"), Side("Bob")]
    (score, _) = score_deal(ruleset("casual"), 5, sides, [E(bonuses={"exact_22": 1}), E()])
    assert (score.extras, score.total) == (100, 100)


def test_breakdown_details_are_worded():
    """The details say what each line is made of."""
    entry = E(books={"clean": 2}, red_threes_down=1, went_out=False, melded_points=1250)
    (score, _) = score_deal(ruleset("classic"), 5, teams(2), [entry, E()])
    details = score.breakdown()["details"]
    assert details["books"] == "2 clean × 500"
    assert details["red_threes"] == "1 laid down, 0 caught"
    assert details["cards"] == "1,250 melded − 0 left"
