"""The rating model: each player's skill, updated from finished games (openskill's Plackett-Luce).

Pure functions over values: no Flask, no database, so the same games in the same order give the
same ratings wherever they are computed (a request, `flask recompute`, a test, a bench script).
The model's parameters are pinned here rather than left to openskill's defaults, so an upgrade
of the library that changed a default could not change every club's ratings unnoticed.

A game is rated by who finished where, not by how much: Hand and Foot totals depend on the
rules (a four-deal classic game against a ten-thousand game), so a margin would weigh games by
their rules rather than by the play. Measured (issue 42, docs/RATINGS.md): a rating learnt from
the margin called games better on clubs whose totals were the size it was tuned on, and worse
than calling them even where another rule set's totals were smaller. Equal totals are a tie
and share a place.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from scorekeeper.services.ratings import plackett_luce

# openskill's own defaults, written out: a newcomer's skill 25 give or take 25/3, a game's
# performance spread (beta) half that, and tau, the little uncertainty added back before each
# game so a rating keeps following a player who improves (sigma never settles at nothing).
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001
# The conservative figure is the skill less this many uncertainties: a member with few games
# (a wide sigma) does not top the table on two lucky wins.
Z = 3.0
# `balanced` tries every partnership; 12 players (3 sides of 4: 5,775 ways) is well past a
# Hand and Foot table and still quick, while 16 in sides of 4 would be 2.6 million.
MOST_TO_BALANCE = 12

# A rating is provisional until it stands on this many games in its scope: it is shown, marked,
# and a sort by rating lists it after every rating that is not. Why 10: a newcomer's
# uncertainty (sigma) starts at 8.3; after 10 games among regulars it is about 5.6, a third
# less, and the figure shown has risen from 0 to where a game moves it by about a point; before
# that, one lucky night decides where they stand (docs/RATINGS.md, "Provisional ratings").
PROVISIONAL_GAMES = 10

# A side's chance before a game is weighed with a wider performance spread than the ratings are
# folded with. With the ratings' own (BETA) the chances were far too sure for a card game: in
# the simulated clubs of `bench/ratings_prediction.py` (a player's night varying twice as much
# as skills do), a side it gave 90% or more won 72% of the time, and its chances scored worse
# than calling every game even (log loss 0.835 against 0.773). With 15 they score 0.748, and
# sides given 60-70% won 60%, 70-80% won 69%; over lucks of 5 to 15, spreads of 15 to 20 were
# level and best (docs/RATINGS.md). Only the chances use it: who is favoured, so the ratings
# and the winner predicted of two sides, are the same either way.
CHANCE_BETA = 15.0


@functools.cache
def _model(beta: float) -> PlackettLuce:
    """openskill's Plackett-Luce with our pinned parameters and this performance spread."""
    return PlackettLuce(
        mu=MU,
        sigma=SIGMA,
        beta=beta,
        kappa=KAPPA,
        tau=TAU,
        margin=0.0,
        limit_sigma=False,
        balance=False,
    )


@dataclass(frozen=True)
class Skill:
    """A player's skill estimate (mu) and its uncertainty (sigma), in openskill's units."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative figure, mu less three sigmas: what ranks members."""
        return self.mu - Z * self.sigma


NEW = Skill(MU, SIGMA)


def places(totals: Sequence[int]) -> list[int]:
    """Each side's place by its total: 1 for the highest, equal totals share a place (1, 1, 3)."""
    if not totals:
        raise ValueError("A game needs the totals of its sides; none were given.")
    # 1 + how many are higher: a total's first place among them sorted highest first.
    ordered = sorted(totals, reverse=True)
    return [ordered.index(total) + 1 for total in totals]


def _checked(sides: Sequence[Sequence[Skill]]) -> list[list[tuple[float, float]]]:
    """Refuse what cannot be rated, in words; else each side's (mu, sigma) pairs, read on the
    way (one pass: `rate` runs some 40,000 times in a club's fold)."""
    if len(sides) < 2:
        raise ValueError(f"A game needs at least 2 sides to rate; {len(sides)} given.")
    pairs = []
    for number, side in enumerate(sides, start=1):
        if len(side) == 0:
            raise ValueError(f"Side {number} has no players; every side needs at least one.")
        values = []
        for skill in side:
            if not isinstance(skill, Skill):
                raise ValueError(f"Side {number} holds {skill!r}, which is not a Skill.")
            values.append((skill.mu, skill.sigma))
        pairs.append(values)
    return pairs


