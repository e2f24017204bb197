"""Schedules in which everyone meets everyone: whist tournaments for players who change
partners, and the round robin for fixed pairs.

A whist tournament is rounds of two-pair tables in which every two players partner once and
oppose twice, for the numbers of players that allow one (4m or 4m + 1).

A schedule is made from one initial round by adding each element of a group to every player's
point (a cyclic development). For 4m + 1 players the points are the group's elements and the
player on 0 sits out the initial round, so each player sits out exactly one of the 4m + 1
rounds. For 4m players the points are a point at infinity, which every addition leaves where it
is, and the elements of Z(4m - 1): 4m - 1 rounds with everyone seated.

Why it works: two points x and y partner in the round moved by s when an initial team (a, b)
has a + s = x and b + s = y, and for each ordered team with a - b = x - y exactly one s does
that. So if the teams' differences (a - b and b - a, over the initial round) hold each non-zero
element once, and the opponents' differences hold each twice, every two points partner once
and oppose twice. Infinity's partner moves through every point once, and its two opponents
through every point twice.
"""

from __future__ import annotations

# The point at infinity of a 4m schedule; it becomes the last player.
INFINITY = -1

# Initial rounds, one table a tuple (a, b, c, d): a and b partner against c and d.
#
# Found once, offline, by a deterministic backtracking search: take the smallest point not yet
# seated as a table's first player (infinity first when there is one), try its partner and the
# two opponents in increasing order, and go back as soon as a partners' difference is used twice
# or an opponents' difference three times. Z9 has no such round (the search runs out), so 9
# players use GF(9)'s additive group, Z3 x Z3, with the point (x, y) written as 3x + y. Larger
# numbers (24 and 25) were not found in two minutes of this search; they, like every number
# without a schedule here, are seated round by round. The tests check every schedule below
# against the whist conditions, pair by pair.
_INITIAL: dict[int, tuple[tuple[int, int, int, int], ...]] = {
    4: ((INFINITY, 0, 1, 2),),
    5: ((1, 4, 2, 3),),
    8: ((INFINITY, 0, 1, 3), (2, 6, 4, 5)),
    9: ((1, 2, 3, 6), (4, 8, 5, 7)),
    12: ((INFINITY, 0, 1, 3), (2, 9, 6, 7), (4, 10, 5, 8)),
    13: ((1, 4, 2, 7), (3, 12, 6, 8), (5, 11, 9, 10)),
    16: ((INFINITY, 0, 1, 2), (3, 6, 9, 11), (4, 13, 8, 12), (5, 10, 7, 14)),
    17: ((1, 2, 3, 8), (4, 15, 10, 12), (5, 9, 6, 13), (7, 16, 11, 14)),
    20: ((INFINITY, 0, 1, 2), (3, 5, 9, 15), (4, 14, 12, 17), (6, 18, 10, 13), (7, 11, 8, 16)),
    21: ((1, 2, 3, 6), (4, 13, 12, 19), (5, 9, 14, 16), (7, 20, 11, 17), (8, 18, 10, 15)),
}

# A whist round: its tables of player indexes (a, b, c, d), and who sits out.
WhistRound = tuple[tuple[tuple[int, int, int, int], ...], tuple[int, ...]]


def whist_sizes() -> tuple[int, ...]:
    """The numbers of players a whist schedule is known for."""
    return tuple(sorted(_INITIAL))


def _add(n: int, point: int, shift: int) -> int:
    """One point moved by one group element; infinity stays put."""
    if point == INFINITY:
        return point
    if n == 9:
        # Z3 x Z3, component by component (3x + y).
        return 3 * ((point // 3 + shift // 3) % 3) + (point % 3 + shift % 3) % 3
    return (point + shift) % (n if n % 4 == 1 else n - 1)


def whist_rounds(n: int) -> tuple[WhistRound, ...] | None:
    """Every round of the whist schedule for n players (indexes 0 to n - 1), or None if none."""
    initial = _INITIAL.get(n)
    if initial is None:
        return None
    elements = n if n % 4 == 1 else n - 1
    rounds: list[WhistRound] = []
    for shift in range(elements):
        tables = tuple(
            (_at(n, a, shift), _at(n, b, shift), _at(n, c, shift), _at(n, d, shift))
            for a, b, c, d in initial
        )
        # In a 4m + 1 schedule the point 0, moved along, is the one left without a table.
        out = (_at(n, 0, shift),) if n % 4 == 1 else ()
        rounds.append((tables, out))
    return tuple(rounds)


def _at(n: int, point: int, shift: int) -> int:
    """The player on a point once moved: infinity is the last of the n."""
    moved = _add(n, point, shift)
    return n - 1 if moved == INFINITY else moved


def round_robin(teams: int, index: int) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]]:
    """Round `index` (from 0, wrapping) of a round robin of teams: who meets whom, who rests.

    The circle method: the last team stays put while the others move one place round a circle
    each round, and the teams facing across it meet. An odd number of teams adds a resting place,
    so each team rests once in a round robin of as many rounds as teams; an even number meets
    every other team once in one round fewer.
    """
    places = teams + teams % 2
    turn = index % (places - 1)
    ring = [(i + turn) % (places - 1) for i in range(places - 1)] + [places - 1]
    facing = [(ring[i], ring[places - 1 - i]) for i in range(places // 2)]
    meets = tuple((a, b) for a, b in facing if a < teams and b < teams)
    rests = tuple(t for a, b in facing for t in (a, b) if max(a, b) >= teams and t < teams)
    return meets, rests
