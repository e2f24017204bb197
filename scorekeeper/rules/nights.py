"""A club night's seating (issue 29, issue 38): several tables at once, round after round, with
partners, opponents, tables and sitting out spread fairly, given the season so far.

Seating is incremental: `plan_round` seats the next round from the players present for it and
the night's rounds so far, so a late arrival or an early leaver is seated (or not) from the next
round on; `plan_night` is that, repeated. Everything is decided by the inputs and a seed.
Partners rotating: `rotating.py` (a whist schedule, `whist.py`, where one is asked for); fixed
partners: `fixed_pairs.py`; how many tables of which size: `tables.py`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from .fixed_pairs import Pairs, fixed_round
from .rotating import plan_rounds
from .seating import Seat, seating
from .tables import FEWEST_AT_A_TABLE, MOST_AT_A_TABLE, SeatingRefused, table_sizes
from .tally import Tally
from .whist import WhistRound, whist_rounds

MOST_ROUNDS = 12
__all__ = ["FEWEST_AT_A_TABLE", "MOST_AT_A_TABLE", "Pairs", "SeatingRefused", "table_sizes"]


class Shape(Enum):
    """The tables of a night."""

    FOURS = "partnership tables of 4"  # two teams of two
    SIXES = "tables of 6"  # three teams of two
    SINGLES = "individual tables"  # 3 to 5 players, every player for themselves

    @property
    def pairs_a_table(self) -> int:
        """How many teams of two sit at one table (none at an individual table)."""
        return {Shape.FOURS: 2, Shape.SIXES: 3, Shape.SINGLES: 0}[self]


@dataclass(frozen=True)
class Table:
    """One table of a round: its number (from 1) and its sides, each a team or one player."""

    number: int
    sides: tuple[tuple[str, ...], ...]

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The chairs in playing order, partners apart (A1, B1, A2, B2), as a game seats them."""
        return tuple(seating(self.sides))

    @property
    def first_dealer(self) -> int:
        """The seat that deals first: seat 0 (the seed already chose who sits there)."""
        return 0

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone at the table, side by side."""
        return tuple(p for side in self.sides for p in side)


@dataclass(frozen=True)
class Round:
    """One round of a night: its number (from 1), its tables, and who sits it out."""

    number: int
    tables: tuple[Table, ...]
    sitting_out: tuple[str, ...] = ()

    @property
    def seated(self) -> tuple[str, ...]:
        """Everyone at a table this round."""
        return tuple(p for table in self.tables for p in table.players)


@dataclass(frozen=True)
class History:
    """What a season (or a night) has seen: times two players partnered and opposed, each
    player's rounds sat out, and times each sat at each table number."""

    partnered: Mapping[frozenset[str], int] = field(default_factory=dict)
    opposed: Mapping[frozenset[str], int] = field(default_factory=dict)
    sat_out: Mapping[str, int] = field(default_factory=dict)
    tables: Mapping[tuple[str, int], int] = field(default_factory=dict)


def history_of(rounds: Iterable[Round], before: History | None = None) -> History:
    """The history after these rounds, counted on top of what came before (nothing, if None)."""
    before = before or History()
    partnered = Counter(before.partnered)
    opposed = Counter(before.opposed)
    sat_out = Counter(before.sat_out)
    tables = Counter(before.tables)
    for played in rounds:
        sat_out.update(played.sitting_out)
        for table in played.tables:
            tables.update((p, table.number) for p in table.players)
            _count_game(table.sides, partnered, opposed)
    return History(dict(partnered), dict(opposed), dict(sat_out), dict(tables))


def history_of_games(games: Iterable[Sequence[Sequence[str]]]) -> History:
    """Partners and opponents counted from games played (each game its sides' players), as a
    club's past games give them: no sit-outs or table numbers are known of those."""
    partnered: Counter[frozenset[str]] = Counter()
    opposed: Counter[frozenset[str]] = Counter()
    for sides in games:
        _count_game(sides, partnered, opposed)
    return History(dict(partnered), dict(opposed))


