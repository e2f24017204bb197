"""Who goes with whom (rules/matching.py, issue 38): pairing with the fewest repeats and
tables bettered by swaps, each checked against trying every way."""

import random
from itertools import combinations

import pytest

from scorekeeper.rules.matching import improve, pair_up


def pairings(units):
    """Every way to pair an even number of units."""
    if not units:
        yield []
        return
    first, rest = units[0], units[1:]
    for i, other in enumerate(rest):
        for more in pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


def test_pairing_makes_as_many_pairs_of_no_cost_as_any_pairing_then_the_cheapest_next():
    rng = random.Random(38)
    for _ in range(150):
        n = rng.choice([2, 4, 6, 8])
        units = list(range(n))
        costs = {frozenset(p): rng.choice([0, 0, 1, 2, 5]) for p in combinations(units, 2)}

        def cost(a, b, costs=costs):
            return costs[frozenset((a, b))]

        made = pair_up(units, cost)
        assert sorted(p for two in made for p in two) == units
        free = [sum(cost(*p) == 0 for p in way) for way in pairings(units)]
        assert sum(cost(*p) == 0 for p in made) == max(free)
        # Then level by level: among the units the free pairs leave, as many pairs costing at
        # most the next cost as any pairing of those units has.
        levels = sorted(set(costs.values()))
        left = sorted(p for two in made if cost(*two) > levels[0] for p in two)
        if len(levels) > 1:
            best = max(sum(cost(*p) <= levels[1] for p in way) for way in pairings(left))
            assert sum(levels[0] < cost(*p) <= levels[1] for p in made) == best


def test_an_odd_number_cannot_be_paired():
    with pytest.raises(ValueError, match="^3 cannot be paired.$"):
        pair_up(["A", "B", "C"], lambda a, b: 0)
    assert pair_up([], lambda a, b: 0) == []


def worth(group, cost):
    total = sum(cost(a, b) for a, b in combinations(group, 2))
    return (1 if total else 0, total)


def test_tables_are_swapped_until_no_swap_of_two_lowers_the_cost():
    """No swap of two units between two groups lowers (groups with any cost, total cost); the
    groups keep their sizes and every unit."""
    rng = random.Random(29)
    for _ in range(120):
        sizes = [rng.choice([2, 3, 4]) for _ in range(rng.randint(2, 4))]
        units = list(range(sum(sizes)))
        rng.shuffle(units)
        costs = {frozenset(p): rng.choice([0, 0, 0, 1, 4]) for p in combinations(units, 2)}

        def cost(a, b, costs=costs):
            return costs[frozenset((a, b))]

        groups, start = [], 0
        for size in sizes:
            groups.append(units[start : start + size])
            start += size
        before = [worth(g, cost) for g in groups]
        better = improve([list(g) for g in groups], cost)
        assert [len(g) for g in better] == sizes
        assert sorted(u for g in better for u in g) == sorted(units)
        after = [worth(g, cost) for g in better]
        total = (sum(w[0] for w in after), sum(w[1] for w in after))
        assert total <= (sum(w[0] for w in before), sum(w[1] for w in before))
        for g, h in combinations(range(len(better)), 2):
            for i in range(len(better[g])):
                for j in range(len(better[h])):
                    one, two = list(better[g]), list(better[h])
                    one[i], two[j] = two[j], one[i]
                    now = worth(one, cost), worth(two, cost)
                    was = after[g], after[h]
                    assert (now[0][0] + now[1][0], now[0][1] + now[1][1]) >= (
                        was[0][0] + was[1][0],
                        was[0][1] + was[1][1],
                    )


def test_a_group_without_cost_is_kept_before_a_lower_total():
    """Two tables: every swap lowers the total (6 to 5) but makes a table of no cost costly:
    none is taken, as a table with no repeat outweighs how often others met."""
    costs = {frozenset(p): c for p, c in (("AB", 0), ("CD", 6), ("AC", 3), ("BD", 2),
                                           ("AD", 2), ("BC", 3))}  # fmt: skip

    def cost(a, b):
        return costs.get(frozenset((a, b)), 0)

    assert improve([["A", "B"], ["C", "D"]], cost) == [["A", "B"], ["C", "D"]]
    # Without that, the swap is taken.
    costs[frozenset("AB")] = 1
    assert sorted(map(sorted, improve([["A", "B"], ["C", "D"]], cost))) != [["A", "B"], ["C", "D"]]