def _theirs(sides: Sequence[Sequence[Skill]], model: PlackettLuce) -> list[list]:
    """The sides as openskill's rating objects (new ones each time: openskill's are mutable)."""
    return [[model.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]


def rate(sides: Sequence[Sequence[Skill]], totals: Sequence[int]) -> list[list[Skill]]:
    """Each side's players' skills after a finished game (any side size, 2+ sides, ties)."""
    pairs = _checked(sides)
    if len(totals) != len(sides):
        raise ValueError(
            f"A game of {len(sides)} sides needs {len(sides)} totals; {len(totals)} given."
        )
    # openskill's arithmetic without its objects (`plackett_luce.py`, to the bit: held to
    # openskill itself by tests/services/test_rating_arithmetic.py); ranks lower-is-better, as
    # places do: place 1 is rank 1, a shared place a tie.
    after = plackett_luce.rate_fast(pairs, places(totals))
    return [list(itertools.starmap(Skill, side)) for side in after]


def chances(sides: Sequence[Sequence[Skill]], spread: float = CHANCE_BETA) -> list[float]:
    """Each side's chance to win before the game (sums to 1), weighed with `CHANCE_BETA` (another
    `spread` is for measuring it: `bench/ratings_prediction.py`)."""
    _checked(sides)
    model = _model(spread)
    return model.predict_win(_theirs(sides, model))


def _partitions(indices: list[int], team_size: int) -> Iterator[list[list[int]]]:
    """Every way to cut `indices` into sides of `team_size`, each once: the first player still
    to seat always opens the next side, so no partnership comes twice in another order."""
    if not indices:
        yield []
        return
    first, rest = indices[0], indices[1:]
    for partners in itertools.combinations(rest, team_size - 1):
        side = [first, *partners]
        left = [i for i in rest if i not in partners]
        for others in _partitions(left, team_size):
            yield [side, *others]


def balanced(
    players: Sequence[tuple[str, Skill]], team_size: int = 2, teams: int = 2
) -> list[list[str]]:
    """The partnership whose sides' chances are nearest even (ties: the first in players' order)."""
    if team_size < 1 or teams < 2:
        raise ValueError(
            f"Balancing needs at least 2 sides of at least 1 player; "
            f"{teams} sides of {team_size} asked."
        )
    if len(players) != team_size * teams:
        raise ValueError(
            f"{teams} sides of {team_size} need {team_size * teams} players; {len(players)} given."
        )
    if len(players) > MOST_TO_BALANCE:
        raise ValueError(
            f"Balancing weighs every partnership, for at most {MOST_TO_BALANCE} players; "
            f"{len(players)} given."
        )
    names = [name for name, _ in players]
    if len(set(names)) != len(names):
        raise ValueError("Each player to balance needs a name of their own; a name is repeated.")
    skills = [skill for _, skill in players]
    best: list[list[int]] | None = None
    best_gap = math.inf
    even = 1.0 / teams
    for partition in _partitions(list(range(len(players))), team_size):
        odds = chances([[skills[i] for i in side] for side in partition])
        # The furthest any side is from an even chance; rounded so that two partnerships equal
        # but for the last bits of a float keep the first, as the docstring promises.
        gap = round(max(abs(p - even) for p in odds), 12)
        if gap < best_gap:
            best, best_gap = partition, gap
    assert best is not None  # at least one partition exists for a valid count
    return [[names[i] for i in side] for side in best]


def provisional(games: int) -> bool:
    """Whether a rating on this many games is still provisional (`PROVISIONAL_GAMES`)."""
    return games < PROVISIONAL_GAMES


def games_to_go(games: int) -> int:
    """How many more games a rating on this many games needs to stop being provisional."""
    return max(PROVISIONAL_GAMES - games, 0)


def shown(skill: Skill) -> float:
    """The figure a page shows: the conservative ordinal, on openskill's own scale, to one decimal.

    Why this scale: a newcomer shows exactly 0.0, "not known yet", and a member climbs as games
    narrow their uncertainty, so few games cannot top the table. It is the library's own
    documented ordinal, so a figure can be checked against openskill itself, and it needs no
    constants of ours that a later change could shift. In a simulated club of 16 after some 75
    games each (sigma about 3.5), the weakest showed about 3, an average member 12 and the best
    29; a newcomer's first win shows 2.4 and a regular's game moves the figure about a point,
    so tenths show a game's effect without pretending to more.
    """
    # + 0.0 turns a rounded -0.0 (an ordinal a hair below nothing) into 0.0.
    return round(skill.ordinal, 1) + 0.0
