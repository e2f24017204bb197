"""How well chances called before games did, for bench/ratings_prediction.py, with intervals.

Per club, over the games with one winner: log loss (the surprise at the winner, -ln of the
chance it was given: lower is better; calling two sides even scores ln 2 = 0.693), the Brier
score (the squared misses over every side: lower is better), accuracy (the side given the best
chance won; a best chance shared counts the winner's share) and calibration (the expected
calibration error: over every side of every game, in tenths of chance, how far the chances
said were from how often those sides won, weighed by how many; 0 is perfect).

Intervals are a bootstrap over clubs, not games: a club's games share its members, so they are
not independent draws, and a club resampled whole keeps that. Seeded: the same figures every
run.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

METRICS = ("log loss", "Brier", "accuracy", "calibration")
BINS = 10
RESAMPLES = 2000


@dataclass
class Score:
    """One club's tallies for one way of calling its games."""

    games: int = 0
    loss: float = 0.0
    brier: float = 0.0
    right: float = 0.0
    sides: int = 0
    # By tenth of chance said: sides, chances summed, wins.
    bins: list[list[float]] = field(default_factory=lambda: [[0, 0.0, 0] for _ in range(BINS)])

    def add(self, said: Sequence[float], winner: int) -> None:
        """One game's chances, and which side won it."""
        self.games += 1
        self.loss -= math.log(max(said[winner], 1e-12))
        self.brier += sum((p - (i == winner)) ** 2 for i, p in enumerate(said))
        top = max(said)
        best = [i for i, p in enumerate(said) if p == top]
        self.right += (winner in best) / len(best)
        for i, p in enumerate(said):
            cell = self.bins[min(int(p * BINS), BINS - 1)]
            cell[0] += 1
            cell[1] += p
            cell[2] += i == winner
        self.sides += len(said)


def figures(clubs: Sequence[Score]) -> dict[str, float]:
    """The four figures over the clubs given, each game weighing the same."""
    games = sum(c.games for c in clubs) or 1
    sides = sum(c.sides for c in clubs) or 1
    off = 0.0
    for b in range(BINS):
        said = sum(c.bins[b][1] for c in clubs)
        won = sum(c.bins[b][2] for c in clubs)
        off += abs(said - won)
    return {
        "log loss": sum(c.loss for c in clubs) / games,
        "Brier": sum(c.brier for c in clubs) / games,
        "accuracy": sum(c.right for c in clubs) / games,
        "calibration": off / sides,
    }


def interval(
    clubs: int, figure: Callable[[list[int]], float], resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float, float]:
    """A figure over all the clubs, and its 95% bootstrap interval (clubs drawn with
    replacement `resamples` times: `figure` is given the indices of the clubs drawn)."""
    rng = random.Random(seed)
    whole = figure(list(range(clubs)))
    drawn = sorted(figure([rng.randrange(clubs) for _ in range(clubs)]) for _ in range(resamples))
    return whole, drawn[int(0.025 * resamples)], drawn[int(0.975 * resamples) - 1]


def reliability(clubs: Sequence[Score]) -> list[tuple[int, float, float]]:
    """By tenth of chance said: how many sides, the mean chance said, how often they won."""
    rows = []
    for b in range(BINS):
        count = sum(c.bins[b][0] for c in clubs)
        if count:
            said = sum(c.bins[b][1] for c in clubs) / count
            won = sum(c.bins[b][2] for c in clubs) / count
            rows.append((count, said, won))
    return rows
