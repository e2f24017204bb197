"""A night's seating, rules that mutation testing found unpinned (issue 38): the history a club's
games give, tables numbered so players move round the room, whist only at tables of 4, and the
refusals' words naming the figure. Everything is counted afresh from the tables' sides.
"""

from collections import Counter
from itertools import combinations

import pytest

from scorekeeper.rules import (
    History,
    Round,
    SeatingRefused,
    Shape,
    Table,
    history_of,
    plan_night,
    whist_schedule,
)
from scorekeeper.rules.nights import history_of_games, pairs_in
from scorekeeper.rules.whist import round_robin, whist_rounds


def pair(a, b):
    return frozenset((a, b))


def test_a_club_s_games_give_partners_and_opponents_and_nothing_else():
    seen = history_of_games(
        [
            [("A", "B"), ("C", "D")],
            [("A", "C"), ("B", "E"), ("D", "F")],  # three teams of two
            [("A",), ("B",), ("C",)],  # cutthroat: everyone against everyone
        ]
    )
    assert seen.partnered == {pair("A", "B"): 1, pair("C", "D"): 1, pair("A", "C"): 1,
                              pair("B", "E"): 1, pair("D", "F"): 1}  # fmt: skip
    assert seen.opposed == {
        pair("A", "C"): 2, pair("A", "D"): 2, pair("B", "C"): 3, pair("B", "D"): 2,
        pair("A", "B"): 2, pair("A", "E"): 1, pair("C", "D"): 1, pair("C", "E"): 1,
        pair("A", "F"): 1, pair("C", "F"): 1, pair("B", "F"): 1, pair("E", "D"): 1,
        pair("E", "F"): 1,
    }  # fmt: skip
    assert seen.sat_out == {} and seen.tables == {}
    assert history_of_games([]) == History()


def test_pairs_in_is_every_two_once():
    assert pairs_in(["A", "B", "C"]) == [pair("A", "B"), pair("A", "C"), pair("B", "C")]
    assert pairs_in(["A"]) == []


def test_the_history_of_no_rounds_is_what_came_before():
    before = History({pair("A", "B"): 1}, {pair("A", "C"): 2}, {"A": 1}, {("A", 2): 3})
    assert history_of([], before) == before
    assert history_of([]) == History()


def test_a_round_lists_its_seated_table_by_table():
    played = Round(
        2, (Table(1, (("A", "B"), ("C", "D"))), Table(2, (("E",), ("F",), ("G",)))), ("H",)
    )
    assert played.seated == ("A", "B", "C", "D", "E", "F", "G")
    assert played.tables[1].players == ("E", "F", "G")


def sat_at(history, table):
    return sum(history.tables.get((p, table.number), 0) for p in table.players)


def check_tables_numbered_by_who_sat_there_least(night, before=None):
    """No two tables of a round would, numbers swapped, seat their players where they have sat
    fewer times before (the night so far, on top of the season)."""
    for done, played in enumerate(night):
        seen = history_of(night[:done], before)
        for one, two in combinations(played.tables, 2):
            now = sat_at(seen, one) + sat_at(seen, two)
            swapped = sat_at(seen, Table(two.number, one.sides)) + sat_at(
                seen, Table(one.number, two.sides)
            )
            assert now <= swapped, (played.number, one, two)


@pytest.mark.parametrize("shape", [Shape.FOURS, Shape.SIXES, Shape.SINGLES])
def test_players_move_to_the_tables_they_have_sat_at_least(shape):
    players = [f"P{i:02}" for i in range(18)]
    for seed in range(2):
        night = plan_night(players, 6, shape, seed=seed)
        check_tables_numbered_by_who_sat_there_least(night)


def test_the_season_s_tables_count_in_the_numbering():
    """Each player has sat at one table five times this season: every round is numbered so
    that no swap of two tables' numbers would seat them where they have sat fewer times."""
    players = [f"P{i}" for i in range(12)]
    season = History(tables={(p, 1 + i % 3): 5 for i, p in enumerate(players)})
    for seed in range(5):
        night = plan_night(players, 3, Shape.FOURS, history=season, seed=seed)
        check_tables_numbered_by_who_sat_there_least(night, season)


def test_a_whist_schedule_is_kept_to_tables_of_4():
    """Asked for a schedule at tables of 6, twelve players still sit at tables of three teams:
    a whist schedule is for tables of 4 only."""
    players = [f"P{i:02}" for i in range(12)]
    night = plan_night(players, 2, Shape.SIXES, schedule_played=0)
    assert all(len(t.sides) == 3 for r in night for t in r.tables)
    assert len(night[0].tables) == 2


