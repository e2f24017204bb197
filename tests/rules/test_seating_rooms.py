"""How a room is cut into tables and what a round costs (issue 38): each figure a club sees on the
night's form (tables of 6 and of 4, who sits out) and each count the seating weighs, pinned
exactly, so a changed rule in rules/tables.py or rules/tally.py fails here.
"""

from collections import Counter

import pytest

from scorekeeper.rules.tables import (
    SeatingRefused,
    TeamTables,
    room_words,
    table_sizes,
    team_tables,
)
from scorekeeper.rules.tally import Tally, sit_out_choice


def pair(a, b):
    return frozenset((a, b))


@pytest.mark.parametrize(
    ("teams", "a_table", "fours", "sixes_fours"),
    [
        (2, 2, True, (0, 1)), (5, 2, True, (0, 2)), (7, 2, False, (0, 3)),
        (2, 3, True, (0, 1)), (3, 3, True, (1, 0)), (4, 3, True, (0, 2)), (5, 3, True, (1, 1)),
        (6, 3, True, (2, 0)), (7, 3, True, (1, 2)), (8, 3, True, (2, 1)), (9, 3, True, (3, 0)),
        (4, 3, False, (1, 0)), (5, 3, False, (1, 0)), (7, 3, False, (2, 0)), (2, 3, False, (0, 0)),
        (1, 3, True, (0, 0)), (1, 2, True, (0, 0)),
    ],
)  # fmt: skip
def test_tables_of_6_first_and_tables_of_4_take_the_teams_left(teams, a_table, fours, sixes_fours):
    """The most tables of 6 that leave the fewest teams without a table: 7 teams are a table of
    6 and two of 4 (nobody out), not two of 6 (a team out); no tables of 4, the rest sit out."""
    room = team_tables(teams, a_table, fours)
    assert (room.sixes, room.fours) == sixes_fours
    assert room.teams == 3 * room.sixes + 2 * room.fours
    assert room.sizes == (3,) * room.sixes + (2,) * room.fours


def test_team_tables_are_said_in_words():
    assert TeamTables(2, 1).words == "2 tables of 6 and 1 table of 4"
    assert TeamTables(1, 0).words == "1 table of 6"
    assert TeamTables(0, 3).words == "3 tables of 4"
    assert TeamTables(0, 0).words == "no table"
    assert TeamTables(0, 0).teams == 0 and TeamTables(0, 0).sizes == ()


@pytest.mark.parametrize(
    ("players", "a_table", "fours", "words"),
    [
        (10, 3, True, "10 players: 1 table of 6 and 1 table of 4, nobody sits out."),
        (11, 3, True, "11 players: 1 table of 6 and 1 table of 4, 1 sits out each round."),
        (11, 3, False, "11 players: 1 table of 6, 5 sit out each round."),
        (14, 3, True, "14 players: 1 table of 6 and 2 tables of 4, nobody sits out."),
        (9, 2, True, "9 players: 2 tables of 4, 1 sits out each round."),
        (7, 2, True, "7 players: 1 table of 4, 3 sit out each round."),
        (3, 2, True, "3 players: too few for a table."),
        (5, 3, False, "5 players: too few for a table."),
        (7, 0, True, "7 players: tables of 4, 3, nobody sits out."),
        (9, 0, True, "9 players: tables of 5, 4, nobody sits out."),
        (3, 0, True, "3 players: tables of 3, nobody sits out."),
        (2, 0, True, "2 players: too few for a table of 3."),
    ],
)  # fmt: skip
def test_the_night_s_form_says_what_each_count_gives(players, a_table, fours, words):
    assert room_words(players, a_table, fours) == words


def test_the_fours_allowed_default_is_yes():
    assert team_tables(4, 3) == TeamTables(0, 2)
    assert room_words(8, 3) == "8 players: 2 tables of 4, nobody sits out."


@pytest.mark.parametrize("n", [0, 1, 2])
def test_fewer_than_three_have_no_individual_table(n):
    with pytest.raises(SeatingRefused, match=f"at least 3 players; {n} are present"):
        table_sizes(n)


