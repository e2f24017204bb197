"""The numbers a club may change, as the rule card and the house-rules form list them."""

import pytest

from scorekeeper.rules import PRESETS, RulesError, check_setup, knobs, overrides_from, ruleset
from scorekeeper.rules.house import IN_FIVES, Knob, off_the_fives

from ._engine_support import teams

CARDS = [
    Knob("card_values.joker", "Card value: jokers", 50, "Cards"),
    Knob("card_values.two", "Card value: twos", 20, "Cards"),
    Knob("card_values.ace", "Card value: aces", 20, "Cards"),
    Knob("card_values.eight_to_king", "Card value: eights to kings", 10, "Cards"),
    Knob("card_values.four_to_seven", "Card value: fours to sevens", 5, "Cards"),
    Knob("card_values.black_three", "Card value: black threes", 5, "Cards"),
]


def test_classic_rule_card_numbers():
    """Classic's numbers from the rule table, each under its path, label and heading."""
    assert knobs(ruleset("classic")) == [
        *CARDS,
        Knob("book_bonuses.clean", "Clean book bonus", 500, "Books"),
        Knob("book_bonuses.dirty", "Dirty book bonus", 300, "Books"),
        Knob("book_bonuses.wild", "Wild book bonus", 1500, "Books"),
        Knob("max_wilds_in_dirty_book", "Most wild cards in a dirty book", 2, "Books"),
        Knob("red_three_down", "Red three laid down", 100, "Red threes"),
        Knob("red_three_caught", "Red three caught (points lost)", 100, "Red threes"),
        Knob("going_out_bonus", "Going-out bonus", 100, "Going out"),
        Knob("books_to_go_out.clean", "Clean books needed to go out", 2, "Going out"),
        Knob("books_to_go_out.dirty", "Dirty books needed to go out", 2, "Going out"),
        Knob("books_to_go_out.wild", "Wild books needed to go out", 1, "Going out"),
        Knob("opening_minimums.0", "Opening minimum, deal 1", 50, "Minimums"),
        Knob("opening_minimums.1", "Opening minimum, deal 2", 90, "Minimums"),
        Knob("opening_minimums.2", "Opening minimum, deal 3", 120, "Minimums"),
        Knob("opening_minimums.3", "Opening minimum, deal 4", 150, "Minimums"),
        Knob("end_after_deals", "Deals in a game", 4, "Game"),
        Knob("deal_limit", "Most deals a game holds", 100, "Game"),
        Knob("hand_size", "Cards in a hand", 13, "Game"),
        Knob("foot_size", "Cards in a foot", 13, "Game"),
    ]


def test_ten_thousand_rule_card_numbers():
    """Ten-thousand: minimums by running total, a target instead of a number of deals."""
    assert knobs(ruleset("ten-thousand")) == [
        *CARDS,
        Knob("book_bonuses.clean", "Clean book bonus", 500, "Books"),
        Knob("book_bonuses.dirty", "Dirty book bonus", 300, "Books"),
        Knob("book_bonuses.wild", "Wild book bonus", 1500, "Books"),
        Knob("max_wilds_in_dirty_book", "Most wild cards in a dirty book", 3, "Books"),
        Knob("red_three_down", "Red three laid down", 100, "Red threes"),
        Knob("red_three_caught", "Red three caught (points lost)", 300, "Red threes"),
        Knob("going_out_bonus", "Going-out bonus", 100, "Going out"),
        Knob("books_to_go_out.clean", "Clean books needed to go out", 3, "Going out"),
        Knob("books_to_go_out.dirty", "Dirty books needed to go out", 1, "Going out"),
        Knob("books_to_go_out.wild", "Wild books needed to go out", 1, "Going out"),
        Knob("opening_minimums.0", "Opening minimum, total from 0", 50, "Minimums"),
        Knob("opening_minimums.1", "Opening minimum, total from 1,500", 90, "Minimums"),
        Knob("opening_minimums.2", "Opening minimum, total from 3,000", 120, "Minimums"),
        Knob("opening_minimums.3", "Opening minimum, total from 5,000", 150, "Minimums"),
        Knob("target_score", "Target score", 10_000, "Game"),
        Knob("deal_limit", "Most deals a game holds", 100, "Game"),
        Knob("hand_size", "Cards in a hand", 13, "Game"),
        Knob("foot_size", "Cards in a foot", 13, "Game"),
    ]


