"""House rules on top of a preset, and the checks a game's setup must pass."""

import pytest

from scorekeeper.rules import (
    PRESETS,
    DealEntry,
    RulesError,
    Side,
    check_deal,
    check_setup,
    overrides_from,
    play,
    ruleset,
    score_deal,
)

from ._engine_support import NOTHING, clean, teams

E = DealEntry


# --- a changed number takes effect ----------------------------------------------------------


def test_going_out_bonus_changed():
    """Classic with going out worth 250."""
    rules = ruleset("classic", {"going_out_bonus": 250})
    entry = E(books={"clean": 2, "dirty": 2, "wild": 1}, went_out=True)
    (score, _) = score_deal(rules, 5, teams(2), [entry, NOTHING])
    assert score.going_out == 250
    assert score.total == 3350  # 1000 + 600 + 1500 + 250


def test_book_bonus_changed():
    """A club's wild book at 2,000 and dirty at 250."""
    rules = ruleset("ten-thousand", {"book_bonuses": {"wild": 2000, "dirty": 250}})
    (score, _) = score_deal(rules, 3, teams(2), [E(books={"wild": 1, "dirty": 2}), NOTHING])
    assert score.books == 2500  # 2000 + 2 × 250
    assert rules.book_bonuses["clean"] == 500  # untouched


def test_red_three_values_changed():
    """Red threes laid at 200 and caught at −400."""
    rules = ruleset("classic", {"red_three_down": 200, "red_three_caught": 400})
    entries = [E(red_threes_down=2), E(red_threes_caught=1)]
    scores = score_deal(rules, 3, teams(2), entries)
    assert [s.red_threes for s in scores] == [400, -400]


def test_card_value_changed():
    """Jokers at 100: a counted joker scores 100."""
    rules = ruleset("club", {"card_values": {"joker": 100}})
    (score, _) = score_deal(rules, 2, teams(2), [E(melded_cards={"joker": 1, "ace": 1}), NOTHING])
    assert score.cards == 120  # 100 + 20


def test_card_points_limit_follows_changed_card_values():
    """Jokers at 100: one deck holds 590 + 2 × 50 = 690 card points, not 590."""
    rules = ruleset("classic", {"card_values": {"joker": 100}})
    assert check_deal(rules, 1, teams(2), [E(melded_points=690), NOTHING]) == []
    (refusal,) = check_deal(rules, 1, teams(2), [E(melded_points=695), NOTHING])
    assert refusal.field == "card_points"
    assert "1 deck holds 690" in refusal.message


def test_exact_22_bonus_changed_and_removed():
    """Casual's exact-22 bonus at 150; removed with null it is refused."""
    more = ruleset("casual", {"extra_bonuses": {"exact_22": 150}})
    (score, _) = score_deal(more, 5, teams(2), [E(bonuses={"exact_22": 2}), NOTHING])
    assert score.extras == 300
    gone = ruleset("casual", {"extra_bonuses": {"exact_22": None}})
    (refusal,) = check_deal(gone, 5, teams(2), [E(bonuses={"exact_22": 1}), NOTHING])
    assert refusal.field == "bonuses.exact_22"


def test_opening_minimums_as_a_plain_list():
    """A plain list is a schedule by deal; its last step repeats."""
    rules = ruleset("classic", {"opening_minimums": [40, 80], "end_after_deals": 3})
    progress = play(rules, 5, teams(2), [[NOTHING, NOTHING]] * 3)
    assert [d.minimums[0] for d in progress.deals] == [40, 80, 80]
    assert progress.finished


def test_opening_minimums_as_steps_by_total():
    """Ten-thousand with its own bands: 100 from 1,000."""
    rules = ruleset("ten-thousand", {"opening_minimums": [[0, 60], [1000, 100]]})
    progress = play(rules, 3, teams(2), [[clean(2), clean(1, leftover_points=5)]])
    assert progress.minimums == [100, 60]  # 1,000 and 495


def test_target_score_changed():
    """Ten-thousand played to 2,000 ends after the deal reaching it."""
    rules = ruleset("ten-thousand", {"target_score": 2000})
    progress = play(rules, 3, teams(2), [[clean(4), clean(1)]])
    assert progress.finished and progress.winners == [0]


def test_tie_rule_play_on_in_a_four_deal_game():
    """Classic with ties played on: level after deal 4, the game goes on; deal 5 settles it."""
    rules = ruleset("classic", {"tie_rule": "play_on"})
    level = [[clean(1), clean(1)]] * 4
    tied = play(rules, 5, teams(2), level)
    assert not tied.finished
    settled = play(rules, 5, teams(2), [*level, [clean(1), NOTHING]])
    assert settled.finished and settled.winners == [0]


