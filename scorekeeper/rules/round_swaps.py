"""A larger room's round bettered by swapping two players (issue 38): between two teams, or two
tables, while a swap lowers what the round costs.

A round's cost here, figure by figure: the partnerships it repeats; the most times any two at
one of its tables will then have met across it (so no pair meets a third time while a seating
without that exists); then the meetings it repeats, the k-th meeting of a pair counting k - 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from .tally import Grid, Groups

# Passes over every swap at most: each pass that betters nothing ends it sooner.
PASSES = 2

Worth = tuple[int, int, int]


def table_worth(group: Sequence[tuple[str, ...]], partnered: Grid, opposed: Grid) -> Worth:
    """One table's partnerships repeated, most meetings of a pair across it, meetings repeated."""
    again = sum(1 for team in group if len(team) == 2 and partnered[team[0]].get(team[1], 0))
    counts = [
        opposed[a].get(b, 0)
        for i, one in enumerate(group)
        for other in group[i + 1 :]
        for a in one
        for b in other
    ]
    return again, max(counts, default=-1) + 1, sum(counts)


def round_worth(worths: Sequence[Worth]) -> Worth:
    """A round's cost from its tables'."""
    return (
        sum(w[0] for w in worths),
        max((w[1] for w in worths), default=0),
        sum(w[2] for w in worths),
    )


def swapped(groups: Groups, partnered: Grid, opposed: Grid) -> Groups:
    """The round with two players swapped, again and again, while that lowers its cost."""
    groups = [[tuple(team) for team in group] for group in groups]
    worths = [table_worth(g, partnered, opposed) for g in groups]
    seats = [
        (g, t, s)
        for g, group in enumerate(groups)
        for t, team in enumerate(group)
        for s in range(len(team))
    ]
    for _ in range(PASSES):
        better = False
        now = round_worth(worths)
        # A swap that betters the round moves a player of a pair that has met before.
        costly = [seat for seat in seats if _repeats(groups, seat, partnered, opposed)]
        for g, t, s in costly:
            for h, u, r in seats:
                if g == h and t == u:
                    continue
                if not (worths[g][0] or worths[g][2]):
                    break  # this table was bettered already: its players need not move
                if g != h and not _may_better(
                    groups, (g, t, s), (h, u, r), now, partnered, opposed
                ):
                    continue
                _swap(groups, (g, t, s), (h, u, r))
                trial = list(worths)
                trial[g] = table_worth(groups[g], partnered, opposed)
                trial[h] = table_worth(groups[h], partnered, opposed)
                if round_worth(trial) < now:
                    worths, now, better = trial, round_worth(trial), True
                else:
                    _swap(groups, (g, t, s), (h, u, r))
        if not better:
            break
    return [list(group) for group in groups]


def _repeats(groups: Groups, seat: tuple[int, int, int], partnered: Grid, opposed: Grid) -> bool:
    """Whether the player in this seat has partnered their partner, or met one across the
    table, before."""
    g, t, s = seat
    player = groups[g][t][s]
    if any(partnered[player].get(p, 0) for p in groups[g][t] if p != player):
        return True
    return any(
        opposed[player].get(p, 0) for i, team in enumerate(groups[g]) if i != t for p in team
    )


def _may_better(
    groups: Groups,
    one: tuple[int, int, int],
    two: tuple[int, int, int],
    now: Worth,
    partnered: Grid,
    opposed: Grid,
) -> bool:
    """Whether swapping the players in two seats at different tables may lower the round's
    cost, judged from the pairs the swap changes alone (most swaps are ruled out so)."""
    (g, t, s), (h, u, r) = one, two
    a, b = groups[g][t][s], groups[h][u][r]
    mate_a = [p for p in groups[g][t] if p != a]
    mate_b = [p for p in groups[h][u] if p != b]
    again = sum(1 for m in mate_a if partnered[b].get(m, 0)) + sum(
        1 for m in mate_b if partnered[a].get(m, 0)
    )
    again -= sum(1 for m in mate_a if partnered[a].get(m, 0)) + sum(
        1 for m in mate_b if partnered[b].get(m, 0)
    )
    if again:
        return again < 0
    near_a = [p for i, team in enumerate(groups[g]) if i != t for p in team]
    near_b = [p for i, team in enumerate(groups[h]) if i != u for p in team]
    old = [opposed[a].get(p, 0) for p in near_a] + [opposed[b].get(p, 0) for p in near_b]
    new = [opposed[b].get(p, 0) for p in near_a] + [opposed[a].get(p, 0) for p in near_b]
    if sum(new) < sum(old) and max(new, default=-1) + 1 <= now[1]:
        return True
    # Only a swap that parts a pair meeting most often may lower the most.
    return max(old, default=-1) + 1 == now[1] and max(new, default=-1) + 1 < now[1]


def _swap(groups: Groups, one: tuple[int, int, int], two: tuple[int, int, int]) -> None:
    """Swap the players in two seats (table, team, place in the team)."""
    (g, t, s), (h, u, r) = one, two
    a, b = groups[g][t][s], groups[h][u][r]
    groups[g][t] = _with(groups[g][t], s, b)
    groups[h][u] = _with(groups[h][u], r, a)


def _with(team: tuple[str, ...], place: int, player: str) -> tuple[str, ...]:
    return (*team[:place], player, *team[place + 1 :])