def test_a_whist_schedule_names_its_players_1_to_n():
    for n in (8, 9):
        schedule = whist_schedule(n)
        assert len(schedule) == (n if n % 2 else n - 1)
        assert [r.number for r in schedule] == list(range(1, len(schedule) + 1))
        for played in schedule:
            assert sorted(played.seated + played.sitting_out, key=int) == [
                str(i) for i in range(1, n + 1)
            ]
            assert [t.number for t in played.tables] == list(range(1, n // 4 + 1))
        assert Counter(p for r in schedule for p in r.sitting_out) == (
            Counter(str(i) for i in range(1, n + 1)) if n % 2 else Counter()
        )


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: plan_night(list("ABCD"), 1, Shape.FOURS, [("A", "B", "C")]),
         "A pair is two different players; ('A', 'B', 'C') is not."),
        (lambda: plan_night(list("ABCD"), 1, Shape.FOURS, [("A",)]),
         "A pair is two different players; ('A',) is not."),
        (lambda: plan_night(list("ABCDE"), 1, Shape.FOURS, [("A", "B"), ("C", "A"), ("A", "D")]),
         "A is in 3 pairs; a player partners one other."),
        (lambda: plan_night(["A", "B", "A", "C", "A"], 1, Shape.FOURS),
         "A is listed 3 times among the players present."),
        (lambda: plan_night(list("ABCDEF"), 1, Shape.SINGLES, [("A", "B"), ("C", "D")]),
         "Individual tables have no partners; 2 pairs were given."),
        (lambda: plan_night(list("ABCDE"), 1, Shape.SIXES, [("A", "B")]),
         "A table of 6 needs 6 players; 5 are present."),
    ],
)  # fmt: skip
def test_more_refusals_name_the_figure(call, words):
    with pytest.raises(SeatingRefused) as refused:
        call()
    assert str(refused.value) == words


def test_the_least_players_a_table_needs_are_enough():
    assert len(plan_night(list("ABCD"), 1, Shape.FOURS)[0].tables) == 1
    assert len(plan_night(list("ABCDEF"), 1, Shape.SIXES)[0].tables) == 1
    assert len(plan_night(list("ABC"), 1, Shape.SINGLES)[0].tables) == 1
    assert len(plan_night(list("ABCD"), 12, Shape.FOURS)) == 12
    assert plan_night(list("ABCD"), 1, Shape.FOURS, schedule_played=0)[0].number == 1


def moved_on(point: int, n: int) -> int:
    """Where a whist player's number moves next round: one on, round the numbers that move
    (all n when n is 4m + 1; all but the last, who stays put, when n is 4m)."""
    moving = n if n % 4 == 1 else n - 1
    return point if point == moving else (point + 1) % moving


@pytest.mark.parametrize("n", [4, 5, 8, 12, 13, 16, 17, 20, 21, 24, 25, 40])
def test_each_whist_round_moves_every_player_one_number_on(n):
    """The movement a club's cards print: next round, everyone takes the places of the next
    number (the last of 4m players stays at their seat)."""
    rounds = whist_rounds(n)
    for now, after in zip(rounds, rounds[1:] + rounds[:1], strict=True):
        tables, out = now
        assert after[0] == tuple(tuple(moved_on(p, n) for p in table) for table in tables)
        assert after[1] == tuple(moved_on(p, n) for p in out)


def test_nine_players_move_in_two_digits_each_counted_in_threes():
    """Nine players' schedule adds round r's two base-3 digits to each player's two digits."""
    rounds = whist_rounds(9)
    first = rounds[0][0]
    for r, (tables, out) in enumerate(rounds):

        def move(p, r=r):
            return (p // 3 + r // 3) % 3 * 3 + (p % 3 + r % 3) % 3

        assert tables == tuple(tuple(move(p) for p in table) for table in first)
        assert out == (move(0),)


@pytest.mark.parametrize("teams", range(2, 14))
def test_the_round_robin_moves_each_pair_one_place_round_the_circle(teams):
    """Fixed pairs' order: next round every pair moves one place on (with an even number, the
    last pair stays put), so pair t meets whom pair t - 1 met, and the next pair rests."""
    places = teams + teams % 2

    def move(t):
        return t if t == places - 1 else (t + 1) % (places - 1)

    for index in range(2 * teams):
        meets, rests = round_robin(teams, index)
        later, resting = round_robin(teams, index + 1)
        assert {frozenset(map(move, m)) for m in meets} == set(map(frozenset, later))
        assert tuple(map(move, rests)) == resting
        assert len(meets) == teams // 2 and len(rests) == teams % 2
    assert round_robin(teams, 0)[1] == ((0,) if teams % 2 else ())
