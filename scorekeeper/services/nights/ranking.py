"""How a club night ranks its players (issue 37): the rules a club chooses from when it opens a
night, each stated in words, and the night's standings under its rule (`standings`, the one
ranking of a night: its page, its board, the club's records of its nights, its CSV and the
API all read it), from plain data.

Nobody wins a night by leaving early: the default rule ranks by average per game only those
here for at least half the rounds. Nights kept before the club chose (issue 37's migration
keeps them "average") rank as they did: everyone with a game, by average per game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from scorekeeper.rules import rounding

if TYPE_CHECKING:  # the board's rounds, as night_board.py reads them (it imports this module)
    from scorekeeper.services.nights.board import BoardRound

# How a round sat out counts (a night's `sit_out`): no game, or a game of 0 points.
NO_GAME, ZERO = "no game", "zero"
SIT_OUTS = {
    NO_GAME: "A round sat out is no game",
    ZERO: "A round sat out counts as a game of 0 points",
}

HALF, TOTAL, OWN_AVERAGE, AVERAGE = "half", "total", "own_average", "average"
RANKINGS = {
    HALF: "Average per game, ranking the players here for at least half the rounds seated "
    "(2 of 3, 3 of 5; a round sat out counts as here); the others are listed after, not ranked",
    TOTAL: "Total points: a round sat out or missed scores nothing",
    OWN_AVERAGE: "Points over the night's rounds: a round sat out scores the player's own "
    "average per game, a round missed by coming late or leaving early scores nothing",
    AVERAGE: "Average per game, every player with a game ranked, however few (as nights were "
    "ranked before a club chose how)",
}
DEFAULT = HALF
# What a new night may choose: "average" is kept only for the nights kept before (a player who
# left after one good game could win them).
OFFERED = {key: RANKINGS[key] for key in (HALF, TOTAL, OWN_AVERAGE)}


@dataclass(frozen=True)
class RankedBy:
    """The figure a rule ranks by, as the standings' column next to the name heads it."""

    key: str  # "average", "points" or "score"
    abbr: str
    title: str


BY_AVERAGE = RankedBy("average", "Avg.", "Average per game")
RANKED_BY = {
    HALF: BY_AVERAGE,
    AVERAGE: BY_AVERAGE,
    TOTAL: RankedBy("points", "Points", "Total points"),
    OWN_AVERAGE: RankedBy(
        "score", "Score", "Points, each round sat out scored at the player's own average"
    ),
}


def refused(ranking: str, sit_out: str) -> str | None:
    """Why a new night may not rank by `ranking` with `sit_out`, in words; None if it may."""
    if ranking not in OFFERED:
        offered = ", ".join(map(repr, OFFERED))
        return f"Choose how the night ranks: {ranking!r} is none of {offered}."
    if ranking == OWN_AVERAGE and sit_out == ZERO:
        return (
            "Ranked with a round sat out scored at the player's own average, a round sat out "
            "cannot also count as 0 points: choose one."
        )
    return None


@dataclass(frozen=True)
class Standing:
    """A player's night: points, games counted, wins, rounds sat out; the rounds they were
    here for, the figure the night's rule ranks by, and why they are not ranked (if not)."""

    rank: int | None
    name: str
    points: int
    games: int
    wins: int
    sat_out: int
    here: int = 0  # rounds at a table or sitting out (not those missed coming late or gone)
    exact: Fraction | None = None  # the figure the rule ranks by; None with no game counted
    unranked: str = ""  # why not ranked, in words ("" when ranked)
    # Par (issue 42): the wins expected over the player's finished games, each side's chance
    # as its game started summed; None unless each of those games had one.
    par: Fraction | None = None

    @property
    def par_wins(self) -> str:
        """ "1.4": par to a tenth of a win; "" without one."""
        return "" if self.par is None else f"{rounding.whole(self.par * 10) / 10:.1f}"

    @property
    def average(self) -> int | None:
        """Points per game counted, to the whole point, halves up (`rounding.average`)."""
        return rounding.average(self.points, self.games)

    @property
    def score(self) -> int | None:
        """The figure the night's rule ranks by, to the whole point, halves up (None with no
        game counted): what the page, the board, the API and the CSV all show."""
        return None if self.exact is None else rounding.whole(self.exact)


def needed(seated: int) -> int:
    """Rounds here to be ranked under "half": half the rounds seated, rounded up."""
    return (seated + 1) // 2


def standings(
    players: Iterable[str], sit_out: str, played: Sequence[BoardRound], *, ranking: str
) -> tuple[Standing, ...]:
    """Every player's night ranked by the night's rule (`RANKINGS`), ties sharing a rank, then
    by name; those not ranked after, each with why.

    A player's points are their side's total in each game they played (deals in progress too:
    the board is live); a game counts once it has a deal. A round sat out (`sit_out`, as the
    night was opened) is no game or a game of 0 points, except under "own_average", which
    scores it at the player's own average. Players are named by the name they came as.
    """
    rows = {name: [0, 0, 0, 0, 0] for name in players}  # points, games, wins, sat out, here
    pars: dict[str, list[int | None]] = {}  # each finished game's par of the player's side
    for r in played:
        for name in r.sitting_out:
            rows.setdefault(name, [0] * 5)[3] += 1
        seated = {name for table in r.tables for side in table.sides for name in side}
        for name in seated | {*r.sitting_out}:
            rows.setdefault(name, [0] * 5)[4] += 1
        for table in (t for t in r.tables if t.deals):
            for side, score in zip(table.sides, table.scores, strict=False):
                for name in side:
                    rows[name][0] += score.total
                    rows[name][1] += 1
                    rows[name][2] += score.won
                    if table.finished:
                        pars.setdefault(name, []).append(score.par)
    lines = [
        replace(_line(name, *row, sit_out, ranking, len(played)), par=_par(pars.get(name, [])))
        for name, row in rows.items()
    ]
    lines.sort(key=lambda s: (bool(s.unranked), s.exact is None, -(s.exact or 0), s.name))
    ranked: list[Standing] = []
    for place, s in enumerate(lines, 1):
        if s.unranked:
            ranked.append(s)
            continue
        # Equal figures share a rank, as the club's standings' equal figures do.
        same = ranked and ranked[-1].exact == s.exact
        ranked.append(_with_rank(s, ranked[-1].rank if same else place))
    return tuple(ranked)


def _line(
    name: str, points: int, games: int, wins: int, out: int, here: int, *asked: Any
) -> Standing:
    """A player's line, not yet ranked: the figure the rule ranks by, and why not, if not
    (`asked`: the night's sit-out rule, its ranking and how many rounds are seated)."""
    sit_out, ranking, seated = asked
    counted = games if sit_out == NO_GAME or ranking == OWN_AVERAGE else games + out
    exact = None
    if counted:
        exact = Fraction(points, counted)
        if ranking == TOTAL:
            exact = Fraction(points)
        elif ranking == OWN_AVERAGE:
            exact = points + Fraction(points, games) * out
    why = ""
    if exact is None:
        why = "no game yet"
    elif ranking == HALF and here < needed(seated):
        rounds = f"round{'s' if seated != 1 else ''}"
        why = f"here for {here} of {seated} {rounds}; ranked from {needed(seated)}"
    return Standing(None, name, points, counted, wins, out, here, exact, why)


def _with_rank(s: Standing, rank: int | None) -> Standing:
    return replace(s, rank=rank, unranked="")


def _par(kept: Sequence[int | None]) -> Fraction | None:
    """Wins expected from these games' pars (percent); None with none, or one without."""
    if not kept or None in kept:
        return None
    return Fraction(sum(p for p in kept if p is not None), 100)
