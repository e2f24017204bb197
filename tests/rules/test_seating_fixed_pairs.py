"""Fixed partners in the pure engine (issue 38): the pairs drawn, the round robin with a spare
player, and pairs not all present; each checked from the tables' sides, as a club sees them.
"""

from collections import Counter
from itertools import combinations

import pytest

from scorekeeper.rules import History, Round, Shape, Table, plan_night, plan_round
from scorekeeper.rules.fixed_pairs import Pairs, complete, draw_pairs

from .seating_counts import sit_out_spreads


def pair(a, b):
    return frozenset((a, b))


def sides_of(played):
    return {frozenset(side) for table in played.tables for side in table.sides}


def with_spare(n_pairs):
    teams = tuple((f"{chr(65 + i)}1", f"{chr(65 + i)}2") for i in range(n_pairs))
    return Pairs(teams, ("S",))


def test_pairs_by_strength_put_the_strongest_with_the_weakest_the_middle_one_spare():
    # Strengths not in the names' order: C 7, E 6, A 5, G 4, D 3, F 2, B 1.
    strength = dict(zip("ABCDEFG", (5.0, 1.0, 7.0, 3.0, 6.0, 2.0, 4.0), strict=True))
    for seed in range(5):
        drawn = draw_pairs(list("GFEDCBA"), seed, strength=strength)
        assert drawn.spare == ("G",)
        assert set(drawn.teams) == {("B", "C"), ("E", "F"), ("A", "D")}
    even = draw_pairs(list("ABCDEF"), 3, strength=strength)
    # C 7, E 6, A 5, D 3, F 2, B 1.
    assert even.spare == () and set(even.teams) == {("B", "C"), ("E", "F"), ("A", "D")}
    four = draw_pairs(list("ABCD"), 1, strength=strength)
    assert four.spare == () and set(four.teams) == {("B", "C"), ("A", "D")}
    nine = {p: float(i) for i, p in enumerate("ABCDEFGHI")}
    drawn = draw_pairs(list(nine), 2, strength=nine)
    assert drawn.spare == ("E",) and len(drawn.teams) == 4
    assert set(drawn.teams) == {("A", "I"), ("B", "H"), ("C", "G"), ("D", "F")}


def test_pairs_by_lot_avoid_the_season_s_partners_and_leave_one_spare():
    partnered = {pair("A", "B"): 1, pair("C", "D"): 2, pair("A", "C"): 1}
    for seed in range(10):
        drawn = draw_pairs(list("DCBA"), seed, partnered)
        assert set(drawn.teams) == {("A", "D"), ("B", "C")} and drawn.spare == ()
        odd = draw_pairs(list("ABCDEFG"), seed)
        assert len(odd.spare) == 1 and len(odd.teams) == 3
        assert odd.players == set("ABCDEFG")
        assert all(a < b for a, b in odd.teams)
    spares = {draw_pairs(list("ABCDEFG"), seed).spare for seed in range(20)}
    assert len(spares) > 2  # by lot, not always the same player


def test_the_same_seed_draws_the_same_pairs_another_may_not():
    players = [f"P{i}" for i in range(10)]
    assert draw_pairs(players, 4) == draw_pairs(players[::-1], 4)
    assert len({draw_pairs(players, seed) for seed in range(6)}) > 1


def test_complete_is_every_pair_and_the_spare_present():
    pairs = with_spare(2)
    assert complete(pairs, ["A1", "A2", "B1", "B2", "S"])
    assert not complete(pairs, ["A1", "A2", "B1", "B2"])
    assert not complete(pairs, ["A1", "A2", "B1", "B2", "S", "T"])
    assert pairs.players == {"A1", "A2", "B1", "B2", "S"}


