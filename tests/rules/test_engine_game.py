"""A game's progress: running totals, opening minimums, the end, winners and corrections."""

import pytest

from scorekeeper.rules import (
    DealEntry,
    DealRefused,
    GameOver,
    correct_deal,
    extend,
    play,
    ruleset,
)

from ._engine_support import NOTHING, clean, teams

E = DealEntry


def add_deal(rules, decks, sides, deals, entries):
    """One more deal on top of a game, as the app adds it: `extend`, not a replay."""
    return extend(rules, decks, sides, play(rules, decks, sides, deals), entries)


# A four-deal classic game; the totals after each deal are worked out in the comments.
CLASSIC_DEALS = [
    [clean(1), E(books={"dirty": 1})],  # 500 / 300
    [E(books={"dirty": 1}), clean(2)],  # 500 + 300 = 800 / 300 + 1000 = 1300
    [clean(2, melded_points=100), E(leftover_points=50)],  # 800 + 1100 = 1900 / 1300 − 50 = 1250
    [E(leftover_points=25), clean(1, red_threes_down=1)],  # 1900 − 25 = 1875 / 1250 + 600 = 1850
]
CLASSIC_TOTALS = [[500, 300], [800, 1300], [1900, 1250], [1875, 1850]]


def test_running_totals_and_minimums_by_deal():
    """Totals accumulate deal by deal; minimums run 50, 90, 120, 150."""
    progress = play(ruleset("classic"), 5, teams(2), CLASSIC_DEALS)
    assert [d.totals for d in progress.deals] == CLASSIC_TOTALS
    assert [d.number for d in progress.deals] == [1, 2, 3, 4]
    assert [d.minimums for d in progress.deals] == [[50, 50], [90, 90], [120, 120], [150, 150]]
    assert progress.totals == [1875, 1850]


def test_fourth_deal_ends_the_game_with_the_winner():
    """Three deals leave the game open; the fourth ends it, the highest total winning."""
    rules = ruleset("classic")
    three = play(rules, 5, teams(2), CLASSIC_DEALS[:3])
    assert (three.finished, three.winners, three.next_deal) == (False, [], 4)
    four = play(rules, 5, teams(2), CLASSIC_DEALS)
    assert four.finished
    assert four.winners == [0]  # 1875 > 1850


def test_progress_minimums_are_for_the_next_deal():
    """After two deals the next deal (3) needs 120."""
    progress = play(ruleset("classic"), 5, teams(2), CLASSIC_DEALS[:2])
    assert progress.minimums == [120, 120]
    assert progress.next_deal == 3


def test_no_deals_yet():
    """An empty game: zero totals, deal-1 minimum, not finished."""
    progress = play(ruleset("family"), 4, teams(2), [])
    assert (progress.totals, progress.minimums, progress.finished) == ([0, 0], [60, 60], False)


@pytest.mark.parametrize(
    ("key", "schedule"),
    [
        ("classic", [50, 90, 120, 150]),
        ("club", [50, 90, 120, 150]),
        ("family", [60, 90, 120, 150]),
        ("casual", [50, 90, 120, 150]),
    ],
)
def test_minimum_schedule_by_deal(key, schedule):
    """Each four-deal preset's opening minimums, deal by deal."""
    deals = [[NOTHING, NOTHING]] * 4
    progress = play(ruleset(key), 5, teams(2), deals)
    assert [d.minimums[0] for d in progress.deals] == schedule
    assert [d.minimums[1] for d in progress.deals] == schedule


def test_last_minimum_repeats_past_the_schedule():
    """House rule end_after_deals 6: deals 5 and 6 need 150, and the game ends after 6."""
    rules = ruleset("classic", {"end_after_deals": 6})
    deals = [[clean(1), NOTHING]] * 6
    four = play(rules, 5, teams(2), deals[:4])
    assert not four.finished
    assert four.minimums == [150, 150]
    six = play(rules, 5, teams(2), deals)
    assert [d.minimums[0] for d in six.deals] == [50, 90, 120, 150, 150, 150]
    assert six.finished and six.winners == [0]
    assert six.totals == [3000, 0]  # 6 × 500


