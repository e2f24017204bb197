"""Each side's own line, checked as it comes in: what it meets now, the whole deal meets too.

A side's line arrives before the others'. The engine checks the lines in so far with the rest
counted as blank lines (`check_lines`); the deal is saved only when every line is in. So a line
must never be refused for something the whole deal would pass (the table could not send it),
and a refusal found early must stand in the whole deal (the side is told at once, not later).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    PRESETS,
    DealEntry,
    Refusal,
    check_deal,
    check_lines,
    ruleset,
    sides_involved,
)
from scorekeeper.rules.lines import line_summary

from ._engine_support import teams

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def a_line(draw, rules) -> DealEntry:
    """Any line a side might send, honest or not: small counts that reach the decks' limits."""
    kinds = list(rules.book_bonuses)
    books = {kind: draw(st.integers(0, 4)) for kind in draw(st.sets(st.sampled_from(kinds)))}
    counted = draw(st.booleans())
    cards = None
    if counted:
        cards = {
            "joker": draw(st.integers(0, 12)),
            "two": draw(st.integers(0, 20)),
            "black_three": draw(st.integers(0, 3)),
        }
    return DealEntry(
        books=books,
        red_threes_down=draw(st.integers(0, 6)) if rules.red_three_down is not None else 0,
        red_threes_caught=draw(st.integers(0, 6)),
        went_out=draw(st.booleans()),
        melded_points=None if counted else draw(st.integers(0, 80)) * 5,
        melded_cards=cards,
        leftover_points=draw(st.integers(0, 40)) * 5,
    )


@st.composite
def lines_of_a_deal(draw):
    """A rule set, its decks, three or four sides' lines, and which of them are in so far."""
    key = draw(st.sampled_from(sorted(PRESETS)))
    rules = ruleset(key)
    count = max(rules.min_sides, draw(st.integers(2, 4)))
    if rules.max_sides:
        count = min(count, rules.max_sides)
    entries = [draw(a_line(rules)) for _ in range(count)]
    arrived = draw(st.sets(st.integers(0, count - 1), min_size=1, max_size=count))
    decks = draw(st.integers(2, 6))
    return rules, decks, teams(count), entries, arrived


def fields(refusals: list[Refusal]) -> set[tuple[int | None, str]]:
    """What each refusal is about, without the counts its message names."""
    return {(r.side, r.field) for r in refusals}


@SETTINGS
@given(lines_of_a_deal())
def test_a_refusal_found_early_is_one_the_whole_deal_meets(deal):
    rules, decks, sides, entries, arrived = deal
    early = check_lines(rules, decks, sides, {i: entries[i] for i in arrived})
    whole = check_deal(rules, decks, sides, entries)
    assert fields(early) <= fields(whole)


@SETTINGS
@given(lines_of_a_deal())
def test_the_lines_all_in_are_judged_as_the_whole_deal(deal):
    rules, decks, sides, entries, _ = deal
    lines = dict(enumerate(entries))
    assert check_lines(rules, decks, sides, lines) == check_deal(rules, decks, sides, entries)


def test_a_line_alone_is_judged_on_its_own_figures():
    rules = ruleset("classic")
    sides = teams(2)
    out = DealEntry(books={"clean": 2, "dirty": 2, "wild": 1}, went_out=True, melded_points=320)
    assert check_lines(rules, 4, sides, {0: out}) == []
    short = DealEntry(books={"clean": 1}, went_out=True)
    [refusal] = check_lines(rules, 4, sides, {1: short})
    assert (refusal.side, refusal.field) == (1, "went_out")
    assert refusal.message.startswith("B: cannot go out without 2 clean books")


def test_two_sides_going_out_involve_both_and_no_other():
    rules = ruleset("ten-thousand")
    sides = teams(3)
    out = DealEntry(books={"clean": 3, "dirty": 1, "wild": 1}, went_out=True)
    [refusal] = check_lines(rules, 4, sides, {0: out, 2: out})
    assert refusal.message == "Only one side can go out; A and C both did."
    assert refusal.figures == ((0, "went_out"), (2, "went_out"))
    assert sides_involved(refusal, 3) == {0, 2}


def test_a_limit_over_the_deal_involves_each_side_that_counted_toward_it():
    rules = ruleset("classic")
    sides = teams(3)
    lines = {0: DealEntry(red_threes_down=5), 2: DealEntry(red_threes_caught=4)}
    [refusal] = check_lines(rules, 4, sides, lines)
    assert refusal.message.startswith("9 red threes entered, but 4 decks hold 8")
    assert sides_involved(refusal, 3) == {0, 2}


@pytest.mark.parametrize(
    ("refusal", "involved"),
    [
        (Refusal(1, "melded_points", "B: not a multiple of 5"), {1}),
        (Refusal(None, "went_out", "two out", ((0, "went_out"), (1, "went_out"))), {0, 1}),
        # A refusal that names no side is about the whole deal: every side's line is in question.
        (Refusal(None, "scores", "Enter one score for each side.", ((None, "scores"),)), {0, 1, 2}),
    ],
)
def test_sides_involved(refusal, involved):
    assert sides_involved(refusal, 3) == involved


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        (
            DealEntry(
                books={"clean": 2, "dirty": 2, "wild": 1},
                red_threes_down=1,
                went_out=True,
                melded_points=320,
            ),
            "2 clean books, 2 dirty books, 1 wild book · 1 red three down · went out"
            " · 320 melded − 0 left = +3,620",
        ),
        (
            DealEntry(books={"clean": 1}, melded_points=240, leftover_points=85),
            "1 clean book · 240 melded − 85 left = +655",
        ),
        (
            DealEntry(red_threes_caught=2),
            "no books · 2 red threes caught · 0 melded − 0 left = −200",
        ),
    ],
)
def test_a_line_read_back_in_one_sentence(entry, said):
    assert line_summary(ruleset("classic"), entry) == said
