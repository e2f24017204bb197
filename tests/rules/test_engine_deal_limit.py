"""The most deals a game holds, and what a game past it may still do; corrections' refusals."""

import pytest

from scorekeeper.rules import (
    DealEntry,
    DealRefused,
    GameOver,
    correct_deal,
    extend,
    play,
    ruleset,
    too_long_to_change,
)
from scorekeeper.rules.game import DealLimitReached, deal_limit_reached
from scorekeeper.rules.terms import DEAL_LIMIT

from ._engine_support import NOTHING, clean, teams

E = DealEntry
# Ten-thousand held to 3 deals by house rule: all-zero deals never reach the target.
HELD_TO_3 = {"deal_limit": 3}
BLANK = [NOTHING, NOTHING]


def test_a_game_holds_a_hundred_deals_unless_house_rules_say_fewer():
    """Every preset holds 100 deals; a house rule may lower it."""
    assert DEAL_LIMIT == 100
    assert ruleset("ten-thousand").deal_limit == 100
    assert ruleset("ten-thousand", HELD_TO_3).deal_limit == 3


def test_the_last_deal_the_limit_allows_is_taken():
    """Held to 3: the third deal is added; the game has not ended by it."""
    rules = ruleset("ten-thousand", HELD_TO_3)
    two = play(rules, 3, teams(2), [BLANK] * 2)
    assert deal_limit_reached(rules, two) is None
    three = extend(rules, 3, teams(2), two, BLANK)
    assert (three.next_deal, three.finished, three.winners) == (4, False, [])


def test_a_deal_past_the_limit_is_refused_naming_it():
    """Held to 3: a fourth deal is refused, the limit named, the game not over."""
    rules = ruleset("ten-thousand", HELD_TO_3)
    three = play(rules, 3, teams(2), [BLANK] * 3)
    with pytest.raises(DealLimitReached) as refused:
        extend(rules, 3, teams(2), three, BLANK)
    assert not isinstance(refused.value, GameOver)
    (refusal,) = refused.value.refusals
    assert (refusal.side, refusal.field) == (None, "deal")
    assert refusal.message == (
        "This game has reached its limit of 3 deals: no more deals can be entered. It has not "
        "ended by its rules, so it has no winner; start a new game to play on."
    )
    assert refusal == deal_limit_reached(rules, three)


def test_a_game_past_a_lowered_limit_says_it_holds_more():
    """Four deals saved before the limit fell to 3: refused, saying it holds 4, more than 3."""
    rules = ruleset("ten-thousand", HELD_TO_3)
    four = play(rules, 3, teams(2), [BLANK] * 4)
    with pytest.raises(DealLimitReached) as refused:
        extend(rules, 3, teams(2), four, BLANK)
    (refusal,) = refused.value.refusals
    assert (refusal.side, refusal.field) == (None, "deal")
    assert refusal.message == (
        "This game holds 4 deals, more than the 3 a game may hold: no more deals can be "
        "entered, and its deals can be read but not corrected. It has not ended by its rules, "
        "so it has no winner; start a new game to play on."
    )


def test_a_finished_game_is_over_before_it_is_full():
    """A game that ended on its last allowed deal is refused as over, not as full."""
    rules = ruleset("classic", {"deal_limit": 4})
    progress = play(rules, 5, teams(2), [[clean(1), NOTHING]] * 4)
    assert progress.finished
    with pytest.raises(GameOver) as refused:
        extend(rules, 5, teams(2), progress, BLANK)
    assert refused.value.refusals[0].message == (
        "The game is over: A won after deal 4. No deal can be added."
    )


def test_a_game_at_its_limit_can_still_be_corrected():
    """Held to 3 with 3 deals: corrections are allowed; with 4 (over a lowered limit), not."""
    rules = ruleset("ten-thousand", HELD_TO_3)
    assert too_long_to_change(rules, 2) is None
    assert too_long_to_change(rules, 3) is None
    refusal = too_long_to_change(rules, 4)
    assert (refusal.side, refusal.field) == (None, "deal")
    assert refusal.message == (
        "This game holds 4 deals, more than the 3 a game may hold: its deals can be read but "
        "not corrected."
    )


