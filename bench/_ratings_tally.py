"""Tallies and rank correlation for bench/ratings_prediction.py: right, wrong, undecided, rho."""

from __future__ import annotations

import math
from dataclasses import dataclass


def ranks_of(values: list[float]) -> list[float]:
    """Each value's rank, 1 for the lowest, ties sharing the average of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranks[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation of two lists (Pearson's over their ranks)."""
    ra, rb = ranks_of(a), ranks_of(b)
    mean = (len(a) + 1) / 2
    cov = sum((x - mean) * (y - mean) for x, y in zip(ra, rb, strict=True))
    var_a = sum((x - mean) ** 2 for x in ra)
    var_b = sum((y - mean) ** 2 for y in rb)
    return cov / math.sqrt(var_a * var_b) if var_a and var_b else 0.0


@dataclass
class Tally:
    """How one way of predicting fared: right, wrong and undecided games."""

    right: int = 0
    wrong: int = 0
    undecided: int = 0
    # The coin flip's expected share of the undecided games (1/2 or 1/3 each).
    undecided_worth: float = 0.0

    def add(self, pick: int | None, winner: int, sides: int) -> None:
        """Count one prediction (None: undecided)."""
        if pick is None:
            self.undecided += 1
            self.undecided_worth += 1 / sides
        elif pick == winner:
            self.right += 1
        else:
            self.wrong += 1

    def games(self) -> int:
        return self.right + self.wrong + self.undecided

    def share(self) -> float:
        """Right, with each undecided game worth a coin flip."""
        return (self.right + self.undecided_worth) / max(self.games(), 1)

    def merge(self, other: Tally) -> None:
        self.right += other.right
        self.wrong += other.wrong
        self.undecided += other.undecided
        self.undecided_worth += other.undecided_worth