@pytest.mark.parametrize(
    ("entry", "total", "minimum"),
    [
        pytest.param(NOTHING, 0, 50, id="0->50"),
        pytest.param(clean(3, leftover_points=5), 1495, 50, id="3x500-5=1495->50"),
        pytest.param(clean(3), 1500, 90, id="3x500=1500->90"),
        pytest.param(clean(6, leftover_points=5), 2995, 90, id="6x500-5=2995->90"),
        pytest.param(clean(6), 3000, 120, id="6x500=3000->120"),
        pytest.param(clean(10, leftover_points=5), 4995, 120, id="10x500-5=4995->120"),
        pytest.param(clean(10), 5000, 150, id="10x500=5000->150"),
        pytest.param(E(red_threes_caught=1), -300, 50, id="caught -300->50"),
        pytest.param(E(leftover_points=5), -5, 50, id="-5->50"),
    ],
)
@pytest.mark.parametrize("key", ["ten-thousand", "cutthroat"])
def test_minimum_bands_by_running_total(key, entry, total, minimum):
    """Ten-thousand bands: below 1,500 → 50, to 2,995 → 90, to 4,995 → 120, then 150."""
    rules = ruleset(key)
    one = play(rules, 3, teams(2), [[entry, NOTHING]])
    assert one.totals == [total, 0]
    assert one.minimums == [minimum, 50]
    two = play(rules, 3, teams(2), [[entry, NOTHING], [NOTHING, NOTHING]])
    assert two.deals[1].minimums == [minimum, 50]


def test_band_follows_the_running_total_not_the_deal_score():
    """750 + 750 = 1,500 over two deals: the third deal needs 90."""
    rules = ruleset("ten-thousand")
    half = E(books={"clean": 1, "dirty": 1}, red_threes_caught=0, leftover_points=50)  # 750
    progress = play(rules, 3, teams(2), [[half, NOTHING], [half, NOTHING]])
    assert progress.totals == [1500, 0]
    assert [d.minimums[0] for d in progress.deals] == [50, 50]
    assert progress.minimums == [90, 50]


def test_four_deal_tie_shares_the_win():
    """Equal highest totals after the fourth deal share the win."""
    deals = [[clean(1), clean(1)]] * 4
    progress = play(ruleset("club"), 5, teams(2), deals)
    assert progress.finished
    assert progress.winners == [0, 1]
    with pytest.raises(GameOver) as refused:
        extend(ruleset("club"), 5, teams(2), progress, [NOTHING, NOTHING])
    assert refused.value.refusals[0].message == (
        "The game is over: A and B won after deal 4. No deal can be added."
    )


def test_four_deal_tie_at_the_top_of_three():
    """Three sides: the two on 2,000 share it, the third does not."""
    deals = [[clean(1), E(books={"dirty": 1}), clean(1)]] * 4
    progress = play(ruleset("classic"), 6, teams(3), deals)
    assert progress.totals == [2000, 1200, 2000]
    assert progress.winners == [0, 2]


def test_warning_below_the_opening_minimum_is_saved_as_entered():
    """Melded 80 in deal 2 (needs 90): a warning, and the figure counts as entered."""
    deals = [[NOTHING, NOTHING], [E(melded_points=80), E(melded_points=90)]]
    progress = play(ruleset("classic"), 5, teams(2), deals)
    assert progress.totals == [80, 90]
    assert progress.deals[1].warnings == ["A melded 80, below the 90 needed to open: check."]
    assert progress.deals[0].warnings == []


# Ten-thousand, 8 decks (352 naturals: room for 20 clean books per side and more).
TT_DECKS = 8


def test_ten_thousand_plays_on_below_the_target():
    """9,995 is not 10,000: the game goes on."""
    progress = play(
        ruleset("ten-thousand"), TT_DECKS, teams(2), [[clean(20, leftover_points=5), NOTHING]]
    )
    assert progress.totals == [9995, 0]
    assert not progress.finished
    assert progress.winners == []