def test_large_counts_are_written_with_commas():
    """The most a game holds, in the thousands, reads 1,000 (a game from before issue 26)."""
    rules = ruleset("ten-thousand")
    assert too_long_to_change(rules, 1000).message.startswith(
        "This game holds 1,000 deals, more than the 100 a game may hold"
    )


# --- playing and correcting ----------------------------------------------------------------


def test_play_checks_every_deal_unless_told_not_to():
    """An impossible deal is refused by play; with check off it is scored as saved."""
    rules = ruleset("classic")
    deals = [[E(melded_points=7), NOTHING]]
    with pytest.raises(DealRefused) as refused:
        play(rules, 5, teams(2), deals)
    assert [r.field for r in refused.value.refusals] == ["melded_points"]
    assert play(rules, 5, teams(2), deals, check=False).totals == [7, 0]


def test_an_empty_game_has_no_winner():
    """No deals: nobody has won, nothing is finished, deal 1 comes next."""
    progress = play(ruleset("classic"), 5, teams(2), [])
    assert (progress.deals, progress.winners, progress.finished) == ([], [], False)
    assert progress.next_deal == 1


def test_the_first_deal_needs_the_minimum_of_a_zero_total():
    """By total, a house schedule of 90 from any points at all: the first deal needs 50."""
    rules = ruleset("ten-thousand", {"opening_minimums": [[0, 50], [1, 90]]})
    progress = play(rules, 3, teams(2), [])
    assert progress.minimums == [50, 50]
    one = play(rules, 3, teams(2), [[E(melded_points=5), NOTHING]])
    assert one.deals[0].minimums == [50, 50]
    assert one.minimums == [90, 50]


def test_a_correction_keeps_deals_saved_before_a_check_was_added():
    """Deal 1 saved with 7 points (refused today): correcting deal 2 keeps it as saved."""
    rules = ruleset("classic")
    deals = [[E(melded_points=7), NOTHING], BLANK]
    progress = correct_deal(rules, 5, teams(2), deals, 2, [clean(1), NOTHING])
    assert progress.totals == [507, 0]
    # The corrected deal itself is checked.
    with pytest.raises(DealRefused) as refused:
        correct_deal(rules, 5, teams(2), deals, 2, [E(melded_points=3), NOTHING])
    assert [(r.side, r.field) for r in refused.value.refusals] == [(0, "melded_points")]


def test_a_later_deal_that_fails_its_checks_is_named():
    """Replayed with every deal checked, a correction names the later deal that fails."""
    rules = ruleset("classic")
    deals = [BLANK, [E(red_threes_down=3), NOTHING]]
    with pytest.raises(DealRefused) as refused:
        play(rules, 1, teams(2), deals, corrected=1)
    (refusal,) = refused.value.refusals
    assert (refusal.side, refusal.field) == (None, "deal")
    assert refusal.message == (
        "Deal 2 no longer adds up: 3 red threes entered, but 1 deck holds 2."
    )
    # The corrected deal's own refusal is given as it is.
    with pytest.raises(DealRefused) as refused:
        play(rules, 1, teams(2), deals, corrected=2)
    assert [r.field for r in refused.value.refusals] == ["red_threes"]


def test_correcting_a_deal_after_the_end_is_game_over():
    """A game over after deal 4 holding a fifth: correcting the fifth is refused as game over."""
    rules = ruleset("classic")
    deals = [[clean(1), NOTHING]] * 5
    with pytest.raises(GameOver) as refused:
        correct_deal(rules, 5, teams(2), deals, 5, BLANK)
    assert refused.value.refusals[0].message == (
        "The game is over: A won after deal 4. No deal can be added."
    )


def test_a_correction_ending_the_game_early_is_not_game_over():
    """Correcting deal 4 of six deals to end the game there is a bad correction, naming 5 to 6."""
    rules = ruleset("classic", {"tie_rule": "play_on"})
    # Level after every deal: ties are played on past deal 4, so six deals are saved.
    level = [[clean(1), clean(1)]] * 6
    assert not play(rules, 5, teams(2), level).finished
    with pytest.raises(DealRefused) as refused:
        correct_deal(rules, 5, teams(2), level, 4, [clean(2), clean(1)])
    assert type(refused.value) is DealRefused
    assert refused.value.refusals[0].message == (
        "This correction would end the game after deal 4 (A winning), but deals 5 to 6 "
        "already follow it."
    )