def _count_game(
    sides: Sequence[Sequence[str]],
    partnered: Counter[frozenset[str]],
    opposed: Counter[frozenset[str]],
) -> None:
    """Count one game's partners (each side's pairs) and opponents (pairs across sides)."""
    for i, side in enumerate(sides):
        partnered.update(pairs_in(side))
        for other in sides[i + 1 :]:
            opposed.update(frozenset((a, b)) for a in side for b in other)


def pairs_in(players: Sequence[str]) -> list[frozenset[str]]:
    """Every pair among these players."""
    return [frozenset((a, b)) for i, a in enumerate(players) for b in players[i + 1 :]]


def whist_schedule(n: int) -> tuple[Round, ...] | None:
    """The whole whist schedule for players named "1" to "n", or None if none is known for n."""
    rounds = whist_rounds(n)
    if rounds is None:
        return None
    names = [str(i + 1) for i in range(n)]
    return tuple(_whist_round(names, plan, number) for number, plan in enumerate(rounds, 1))


def _whist_round(names: Sequence[str], plan: WhistRound, number: int) -> Round:
    """One round of a whist schedule, the indexes given names, tables numbered in order."""
    tables, out = plan
    return Round(
        number,
        tuple(
            Table(t, ((names[a], names[b]), (names[c], names[d])))
            for t, (a, b, c, d) in enumerate(tables, 1)
        ),
        tuple(names[i] for i in out),
    )


def plan_round(
    present: Sequence[str],
    shape: Shape,
    fixed_pairs: Pairs | Sequence[tuple[str, str]] = (),
    history: History | None = None,
    rounds_so_far: Sequence[Round] = (),
    seed: int = 0,
    schedule_played: int | None = None,
    rounds_planned: int | None = None,
    fours_allowed: bool = True,
) -> Round:
    """The night's next round for the players present now.

    fixed_pairs: the night's pairs (`draw_pairs`), if partners are fixed; none given, partners
    rotate. history: the season before tonight. schedule_played: how many rounds of this
    group's schedule (a whist schedule, or fixed pairs' round robin) the season played before
    tonight, to go on from there; None seats rotating partners without a whist schedule.
    rounds_planned: the night's length, so a small room's rounds are planned to its end.
    fours_allowed: whether tables of 4 may take the teams tables of 6 leave over.
    """
    # Sorted, so the order players were listed in (arrivals, a page's list) changes nothing.
    present = tuple(sorted(present))
    number = len(rounds_so_far) + 1
    if number > MOST_ROUNDS:
        raise SeatingRefused(
            f"Round {number} is more than a night can have: at most {MOST_ROUNDS} rounds."
        )
    pairs = fixed_pairs if isinstance(fixed_pairs, Pairs) else Pairs(tuple(fixed_pairs))
    _check_present(present, shape, pairs)
    if schedule_played is not None and schedule_played < 0:
        raise SeatingRefused(f"{schedule_played} rounds of a schedule played cannot be.")
    rng = random.Random(f"{seed}/{number}")
    seen = history_of(rounds_so_far, history)
    tally = Tally(
        Counter(seen.partnered),
        Counter(seen.opposed),
        Counter(_missed(present, rounds_so_far)),
        (history or History()).sat_out,
    )
    # The group's place in its schedule: the season's rounds, then tonight's with this group.
    same = sum(1 for r in rounds_so_far if {*r.seated, *r.sitting_out} == {*present})
    if pairs.teams or pairs.spare:
        index = (schedule_played or 0) + same
        teams_a_table = shape.pairs_a_table
        groups, out = fixed_round(pairs, present, teams_a_table, index, tally, rng, fours_allowed)
    elif schedule_played is not None and shape is Shape.FOURS and whist_rounds(len(present)):
        groups, out = _whist_groups(present, schedule_played + same)
    else:
        left = max(1, (rounds_planned or number) - number + 1)
        planned = plan_rounds(present, shape.pairs_a_table, tally, left, rng, fours_allowed)
        groups, out = planned[0]
    return Round(number, _number_tables(groups, seen, rng), tuple(sorted(out)))