def test_ten_thousand_ends_after_the_deal_reaching_10000():
    """19×500 = 9,500, then +500 = 10,000: the game ends after deal 2, A winning."""
    rules = ruleset("ten-thousand")
    deals = [[clean(19), clean(10)], [clean(1), E(leftover_points=5)]]
    one = play(rules, TT_DECKS, teams(2), deals[:1])
    assert (one.totals, one.finished) == ([9500, 5000], False)
    two = play(rules, TT_DECKS, teams(2), deals)
    assert two.totals == [10_000, 4995]
    assert two.finished
    assert two.winners == [0]
    with pytest.raises(GameOver) as refused:
        add_deal(rules, TT_DECKS, teams(2), deals, [NOTHING, NOTHING])
    (refusal,) = refused.value.refusals
    assert refusal.field == "deal"
    assert "over" in refusal.message and "after deal 2" in refusal.message


def test_ten_thousand_tie_above_the_target_plays_on():
    """Both on 10,000: another deal; then 10,500 against 10,000 ends it."""
    rules = ruleset("ten-thousand")
    deals = [[clean(20), clean(20)]]
    tied = play(rules, TT_DECKS, teams(2), deals)
    assert tied.totals == [10_000, 10_000]
    assert not tied.finished
    assert tied.winners == []
    after = add_deal(rules, TT_DECKS, teams(2), deals, [NOTHING, clean(1)])
    assert after.totals == [10_000, 10_500]
    assert after.finished and after.winners == [1]


def test_ten_thousand_higher_side_wins_even_if_both_crossed():
    """Both cross 10,000 in the same deal: the higher total wins alone."""
    progress = play(ruleset("cutthroat"), TT_DECKS, teams(2), [[clean(21), clean(20)]])
    assert progress.totals == [10_500, 10_000]
    assert progress.finished and progress.winners == [0]


def test_add_deal_to_a_finished_four_deal_game_is_refused():
    """A fifth deal in a four-deal game is refused, naming the winner and the last deal."""
    with pytest.raises(GameOver) as refused:
        add_deal(ruleset("classic"), 5, teams(2), CLASSIC_DEALS, [NOTHING, NOTHING])
    assert isinstance(refused.value, DealRefused)
    (refusal,) = refused.value.refusals
    assert (refusal.side, refusal.field) == (None, "deal")
    assert "A won after deal 4" in refusal.message
    assert "No deal can be added" in refusal.message


def test_add_deal_returns_the_game_with_one_more_deal():
    """add_deal scores the new deal on top of the earlier ones."""
    progress = add_deal(ruleset("classic"), 5, teams(2), CLASSIC_DEALS[:3], CLASSIC_DEALS[3])
    assert progress.totals == [1875, 1850]
    assert progress.finished


def test_add_deal_with_a_bad_entry_is_refused():
    """An impossible new deal is refused; the earlier deals are untouched."""
    with pytest.raises(DealRefused) as refused:
        add_deal(ruleset("classic"), 5, teams(2), CLASSIC_DEALS[:1], [E(melded_points=7), NOTHING])
    assert [r.field for r in refused.value.refusals] == ["melded_points"]


def test_correct_deal_recomputes_later_totals():
    """Deal 1 of A corrected from 500 to 1,000: every later total of A rises by 500."""
    rules = ruleset("classic")
    progress = correct_deal(rules, 5, teams(2), CLASSIC_DEALS, 1, [clean(2), E(books={"dirty": 1})])
    assert [d.totals for d in progress.deals] == [
        [1000, 300],
        [1300, 1300],
        [2400, 1250],
        [2375, 1850],
    ]
    assert progress.finished and progress.winners == [0]


def test_correct_deal_changes_the_winner():
    """Deal 4 corrected so B catches up exactly: the win is shared."""
    rules = ruleset("classic")
    # B: 1250 + 500 + 100 red three + 25 melded = 1875, level with A
    fixed = [E(leftover_points=25), clean(1, red_threes_down=1, melded_points=25)]
    progress = correct_deal(rules, 5, teams(2), CLASSIC_DEALS, 4, fixed)
    assert progress.totals == [1875, 1875]
    assert progress.winners == [0, 1]