def test_family_and_casual_rule_card_numbers():
    """Family has no red three to lay down and a wild book needed by none; casual pays exact 22."""
    family = {k.path: k for k in knobs(ruleset("family"))}
    assert "red_three_down" not in family
    assert family["books_to_go_out.wild"] == Knob(
        "books_to_go_out.wild", "Wild books needed to go out", 0, "Going out"
    )
    assert family["book_bonuses.clean_sevens"] == Knob(
        "book_bonuses.clean_sevens", "Clean sevens book bonus", 1500, "Books"
    )
    casual = {k.path: k for k in knobs(ruleset("casual"))}
    assert casual["extra_bonuses.exact_22"] == Knob(
        "extra_bonuses.exact_22", "Bonus: picked up exactly 22 cards", 100, "Extras"
    )
    cutthroat = {k.path: k for k in knobs(ruleset("cutthroat"))}
    assert cutthroat["book_bonuses.black_threes"].label == "Black threes book bonus"


def _stepped(rules, points_step):
    """Each knob with a value one step from its own: points by `points_step`, counts by one.

    A count steps down where more cannot be played: 100 deals is the ceiling, and a book
    needed that the rules do not score is refused (a count of 0 then stays out).
    """
    for knob in knobs(rules):
        if knob.path == "deal_limit" or knob.path.startswith("books_to_go_out."):
            if knob.value:
                yield knob, knob.value - 1
        elif knob.path.partition(".")[0] in IN_FIVES:
            yield knob, knob.value + points_step
        else:
            yield knob, knob.value + 1


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_each_number_changed_takes_effect_alone(key):
    """Any one knob changed through the form: that number changes, and no other."""
    rules = ruleset(key)
    before = {k.path: k.value for k in knobs(rules)}
    for knob, value in _stepped(rules, 5):
        changed = ruleset(key, overrides_from(rules, {knob.path: value}))
        assert {k.path: k.value for k in knobs(changed)} == {**before, knob.path: value}, knob


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_blank_and_unchanged_knobs_change_nothing(key):
    """The form sent back as shown, or left blank: no house rules at all."""
    rules = ruleset(key)
    assert overrides_from(rules, {k.path: k.value for k in knobs(rules)}) == {}
    assert overrides_from(rules, {k.path: None for k in knobs(rules)}) == {}


def test_single_numbers_and_mappings_become_their_overrides():
    """A single number is set by its name, a card value inside its mapping."""
    rules = ruleset("classic")
    assert overrides_from(rules, {"going_out_bonus": 150, "card_values.joker": 60}) == {
        "card_values": {"joker": 60},
        "going_out_bonus": 150,
    }


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_points_off_the_fives_are_named_counts_are_not(key):
    """Each points figure one off a multiple of 5 is refused by path; counts of anything pass."""
    rules = ruleset(key)
    assert off_the_fives(rules) == []
    for knob, value in _stepped(rules, 1):
        head = knob.path.partition(".")[0]
        if head == "card_values":
            # A card value off the fives is refused as soon as it is set.
            with pytest.raises(RulesError, match=f"{knob.path} must be a multiple of 5"):
                ruleset(key, overrides_from(rules, {knob.path: value}))
            continue
        changed = ruleset(key, overrides_from(rules, {knob.path: value}))
        found = off_the_fives(changed)
        if head in IN_FIVES:
            message = f"{knob.label} must be a multiple of 5, as every score is, not {value:,}."
            assert found == [(knob.path, message)]
            (refusal,) = check_setup(changed, 20, teams(2, players=1))
            assert (refusal.field, refusal.figures) == ("rules", ((None, f"rules.{knob.path}"),))
            assert refusal.message == message
        else:
            assert found == [], knob