def _whist_groups(present: Sequence[str], at: int) -> tuple[list[list[tuple[str, ...]]], list[str]]:
    """Round `at` (wrapping) of the whist schedule for the players present, in name order."""
    schedule = whist_rounds(len(present))
    assert schedule is not None
    tables, out = schedule[at % len(schedule)]
    names = sorted(present)
    groups = [[(names[a], names[b]), (names[c], names[d])] for a, b, c, d in tables]
    return groups, [names[i] for i in out]


def _check_present(present: tuple[str, ...], shape: Shape, pairs: Pairs) -> None:
    """Refuse players listed twice, pairs that cannot be, and too few for one table."""
    for name, times in Counter(present).items():
        if times > 1:
            raise SeatingRefused(f"{name} is listed {times} times among the players present.")
    if pairs.teams and shape is Shape.SINGLES:
        raise SeatingRefused(
            f"Individual tables have no partners; {len(pairs.teams)} pairs were given."
        )
    in_pairs = Counter(p for pair in pairs.teams for p in pair)
    for pair in pairs.teams:
        if len(pair) != 2 or pair[0] == pair[1]:
            raise SeatingRefused(f"A pair is two different players; {pair!r} is not.")
    for name, times in in_pairs.items():
        if times > 1:
            raise SeatingRefused(f"{name} is in {times} pairs; a player partners one other.")
    if shape is Shape.SINGLES:
        table_sizes(len(present))
        return
    need = 2 * shape.pairs_a_table
    what = "A partnership table" if shape is Shape.FOURS else "A table of 6"
    if len(present) < need:
        raise SeatingRefused(f"{what} needs {need} players; {len(present)} are present.")


def _missed(present: Sequence[str], rounds_so_far: Sequence[Round]) -> dict[str, int]:
    """Rounds tonight each present player did not play: sat out, or not yet come."""
    played = Counter(p for r in rounds_so_far for p in r.seated)
    return {p: len(rounds_so_far) - played[p] for p in present}


def _number_tables(
    groups: Sequence[Sequence[tuple[str, ...]]], seen: History, rng: random.Random
) -> tuple[Table, ...]:
    """Tables numbered so players move round the room: each number given to the group that has
    sat there least, swapped two by two while that lowers the total; sides and seats shuffled."""
    groups = [list(group) for group in groups]
    rng.shuffle(groups)
    for group in groups:
        rng.shuffle(group)
    sides = [tuple(tuple(rng.sample(side, len(side))) for side in group) for group in groups]

    def sat(g: int, number: int) -> int:
        return sum(seen.tables.get((p, number), 0) for side in sides[g] for p in side)

    place = list(range(len(sides)))  # place[t]: the group at table t + 1
    better = True
    while better:
        better = False
        for t in range(len(place)):
            for u in range(t + 1, len(place)):
                now = sat(place[t], t + 1) + sat(place[u], u + 1)
                if sat(place[u], t + 1) + sat(place[t], u + 1) < now:
                    place[t], place[u] = place[u], place[t]
                    better = True
    return tuple(Table(t + 1, sides[g]) for t, g in enumerate(place))


def plan_night(
    players: Sequence[str],
    rounds: int,
    shape: Shape,
    fixed_pairs: Pairs | Sequence[tuple[str, str]] = (),
    history: History | None = None,
    seed: int = 0,
    schedule_played: int | None = None,
    fours_allowed: bool = True,
) -> tuple[Round, ...]:
    """Every round of a night whose players stay the same: plan_round, round after round."""
    if not 1 <= rounds <= MOST_ROUNDS:
        raise SeatingRefused(f"A night has 1 to {MOST_ROUNDS} rounds; {rounds} cannot be.")
    planned: list[Round] = []
    for _ in range(rounds):
        planned.append(
            plan_round(
                players,
                shape,
                fixed_pairs,
                history,
                planned,
                seed,
                schedule_played,
                rounds_planned=rounds,
                fours_allowed=fours_allowed,
            )
        )
    return tuple(planned)