@pytest.mark.parametrize("n_pairs", [2, 3, 4, 5, 6])
def test_a_spare_plays_in_for_one_player_a_round_and_sit_outs_go_round(n_pairs):
    """Every pair and a spare, at tables of 4: each round one round of the round robin (the
    spare beside the partner of whoever sits out), nobody sits out twice before everyone has
    sat out once, and the one without a pair changes every round."""
    pairs = with_spare(n_pairs)
    players = sorted(pairs.players)
    rounds = 12 if n_pairs % 2 else 2 * n_pairs - 1
    cycle = n_pairs if n_pairs % 2 else n_pairs - 1
    night = plan_night(players, rounds, Shape.FOURS, pairs, seed=n_pairs)
    assert max(sit_out_spreads(players, night)) <= 1
    # With an odd number of pairs the spare's pair never rests, so the spare sits out first.
    assert ("S" in night[0].sitting_out) or not n_pairs % 2
    met = Counter()
    for played in night:
        teams = {}
        for side in map(frozenset, (s for t in played.tables for s in t.sides)):
            names = {p[0] for p in side if p != "S"}
            assert len(side) == 2 and len(names) == 1  # a pair, or one of it and the spare
            teams[side] = names.pop()
        out = set(played.sitting_out)
        resting = {p[0] for p in out if p != "S" and p[0] + ("2" if p[1] == "1" else "1") in out}
        assert len(resting) == n_pairs % 2  # one pair rests when the pairs are odd
        assert len(out) == 1 + 2 * len(resting)
        # Whoever the spare stands in for sits out; nobody else is without a partner.
        for side, name in teams.items():
            if "S" in side:
                assert ({f"{name}1", f"{name}2"} - side) <= out
        met.update(frozenset(teams[frozenset(s)] for s in t.sides) for t in played.tables if played)
        if played.number == cycle:
            # One whole round robin: every two pairs met once.
            assert set(met) == {frozenset(p) for p in combinations(teams_of(pairs), 2)}
            assert set(met.values()) == {1}
    counts = Counter(p for r in night for p in r.sitting_out)
    assert max(counts.values()) - min(counts[p] for p in players) <= 1


def teams_of(pairs):
    return [a[0] for a, _ in pairs.teams]


def test_the_spare_is_not_always_the_same_player():
    pairs = with_spare(2)
    night = plan_night(sorted(pairs.players), 5, Shape.FOURS, pairs, seed=1)
    # Five players, five rounds: each sits out once.
    assert Counter(p for r in night for p in r.sitting_out) == Counter(pairs.players)


def test_among_equals_whoever_sat_out_least_this_season_sits_out():
    pairs = with_spare(2)
    season = History(sat_out={"A1": 1, "A2": 1, "B1": 1, "S": 1})
    for seed in range(5):
        played = plan_round(sorted(pairs.players), Shape.FOURS, pairs, season, seed=seed)
        assert played.sitting_out == ("B2",)
        assert sides_of(played) == {pair("A1", "A2"), pair("B1", "S")}


def test_among_equals_whoever_s_pair_rests_latest_sits_out():
    """Three pairs and a spare, round 2 of the round robin (after the spare sat out): of those
    who have not sat out, the one whose pair rests last in the round robin sits out."""
    pairs = with_spare(3)
    players = sorted(pairs.players)
    first = plan_night(players, 1, Shape.FOURS, pairs, seed=2)
    rested = {p[0] for p in first[0].sitting_out if p != "S"}
    second = plan_round(players, Shape.FOURS, pairs, None, first, seed=2)
    resting = {p[0] for p in second.sitting_out if p[0] + "1" in second.sitting_out}
    resting &= {p[0] for p in second.sitting_out if p[0] + "2" in second.sitting_out}
    (alone,) = set(second.sitting_out) - {f"{t}{i}" for t in resting for i in "12"}
    # Not the spare (sat out already), not the pair that rested, not the pair resting now: the
    # pair that rests next-but-one, last of the three.
    assert alone != "S" and alone[0] not in rested | resting


def test_a_player_without_partner_in_a_room_of_pairs_plays_in_for_another():
    """C2 away and no spare: one of the five sits out each round, C1 playing in for them when
    it is not C1, and over five rounds each sits out once."""
    pairs = [("A1", "A2"), ("B1", "B2"), ("C1", "C2")]
    present = ["A1", "A2", "B1", "B2", "C1"]
    night = plan_night(present, 5, Shape.FOURS, pairs, seed=2)
    assert Counter(p for r in night for p in r.sitting_out) == Counter(present)
    for played in night:
        (out,) = played.sitting_out
        kept = {pair("A1", "A2"), pair("B1", "B2")}
        assert len(kept - sides_of(played)) == (0 if out == "C1" else 1)


