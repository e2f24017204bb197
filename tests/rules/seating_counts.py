"""A night's seating counted afresh from its rounds' tables: partner repeats, opponent repeats and
the spread of sit-outs, for tests and benches to share (nothing here asks the engine).

A round is anything with `.tables` (each with `.sides`, tuples of player names) and
`.sitting_out`, as scorekeeper.rules.Round is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any


def partner_counts(rounds: Iterable[Any]) -> Counter[frozenset[str]]:
    """How many times each pair sat on the same side of a table."""
    counts: Counter[frozenset[str]] = Counter()
    for round_ in rounds:
        for table in round_.tables:
            for side in table.sides:
                counts.update(frozenset(p) for p in combinations(side, 2))
    return counts


def opponent_counts(rounds: Iterable[Any]) -> Counter[frozenset[str]]:
    """How many times each pair sat on opposite sides of the same table."""
    counts: Counter[frozenset[str]] = Counter()
    for round_ in rounds:
        for table in round_.tables:
            for one, other in combinations(table.sides, 2):
                counts.update(frozenset((a, b)) for a in one for b in other)
    return counts


def partner_repeats(rounds: Iterable[Any]) -> int:
    """The sum over pairs of max(0, times partnered - 1)."""
    return sum(c - 1 for c in partner_counts(rounds).values() if c > 1)


def opponent_repeats(rounds: Iterable[Any]) -> int:
    """The sum over pairs of C(c, 2), c the times opposed: the k-th meeting counts k - 1."""
    return sum(c * (c - 1) // 2 for c in opponent_counts(rounds).values())


def sit_out_spreads(players: Sequence[str], rounds: Iterable[Any]) -> list[int]:
    """After each round, the most sit-outs of a player minus the fewest (fair: at most 1)."""
    counts = dict.fromkeys(players, 0)
    spreads = []
    for round_ in rounds:
        for player in round_.sitting_out:
            counts[player] += 1
        spreads.append(max(counts.values()) - min(counts.values()))
    return spreads


def sit_out_fair(players: Sequence[str], rounds: Iterable[Any]) -> bool:
    """Whether no player sat out twice before every player had sat out once, round by round."""
    return all(spread <= 1 for spread in sit_out_spreads(players, rounds))
