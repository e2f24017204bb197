"""What a night's seating counts as it plans (issue 38): partnerships, oppositions and rounds
missed so far, what a round costs, and who may sit out. `rotating.py`, `small_room.py` and
`fixed_pairs.py` plan with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Team = tuple[str, ...]
Groups = list[list[Team]]
Cost = tuple[int, int, int]
# Pair counts looked up by one name, then the other.
Grid = Mapping[str, Counter[str]]


@dataclass
class Tally:
    """What the night and the season have seen so far, counted as the planning goes."""

    partnered: Counter[frozenset[str]]
    opposed: Counter[frozenset[str]]
    missed: Counter[str]
    season_out: Mapping[str, int]

    def cost(self, groups: Groups, out: Sequence[str]) -> Cost:
        """A round's cost: partnerships repeated, season sit-outs, opponents met again."""
        again = sum(
            1 for g in groups for team in g if len(team) == 2 and self.partnered[pair_of(team)]
        )
        met = 0
        for group in groups:
            for i, one in enumerate(group):
                for other in group[i + 1 :]:
                    met += sum(self.opposed[frozenset((a, b))] for a in one for b in other)
        return (again, sum(self.season_out.get(p, 0) for p in out), met)

    def add(self, groups: Groups, out: Sequence[str], times: int = 1) -> None:
        """Count a round in (times 1) or take it out again (times -1)."""
        for p in out:
            self.missed[p] += times
        for group in groups:
            for i, one in enumerate(group):
                if len(one) == 2:
                    self.partnered[pair_of(one)] += times
                for other in group[i + 1 :]:
                    for a in one:
                        for b in other:
                            self.opposed[frozenset((a, b))] += times


def pair_of(team: Team) -> frozenset[str]:
    return frozenset(team)


def sit_out_choice(
    present: Sequence[str], need: int, missed: Mapping[str, int]
) -> tuple[list[str], list[str], int]:
    """Who must sit out (missed fewest), who may (the next fewest, a tie), and how many of them."""
    if need <= 0:
        return [], [], 0
    threshold = sorted(missed[p] for p in present)[need - 1]
    forced = [p for p in present if missed[p] < threshold]
    tier = [p for p in present if missed[p] == threshold]
    return forced, tier, need - len(forced)
