"""Schedules in which everyone meets everyone: whist tournaments for players who change
partners, and the round robin for fixed pairs.

A whist tournament is rounds of two-pair tables in which every two players partner once and
oppose twice, for the numbers of players that allow one (4m or 4m + 1).

A schedule is made from one initial round by adding each element of a group to every player's
point (a cyclic development). For 4m + 1 players the points are the group's elements and the
player on 0 sits out the initial round, so each player sits out exactly one of the 4m + 1
rounds. For 4m players the points are a point at infinity, which every addition leaves where it
is, and the elements of Z(4m - 1): 4m - 1 rounds with everyone seated. The group is cyclic for
every n here but 9, whose points are GF(9)'s additive group Z3 x Z3 (Z9 has no initial round);
a group is held as the moduli of a product of cyclic groups, its elements written mixed-radix.

Why it works: two points x and y partner in the round moved by s when an initial team (a, b)
has a + s = x and b + s = y, and for each ordered team with a - b = x - y exactly one s does
that. So if the teams' differences (a - b and b - a, over the initial round) hold each non-zero
element once, and the opponents' differences hold each twice, every two points partner once
and oppose twice. Infinity's partner moves through every point once, and its two opponents
through every point twice.
"""

from __future__ import annotations

import math

# The point at infinity of a 4m schedule; it becomes the last player.
INFINITY = -1

# Initial rounds, one table a tuple (a, b, c, d): a and b partner against c and d.
#
# Found once, offline. 4 to 21: a deterministic backtracking search (take the smallest point not
# yet seated as a table's first player, infinity first when there is one, try its partner and the
# two opponents in increasing order, go back as soon as a partners' difference is used twice or an
# opponents' difference three times). Z9 has no such round, so 9 players use GF(9)'s additive
# group, Z3 x Z3. 24 to 40: `bench/whist_search.py` (seed 0), which seats partners on a starter
# (pairs whose differences hold each non-zero element once up to sign): for 25, 28, 29, 37 and 40
# the patterned starter {x, -x}, tables matched by an exact-cover search; for 24, 32, 33 and 36
# (none patterned) starters drawn at random, each one's tables searched exhaustively. All are
# cyclic but 9. The 4 to 21 rounds were kept as they were, so a club's season goes on the same.
# The tests check every schedule below against the whist conditions, pair by pair. (Left
# unformatted: a few tables a line keep a round's rows together.)
# fmt: off
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
    24: (
        (INFINITY, 0, 14, 21), (4, 5, 2, 17), (6, 11, 10, 19),
        (9, 22, 13, 16), (18, 20, 3, 15), (8, 12, 1, 7),
    ),
    25: (
        (1, 24, 2, 23), (3, 22, 9, 16), (4, 21, 12, 13),
        (5, 20, 10, 15), (6, 19, 8, 17), (7, 18, 11, 14),
    ),
    28: (
        (INFINITY, 0, 3, 24), (1, 26, 6, 21), (2, 25, 12, 15), (4, 23, 8, 19),
        (5, 22, 13, 14), (7, 20, 9, 18), (10, 17, 11, 16),
    ),
    29: (
        (1, 28, 2, 27), (3, 26, 13, 16), (4, 25, 8, 21), (5, 24, 10, 19),
        (6, 23, 12, 17), (7, 22, 14, 15), (9, 20, 11, 18),
    ),
    32: (
        (INFINITY, 0, 8, 15), (19, 24, 17, 30), (3, 4, 7, 18), (14, 23, 11, 13),
        (9, 28, 2, 10), (16, 22, 5, 26), (6, 20, 1, 29), (21, 25, 12, 27),
    ),
    33: (
        (1, 6, 12, 14), (3, 30, 27, 31), (8, 19, 18, 21), (5, 24, 17, 29),
        (7, 32, 13, 22), (2, 25, 9, 10), (11, 26, 15, 28), (16, 23, 4, 20),
    ),
    36: (
        (INFINITY, 0, 21, 26), (10, 28, 15, 25), (9, 11, 17, 31), (12, 34, 6, 30),
        (3, 29, 1, 13), (4, 8, 5, 20), (2, 18, 7, 14), (24, 32, 22, 23), (27, 33, 16, 19),
    ),
    37: (
        (1, 36, 2, 35), (3, 34, 7, 30), (4, 33, 15, 22), (5, 32, 18, 19), (6, 31, 14, 23),
        (8, 29, 13, 24), (9, 28, 16, 21), (10, 27, 12, 25), (11, 26, 17, 20),
    ),
    40: (
        (INFINITY, 0, 13, 26), (1, 38, 2, 37), (3, 36, 5, 34), (4, 35, 18, 21),
        (6, 33, 17, 22), (7, 32, 14, 25), (8, 31, 12, 27), (9, 30, 15, 24),
        (10, 29, 19, 20), (11, 28, 16, 23),
    ),
}
# fmt: on

# The groups that are not cyclic, as their moduli; a point is written mixed-radix (in Z3 x Z3,
# (x, y) is 3x + y). Every other n uses Z(n) for 4m + 1 players or Z(n - 1) for 4m.
_GROUPS: dict[int, tuple[int, ...]] = {9: (3, 3)}

# A whist round: its tables of player indexes (a, b, c, d), and who sits out.
WhistRound = tuple[tuple[tuple[int, int, int, int], ...], tuple[int, ...]]


def whist_sizes() -> tuple[int, ...]:
    """The numbers of players a whist schedule is known for."""
    return tuple(sorted(_INITIAL))


def whist_sizes_said() -> str:
    """Those numbers in words, as the night's form and movement cards say them."""
    sizes = whist_sizes()
    return f"{sizes[0]} to {sizes[-1]} players, a multiple of 4 or one more"


def group_of(n: int) -> tuple[int, ...]:
    """The group n players' points are taken from, as the moduli of a product of cyclic groups."""
    return _GROUPS.get(n, (n if n % 4 == 1 else n - 1,))


def _add(moduli: tuple[int, ...], point: int, shift: int) -> int:
    """One point moved by one group element, digit by digit; infinity stays put."""
    if point == INFINITY:
        return point
    moved, place = 0, 1
    for modulus in reversed(moduli):
        moved += (point // place + shift // place) % modulus * place
        place *= modulus
    return moved


def whist_rounds(n: int) -> tuple[WhistRound, ...] | None:
    """Every round of the whist schedule for n players (indexes 0 to n - 1), or None if none."""
    initial = _INITIAL.get(n)
    if initial is None:
        return None
    moduli = group_of(n)
    rounds: list[WhistRound] = []
    for shift in range(math.prod(moduli)):
        tables = tuple(_moved(n, moduli, table, shift) for table in initial)
        # In a 4m + 1 schedule the point 0, moved along, is the one left without a table.
        out = (_at(n, moduli, 0, shift),) if n % 4 == 1 else ()
        rounds.append((tables, out))
    return tuple(rounds)


def _moved(
    n: int, moduli: tuple[int, ...], table: tuple[int, int, int, int], shift: int
) -> tuple[int, int, int, int]:
    """One initial table once moved, its players in the same seats."""
    a, b, c, d = (_at(n, moduli, point, shift) for point in table)
    return a, b, c, d


def _at(n: int, moduli: tuple[int, ...], point: int, shift: int) -> int:
    """The player on a point once moved: infinity is the last of the n."""
    moved = _add(moduli, point, shift)
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
