"""Are the ratings worth their place? Chances called before games, scored on unseen clubs.

    .venv/bin/python bench/ratings_prediction.py [--members 24] [--games 400]
        [--train 3] [--held 8] [--worlds additive,synergy,nightly,improving,heavy]
        [--base 10000] [--held-base N]

Issue 42. Simulated clubs (`bench/_ratings_worlds.py`) in five worlds, four of them not the
rating's own model: partner synergy, luck that varies by night, players who improve over a
season, heavy-tailed margins. In every club each game is called before it is played, from the
games before it, and only then learnt from: in time order, as a club's pages call them.

The ways of calling (`bench/_ratings_predictors.py`): every game even; win % shrunk toward
even; points per game; the app's ratings (the finishing order alone, `model.rate`), and
ratings learnt from the margin as well. Each has its parameters (the chances' spread, the
shrinkage, the margin's scale and noise) chosen where it scores best, by log loss, on the
training clubs (`--train` seeds of every world): then it is scored, with those parameters, on
other clubs never seen (`--held` seeds of every world, seeds from 1001), with log loss, Brier
score, accuracy and calibration (`bench/_ratings_scores.py`), each with its 95% interval from
a bootstrap over clubs, and each way's log loss less the app's, paired club by club.
Only seeded randomness: the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._ratings_predictors import FAMILIES, Family  # noqa: E402 -- the repository on the path
from bench._ratings_scores import (  # noqa: E402
    METRICS,
    RESAMPLES,
    Score,
    figures,
    interval,
    reliability,
)
from bench._ratings_worlds import BASE, POINTS, WORLDS, Game, club  # noqa: E402
from scorekeeper.services.ratings.model import CHANCE_BETA  # noqa: E402

KEPT = "order"
HELD_FROM = 1001


def winner_of(game: Game) -> int | None:
    """The one side with the highest total; None where first place is shared."""
    top = max(game.totals)
    first = [i for i, t in enumerate(game.totals) if t == top]
    return first[0] if len(first) == 1 else None


def called(family: Family, fold: object, calls: tuple, games: list[Game]) -> list[Score]:
    """One club's games called by one family folded one way, a Score for each call."""
    state = family.start(fold)
    scores = [Score() for _ in calls]
    for game in games:
        winner = winner_of(game)
        if winner is not None:
            for score, call in zip(scores, calls, strict=True):
                score.add(state.predict(game.sides, call), winner)
        state.learn(game)
    return scores


def train(worlds: list[str], seeds: int, members: int, length: int, base: int) -> dict[str, tuple]:
    """Each family's (fold, call) with the lowest log loss over the training clubs; printed."""
    loss: dict[tuple[str, object, object], list[float]] = defaultdict(lambda: [0.0, 0])
    for world in worlds:
        for seed in range(1, seeds + 1):
            games = list(club(world, seed, members, length, base))
            for family in FAMILIES:
                for fold in family.folds:
                    for call, score in zip(
                        family.calls, called(family, fold, family.calls, games), strict=True
                    ):
                        cell = loss[(family.name, fold, call)]
                        cell[0] += score.loss
                        cell[1] += score.games
    chosen = {}
    print(f"Chosen on the training clubs (seeds 1 to {seeds} of each world), by log loss:")
    for family in FAMILIES:
        mine = {k: v[0] / max(v[1], 1) for k, v in loss.items() if k[0] == family.name}
        (_, fold, call), best = min(mine.items(), key=lambda kv: kv[1])
        chosen[family.name] = (fold, call)
        print(f"  {family.name:<8} folded with {fold}, asked with {call}: {best:.4f}")
        if family.name == KEPT:
            shown = mine[(KEPT, None, CHANCE_BETA)]
            print(f"  {'':<8} (the app's spread, {CHANCE_BETA:g}: {shown:.4f})")
    return chosen


def held_out(
    worlds: list[str], seeds: int, members: int, length: int, base: int, chosen: dict[str, tuple]
) -> dict[str, dict[str, list[Score]]]:
    """By world, by family: a Score for each held-out club, called with the chosen values."""
    found: dict[str, dict[str, list[Score]]] = {w: defaultdict(list) for w in worlds}
    for world in worlds:
        for seed in range(HELD_FROM, HELD_FROM + seeds):
            games = list(club(world, seed, members, length, base))
            for family in FAMILIES:
                fold, call = chosen[family.name]
                found[world][family.name].append(called(family, fold, (call,), games)[0])
    return found


def table(label: str, by_family: dict[str, list[Score]], resamples: int) -> list[str]:
    """One world's figures: each family's four, then its log loss less the app's."""
    clubs = len(by_family[KEPT])
    games = sum(s.games for s in by_family[KEPT])
    lines = [
        f"\n{label}: {clubs} held-out clubs, {games} games with one winner",
        f"{'':<8}" + "".join(f"{m:>24}" for m in METRICS) + f"{'log loss less the app':>26}",
    ]
    for name, scores in by_family.items():
        cells = []
        for metric in METRICS:
            whole, low, high = interval(
                clubs, lambda d, s=scores, m=metric: figures([s[i] for i in d])[m], resamples
            )
            cells.append(f"{whole:>8.3f} [{low:.3f}, {high:.3f}]")
        kept = by_family[KEPT]
        whole, low, high = interval(
            clubs,
            lambda d, s=scores, k=kept: (
                figures([s[i] for i in d])["log loss"] - figures([k[i] for i in d])["log loss"]
            ),
        )
        cells.append(f"{whole:>+10.4f} [{low:+.4f}, {high:+.4f}]")
        lines.append(f"{name:<8}" + "".join(f"{c:>24}" for c in cells))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=24, help="members of each club")
    parser.add_argument("--games", type=int, default=400, help="games of each club's season")
    parser.add_argument("--train", type=int, default=3, help="training clubs of each world")
    parser.add_argument("--held", type=int, default=8, help="held-out clubs of each world")
    parser.add_argument("--worlds", default=",".join(WORLDS), help="the worlds simulated")
    parser.add_argument(
        "--resamples", type=int, default=RESAMPLES, help="bootstrap draws for each interval"
    )
    parser.add_argument("--base", type=int, default=BASE, help="a side's total less its night")
    parser.add_argument(
        "--held-base", type=int, help="the held-out clubs' base, if not --base (other rules)"
    )
    args = parser.parse_args()
    worlds = args.worlds.split(",")
    started = time.perf_counter()
    print(
        f"clubs of {args.members} members, {args.games} games a season; worlds: {', '.join(worlds)}"
    )
    held_base = args.base if args.held_base is None else args.held_base
    print(f"a side's total: {args.base:,} (held out: {held_base:,}) and {POINTS} a skill unit")
    chosen = train(worlds, args.train, args.members, args.games, args.base)
    found = held_out(worlds, args.held, args.members, args.games, held_base, chosen)
    everything: dict[str, list[Score]] = defaultdict(list)
    for world in worlds:
        print("\n".join(table(world, found[world], args.resamples)))
        for name, scores in found[world].items():
            everything[name] += scores
    print("\n".join(table("all worlds", everything, args.resamples)))
    print(f"\nThe app's ({KEPT}) chances on the held-out clubs, every side of every game:")
    for count, said, won in reliability(everything[KEPT]):
        print(f"  said {100 * said:5.1f}% on average: {count:>6} sides, won {100 * won:5.1f}%")
    print(f"\n{time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
