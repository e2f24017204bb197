"""openskill 6.2.0's Plackett-Luce `rate`, for our pinned parameters only, in plain floats.

The ratings fold rates tens of thousands of games; openskill spends most of its ~54 us a game
deep-copying rating objects and building new ones. This does the same arithmetic on tuples: the
same floating-point operations in the same order (Python floats are the C doubles of openskill's
compiled code, and `math.exp`, `math.sqrt` and `**` call the same libm), so every result is bit
for bit openskill's: `tests/services/test_rating_arithmetic.py` holds the two to `==`.

Only for mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001, no margin, no sigma limit, no
balance, no weights, no scores, ranks given (`model.py` pins the same figures and checks the
sides first). Where openskill writes `x**2` this does too: `x * x` differs in the last bit now
and then. Standard library only. Three paths, each openskill's arithmetic: two sides one ahead
(`_two`), sides each alone at their rank (`_untied`), and any ties (`_tied`, openskill's
`_compute` step by step); the lean ones only leave out what changes no float.
"""

from __future__ import annotations

import math

BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001
# openskill squares these afresh in each call, in these very forms (`tau * tau`, `beta**2`).
_TAU_SQUARED = TAU * TAU
_BETA_SQUARED = BETA**2

_exp = math.exp
_sqrt = math.sqrt

Player = tuple[float, float]


def _ordinal(player: Player) -> float:
    """openskill's `ordinal()` with its defaults (z 3.0, alpha 1, target 0) as a sort key: its
    `1 * ((mu - 3.0 * sigma) + 0 / 1)` orders exactly as `mu - 3.0 * sigma` does."""
    return player[0] - 3.0 * player[1]


def _side(players: list[Player]) -> tuple[list[Player], float, float]:
    """A side's players with tau's uncertainty added to each sigma (before the game, as openskill
    does to its copy), and the side's summed mu and summed sigma squared."""
    team = []
    for mu, sigma in players:
        team.append((mu, _sqrt(sigma * sigma + _TAU_SQUARED)))
    mu_sum = 0.0
    variance = 0.0
    # openskill adds from 0.0, its players by ordinal, highest first (a stable sort); two
    # addends commute, so only three or more need sorting.
    for mu, sigma in sorted(team, key=_ordinal, reverse=True) if len(team) > 2 else team:
        mu_sum += mu
        variance += sigma**2
    return team, mu_sum, variance


def _moved(team: list[Player], variance: float, omega: float, delta: float) -> list[Player]:
    """Each player of a side moved by the side's omega and delta, in proportion to their share
    of its variance. A weight of 1.0 multiplies or divides by nothing, so openskill's two
    branches on omega's sign come to the same."""
    side = []
    for mu, sigma in team:
        part = sigma**2 / variance
        left = 1 - part * delta
        if KAPPA > left:  # max(left, kappa): left itself when they are equal, as max keeps
            left = KAPPA
        side.append((mu + part * omega, sigma * _sqrt(left)))
    return side


def _two(ahead: list[Player], behind: list[Player]) -> tuple[list[Player], list[Player]]:
    """Two sides, one ahead (most games): the sums of `_untied` written out for two, with no
    lists or loops to walk; each float as openskill gets it."""
    team_a, mu_a, variance_a = _side(ahead)
    team_b, mu_b, variance_b = _side(behind)
    # openskill's sum from 0.0: 0.0 + x is x for the positive x here.
    c = _sqrt((variance_a + _BETA_SQUARED) + (variance_b + _BETA_SQUARED))
    c_squared = c**2
    strength_a = _exp(mu_a / c)
    strength_b = _exp(mu_b / c)
    both = strength_a + strength_b  # openskill's sum_q[0]; sum_q[1] is strength_b alone

    share = strength_a / both
    delta = 0.0 + share * (1 - share)
    omega = 0.0 + (1 - share)
    omega *= variance_a / c
    delta *= variance_a / c_squared
    delta *= _sqrt(variance_a) / c  # openskill's default gamma

    share = strength_b / both
    delta_b = 0.0 + share * (1 - share)
    omega_b = 0.0 - share
    share = strength_b / strength_b
    delta_b += share * (1 - share)
    omega_b += 1 - share
    omega_b *= variance_b / c
    delta_b *= variance_b / c_squared
    delta_b *= _sqrt(variance_b) / c
    return _moved(team_a, variance_a, omega, delta), _moved(team_b, variance_b, omega_b, delta_b)