@pytest.mark.parametrize("n", range(3, 41))
def test_individual_tables_hold_3_to_5_at_most_one_apart(n):
    sizes = table_sizes(n)
    assert sum(sizes) == n and min(sizes) >= 3 and max(sizes) <= 5
    assert max(sizes) - min(sizes) <= 1 and list(sizes) == sorted(sizes, reverse=True)
    # Nearest 4 in all, and on a tie the more tables.
    # Nearest 4 in all: a table of 5 or of 3 only for what fours leave over.
    assert sum(abs(s - 4) for s in sizes) == min(n % 4, 4 - n % 4)


def tally(partnered=(), opposed=(), missed=None, season=None):
    return Tally(
        Counter({pair(*p): t for p, t in partnered}),
        Counter({pair(*p): t for p, t in opposed}),
        Counter(missed or {}),
        season or {},
    )


def test_a_round_costs_its_repeated_partners_the_season_s_sit_outs_then_meetings_again():
    seen = tally(
        partnered=[(("A", "B"), 2), (("C", "E"), 1)],
        opposed=[(("A", "C"), 1), (("B", "D"), 3), (("A", "B"), 5)],
        season={"E": 2, "F": 1, "A": 7},
    )
    groups = [[("A", "B"), ("C", "D")]]
    # A and B partnered before (once counted, however often); A-C met once, B-D three times.
    assert seen.cost(groups, ["E", "F"]) == (1, 3, 4)
    assert seen.cost([[("B", "A"), ("D", "C")]], []) == (1, 0, 4)
    assert seen.cost([[("A", "D"), ("C", "E")]], ["B"]) == (1, 0, 1)
    # Individual tables: no partners, everyone at a table opposes everyone else.
    assert seen.cost([[("A",), ("B",), ("C",)]], ["F"]) == (0, 1, 6)
    # A table of three teams counts every two of its teams (A-C once, A-B five times).
    assert seen.cost([[("A", "E"), ("C", "F"), ("B", "D")]], []) == (0, 0, 6)
    # Every table counts.
    assert seen.cost([[("A", "E"), ("C", "F")], [("B", "G"), ("D", "H")]], []) == (0, 0, 4)


def test_a_round_counted_in_and_out_again_leaves_the_counts_as_they_were():
    seen = tally(partnered=[(("A", "B"), 1)], missed={"E": 1})
    groups = [[("A", "B"), ("C", "D")], [("E",), ("F",)]]
    seen.add(groups, ["G", "E"])
    assert seen.partnered == Counter({pair("A", "B"): 2, pair("C", "D"): 1})
    assert seen.opposed == Counter(
        {pair("A", "C"): 1, pair("A", "D"): 1, pair("B", "C"): 1, pair("B", "D"): 1,
         pair("E", "F"): 1}
    )  # fmt: skip
    assert seen.missed == Counter({"E": 2, "G": 1})
    seen.add(groups, ["G", "E"], times=2)
    assert seen.partnered[pair("A", "B")] == 4 and seen.opposed[pair("E", "F")] == 3
    assert seen.missed == Counter({"E": 4, "G": 3})
    seen.add(groups, ["G", "E"], -3)
    assert +seen.partnered == Counter({pair("A", "B"): 1}) and not +seen.opposed
    assert +seen.missed == Counter({"E": 1})


def test_who_must_sit_out_who_may_and_how_many():
    missed = {"A": 0, "B": 1, "C": 0, "D": 2, "E": 1, "F": 1}
    players = list(missed)
    assert sit_out_choice(players, 0, missed) == ([], [], 0)
    assert sit_out_choice(players, -1, missed) == ([], [], 0)
    # One sits out: A or C (missed none), one of them.
    assert sit_out_choice(players, 1, missed) == ([], ["A", "C"], 1)
    assert sit_out_choice(players, 2, missed) == ([], ["A", "C"], 2)
    # Three: A and C must, then one of B, E and F.
    assert sit_out_choice(players, 3, missed) == (["A", "C"], ["B", "E", "F"], 1)
    assert sit_out_choice(players, 5, missed) == (["A", "C"], ["B", "E", "F"], 3)
    assert sit_out_choice(players, 6, missed) == (["A", "B", "C", "E", "F"], ["D"], 1)
