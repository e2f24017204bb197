"""Rounds left blank are what the night's schedule needs (issue 37): services/nights/length."""

from __future__ import annotations

import pytest

from scorekeeper.rules.nights import MOST_ROUNDS
from scorekeeper.rules.whist import round_robin, whist_rounds, whist_sizes
from scorekeeper.services.nights.length import AS_NEEDED, rounds_needed
from scorekeeper.services.nights.planning import DEFAULT_ROUNDS


@pytest.mark.parametrize("players", whist_sizes())
def test_rotating_fours_play_the_whist_schedule_up_to_a_night_s_most(players):
    needed = rounds_needed(players, "fours", "rotating")
    assert needed == min(len(whist_rounds(players)), MOST_ROUNDS)
    assert 1 <= needed <= MOST_ROUNDS


@pytest.mark.parametrize("players", range(4, 26))
def test_fixed_pairs_play_their_round_robin_once_through(players):
    """Odd numbers too: the one without a partner plays in every round for whoever sits out,
    so the round robin is that of the players' pairs."""
    needed = rounds_needed(players, "fours", "fixed")
    pairs = players // 2
    # Every pair meets every other exactly once over the rounds given.
    met = {frozenset(m) for r in range(needed) for m in round_robin(pairs, r)[0]}
    assert len(met) == pairs * (pairs - 1) // 2 or needed == MOST_ROUNDS
    assert needed <= MOST_ROUNDS


@pytest.mark.parametrize(
    ("players", "shape", "partners"),
    [
        (10, "fours", "rotating"),
        (12, "sixes", "rotating"),
        (12, "fours", "balanced"),
        (9, "singles", "rotating"),
        (9, "sixes", "fixed"),
    ],
)
def test_no_schedule_keeps_the_usual_default(players, shape, partners):
    assert rounds_needed(players, shape, partners) == DEFAULT_ROUNDS


def test_the_words_name_the_default_and_the_most():
    assert str(DEFAULT_ROUNDS) in AS_NEEDED and str(MOST_ROUNDS) in AS_NEEDED
    assert "plays in for whoever sits out" in AS_NEEDED


@pytest.mark.parametrize("players", [7, 9, 11, 13])
def test_an_odd_number_of_fixed_partners_is_not_the_default(players):
    """Issue 38: nine players are four pairs and a spare, three rounds; eleven five pairs, five."""
    pairs = players // 2
    assert rounds_needed(players, "fours", "fixed") == (pairs if pairs % 2 else pairs - 1)
