"""Whist schedules and fixed pairs' round robin (issue 29), each checked pair by pair.

Nothing here is taken from the engine's own counting: partners, opponents and sit-outs are
counted afresh from the tables' sides.
"""

from collections import Counter
from itertools import combinations, product

import pytest

from scorekeeper.rules import Shape, plan_night, plan_round, whist_schedule
from scorekeeper.rules.whist import (
    INFINITY,
    _add,
    group_of,
    round_robin,
    whist_rounds,
    whist_sizes,
    whist_sizes_said,
)

# Every number of players to 40 that a whist tournament exists for (4m and 4m + 1), from the
# arithmetic, not from the module's list: a number missing from the module fails here.
WHIST = [n for n in range(4, 41) if n % 4 in (0, 1)]


def tally(rounds):
    """Times each two players partnered and opposed, and each player's rounds sat out."""
    partnered, opposed, out = Counter(), Counter(), Counter()
    for played in rounds:
        out.update(played.sitting_out)
        for table in played.tables:
            for side in table.sides:
                partnered.update(frozenset(p) for p in combinations(side, 2))
            for one, two in combinations(table.sides, 2):
                opposed.update(frozenset((a, b)) for a in one for b in two)
    return partnered, opposed, out


@pytest.mark.parametrize("n", range(41))
def test_a_schedule_is_known_exactly_for_4m_and_4m_plus_1_players_to_40(n):
    assert (whist_rounds(n) is not None) is (n in WHIST)
    assert (n in whist_sizes()) is (n in WHIST)


def test_the_sizes_are_listed_in_order_and_none_beyond_40():
    assert whist_sizes() == tuple(WHIST)
    assert whist_rounds(41) is None and whist_rounds(44) is None
    # The form and the movement cards say them in words, not as a list of 19 numbers.
    assert whist_sizes_said() == f"{WHIST[0]} to {WHIST[-1]} players, a multiple of 4 or one more"


def test_a_group_of_several_moduli_adds_digit_by_digit_the_first_the_highest():
    """Points of Z3 x Z5 written 5x + y, as bench/whist_search.py prints them: (x, y) + (u, v)
    is (x + u mod 3, y + v mod 5). Z3 x Z3 (9 players) alone cannot tell the digits apart."""
    for x, y, u, v in product(range(3), range(5), range(3), range(5)):
        assert _add((3, 5), 5 * x + y, 5 * u + v) == 5 * ((x + u) % 3) + (y + v) % 5
    assert _add((3, 5), INFINITY, 7) == INFINITY
    assert group_of(9) == (3, 3) and group_of(33) == (33,) and group_of(40) == (39,)


@pytest.mark.parametrize("n", WHIST)
def test_every_pair_of_the_engine_s_own_indexes_partners_once_and_opposes_twice(n):
    """The rounds as rules/whist.py gives them, before any names: players 0 to n - 1."""
    rounds = whist_rounds(n)
    assert len(rounds) == (n if n % 4 == 1 else n - 1)
    partnered, opposed, out = Counter(), Counter(), Counter()
    for tables, sitting_out in rounds:
        seats = [p for table in tables for p in table]
        assert all(len(set(table)) == 4 for table in tables)
        assert len(tables) == n // 4 and len(sitting_out) == n % 4
        assert sorted(seats + list(sitting_out)) == list(range(n))
        out.update(sitting_out)
        for a, b, c, d in tables:
            partnered.update((frozenset((a, b)), frozenset((c, d))))
            opposed.update(frozenset((x, y)) for x in (a, b) for y in (c, d))
    everyone = {frozenset(p) for p in combinations(range(n), 2)}
    assert set(partnered) == everyone and set(partnered.values()) == {1}
    assert set(opposed) == everyone and set(opposed.values()) == {2}
    assert out == (Counter(range(n)) if n % 4 == 1 else Counter())


