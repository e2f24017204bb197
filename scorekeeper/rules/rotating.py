"""Partners who rotate, and individual tables: each round's sit-outs, teams and tables (issue 38).

A round's cost, compared figure by figure: the partnerships it repeats (two players partnered
before, tonight or this season), the season's sit-outs of those it sits out (who sat out least
sits out first), then the opponents it repeats (a pair meeting across a table for the k-th time
counts k - 1, so a third meeting weighs more than another pair's second). Sitting out is never a
choice between players who have missed different numbers of rounds tonight: whoever has missed
fewest sits out first, so nobody sits out twice before everyone has sat out once.

A small room (one or two tables of 4, every seating of the round counted) is planned to the
night's end (`small_room.py`). A larger room is seated a round at a time from a few draws: who
sits out (first those the round's new partnerships leave without one), partners paired with the
fewest repeats (`matching.pair_up`), teams put at tables with the fewest opponents met again.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from math import comb

from .matching import improve, max_matching, pair_up
from .round_swaps import round_worth, swapped, table_worth
from .small_room import plan_small, tablings
from .tables import table_sizes, team_tables
from .tally import Grid, Groups, Tally, Team, sit_out_choice

# A room with at most this many seatings of a round is planned to the night's end.
WHOLE_NIGHT_SEATINGS = 400
# A larger room draws each round this many ways and keeps the cheapest.
DRAWS = 6
# From this many players, two draws a round.
LARGE_ROOM = 24


def seats_of(present: int, teams_a_table: int, fours_allowed: bool) -> list[int]:
    """The teams at each table for this many players (individual tables: players a table)."""
    if teams_a_table == 0:
        return list(table_sizes(present))
    return list(team_tables(present // 2, teams_a_table, fours_allowed).sizes)


def plan_rounds(
    present: Sequence[str],
    teams_a_table: int,
    tally: Tally,
    rounds: int,
    rng: random.Random,
    fours_allowed: bool = True,
) -> list[tuple[Groups, list[str]]]:
    """The next `rounds` rounds (at least the next one) for the players present: each a list of
    tables (each its sides) and who sits out. Only the first is kept; the rest look ahead."""
    sizes = seats_of(len(present), teams_a_table, fours_allowed)
    seated = sum(sizes) * (1 if teams_a_table == 0 else 2)
    need = len(present) - seated
    # Small: every seating of the room, whoever sits out, is few enough to list.
    count = comb(len(present), need) * tablings(seated)
    if teams_a_table == 2 and seated <= 8 and count <= WHOLE_NIGHT_SEATINGS:
        return plan_small(present, need, tally, max(rounds, 1), rng)
    return [_drawn_round(present, sizes, teams_a_table, need, tally, rng)]


def _drawn_round(
    present: Sequence[str],
    sizes: Sequence[int],
    teams_a_table: int,
    need: int,
    tally: Tally,
    rng: random.Random,
) -> tuple[Groups, list[str]]:
    """A larger room's round: the cheapest of a few draws (fewer in a large room, where each
    draw costs more and differs less)."""
    forced, tier, pick = sit_out_choice(present, need, tally.missed)
    partnered, opposed = grid_of(tally.partnered, present), grid_of(tally.opposed, present)
    best: tuple[tuple[int, ...], Groups, list[str]] | None = None
    for draw in range(DRAWS if len(present) < LARGE_ROOM else 2):
        aware = draw % 2 == 0
        chosen = _who_sits_out(present, forced, tier, pick, partnered, tally, rng, aware)
        out = [*forced, *chosen]
        seated = [p for p in present if p not in out]
        rng.shuffle(seated)
        short = 0
        if teams_a_table == 0:
            groups = _singles(seated, sizes, opposed)
        else:
            teams = pair_up(seated, lambda a, b: partnered[a][b])
            groups = seat_teams(list(teams), sizes, opposed)
        groups = swapped(groups, partnered, opposed)
        if teams_a_table == 2:
            # The teams the swaps left, put at tables of 4 again: as many tables as can be of
            # teams that never met.
            teams = [team for group in groups for team in group]
            groups = seat_teams(teams, sizes, opposed)
        if teams_a_table:
            short = _short_next(present, groups, partnered, len(seated) // 2)
        again, most, met = round_worth([table_worth(g, partnered, opposed) for g in groups])
        cost = (again, short, sum(tally.season_out.get(p, 0) for p in out), most, met)
        if best is None or cost < best[0]:
            best = (cost, groups, out)
    assert best is not None
    return best[1], best[2]


def _short_next(present: Sequence[str], groups: Groups, partnered: Grid, teams: int) -> int:
    """How many of next round's `teams` partnerships this round leaves no new partner for:
    the largest set of pairs never partnered, this round's teams counted, falls short by so
    many (a round that leaves the next a way round a repeat goes before one that does not)."""
    place = {p: i for i, p in enumerate(present)}
    now = {frozenset(team) for group in groups for team in group}
    fresh = [
        (place[a], place[b])
        for a, b in itertools.combinations(present, 2)
        if not partnered[a][b] and frozenset((a, b)) not in now
    ]
    found = sum(1 for i, j in enumerate(max_matching(len(present), fresh)) if i < j)
    return max(0, teams - found)


def grid_of(
    counts: Mapping[frozenset[str], int], present: Sequence[str]
) -> dict[str, Counter[str]]:
    """Pair counts as a lookup by one name then the other (quicker than building pairs)."""
    grid: dict[str, Counter[str]] = {p: Counter() for p in present}
    for pair, times in counts.items():
        if times and len(pair) == 2:
            a, b = pair
            if a in grid and b in grid:
                grid[a][b] = grid[b][a] = times
    return grid


def _who_sits_out(
    present: Sequence[str],
    forced: Sequence[str],
    tier: Sequence[str],
    pick: int,
    partnered: Grid,
    tally: Tally,
    rng: random.Random,
    aware: bool,
) -> list[str]:
    """Who of the tier sits out: drawn by lot, or (aware) first those the largest set of new
    partnerships among everyone else leaves without a new partner; the season's sit-outs
    first among equals."""
    tier = list(tier)
    rng.shuffle(tier)
    tier.sort(key=lambda p: tally.season_out.get(p, 0))
    if not aware or not pick:
        return tier[:pick]
    others = [p for p in present if p not in forced]
    place = {p: i for i, p in enumerate(others)}
    fresh = [
        (place[a], place[b]) for a, b in itertools.combinations(others, 2) if not partnered[a][b]
    ]
    mate = max_matching(len(others), fresh)
    alone = [p for p in tier if mate[place[p]] == -1]
    return [*alone, *(p for p in tier if p not in alone)][:pick]


def seat_teams(teams: list[Team], sizes: Sequence[int], opposed: Grid) -> Groups:
    """Teams at tables of these sizes (teams a table), opponents met before kept apart."""

    def opposing(a: Team, b: Team) -> int:
        return sum(opposed[x][y] ** 2 for x in a for y in b)

    if all(size == 2 for size in sizes):
        groups = [list(two) for two in pair_up(teams, opposing)]
    else:
        groups, start = [], 0
        for size in sizes:
            groups.append(teams[start : start + size])
            start += size
    return improve(groups, opposing)


def _singles(seated: Sequence[str], sizes: Sequence[int], opposed: Grid) -> Groups:
    """Individual tables of these sizes, players who have shared a table kept apart."""
    groups: Groups = []
    start = 0
    for size in sizes:
        groups.append([(p,) for p in seated[start : start + size]])
        start += size
    return improve(groups, lambda a, b: opposed[a[0]][b[0]] ** 2)
