"""Rotating partners at tables of 4 seat a small night with the least repeats possible (issue 38).

The problem: n players (4 to 8) play R rounds (1 to 12) at partnership tables of 4 (two teams of
two), partners rotating, with no history before the night. Each round floor(n/4) tables of 4 are
seated and n mod 4 players sit out. Sit-out fairness, a constraint: after every round any two
players' sit-out counts differ by at most 1 (no player sits out twice before everyone has sat out
once). The objective, lexicographic: first the partner repeats P, the sum over unordered pairs of
max(0, times partnered - 1); then, among the nights with the least P, the opponent repeats O, the
sum over pairs of C(c, 2) with c the times the two sat on opposite sides of a table (the k-th
meeting of a pair as opponents counts k - 1, so a third meeting weighs more than another pair's
second).

The exact least (P, O) of every (n, R) comes from an exhaustive search written here, sharing no
code with the engine (tests/rules/seating_search.py), cached in tests/rules/seating_minima.json;
an entry missing from the cache is searched afresh, and a few cheap cases are always searched
again so that a wrong cache fails. The engine's night is counted afresh from its tables.
"""

import pytest

from scorekeeper.rules import Round, Shape, Table, plan_night

from .seating_counts import opponent_repeats, partner_repeats, sit_out_fair, sit_out_spreads
from .seating_search import PLAYERS, ROUNDS, Search, least_repeats, load_cache, plain_least

CASES = [(n, rounds) for n in PLAYERS for rounds in ROUNDS]
# Searched again on every run (well under a second in all), against the cache.
QUICK = [
    (n, rounds)
    for n, most in ((4, 12), (5, 6), (6, 6), (7, 9), (8, 3))
    for rounds in range(1, most + 1)
]
# Small enough for plain dynamic programming, with no bounds and no symmetry to trust.
PLAIN = [(4, r) for r in range(1, 7)] + [(5, r) for r in range(1, 5)] + [(6, 1), (6, 2), (8, 1)]

_cached = load_cache()
# Where the engine's bounded search (rules/small_room.py) stops short of the least, by how much
# (P, O), as bench/seating.py measures it: 7 players over 11 rounds seat one opponent meeting
# more than the least, which that search finds only after about 1,000 rounds tried per plan (7 s
# a night here, against its 1 s). Pinned, so a better engine (or a worse one) fails here.
GAPS = {(7, 11): (0, 1)}


def least(n: int, rounds: int) -> tuple[int, int]:
    """The least (P, O) for n players over these rounds: from the cache, else searched now."""
    key = f"{n},{rounds}"
    if key not in _cached:
        _cached[key] = list(least_repeats(n, rounds))
    return tuple(_cached[key])


def names(n: int) -> list[str]:
    """The players of a test night."""
    return [f"P{i}" for i in range(n)]


def check_shape(players: list[str], night: tuple[Round, ...], rounds: int) -> None:
    """Every round seats n // 4 tables of two teams of two, and n % 4 sit out; all once."""
    n = len(players)
    assert len(night) == rounds
    for round_ in night:
        assert sorted(round_.seated + round_.sitting_out) == sorted(players), round_
        assert len(round_.sitting_out) == n % 4, round_
        assert len(round_.tables) == n // 4, round_
        for table in round_.tables:
            assert [len(side) for side in table.sides] == [2, 2], table


@pytest.mark.parametrize(("n", "rounds"), CASES)
def test_rotating_night_has_the_least_repeats(n: int, rounds: int) -> None:
    players = names(n)
    night = plan_night(players, rounds, Shape.FOURS)
    check_shape(players, night, rounds)
    spreads = sit_out_spreads(players, night)
    assert max(spreads) <= 1, f"sit-out counts apart by {spreads} after each round"
    got = (partner_repeats(night), opponent_repeats(night))
    least_p, least_o = least(n, rounds)
    gap_p, gap_o = GAPS.get((n, rounds), (0, 0))
    want = (least_p + gap_p, least_o + gap_o)
    assert got == want, f"{n} players, {rounds} rounds: (P, O) = {got}, least {least_p, least_o}"


def test_seven_players_over_nine_rounds_repeat_no_partner() -> None:
    players = names(7)
    night = plan_night(players, 9, Shape.FOURS)
    assert least(7, 9)[0] == 0
    assert sit_out_fair(players, night)
    assert partner_repeats(night) == 0


def as_rounds(n: int, schedule: list[tuple]) -> tuple[Round, ...]:
    """The search's night, (sit-outs, tables) a round, as the engine's rounds of named players."""
    player = names(n)
    return tuple(
        Round(
            number,
            tuple(
                Table(k, tuple(tuple(player[p] for p in team) for team in table))
                for k, table in enumerate(tables, 1)
            ),
            tuple(player[p] for p in away),
        )
        for number, (away, tables) in enumerate(schedule, 1)
    )


@pytest.mark.parametrize(("n", "rounds"), QUICK)
def test_a_fresh_search_agrees_with_the_cache(n: int, rounds: int) -> None:
    search = Search(n, rounds)
    found = search.solve()
    assert found == least(n, rounds)
    # The search's best night is a real night with those counts, counted afresh.
    night = as_rounds(n, search.schedule)
    check_shape(names(n), night, rounds)
    assert sit_out_fair(names(n), night)
    assert (partner_repeats(night), opponent_repeats(night)) == found


@pytest.mark.parametrize(("n", "rounds"), PLAIN)
def test_the_search_agrees_with_plain_dynamic_programming(n: int, rounds: int) -> None:
    assert plain_least(n, rounds) == least(n, rounds)