@pytest.mark.parametrize("n", WHIST)
def test_each_pair_partners_once_and_opposes_twice(n):
    rounds = whist_schedule(n)
    players = {str(i + 1) for i in range(n)}
    everyone = {frozenset(p) for p in combinations(players, 2)}
    partnered, opposed, out = tally(rounds)
    assert set(partnered) == everyone and set(partnered.values()) == {1}
    assert set(opposed) == everyone and set(opposed.values()) == {2}
    # 4m + 1 players: 4m + 1 rounds, one sitting out each, each player once; 4m: 4m - 1, none.
    assert len(rounds) == (n if n % 4 == 1 else n - 1)
    assert out == (Counter(players) if n % 4 == 1 else Counter())
    for number, played in enumerate(rounds, 1):
        assert played.number == number
        assert len(played.sitting_out) == n % 4
        seated = [p for table in played.tables for side in table.sides for p in side]
        assert sorted(seated + list(played.sitting_out)) == sorted(players)
        assert [t.number for t in played.tables] == list(range(1, n // 4 + 1))
        assert all([len(s) for s in t.sides] == [2, 2] for t in played.tables)


@pytest.mark.parametrize("n", [n for n in range(42) if n % 4 in (2, 3)] + [0, 1, 41, 44])
def test_no_schedule_where_none_is_known(n):
    assert whist_schedule(n) is None


@pytest.mark.parametrize("teams", range(2, 22))
def test_the_round_robin_meets_each_team_once_and_rests_each_once(teams):
    rounds = [round_robin(teams, i) for i in range(teams if teams % 2 else teams - 1)]
    met = Counter(frozenset(m) for meets, _ in rounds for m in meets)
    assert set(met) == {frozenset(p) for p in combinations(range(teams), 2)}
    assert set(met.values()) == {1}
    for meets, rests in rounds:
        assert sorted([t for m in meets for t in m] + list(rests)) == list(range(teams))
    assert Counter(t for _, rests in rounds for t in rests) == (
        Counter(range(teams)) if teams % 2 else Counter()
    )
    assert round_robin(teams, len(rounds)) == rounds[0]  # and round again


def as_sets(rounds):
    """Each round's tables as sets of sides, whatever the order of tables, sides and seats."""
    return [
        (frozenset(frozenset(map(frozenset, t.sides)) for t in r.tables), frozenset(r.sitting_out))
        for r in rounds
    ]


def test_a_group_continues_its_schedule_night_after_night():
    """Three nights of 4, 3 and 4 rounds for the same 9: the season's first 9 rounds are the
    whole schedule (each pair partnered once, opposed twice), then it wraps round."""
    group = [f"P{i}" for i in range(9)]
    nights, played = [], 0
    for rounds in (4, 3, 4):
        nights += plan_night(group, rounds, Shape.FOURS, seed=played, schedule_played=played)
        played += rounds
    partnered, opposed, out = tally(nights[:9])
    assert set(partnered.values()) == {1} and len(partnered) == 36
    assert set(opposed.values()) == {2} and len(opposed) == 36
    assert out == Counter(group)
    assert as_sets(nights[9:]) == as_sets(nights[:2])


def test_a_night_that_starts_late_in_the_schedule_wraps_round():
    group = [f"P{i:02}" for i in range(12)]
    whole = plan_night(group, 11, Shape.FOURS, schedule_played=0)
    tonight = plan_night(group, 4, Shape.FOURS, schedule_played=9)
    assert as_sets(tonight) == as_sets(whole[9:] + whole[:2])


def test_the_schedule_is_the_group_s_whatever_the_order_they_are_listed_in():
    group = [f"P{i:02}" for i in range(13)]
    listed = plan_night(group, 5, Shape.FOURS, schedule_played=3)
    reversed_ = plan_night(group[::-1], 5, Shape.FOURS, schedule_played=3)
    assert as_sets(listed) == as_sets(reversed_)


def test_a_late_arrival_leaves_the_schedule_until_the_group_is_whole_again():
    """Round 3 has a ninth player: no 9-player schedule continues the 8's, so it is seated
    round by round; round 4 the 8 again pick up their schedule at its third round."""
    group = [f"P{i}" for i in range(8)]
    whole = plan_night(group, 7, Shape.FOURS, schedule_played=0)
    rounds = list(whole[:2])
    rounds.append(plan_round([*group, "Late"], Shape.FOURS, (), None, rounds, 0, 0))
    assert "Late" in {*rounds[2].seated, *rounds[2].sitting_out}
    rounds.append(plan_round(group, Shape.FOURS, (), None, rounds, 0, 0))
    assert as_sets(rounds[3:]) == as_sets(whole[2:3])


def test_whist_is_used_only_when_asked():
    group = [f"P{i}" for i in range(8)]
    asked = plan_night(group, 7, Shape.FOURS, schedule_played=0)
    partnered, _, _ = tally(asked)
    assert set(partnered.values()) == {1} and len(partnered) == 28
    # Round by round the first round may be any fresh pairing: no schedule is followed.
    unasked = [plan_night(group, 1, Shape.FOURS, seed=s)[0] for s in range(8)]
    assert len(set(as_sets(unasked))) > 1


def test_fixed_pairs_meet_every_other_pair_once_over_their_round_robin():
    pairs = [(f"A{i}", f"B{i}") for i in range(10)]
    players = [p for pair in pairs for p in pair]
    for seed in range(5):
        night = plan_night(players, 9, Shape.FOURS, pairs, seed=seed)
        met = Counter(frozenset(map(frozenset, t.sides)) for r in night for t in r.tables)
        assert len(met) == 45 and set(met.values()) == {1}


def test_an_odd_number_of_pairs_rests_each_pair_once():
    pairs = [(f"A{i}", f"B{i}") for i in range(7)]
    night = plan_night([p for pair in pairs for p in pair], 7, Shape.FOURS, pairs, seed=3)
    met = Counter(frozenset(map(frozenset, t.sides)) for r in night for t in r.tables)
    assert len(met) == 21 and set(met.values()) == {1}
    assert Counter(frozenset(r.sitting_out) for r in night) == Counter(map(frozenset, pairs))


def test_fixed_pairs_continue_their_round_robin_over_the_season():
    pairs = [(f"A{i}", f"B{i}") for i in range(14)]
    players = [p for pair in pairs for p in pair]
    first = plan_night(players, 8, Shape.FOURS, pairs, seed=1, schedule_played=0)
    second = plan_night(players, 5, Shape.FOURS, pairs, seed=2, schedule_played=8)
    met = Counter(frozenset(map(frozenset, t.sides)) for r in first + second for t in r.tables)
    assert len(met) == 91 and set(met.values()) == {1}