def test_max_wilds_changed_moves_the_naturals_limit():
    """2 decks hold 88 naturals; 12 dirty books + 5 clean fit in club, not with 2 wilds at most."""
    fits = [E(books={"dirty": 6, "clean": 5}), E(books={"dirty": 6})]
    # club as published (3 wilds at most): 12 dirty × 4 naturals + 5 clean × 7 = 48 + 35 = 83
    assert check_deal(ruleset("club"), 2, teams(2), fits) == []
    strict = ruleset("club", {"max_wilds_in_dirty_book": 2})
    # 2 wilds at most: 12 dirty × 5 naturals + 35 = 95 > 88
    (refusal,) = check_deal(strict, 2, teams(2), fits)
    assert refusal.field == "books"
    assert "95 natural cards" in refusal.message


def test_presets_are_not_changed_by_house_rules():
    """A club's change never leaks into the preset itself."""
    ruleset(
        "classic",
        {"going_out_bonus": 999, "book_bonuses": {"wild": None}, "books_to_go_out": {"wild": 0}},
    )
    assert PRESETS["classic"].going_out_bonus == 100
    assert PRESETS["classic"].book_bonuses["wild"] == 1500


@pytest.mark.parametrize("overrides", [None, {}])
def test_no_house_rules_is_the_preset(overrides):
    """No overrides: the preset as published."""
    assert ruleset("family", overrides) == PRESETS["family"]


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_house_rule_fields_round_trip(key):
    """A preset's own house-rule fields, applied as overrides, change nothing."""
    rules = ruleset(key)
    assert ruleset(key, rules.house_rule_fields()) == rules


# --- removing a book kind ----------------------------------------------------------------


def test_removing_a_book_kind_with_null():
    """Ten-thousand without wild books (and none needed to go out)."""
    rules = ruleset(
        "ten-thousand", {"book_bonuses": {"wild": None}, "books_to_go_out": {"wild": 0}}
    )
    assert "wild" not in rules.book_bonuses
    (refusal,) = check_deal(rules, 3, teams(2), [E(books={"wild": 1}), NOTHING])
    assert refusal.field == "books.wild"
    out = E(books={"clean": 3, "dirty": 1}, went_out=True)
    assert check_deal(rules, 3, teams(2), [out, NOTHING]) == []


def test_removing_a_book_kind_still_needed_to_go_out():
    """Classic without wild books but still needing one to go out cannot be played."""
    with pytest.raises(RulesError) as error:
        ruleset("classic", {"book_bonuses": {"wild": None}})
    assert "Going out needs 1 wild book" in str(error.value)


def test_adding_a_book_kind():
    """Club with wild books worth 1,000."""
    rules = ruleset("club", {"book_bonuses": {"wild": 1000}})
    (score, _) = score_deal(rules, 5, teams(2), [E(books={"wild": 1}), NOTHING])
    assert score.books == 1000


# --- house rules refused -------------------------------------------------------------------


def test_unknown_rule_named():
    """An unknown rule is refused, by name."""
    with pytest.raises(RulesError) as error:
        ruleset("classic", {"joker_bonus": 10})
    assert len(error.value.messages) == 1
    assert "'joker_bonus'" in error.value.messages[0]


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"going_out_bonus": "100"}, "whole number"),
        ({"going_out_bonus": 100.0}, "whole number"),
        ({"going_out_bonus": True}, "whole number"),
        ({"going_out_bonus": -100}, "between"),
        ({"red_three_caught": None}, "whole number"),
        ({"max_wilds_in_dirty_book": 7}, "between"),
        ({"hand_size": 0}, "between"),
        ({"end_after_deals": 0}, "between"),
        ({"card_values": 5}, "must map"),
        ({"card_values": {"queen": 10}}, "no 'queen'"),
        ({"card_values": {"joker": None}}, "whole number"),
        ({"book_bonuses": {"natural": 400}}, "no 'natural'"),
        ({"books_to_go_out": {"clean": "two"}}, "whole number"),
        ({"book_counts_as": {"wild": "gold"}}, "cannot count as"),
        ({"minimum_basis": "score"}, "one of deal, total"),
        ({"tie_rule": "coin"}, "one of share, play_on"),
        ({"opening_minimums": "50"}, "list of minimums"),
        ({"opening_minimums": [50, [2, 90]]}, "numbers or of [from, minimum] pairs"),
        ({"open_books_to_other_team": "yes"}, "true or false"),
    ],
)
def test_wrong_type_or_range_refused(overrides, words):
    """A rule given the wrong kind of value is refused, saying what it must be."""
    with pytest.raises(RulesError) as error:
        ruleset("classic", overrides)
    assert words in str(error.value)
    assert next(iter(overrides)) in str(error.value)


@pytest.mark.parametrize("value", [52, 1, 23])
def test_card_value_must_be_a_multiple_of_5(value):
    """Card values that are not multiples of 5 would break the card-point check."""
    with pytest.raises(RulesError) as error:
        ruleset("classic", {"card_values": {"ace": value}})
    assert "card_values.ace must be a multiple of 5" in str(error.value)


