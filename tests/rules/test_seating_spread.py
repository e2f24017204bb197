"""The findings of issue 38's check of club nights, each seated again by the engine: partners,
opponents, tables and sitting out spread as far as the room allows.

Counted afresh from the tables' sides (tests/rules/seating_counts.py).
"""

from collections import Counter
from itertools import combinations

import pytest

from scorekeeper.rules import Shape, plan_night
from scorekeeper.rules.fixed_pairs import Pairs

from .seating_counts import opponent_counts, partner_repeats, sit_out_spreads

SEEDS = range(4)


def names(n: int) -> list[str]:
    return [f"P{i:02}" for i in range(n)]


def shared(night) -> Counter:
    """Times each two players sat at one table (individual tables)."""
    return Counter(
        frozenset(two) for r in night for t in r.tables for two in combinations(t.players, 2)
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_ten_players_over_three_rounds_oppose_each_other_at_most_once(seed: int) -> None:
    """The check found one pair opposed in all three while 23 pairs never met."""
    night = plan_night(names(10), 3, Shape.FOURS, seed=seed)
    assert max(opponent_counts(night).values()) == 1
    assert partner_repeats(night) == 0


@pytest.mark.parametrize(("n", "seed"), [(n, s) for n in (7, 10) for s in SEEDS])
def test_over_six_rounds_no_pair_opposes_three_times(n: int, seed: int) -> None:
    """Seven and ten players over six rounds: two meetings across a table are enough."""
    night = plan_night(names(n), 6, Shape.FOURS, seed=seed)
    assert max(opponent_counts(night).values()) == 2
    assert partner_repeats(night) == 0
    assert max(sit_out_spreads(names(n), night)) <= 1


@pytest.mark.parametrize("seed", SEEDS)
def test_nine_at_individual_tables_share_one_at_most_three_of_four_rounds(seed: int) -> None:
    """Tables of 5 and 4: no two players share a table all four rounds (each player's four
    tables, as a word of four letters, differs from every other's)."""
    night = plan_night(names(9), 4, Shape.SINGLES, seed=seed)
    assert [sorted(len(t.players) for t in r.tables) for r in night] == [[4, 5]] * 4
    assert max(shared(night).values()) == 3


@pytest.mark.parametrize("seed", SEEDS)
def test_six_players_over_six_rounds_repeat_no_partner(seed: int) -> None:
    night = plan_night(names(6), 6, Shape.FOURS, seed=seed)
    assert partner_repeats(night) == 0


def test_nine_with_fixed_pairs_never_sit_one_player_out_all_night() -> None:
    """Four pairs and a spare over six rounds: six different players sit out, one a round."""
    players = names(9)
    pairs = Pairs(tuple((players[i], players[i + 1]) for i in range(0, 8, 2)), (players[8],))
    night = plan_night(players, 6, Shape.FOURS, pairs)
    outs = [r.sitting_out for r in night]
    assert all(len(out) == 1 for out in outs)
    assert len({out[0] for out in outs}) == 6
    # The spare plays in every round it does not sit out, beside a pair's other player.
    assert sum(players[8] in r.seated for r in night) >= 5
    for r in night:
        for table in r.tables:
            for side in table.sides:
                assert set(side) in [set(team) for team in pairs.teams] or players[8] in side


@pytest.mark.parametrize("teams", range(3, 13))
def test_fixed_pairs_meet_each_other_once_before_any_meet_again(teams: int) -> None:
    """Every round, round 1 included, is a round of one round robin; an odd number of pairs
    rests one a round, each in turn."""
    players = names(2 * teams)
    pairs = Pairs(tuple((players[i], players[i + 1]) for i in range(0, 2 * teams, 2)))
    cycle = teams if teams % 2 else teams - 1
    night = plan_night(players, min(cycle, 12), Shape.FOURS, pairs)
    met = Counter(frozenset(map(frozenset, t.sides)) for r in night for t in r.tables)
    assert set(met.values()) == {1}
    rested = Counter(frozenset(r.sitting_out) for r in night if r.sitting_out)
    assert set(rested.values()) <= {1}
    assert len(rested) == (min(cycle, 12) if teams % 2 else 0)
