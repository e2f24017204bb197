"""Simulated clubs for bench/ratings_prediction.py: who sits down, and how a side's total comes.

A club's members have a true skill (normal, sd `SKILL_SD`); a night is several games; at each
game four players (one game in five, six as three sides of two) sit down with partners drawn
at random among them. Attendance is a club's: three in ten members are regulars, the rest come
a fifth as often or less, and three in ten join partway through the season.

A side's total is `BASE` plus `POINTS` a skill unit of its players' night, a Hand and Foot
total of about ten thousand give or take a few thousand. How a night goes is the world's:

- additive: each player's skill give or take their luck (sd `LUCK`), the very model the
  rating assumes (Plackett-Luce over Gaussian performances), so its best case;
- synergy: as additive, and each partnership plays above or below its players' sum by a fixed
  amount of its own (sd `SYNERGY`): some pairs click, some do not;
- nightly: as additive, but how much luck there is varies by night (sd from 3 to 20);
- improving: each member's skill moves across the season, up or down, by a drift of their
  own (sd `SKILL_SD`: one in three members ends a season a whole sd from where they began);
- heavy: the luck has heavy tails (Student's t with 3 degrees of freedom, the same sd): now
  and then a side is caught with its whole foot, and the margin is a rout.

Only seeded randomness: a world, a seed and a size give the same games every time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

WORLDS = ("additive", "synergy", "nightly", "improving", "heavy")
SKILL_SD = 5.0
LUCK = 10.0
SYNERGY = 5.0
BASE = 10_000
POINTS = 100
GAMES_A_NIGHT = 6


@dataclass(frozen=True)
class Game:
    """One game as a scorekeeper records it: who sat on which side, and each side's total."""

    sides: list[list[int]]
    totals: list[int]


def _luck(world: str, rng: random.Random, night_sd: float) -> float:
    """One player's luck on one game."""
    if world == "heavy":
        # Student's t with 3 degrees of freedom has variance 3: scaled to sd LUCK.
        chi = sum(rng.gauss(0.0, 1.0) ** 2 for _ in range(3))
        return LUCK * rng.gauss(0.0, 1.0) / math.sqrt(chi / 3) / math.sqrt(3)
    return rng.gauss(0.0, night_sd)


def club(world: str, seed: int, members: int, games: int, base: int = BASE) -> Iterator[Game]:
    """A club's season of `games` games in `world`, in the order they were played; a side's
    total `base` plus its night (a lower base: the same margins, smaller totals)."""
    if world not in WORLDS:
        raise SystemExit(f"unknown world {world!r}: {', '.join(WORLDS)}")
    # The world's name in the seed: each world's clubs are its own, not the others' relabelled.
    rng = random.Random(f"{world}:{seed}")
    true = [rng.gauss(0.0, SKILL_SD) for _ in range(members)]
    drift = [rng.gauss(0.0, SKILL_SD) for _ in range(members)] if world == "improving" else None
    turnout = [1.0 if rng.random() < 0.3 else rng.uniform(0.05, 0.2) for _ in range(members)]
    joined = [0 if rng.random() < 0.7 else rng.randrange(games) for _ in range(members)]
    joined[:6] = [0] * 6  # always enough players for a table of 6
    synergy: dict[tuple[int, int], float] = {}
    night_sd = LUCK
    for number in range(games):
        if number % GAMES_A_NIGHT == 0 and world == "nightly":
            night_sd = rng.uniform(3.0, 20.0)
        count = 3 if rng.random() < 0.2 else 2
        present = [p for p in range(members) if joined[p] <= number]
        seated: list[int] = []
        while len(seated) < 2 * count:
            left = [p for p in present if p not in seated]
            seated.append(rng.choices(left, weights=[turnout[p] for p in left])[0])
        sides = [sorted(seated[2 * i : 2 * i + 2]) for i in range(count)]
        totals = []
        for side in sides:
            night = 0.0
            for p in side:
                skill = true[p] + (drift[p] * number / games if drift else 0.0)
                night += skill + _luck(world, rng, night_sd)
            if world == "synergy":
                pair = (side[0], side[1])
                if pair not in synergy:
                    synergy[pair] = rng.gauss(0.0, SYNERGY)
                night += synergy[pair]
            totals.append(round(base + POINTS * night))
        yield Game(sides, totals)