@pytest.mark.parametrize(
    ("key", "overrides", "words"),
    [
        ("ten-thousand", {"target_score": None}, "needs an end"),
        ("classic", {"end_after_deals": None}, "needs an end"),
        ("classic", {"open_books_to_other_team": True}, "exactly two sides"),
        ("classic", {"opening_minimums": [[1000, 90], [0, 50]]}, "rising order"),
        ("club", {"books_to_go_out": {"wild": 1}}, "no wild book is scored"),
    ],
)
def test_unplayable_combinations_refused(key, overrides, words):
    """Rules that no game could be played under are refused as a whole."""
    with pytest.raises(RulesError) as error:
        ruleset(key, overrides)
    assert words in str(error.value)


def test_every_bad_rule_is_reported():
    """Two bad rules at once: two messages."""
    with pytest.raises(RulesError) as error:
        ruleset("classic", {"bogus": 1, "going_out_bonus": "x"})
    assert len(error.value.messages) == 2


def test_unknown_preset():
    """An unknown preset key is a KeyError."""
    with pytest.raises(KeyError):
        ruleset("canasta")


def test_overrides_must_be_a_mapping():
    """House rules given as a list are refused."""
    with pytest.raises(RulesError):
        PRESETS["classic"].with_house_rules([("going_out_bonus", 5)])


# --- setting up a game -------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_a_two_side_setup_is_fine(key):
    """Two named sides (single players where the rules are individual) can start anywhere."""
    rules = ruleset(key)
    players = 1 if rules.individuals else 2
    assert check_setup(rules, rules.decks_for(2 * players), teams(2, players)) == []


def test_individual_rules_take_one_player_a_side():
    """The club game is every player for themselves: a team of two is refused."""
    found = check_setup(ruleset("club"), 5, teams(2, 2))
    assert [(r.side, r.field) for r in found] == [(0, "players"), (1, "players")]
    assert "each side is one player" in found[0].message


def test_too_few_sides():
    """One side is not a game."""
    found = check_setup(ruleset("classic"), 3, [Side("Solo")])
    assert [(r.side, r.field) for r in found] == [(None, "sides")]
    assert found[0].message == "The Classic partnership rules need at least 2 sides."


def test_cutthroat_needs_exactly_two_sides():
    """Cutthroat refuses three teams; classic takes them."""
    found = check_setup(ruleset("cutthroat"), 5, teams(3))
    assert [(r.side, r.field) for r in found] == [(None, "sides")]
    assert "at most 2 sides" in found[0].message
    assert check_setup(ruleset("classic"), 7, teams(3)) == []


def test_too_many_sides():
    """Thirteen sides are more than any table."""
    sides = [Side(f"P{i}") for i in range(13)]
    (refusal,) = check_setup(ruleset("club"), 14, sides)
    assert refusal.field == "sides"


@pytest.mark.parametrize("decks", [0, -1, 21, True, 2.5, "3"])
def test_decks_must_be_1_to_20(decks):
    """0 decks (or any non-whole or absurd figure) is refused."""
    found = check_setup(ruleset("classic"), decks, teams(2))
    assert [(r.side, r.field) for r in found] == [(None, "decks")]
    assert found[0].message == "Decks must be a whole number from 1 to 20."


def test_duplicate_names_refused():
    """Two sides called the same (ignoring case and spaces) are refused on the second."""
    found = check_setup(ruleset("classic"), 5, [Side("Ann"), Side("Bob"), Side(" ann ")])
    assert [(r.side, r.field) for r in found] == [(2, "name")]
    assert "Two sides are called ann" in found[0].message


@pytest.mark.parametrize(
    ("side", "field"),
    [
        (Side("   "), "name"),
        (Side("x" * 61), "name"),
        (Side("Big", 7), "players"),
        (Side("Nobody", 0), "players"),
    ],
)
def test_side_refusals(side, field):
    """A blank or overlong name, or a side of 0 or 7 players, is refused on that side."""
    found = check_setup(ruleset("classic"), 5, [Side("Ann"), side])
    assert [(r.side, r.field) for r in found] == [(1, field)]


# --- house rules as a flat list of numbers (knobs) -------------------------------------------


def test_overrides_from_knobs_take_effect():
    """Changed knob values become overrides; blank and unchanged values are left out."""
    rules = ruleset("classic")
    overrides = overrides_from(
        rules, {"opening_minimums.1": 80, "book_bonuses.wild": 2000, "going_out_bonus": None}
    )
    assert overrides == {
        "book_bonuses": {"wild": 2000},
        "opening_minimums": [[1, 50], [2, 80], [3, 120], [4, 150]],
    }
    changed = ruleset("classic", overrides)
    assert changed.opening_minimum(2, 0) == 80
    (score, _) = score_deal(changed, 5, teams(2), [E(books={"wild": 1}), NOTHING])
    assert score.books == 2000
