"""Do ratings pick a game's winner better than win % does? Simulated clubs with known skills.

    .venv/bin/python bench/ratings_prediction.py [--members 16,40] [--games 300,1000]
        [--seeds 5] [--seating random,attendance,levels] [--spread 5] [--luck 10] [--three 0.2]
        [--chances 15]

Issue 30's "Done when": prediction measured honestly. Each club's members get a true skill
(normal, mean 25, sd `--spread`); each game seats 4 players (or, `--three` of the games, 6 as
3 sides of 2) with random partners among them, and a side's total is its players' true skills
each give or take `--luck` (sd) that night: the highest total wins. Who sits down, `--seating`:

- random: any members of the club, each as likely;
- attendance: 3 in 10 members are regulars, the rest come a fifth as often or less, and 3 in
  10 join partway through (few games, as a newcomer has);
- levels: players sit with those of about their own level as others see it (the serious table
  and the friendly one), so the strong mostly play the strong.

Before each game is played its winner is predicted from what was known so far, two ways:

- ratings: the side `model.chances` gives the best chance, from the ratings so far;
- win %: the side whose players' win % so far averages highest (players with no game yet
  left out of the average; a side with none, no prediction).

A prediction is undecided where the best figure is shared (every rating new, equal win %s);
undecided games count at a coin flip's worth (1/sides) in the "right" figures, and are shown.
Alongside: a coin flip, and the true skills themselves (the most any predictor could expect).
"Disagreed" counts the games where both predicted and picked different sides, and how many of
those each got right: the paired comparison, free of the games both got right or wrong.
Then the chances themselves, as a game page shows them (`model.chances`, weighed with
`--chances`, by default the app's `CHANCE_BETA`): scored by log loss against what happened, next
to the same chances with the ratings' own spread and to calling every game even, and how often
the side favoured won, by the chance it was given.
Only seeded randomness: the same arguments print the same figures.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._ratings_tally import Tally, spearman  # noqa: E402 -- the repository on the path
from scorekeeper.services.ratings.model import (  # noqa: E402
    BETA,
    CHANCE_BETA,
    NEW,
    Skill,
    chances,
    rate,
)

WAYS = ("ratings", "win %", "coin", "truth")
# The figures a standings table could rank members by.
FIGURES = ("rating", "win %")
# The chances weighed: as a game page shows them (`CHANCE_BETA`), with the spread the ratings are
# folded with (`BETA`), and every side alike.
CALLS = ("shown", "ratings' spread", "even")


@dataclass
class Club:
    """The tallies of one or more simulated clubs."""

    whole: dict[str, Tally] = field(default_factory=lambda: {w: Tally() for w in WAYS})
    # The same over the second half of each club's games, once the figures have had time.
    late: dict[str, Tally] = field(default_factory=lambda: {w: Tally() for w in WAYS})
    disagreed: int = 0
    ratings_right: int = 0
    win_rate_right: int = 0
    # At each club's end, how well each figure ranks the members who played against their true
    # skills (Spearman's rho), summed over the clubs merged; and how often the member it puts
    # top of the table is truly among the best quarter.
    clubs: int = 0
    rho: dict[str, float] = field(default_factory=lambda: {f: 0.0 for f in FIGURES})
    top_right: dict[str, int] = field(default_factory=lambda: {f: 0 for f in FIGURES})
    # Are the chances a game page shows right? Log loss (the surprise at the winner: lower is
    # better) summed over the games with one winner, for the chances as shipped, as the ratings'
    # own spread would give them, and for calling every game even.
    loss: dict[str, float] = field(default_factory=lambda: {c: 0.0 for c in CALLS})
    # Two-side games by the favourite's chance (a call, tens of percent): [games, won].
    said: dict[tuple[str, int], list[int]] = field(default_factory=dict)

    def merge(self, other: Club) -> None:
        for call in CALLS:
            self.loss[call] += other.loss[call]
        for key, (games, won) in other.said.items():
            tally = self.said.setdefault(key, [0, 0])
            tally[0] += games
            tally[1] += won
        self.clubs += other.clubs
        for figure in FIGURES:
            self.rho[figure] += other.rho[figure]
            self.top_right[figure] += other.top_right[figure]
        for way in WAYS:
            self.whole[way].merge(other.whole[way])
            self.late[way].merge(other.late[way])
        self.disagreed += other.disagreed
        self.ratings_right += other.ratings_right
        self.win_rate_right += other.win_rate_right


def best(figures: list[float | None]) -> int | None:
    """The index of the one highest figure; None if it is shared or nothing is known."""
    known = [f for f in figures if f is not None]
    if not known:
        return None
    top = max(known)
    at_top = [i for i, f in enumerate(figures) if f is not None and f == top]
    return at_top[0] if len(at_top) == 1 else None


def seat(
    seating: str,
    rng: random.Random,
    count: int,
    true: list[float],
    turnout: list[float],
    joined: list[int],
    number: int,
    spread: float,
) -> list[int]:
    """The players at one game's table, by the club's way of seating."""
    everyone = range(len(true))
    if seating == "random":
        return rng.sample(everyone, count)
    if seating == "attendance":
        present = [p for p in everyone if joined[p] <= number]
        chosen: list[int] = []
        while len(chosen) < count:
            left = [p for p in present if p not in chosen]
            chosen.append(rng.choices(left, weights=[turnout[p] for p in left])[0])
        return chosen
    if seating == "levels":
        # A player's level as the others see it is blurred, so the tables mix a little.
        seen = [t + rng.gauss(0.0, spread / 2) for t in true]
        around = rng.choice(list(everyone))
        return sorted(everyone, key=lambda p: abs(seen[p] - seen[around]))[:count]
    raise SystemExit(f"unknown seating {seating!r}: random, attendance or levels")


def play(
    members: int,
    games: int,
    seed: int,
    spread: float,
    luck: float,
    three: float,
    seating: str = "random",
    spread_of_chances: float = CHANCE_BETA,
) -> Club:
    """One club's games, each predicted before it is played, then rated."""
    rng = random.Random(seed)
    true = [rng.gauss(25.0, spread) for _ in range(members)]
    turnout = [1.0 if rng.random() < 0.3 else rng.uniform(0.05, 0.2) for _ in range(members)]
    joined = [0 if rng.random() < 0.7 else rng.randrange(games) for _ in range(members)]
    joined[:6] = [0] * 6  # always enough players for a table of 6
    skills: list[Skill] = [NEW] * members
    played = [0] * members
    won = [0] * members
    club = Club()
    for number in range(games):
        count = 3 if rng.random() < three else 2
        seated = seat(seating, rng, 2 * count, true, turnout, joined, number, spread)
        rng.shuffle(seated)  # partners at random among those at the table
        sides = [seated[2 * i : 2 * i + 2] for i in range(count)]

        averages: list[float | None] = []
        for side in sides:
            rates = [won[p] / played[p] for p in side if played[p]]
            averages.append(sum(rates) / len(rates) if rates else None)
        before = [[skills[p] for p in side] for side in sides]
        odds = {
            "shown": chances(before, spread_of_chances),
            "ratings' spread": chances(before, BETA),
            "even": [1 / count] * count,
        }
        picks = {
            "ratings": best(odds["shown"]),
            "win %": best(averages),
            "coin": rng.randrange(count),
            "truth": best([sum(true[p] for p in side) for side in sides]),
        }

        totals = [round(100 * sum(true[p] + rng.gauss(0.0, luck) for p in side)) for side in sides]
        winners = [i for i, t in enumerate(totals) if t == max(totals)]
        if len(winners) == 1:  # a shared first place has no one winner to predict
            winner = winners[0]
            for call, said in odds.items():
                club.loss[call] -= math.log(said[winner])
            for call in CALLS[:2]:
                if count == 2 and odds[call][0] != odds[call][1]:
                    favourite = max(odds[call])
                    tally = club.said.setdefault((call, min(int(favourite * 10), 9)), [0, 0])
                    tally[0] += 1
                    tally[1] += odds[call][winner] == favourite
            for way, pick in picks.items():
                club.whole[way].add(pick, winner, count)
                if number >= games // 2:
                    club.late[way].add(pick, winner, count)
            by_rating, by_win_rate = picks["ratings"], picks["win %"]
            if None not in (by_rating, by_win_rate) and by_rating != by_win_rate:
                club.disagreed += 1
                club.ratings_right += by_rating == winner
                club.win_rate_right += by_win_rate == winner
            for p in sides[winner]:
                won[p] += 1

        after = rate(before, totals)
        for side, rated in zip(sides, after, strict=True):
            for p, skill in zip(side, rated, strict=True):
                skills[p] = skill
                played[p] += 1

    ranked = [p for p in range(members) if played[p]]
    truth = [true[p] for p in ranked]
    best_quarter = sorted(range(members), key=lambda p: true[p])[-max(members // 4, 1) :]
    for figure, values in (
        ("rating", [skills[p].ordinal for p in ranked]),
        ("win %", [won[p] / played[p] for p in ranked]),
    ):
        club.rho[figure] = spearman(values, truth)
        # Top of the table: the highest figure, a tie going to the most games (as standings do).
        top = max(range(len(ranked)), key=lambda i: (values[i], played[ranked[i]]))
        club.top_right[figure] = int(ranked[top] in best_quarter)
    club.clubs = 1
    return club


def line(label: str, club: Club) -> str:
    """One row of the table."""
    whole = "".join(f"{100 * club.whole[w].share():8.1f}%" for w in WAYS)
    late = "".join(f"{100 * club.late[w].share():8.1f}%" for w in WAYS[:2])
    undecided = f"{club.whole['ratings'].undecided:>6}{club.whole['win %'].undecided:>6}"
    both = club.ratings_right + club.win_rate_right
    # How far ratings' share of the disagreements is from even, in standard errors (a sign
    # test): past 2, unlikely to be the dice.
    z = (club.ratings_right - both / 2) / math.sqrt(both / 4) if both else 0.0
    disagreed = f"{club.disagreed:>6} {club.ratings_right:>5} {club.win_rate_right:>5} {z:+5.1f}"
    table = "".join(
        f"{club.rho[f] / club.clubs:7.2f}{club.top_right[f]:>4}/{club.clubs:<3}" for f in FIGURES
    )
    return (
        f"{label} {club.whole['ratings'].games():>6} |{whole} |{late} |{undecided} |{disagreed} |"
        f"{table}"
    )


def chance_lines(by_seating: dict[str, Club], everything: Club, spread: float) -> list[str]:
    """The chances' own table: log loss by seating, then how often the favourite won."""
    lines = [
        f"\nThe chances as a game page shows them (spread {spread:g}) against the ratings' own "
        f"spread ({BETA:.2f}) and calling every game even: log loss per game (lower is better)",
        f"{'seating':<10} {'games':>6}" + "".join(f"{c:>17}" for c in CALLS),
    ]
    for label, club in (*by_seating.items(), ("all", everything)):
        games = club.whole["ratings"].games()
        lines.append(
            f"{label:<10} {games:>6}"
            + "".join(f"{club.loss[c] / max(games, 1):>17.3f}" for c in CALLS)
        )
    lines.append(
        "\nTwo-side games (all seatings) by the favourite's chance: how often it won, "
        "as shown | with the ratings' spread"
    )
    for tens in range(5, 10):
        cells = []
        for call in CALLS[:2]:
            games, won = everything.said.get((call, tens), [0, 0])
            cells.append(f"{games:>6} games, won {won / games:4.0%}" if games else f"{'':>21}")
        lines.append(f"  said {10 * tens}-{10 * tens + 10}%: " + " | ".join(cells))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", default="16,40", help="club sizes, comma separated")
    parser.add_argument("--games", default="300,1000", help="games per club, comma separated")
    parser.add_argument("--seeds", type=int, default=5, help="clubs of each size and length")
    parser.add_argument("--seating", default="random,attendance,levels", help="who sits down")
    parser.add_argument("--spread", type=float, default=5.0, help="sd of members' true skills")
    parser.add_argument("--luck", type=float, default=10.0, help="sd of a player's night")
    parser.add_argument("--three", type=float, default=0.2, help="share of 3-side games")
    parser.add_argument(
        "--chances", type=float, default=CHANCE_BETA, help="the spread the chances are weighed with"
    )
    args = parser.parse_args()
    sizes = [int(s) for s in args.members.split(",")]
    lengths = [int(g) for g in args.games.split(",")]
    seatings = args.seating.split(",")
    started = time.perf_counter()

    print(
        f"true skill sd {args.spread}, a player's luck sd {args.luck}, "
        f"{args.three:.0%} of games 3 sides of 2, seeds 1 to {args.seeds} each"
    )
    header = (
        f"{'seating':<10} {'members':>7} {'games':>5} {'scored':>6} |"
        + "".join(f"{w:>9}" for w in WAYS)
        + f" |{'late: rt':>9}{'win %':>9} |{'undecided':>12} |"
        + f"{'disagreed':>9} {'rt':>5} {'win %':>5} {'z':>5} |"
        + f"{'rho rt':>7}{'top':>8}{'win %':>7}{'top':>8}"
    )
    print(header)
    print("-" * len(header))
    everything = Club()
    by_seating: dict[str, Club] = {}
    for seating in seatings:
        this_seating = by_seating[seating] = Club()
        for members in sizes:
            for games in lengths:
                row = Club()
                for seed in range(1, args.seeds + 1):
                    row.merge(
                        play(
                            members,
                            games,
                            seed,
                            args.spread,
                            args.luck,
                            args.three,
                            seating,
                            args.chances,
                        )
                    )
                this_seating.merge(row)
                print(line(f"{seating:<10} {members:>7} {games:>5}", row))
        everything.merge(this_seating)
        print(line(f"{seating:<10} {'all':>7} {'':>5}", this_seating))
        print("-" * len(header))
    print(line(f"{'all':<10} {'':>7} {'':>5}", everything))
    print(
        "\nright, as a share of the games scored (an undecided game at a coin flip's worth); "
        "rt: ratings;\nlate: the second half of each club's games; truth: the side of the "
        "highest true skills, the ceiling;\nundecided: ratings, win %; disagreed: games where "
        "both picked, different sides, how many each got right,\nand z, ratings' lead there "
        "in standard errors (a sign test: past 2, unlikely to be luck);\nrho: at each club's end, "
        "the members who played ranked by the conservative rating (rt) and by win %, against "
        "their true skills\n(Spearman, averaged over the clubs); top: how many clubs' top of "
        "the table was truly among the best quarter."
    )
    print("\n".join(chance_lines(by_seating, everything, args.chances)))
    print(f"{time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
