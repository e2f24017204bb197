"""A larger room's round of rotating partners, rules that mutation testing found unpinned (issue
41): who sits out when the rest could not all find a new partner, the season's sit-outs first
among equals, a round judged by what it leaves the next one, and tables of 6 before tables of 4.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scorekeeper.rules.rotating import _short_next, _who_sits_out, grid_of
from scorekeeper.rules.tables import TeamTables, team_tables
from scorekeeper.rules.tally import Tally

SEEDS = range(12)


def pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def tally(season_out: dict[str, int] | None = None) -> Tally:
    return Tally(Counter(), Counter(), Counter(), season_out or {})


# E has partnered everyone else: whoever else sits out, E can have no new partner.
E_PARTNERED_ALL = {pair("E", other): 1 for other in "ABCD"}
FIVE = list("ABCDE")


def sits_out(aware: bool, partnered: dict, season_out: dict | None = None) -> set[str]:
    """Who sits out of five, one of them, over a dozen draws."""
    grid = grid_of(partnered, FIVE)
    return {
        _who_sits_out(FIVE, [], FIVE, 1, grid, tally(season_out), random.Random(seed), aware)[0]
        for seed in SEEDS
    }


def test_the_one_left_without_a_new_partner_sits_out_when_the_draw_looks():
    assert sits_out(True, E_PARTNERED_ALL) == {"E"}


def test_by_lot_anyone_of_the_tier_may_sit_out():
    assert len(sits_out(False, E_PARTNERED_ALL)) > 1


def test_by_lot_the_season_s_fewest_sit_outs_sit_out_first():
    # E has sat out least this season: E, whatever the lot.
    assert sits_out(False, {}, {"A": 1, "B": 1, "C": 1, "D": 1}) == {"E"}
    # Everyone alike (none counted): the lot decides.
    assert len(sits_out(False, {}, {})) > 1


def test_nobody_to_pick_is_nobody_even_when_the_draw_looks():
    grid = grid_of(E_PARTNERED_ALL, FIVE)
    chosen = _who_sits_out(FIVE, [], FIVE, 0, grid, tally(), random.Random(0), True)
    assert chosen == []


SIX = list("ABCDEF")
THIS_ROUND = [[("A", "B"), ("C", "D")], [("E", "F")]]


def test_a_round_leaving_everyone_a_new_partner_next_round_is_not_short():
    assert _short_next(SIX, THIS_ROUND, grid_of({}, SIX), 3) == 0


@pytest.mark.parametrize("teams", [3, 2])
def test_a_round_leaving_one_without_a_new_partner_is_short_by_one_team(teams):
    # A has partnered C, D, E and F before, and B this round: nobody new is left for A.
    seen = grid_of({pair("A", other): 1 for other in "CDEF"}, SIX)
    assert _short_next(SIX, THIS_ROUND, seen, teams) == teams - 2


def test_the_grid_keeps_pairs_of_two_counted_at_least_once():
    grid = grid_of({frozenset({"A"}): 1, pair("A", "B"): 2, pair("A", "C"): 0}, ["A", "B", "C"])
    assert grid == {"A": Counter({"B": 2}), "B": Counter({"A": 2}), "C": Counter()}


@pytest.mark.parametrize(
    ("teams", "sixes", "fours"), [(11, 3, 1), (14, 4, 1), (9, 3, 0), (10, 2, 2)]
)
def test_three_teams_a_table_take_as_many_tables_of_6_as_seat_everyone(teams, sixes, fours):
    # 11 teams: 3 tables of 6 and 1 of 4, not 1 of 6 and 4 of 4, though both seat everyone.
    assert team_tables(teams, 3) == TeamTables(sixes, fours)