def _in_order(
    sides: list[list[Player]], order: list[int]
) -> tuple[list[list[Player]], list[float], list[float], float]:
    """The sides in rank order with tau added, their strengths (exp(mu / c)), their variances
    (summed sigma squared) and c, the root of every side's variance and beta squared summed."""
    teams = []
    mus = []
    variances = []
    collective = 0.0
    for k in order:
        team, mu_sum, variance = _side(sides[k])
        teams.append(team)
        mus.append(mu_sum)
        variances.append(variance)
        collective += variance + _BETA_SQUARED
    c = _sqrt(collective)
    return teams, [_exp(mu / c) for mu in mus], variances, c


def _untied(sides: list[list[Player]], order: list[int]) -> list[list[Player]]:
    """Three or more sides, each alone at its rank: the sums of `_tied` without openskill's
    `/ a[q]` (a division by 1, which changes no float) and its comparisons of ranks."""
    count = len(order)
    teams, strengths, variances, c = _in_order(sides, order)
    c_squared = c**2
    # openskill's sum_q[q]: the strengths of side q and every side behind it, in order.
    sum_q = []
    for q in range(count):
        total = strengths[q]
        for strength in strengths[q + 1 :]:
            total += strength
        sum_q.append(total)
    rated: list = [None] * count
    for i in range(count):
        strength = strengths[i]
        omega = 0.0
        delta = 0.0
        for q in range(i):  # the sides ahead of i, then i itself
            share = strength / sum_q[q]
            delta += share * (1 - share)
            omega -= share
        share = strength / sum_q[i]
        delta += share * (1 - share)
        omega += 1 - share
        variance = variances[i]
        omega *= variance / c
        delta *= variance / c_squared
        delta *= _sqrt(variance) / c  # openskill's default gamma
        rated[order[i]] = _moved(teams[i], variance, omega, delta)
    return rated


def _tied(sides: list[list[Player]], order: list[int], ranks: list[int]) -> list[list[Player]]:
    """Any sides, some sharing a rank: openskill's `_compute` as it stands."""
    count = len(order)
    teams, strengths, variances, c = _in_order(sides, order)
    c_squared = c**2
    # openskill's a[q]: how many sides share q's rank.
    shared = [ranks.count(rank) for rank in ranks]
    # openskill's sum_q[q]: the strengths of every side ranked as q or below, added in order
    # from the first side of q's rank on (its dict is filled in sorted order: indexed by q).
    sum_q = []
    for q in range(count):
        if q and ranks[q] == ranks[q - 1]:
            sum_q.append(sum_q[q - 1])  # the same sides as the one before it, sharing its rank
            continue
        total = strengths[q]
        for strength in strengths[q + 1 :]:
            total += strength
        sum_q.append(total)
    rated: list = [None] * count
    for i in range(count):
        strength = strengths[i]
        omega = 0.0
        delta = 0.0
        # Every side ranked as high as i or higher: up to the last side sharing i's rank.
        for q in range(ranks.index(ranks[i]) + shared[i]):
            share = strength / sum_q[q]
            a = shared[q]
            delta += share * (1 - share) / a
            if q == i:
                omega += (1 - share) / a
            else:
                omega -= share / a
        variance = variances[i]
        omega *= variance / c
        delta *= variance / c_squared
        delta *= _sqrt(variance) / c  # openskill's default gamma
        rated[order[i]] = _moved(teams[i], variance, omega, delta)

    # Sides sharing a rank: openskill adds the average of their first players' mu changes, but
    # takes it after writing the new mu into the very objects it subtracts from, so each change
    # is mu - mu, 0.0 (in 6.2.0 tied sides keep their own changes). Adding 0.0 changes no mu a
    # club can reach; it is kept for the -0.0 it turns into 0.0 (skills no club holds).
    for i in range(count):
        tied = shared[i]
        if tied > 1 and (i == 0 or ranks[i] != ranks[i - 1]):
            group = [order[k] for k in range(i, i + tied)]
            change = sum(rated[k][0][0] - rated[k][0][0] for k in group) / tied
            for k in group:
                rated[k] = [(mu + change, sigma) for mu, sigma in rated[k]]
    return rated


def rate_fast(sides: list[list[Player]], places: list[int]) -> list[list[Player]]:
    """Each side's players' (mu, sigma) after a game, from their (mu, sigma) before and each
    side's place (1 best, a shared place a tie): openskill's PlackettLuce.rate, to the bit."""
    count = len(sides)
    if count == 2:
        first, second = places
        if first < second:
            return list(_two(sides[0], sides[1]))
        if second < first:
            behind, ahead = _two(sides[1], sides[0])
            return [ahead, behind]
    # openskill sorts the sides by rank (a stable sort), rates them in that order and puts
    # them back; the rank order's own paths put each side's result back at its own index.
    order = sorted(range(count), key=places.__getitem__)
    if len(set(places)) == count:
        return _untied(sides, order)
    return _tied(sides, order, [places[k] for k in order])