def test_correct_deal_recomputes_ten_thousand_minimums():
    """A's deal 1 corrected from 500 to 1,500: deal 2's minimum rises from 50 to 90."""
    rules = ruleset("ten-thousand")
    deals = [[clean(1), NOTHING], [NOTHING, NOTHING]]
    before = play(rules, 3, teams(2), deals)
    assert before.deals[1].minimums == [50, 50]
    after = correct_deal(rules, 3, teams(2), deals, 1, [clean(3), NOTHING])
    assert after.deals[1].minimums == [90, 50]
    assert after.minimums == [90, 50]


def test_correction_that_reopens_with_a_tie():
    """Finished 10,500 to 10,000; deal 2 corrected to a 10,000 tie: the game is open again."""
    rules = ruleset("ten-thousand")
    deals = [[clean(20), clean(20)], [clean(1), NOTHING]]
    assert play(rules, TT_DECKS, teams(2), deals).finished
    reopened = correct_deal(rules, TT_DECKS, teams(2), deals, 2, [NOTHING, NOTHING])
    assert reopened.totals == [10_000, 10_000]
    assert not reopened.finished
    assert reopened.winners == []


def test_correction_that_reopens_below_the_target():
    """Finished on 10,000; deal 1 corrected down to 9,000: the game is open again."""
    rules = ruleset("ten-thousand")
    deals = [[clean(19), NOTHING], [clean(1), NOTHING]]
    assert play(rules, TT_DECKS, teams(2), deals).winners == [0]
    reopened = correct_deal(rules, TT_DECKS, teams(2), deals, 1, [clean(17), NOTHING])
    assert reopened.totals == [9000, 0]
    assert not reopened.finished


def test_reopened_game_accepts_a_deal():
    """After a reopening correction, a further deal can be added and ends the game."""
    rules = ruleset("ten-thousand")
    deals = [[clean(19), NOTHING], [clean(1), NOTHING]]  # finished on 10,000
    reopened = correct_deal(rules, TT_DECKS, teams(2), deals, 1, [clean(17), NOTHING])
    assert not reopened.finished  # 9,000
    deals[0] = [clean(17), NOTHING]
    progress = add_deal(rules, TT_DECKS, teams(2), deals, [clean(2), NOTHING])
    assert progress.totals == [10_000, 0]
    assert progress.finished and progress.next_deal == 4


def test_correction_ending_the_game_before_later_deals_is_refused():
    """Raising deal 1 so deal 2 reaches 10,000 is refused while deal 3 follows it."""
    rules = ruleset("ten-thousand")
    # 5,000 then 9,000 then 11,000
    deals = [[clean(10), NOTHING], [clean(8), NOTHING], [clean(4), NOTHING]]
    original = play(rules, TT_DECKS, teams(2), deals)
    assert original.totals == [11_000, 0] and original.finished
    with pytest.raises(DealRefused) as refused:
        correct_deal(rules, TT_DECKS, teams(2), deals, 1, [clean(12), NOTHING])
    assert not isinstance(refused.value, GameOver)  # a bad correction, not a game over
    (refusal,) = refused.value.refusals
    assert (refusal.side, refusal.field) == (None, "deal")
    assert "end the game after deal 2" in refusal.message
    assert "deal 3 already follows" in refusal.message


def test_correction_ending_the_game_before_several_deals_names_them():
    """Ending after deal 1 with deals 2 and 3 to follow names them both."""
    rules = ruleset("ten-thousand")
    deals = [[clean(10), NOTHING], [clean(8), NOTHING], [clean(4), NOTHING]]
    with pytest.raises(DealRefused) as refused:
        correct_deal(rules, TT_DECKS, teams(2), deals, 1, [clean(20), NOTHING])
    message = refused.value.refusals[0].message
    assert "after deal 1" in message
    assert "deals 2 to 3" in message


def test_correct_deal_with_an_impossible_entry_is_refused():
    """The corrected deal itself is checked like a new one."""
    with pytest.raises(DealRefused) as refused:
        correct_deal(
            ruleset("classic"), 5, teams(2), CLASSIC_DEALS, 2, [E(red_threes_caught=11), NOTHING]
        )
    assert [r.field for r in refused.value.refusals] == ["red_threes"]
