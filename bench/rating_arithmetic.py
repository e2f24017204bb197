"""The rating model's cost a game: `model.rate` now (its own arithmetic, `plackett_luce.py`)
against `model.rate` as it was (openskill 6.2.0's PlackettLuce objects), and the bare arithmetic.

    .venv/bin/python bench/rating_arithmetic.py [--games 3000] [--rounds 5]

Issue 39: the ratings fold (some 30,000-40,000 game ratings for a 10,000-game club's scopes)
must take under 2 s, so a 2-against-2 game should cost under 10 us. For each shape (2 v 2,
2 v 2 v 2, four players alone with a tie for first, and games shaped as the demo club plays
them) each way rates the same `--games` seeded games (skills mu 10-40, sigma 1-8.3) `--rounds`
times; the best round's CPU time a game (time.process_time, so other processes on a shared
machine count less) is printed, then the old way's time over the new, and for 2 v 2 and the
demo's mix what 40,000 games (a 10,000-game club's scopes) cost each way. The two ways' floats
are checked equal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openskill.models import PlackettLuce  # noqa: E402

from scorekeeper.services import demo  # noqa: E402
from scorekeeper.services.ratings import model  # noqa: E402
from scorekeeper.services.ratings.model import Skill, places, rate  # noqa: E402
from scorekeeper.services.ratings.plackett_luce import rate_fast  # noqa: E402

SHAPES = {
    "2 v 2": ([2, 2], [2400, 1900]),
    "2 v 2 v 2": ([2, 2, 2], [1500, 3100, 900]),
    "1 v 1 v 1 v 1 (tie)": ([1, 1, 1, 1], [800, 1200, 1200, -50]),
}

_OPENSKILL = PlackettLuce(
    mu=model.MU,
    sigma=model.SIGMA,
    beta=model.BETA,
    kappa=model.KAPPA,
    tau=model.TAU,
    margin=0.0,
    limit_sigma=False,
    balance=False,
)


def old_rate(sides: list[list[Skill]], totals: list[int]) -> list[list[Skill]]:
    """`model.rate` before issue 39: openskill's objects, deep-copied and rebuilt each game."""
    theirs = [[_OPENSKILL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    ranks = [float(1 + sum(other > total for other in totals)) for total in totals]
    after = _OPENSKILL.rate(theirs, ranks=ranks)
    return [[Skill(r.mu, r.sigma) for r in side] for side in after]


def demo_shape(rng: random.Random) -> tuple[list[int], list[int]]:
    """A game as the demo club plays them (`services/demo.py`'s rule sets and how many sides
    sit down, alone at club rules, else in twos), its totals from a Hand and Foot range."""
    keys = list(demo.RULESETS)
    key = rng.choices(keys, [demo.RULESETS[k][0] for k in keys])[0]
    counts = demo.RULESETS[key][1]
    count = rng.choices(list(counts), list(counts.values()))[0]
    per_side = 1 if demo.engine.PRESETS[key].individuals else 2
    return [per_side] * count, [rng.randrange(-500, 9000, 5) for _ in range(count)]


def best_time(way, games: list, rounds: int) -> tuple[float, list]:
    """The least CPU seconds a game over `rounds` passes over `games`, and the last results."""
    best = float("inf")
    results: list = []
    for _ in range(rounds):
        started = time.process_time()
        results = [way(sides, totals) for sides, totals in games]
        best = min(best, (time.process_time() - started) / len(games))
    return best, results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(39)
    print(f"{args.games} games a shape, best of {args.rounds} rounds, CPU us a game")
    print(f"{'shape':<22}{'old':>9}{'new':>9}{'arithmetic':>12}{'old/new':>9}")
    mixes = {name: [(sizes, totals)] * args.games for name, (sizes, totals) in SHAPES.items()}
    mixes["the demo club's mix"] = [demo_shape(rng) for _ in range(args.games)]
    for name, shapes in mixes.items():
        games = [
            (
                [
                    [Skill(rng.uniform(10, 40), rng.uniform(1, 25 / 3)) for _ in range(n)]
                    for n in sizes
                ],
                totals,
            )
            for sizes, totals in shapes
        ]
        bare = [
            ([[(s.mu, s.sigma) for s in side] for side in sides], places(totals))
            for sides, totals in games
        ]
        old, theirs = best_time(old_rate, games, args.rounds)
        new, ours = best_time(rate, games, args.rounds)
        arithmetic, _ = best_time(rate_fast, bare, args.rounds)
        if ours != theirs:
            raise SystemExit(f"{name}: model.rate and openskill gave different ratings")
        print(
            f"{name:<22}{old * 1e6:>9.1f}{new * 1e6:>9.1f}{arithmetic * 1e6:>12.1f}"
            f"{old / new:>8.1f}x"
        )
        if name in ("2 v 2", "the demo club's mix"):
            print(
                f"{'':<22}{'40,000 such games:':>18} {old * 40_000:.2f} s old, "
                f"{new * 40_000:.2f} s new, {arithmetic * 40_000:.2f} s bare arithmetic"
            )


if __name__ == "__main__":
    main()
