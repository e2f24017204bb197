"""The ways of calling a game before it is played, for bench/ratings_prediction.py.

Each family is folded once per `folds` value (what changes what it learns) and asked for each
`calls` value (what changes only how sure it says it is), so a parameter is chosen on the
training clubs without folding a club again for every guess. Each state is asked for the sides'
chances before a game (they sum to 1), and then told the game.

- even: every side alike, the call to beat;
- win %: each player's wins over the wins expected of them (a coin's: one in the sides of
  each game), shrunk toward even by `k` games of their own; a side's strength is its players'
  log ratios summed, and the chances a softmax of `c` times the strengths;
- points: each player's points per game, as a share of the game's typical total (a margin in
  a ten-thousand game counts as it does in a four-deal one), shrunk by `k` games; the chances
  a softmax of `c` times the sides' sums;
- order: the app's ratings (`model.rate`, the finishing order alone), the chances
  `model.chances` with the spread given;
- margin: ratings learnt from the totals too: each side's total, as a share of the game's
  typical total and times `scale`, is a measurement of its players' summed skill against
  the table's, with noise `noise` (a Kalman update, the deviation capped at 2.5 sd so one rout
  does not move a player a season's worth), the chances as for order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench._ratings_worlds import Game
from scorekeeper.services.ratings.model import BETA, NEW, TAU, Skill, chances, rate

SPREADS = (BETA, 8.0, 10.0, 12.5, 15.0, 17.5, 20.0, 25.0)
SHRINK = (2, 5, 10, 20)
# The margin's scale (a table's total's share into skill units) and its noise, to choose from.
SCALES = (50.0, 100.0, 200.0)
NOISES = (5.0, 10.0, 20.0)


def _softmax(strengths: Sequence[float], c: float) -> list[float]:
    top = max(strengths)
    weights = [math.exp(c * (s - top)) for s in strengths]
    whole = sum(weights)
    return [w / whole for w in weights]


def _shares(totals: Sequence[int]) -> list[float]:
    """Each side's total less the table's mean, as a share of the table's mean absolute total."""
    mean = sum(totals) / len(totals)
    typical = sum(abs(t) for t in totals) / len(totals) or 1.0
    return [(t - mean) / typical for t in totals]


class Even:
    def predict(self, sides: list[list[int]], call: object) -> list[float]:
        return [1 / len(sides)] * len(sides)

    def learn(self, game: Game) -> None:
        pass


@dataclass
class WinShare:
    wins: dict[int, float] = field(default_factory=dict)
    expected: dict[int, float] = field(default_factory=dict)

    def predict(self, sides: list[list[int]], call: tuple[int, float]) -> list[float]:
        k, c = call
        strengths = [
            sum(
                math.log((self.wins.get(p, 0.0) + k) / (self.expected.get(p, 0.0) + k))
                for p in side
            )
            for side in sides
        ]
        return _softmax(strengths, c)

    def learn(self, game: Game) -> None:
        top = max(game.totals)
        winners = [i for i, t in enumerate(game.totals) if t == top]
        for i, side in enumerate(game.sides):
            for p in side:
                self.expected[p] = self.expected.get(p, 0.0) + 1 / len(game.sides)
                if i in winners:
                    self.wins[p] = self.wins.get(p, 0.0) + 1 / len(winners)


@dataclass
class Points:
    points: dict[int, float] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)

    def predict(self, sides: list[list[int]], call: tuple[int, float]) -> list[float]:
        k, c = call
        strengths = [
            sum(self.points.get(p, 0.0) / (self.games.get(p, 0) + k) for p in side)
            for side in sides
        ]
        return _softmax(strengths, c)

    def learn(self, game: Game) -> None:
        for side, share in zip(game.sides, _shares(game.totals), strict=True):
            for p in side:
                self.points[p] = self.points.get(p, 0.0) + share
                self.games[p] = self.games.get(p, 0) + 1


@dataclass
class Order:
    skills: dict[int, Skill] = field(default_factory=dict)

    def before(self, sides: list[list[int]]) -> list[list[Skill]]:
        return [[self.skills.get(p, NEW) for p in side] for side in sides]

    def predict(self, sides: list[list[int]], call: float) -> list[float]:
        return chances(self.before(sides), call)

    def learn(self, game: Game) -> None:
        after = rate(self.before(game.sides), game.totals)
        for side, rated in zip(game.sides, after, strict=True):
            self.skills.update(zip(side, rated, strict=True))


@dataclass
class Margin(Order):
    scale: float = 100.0
    noise: float = 10.0

    def learn(self, game: Game) -> None:
        before = self.before(game.sides)
        n = len(before)
        # Each player's uncertainty widened a little first, as openskill's tau does.
        var = [[s.sigma**2 + TAU**2 for s in side] for side in before]
        summed = [sum(s.mu for s in side) for side in before]
        table = sum(summed) / n
        spread = [sum(v) for v in var]
        everyone = sum(spread)
        for i, (side, share) in enumerate(zip(game.sides, _shares(game.totals), strict=True)):
            seen = self.scale * share
            expected = summed[i] - table
            # Against the table's mean: the side's own uncertainty, the others' shared out.
            whole = spread[i] + (everyone - spread[i]) / (n - 1) ** 2 + self.noise**2
            off = max(-2.5, min(2.5, (seen - expected) / math.sqrt(whole))) * math.sqrt(whole)
            for p, skill, v in zip(side, before[i], var[i], strict=True):
                gain = v / whole
                self.skills[p] = Skill(skill.mu + gain * off, math.sqrt(v * (1 - gain)))


@dataclass(frozen=True)
class Family:
    """A way of calling games, with the values it is folded with and asked with."""

    name: str
    folds: tuple
    calls: tuple

    def start(self, fold: object) -> Even | WinShare | Points | Order:
        if self.name == "even":
            return Even()
        if self.name == "win %":
            return WinShare()
        if self.name == "points":
            return Points()
        if self.name == "order":
            return Order()
        scale, noise = fold  # type: ignore[misc]
        return Margin(scale=scale, noise=noise)


FAMILIES = (
    Family("even", (None,), (None,)),
    Family("win %", (None,), tuple((k, c) for k in SHRINK for c in (1.0, 2.0, 4.0, 8.0))),
    Family("points", (None,), tuple((k, c) for k in SHRINK for c in (5.0, 10.0, 20.0, 40.0))),
    Family("order", (None,), SPREADS),
    Family(
        "margin", tuple((s, n) for s in (50.0, 100.0, 200.0) for n in (5.0, 10.0, 20.0)), SPREADS
    ),
)
