"""A club night's seating (issue 29): several tables at once, round after round, with partners,
opponents, tables and sitting out spread fairly, given the season so far.

Seating is incremental: `plan_round` seats the next round from the players present for it and
the night's rounds so far, so a late arrival or an early leaver is seated (or not) from the next
round on; `plan_night` is that, repeated. Everything is decided by the inputs and a seed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from .matching import improve, pair_up
from .seating import Seat, seating
from .whist import WhistRound, round_robin, whist_rounds

MOST_ROUNDS = 12
# Individual tables: at least and at most this many players, as near 4 as the room allows.
FEWEST_AT_A_TABLE = 3
MOST_AT_A_TABLE = 5


class SeatingRefused(ValueError):
    """A night that cannot be seated as asked; the message names the figure and why."""


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


def table_sizes(n: int) -> tuple[int, ...]:
    """Individual tables for n players: 3 to 5 at each, sizes at most one apart, nearest 4.

    Of the numbers of tables that can hold everyone, the one whose tables are nearest 4 in all
    (summed); on a tie the more tables, so nobody plays at a table of 5 who could play at 4.
    """
    if n < FEWEST_AT_A_TABLE:
        raise SeatingRefused(f"An individual table needs at least 3 players; {n} are present.")
    best: tuple[int, ...] = ()
    best_key: tuple[int, int] | None = None
    for count in range(1, n // FEWEST_AT_A_TABLE + 1):
        small, extra = divmod(n, count)
        sizes = (small + 1,) * extra + (small,) * (count - extra)
        if min(sizes) < FEWEST_AT_A_TABLE or max(sizes) > MOST_AT_A_TABLE:
            continue
        key = (sum(abs(s - 4) for s in sizes), -count)
        if best_key is None or key < best_key:
            best, best_key = sizes, key
    return best


def plan_round(
    present: Sequence[str],
    shape: Shape,
    fixed_pairs: Sequence[tuple[str, str]] = (),
    history: History | None = None,
    rounds_so_far: Sequence[Round] = (),
    seed: int = 0,
    schedule_played: int | None = None,
) -> Round:
    """The night's next round for the players present now.

    fixed_pairs: the partnerships, if partners are fixed; none given, partners rotate. history:
    the season before tonight. schedule_played: how many rounds of this group's schedule (a
    whist schedule, or fixed pairs' round robin) the season played before tonight, to go on
    from there; None seats rotating partners round by round, and starts fixed pairs' round
    robin afresh tonight in an order the seed chooses.
    """
    # Sorted, so the order players were listed in (arrivals, a page's list) changes nothing.
    present = tuple(sorted(present))
    number = len(rounds_so_far) + 1
    if number > MOST_ROUNDS:
        raise SeatingRefused(
            f"Round {number} is more than a night can have: at most {MOST_ROUNDS} rounds."
        )
    _check_present(present, shape, fixed_pairs)
    if schedule_played is not None and schedule_played < 0:
        raise SeatingRefused(f"{schedule_played} rounds of a schedule played cannot be.")
    rng = random.Random(f"{seed}/{number}")
    seen = history_of(rounds_so_far, history)
    missed = _missed(present, rounds_so_far)
    season_out = (history or History()).sat_out

    def sit_out_order(people: Sequence[str]) -> list[str]:
        # Whoever has missed the fewest rounds tonight sits out first, then whoever has sat out
        # least this season; the seed settles the rest.
        ties = {p: rng.random() for p in people}
        return sorted(people, key=lambda p: (missed[p], season_out.get(p, 0), ties[p]))

    scheduled = _scheduled(present, shape, fixed_pairs, rounds_so_far, seed, schedule_played)
    if scheduled is not None:
        groups, out = scheduled
        return Round(number, _number_tables(groups, seen, rng), out)

    if shape is Shape.SINGLES:
        people = list(present)
        rng.shuffle(people)
        groups, start = [], 0
        for size in table_sizes(len(people)):
            groups.append([(p,) for p in people[start : start + size]])
            start += size
        groups = improve(groups, lambda a, b: seen.opposed.get(frozenset(a + b), 0) ** 2)
        return Round(number, _number_tables(groups, seen, rng), ())

    units, out = _teams(present, shape, fixed_pairs, seen, sit_out_order, rng)
    per_table = shape.pairs_a_table
    rng.shuffle(units)

    def opposing(a: tuple[str, ...], b: tuple[str, ...]) -> int:
        return sum(seen.opposed.get(frozenset((x, y)), 0) ** 2 for x in a for y in b)

    if per_table == 2:
        groups = [list(two) for two in pair_up(units, opposing)]
    else:
        groups = [units[i : i + per_table] for i in range(0, len(units), per_table)]
    groups = improve(groups, opposing)
    return Round(number, _number_tables(groups, seen, rng), tuple(sorted(out)))


def _scheduled(
    present: tuple[str, ...],
    shape: Shape,
    fixed_pairs: Sequence[tuple[str, str]],
    rounds_so_far: Sequence[Round],
    seed: int,
    schedule_played: int | None,
) -> tuple[list[list[tuple[str, ...]]], tuple[str, ...]] | None:
    """The round a schedule gives this group, as tables' sides and who sits out; None if no
    schedule applies (individual tables, tables of 6, a whist schedule not asked for or not
    known for this many, fixed pairs with a player whose partner is away)."""
    if shape is not Shape.FOURS:
        return None
    # The group's place in its schedule: the season's rounds, then tonight's with this group.
    same = sum(1 for r in rounds_so_far if {*r.seated, *r.sitting_out} == {*present})
    if not fixed_pairs:
        schedule = whist_rounds(len(present))
        if schedule_played is None or schedule is None:
            return None
        tables, out = schedule[(schedule_played + same) % len(schedule)]
        names = sorted(present)
        groups = [[(names[a], names[b]), (names[c], names[d])] for a, b, c, d in tables]
        return groups, tuple(names[i] for i in out)
    here = set(present)
    teams = sorted(tuple(pair) for pair in fixed_pairs if set(pair) <= here)
    if 2 * len(teams) != len(present):
        return None
    if schedule_played is None:
        random.Random(f"{seed}/round robin").shuffle(teams)
    meets, rests = round_robin(len(teams), (schedule_played or 0) + same)
    out = tuple(sorted(p for t in rests for p in teams[t]))
    return [[teams[a], teams[b]] for a, b in meets], out


def _check_present(
    present: tuple[str, ...], shape: Shape, fixed_pairs: Sequence[tuple[str, str]]
) -> None:
    """Refuse players listed twice, pairs that cannot be, and too few for one table."""
    for name, times in Counter(present).items():
        if times > 1:
            raise SeatingRefused(f"{name} is listed {times} times among the players present.")
    if fixed_pairs and shape is Shape.SINGLES:
        raise SeatingRefused(
            f"Individual tables have no partners; {len(fixed_pairs)} pairs were given."
        )
    in_pairs = Counter(p for pair in fixed_pairs for p in pair)
    for pair in fixed_pairs:
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


def _teams(
    present: tuple[str, ...],
    shape: Shape,
    fixed_pairs: Sequence[tuple[str, str]],
    seen: History,
    sit_out_order: Callable[[Sequence[str]], list[str]],
    rng: random.Random,
) -> tuple[list[tuple[str, ...]], list[str]]:
    """This round's teams of two, as many as fill whole tables, and who sits out.

    With rotating partners the players beyond whole tables sit out first, one by one, and the
    rest are paired afresh. With fixed pairs a pair plays when both are present; anyone else (a
    partner away, a guest) is paired with another such player as rotating partners would be,
    and the teams beyond whole tables sit out, a team together.
    """
    per_table = shape.pairs_a_table
    if not fixed_pairs:
        order = sit_out_order(present)
        out = order[: len(present) % (2 * per_table)]
        return _partners(order[len(out) :], seen, rng), out
    here = set(present)
    teams = [(a, b) for a, b in fixed_pairs if a in here and b in here]
    teamed = {p for team in teams for p in team}
    loose = [p for p in present if p not in teamed]
    out = sit_out_order(loose)[: len(loose) % 2]
    teams += _partners([p for p in loose if p not in out], seen, rng)
    resting = len(teams) % per_table
    # The teams whose players have missed fewest rounds tonight sit out first.
    rank = {p: i for i, p in enumerate(sit_out_order([p for team in teams for p in team]))}
    teams.sort(key=lambda team: sorted(rank[p] for p in team))
    out += [p for team in teams[:resting] for p in team]
    return teams[resting:], out


def _partners(people: Sequence[str], seen: History, rng: random.Random) -> list[tuple[str, str]]:
    """People in twos, nobody with someone already partnered while a new partner can be had."""
    people = list(people)
    rng.shuffle(people)
    return pair_up(people, lambda a, b: seen.partnered.get(frozenset((a, b)), 0))


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
    fixed_pairs: Sequence[tuple[str, str]] = (),
    history: History | None = None,
    seed: int = 0,
    schedule_played: int | None = None,
) -> tuple[Round, ...]:
    """Every round of a night whose players stay the same: plan_round, round after round."""
    if not 1 <= rounds <= MOST_ROUNDS:
        raise SeatingRefused(f"A night has 1 to {MOST_ROUNDS} rounds; {rounds} cannot be.")
    planned: list[Round] = []
    for _ in range(rounds):
        planned.append(
            plan_round(players, shape, fixed_pairs, history, planned, seed, schedule_played)
        )
    return tuple(planned)
