"""A small room's search (rules/small_room.py, issue 38): every seating of one or two tables of 4
listed once, and the least extra meetings a night can add, checked against trying every way."""

import random
from itertools import product

import pytest

from scorekeeper.rules.small_room import _spread, _tables_of, tablings


@pytest.mark.parametrize(("players", "ways"), [(0, 1), (4, 3), (8, 315)])
def test_every_seating_of_the_room_is_listed_once(players, ways):
    names = [f"P{i}" for i in range(players)]
    seatings = list(_tables_of(names))
    assert len(seatings) == tablings(players) == ways
    as_sets = {
        frozenset(frozenset(map(frozenset, table)) for table in seating) for seating in seatings
    }
    assert len(as_sets) == ways  # no seating twice
    for seating in seatings:
        assert sorted(p for table in seating for team in table for p in team) == names
        assert all(len(table) == 2 and all(len(team) == 2 for team in table) for table in seating)


def test_twelve_would_be_too_many_seatings_to_list():
    assert tablings(12) == 315 * 495


def least_spread(counts, more):
    """Every way to add `more` meetings to these pairs, the cheapest (a pair met c times costs
    c more, then c + 1, ...)."""
    best = None
    for extra in product(range(more + 1), repeat=len(counts)):
        if sum(extra) != more:
            continue
        cost = sum(c * e + e * (e - 1) // 2 for c, e in zip(counts, extra, strict=True))
        best = cost if best is None else min(best, cost)
    return best


def test_the_least_extra_meetings_cost_each_to_the_pair_met_least():
    rng = random.Random(11)
    for _ in range(200):
        counts = [rng.randint(0, 3) for _ in range(rng.randint(1, 4))]
        more = rng.randint(0, 6)
        assert _spread(counts, more) == least_spread(counts, more), (counts, more)
    assert _spread([0, 0], -1) == 0