def test_a_partner_away_the_spare_plays_with_the_one_left():
    pairs = with_spare(4)
    present = ["A1", "A2", "B1", "B2", "C1", "C2", "D1", "S"]  # D2 away
    for seed in range(5):
        played = plan_round(present, Shape.FOURS, pairs, seed=seed)
        assert played.sitting_out == ()
        assert pair("D1", "S") in sides_of(played)
        assert {pair(a + "1", a + "2") for a in "ABC"} <= sides_of(played)
    # C2 away too: C1 and D1 partner, the spare stays the one without a pair and plays in.
    present = ["A1", "A2", "B1", "B2", "C1", "D1", "S"]
    for seed in range(5):
        played = plan_round(present, Shape.FOURS, pairs, seed=seed)
        assert len(played.sitting_out) == 3
        sides = sides_of(played)
        teams = [pair("A1", "A2"), pair("B1", "B2"), pair("C1", "D1")]
        resting = [t for t in teams if t <= set(played.sitting_out)]
        assert len(resting) == 1
        (alone,) = set(played.sitting_out) - resting[0]
        # The spare sits out, or plays beside the partner of the one who does.
        playing = [t for t in teams if t not in resting]
        assert alone == "S" or any(t - {alone} | {"S"} in sides for t in playing if alone in t)


def test_pairs_that_rested_play_next_at_tables_of_six():
    """Eight pairs at tables of 6 only: two tables, two pairs rest; next round the pairs that
    rested play (whoever has missed fewest rounds rests), and with tables of 4 nobody rests."""
    pairs = [(f"{c}1", f"{c}2") for c in "ABCDEFGH"]
    players = [p for pr in pairs for p in pr]
    night = plan_night(players, 4, Shape.SIXES, pairs, seed=3, fours_allowed=False)
    for before, after in zip(night, night[1:], strict=False):
        assert len(before.sitting_out) == 4 and len(before.tables) == 2
        assert not set(before.sitting_out) & set(after.sitting_out)
        assert {pair(*p) for p in pairs} >= sides_of(after)
    mixed = plan_night(players, 2, Shape.SIXES, pairs, seed=3)
    assert all(r.sitting_out == () and len(r.tables) == 3 for r in mixed)


def test_a_late_comer_whose_partner_is_away_gets_a_partner_and_no_repeat_is_made():
    """Round 2: B1 comes late (B2, C2 and D2 away); C1 and D1 partnered in round 1. B1, who
    has missed a round, plays beside C1 or D1, and C1 and D1 do not partner again."""
    pairs = [("A1", "A2"), ("B1", "B2"), ("C1", "C2"), ("D1", "D2")]
    first = Round(1, (Table(1, (("A1", "A2"), ("C1", "D1"))),))
    for seed in range(12):
        played = plan_round(["A1", "A2", "B1", "C1", "D1"], Shape.FOURS, pairs, None, [first], seed)
        assert "B1" in played.seated and len(played.sitting_out) == 1
        sides = sides_of(played)
        assert pair("C1", "D1") not in sides
        (b1_side,) = [s for s in sides if "B1" in s]
        assert b1_side - {"B1"} <= {"C1", "D1"}


def test_a_partner_away_whoever_sat_out_least_this_season_makes_room():
    """C2 away, five present at one table of 4: of those who have missed no round tonight,
    whoever sat out least this season sits out (B2, the only one never out)."""
    pairs = [("A1", "A2"), ("B1", "B2"), ("C1", "C2")]
    season = History(sat_out={"A1": 1, "A2": 2, "B1": 1, "C1": 1})
    for seed in range(6):
        played = plan_round(["A1", "A2", "B1", "B2", "C1"], Shape.FOURS, pairs, season, seed=seed)
        assert played.sitting_out == ("B2",)
        assert pair("B1", "C1") in sides_of(played)
