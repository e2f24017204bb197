"""The rating model's own arithmetic (`ratings/plackett_luce.py`, behind `model.rate`) against
openskill 6.2.0's PlackettLuce called as `model.rate` called it before: the same floats to the
last bit (`==` on every mu and sigma, their `.hex()` in the message), so no club's ratings moved
when the fold stopped going through openskill's objects. No app.

The seeded sweep rates `RATING_ARITHMETIC_GAMES` games (10,000 by default, about 2 s of CPU; set
it higher for a long run: docs/PERFORMANCE.md has the figures of one of 1,000,000).
"""

from __future__ import annotations

import math
import os
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorekeeper.services.ratings import model, plackett_luce
from scorekeeper.services.ratings.model import Skill, places, rate

SWEEP = int(os.environ.get("RATING_ARITHMETIC_GAMES", "10000"))

# openskill with the parameters model.py pins, built as model.py built it before.
_OPENSKILL = PlackettLuce(
    mu=model.MU,
    sigma=model.SIGMA,
    beta=model.BETA,
    kappa=model.KAPPA,
    tau=model.TAU,
    margin=0.0,
    limit_sigma=False,
    balance=False,
)


@pytest.fixture(autouse=True)
def context():
    """No app: this stands in for tests/services/conftest.py's app context."""
    yield


def openskill_rate(sides: list[list[Skill]], totals: list[int]) -> list[list[Skill]]:
    """`model.rate` as it was: openskill's own rating objects and `rate`, places counted the
    old way (1 + how many totals are higher)."""
    theirs = [[_OPENSKILL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    ranks = [float(1 + sum(other > total for other in totals)) for total in totals]
    after = _OPENSKILL.rate(theirs, ranks=ranks)
    return [[Skill(r.mu, r.sigma) for r in side] for side in after]


def differences(sides, totals, ours, theirs) -> list[str]:
    """Every figure that is not the same float, with both floats' bits."""
    found = []
    if [len(side) for side in ours] != [len(side) for side in theirs]:
        return [f"shapes differ: {ours} against {theirs}"]
    for number, (mine, its) in enumerate(zip(ours, theirs, strict=True), start=1):
        for seat, (a, b) in enumerate(zip(mine, its, strict=True), start=1):
            for name in ("mu", "sigma"):
                x, y = getattr(a, name), getattr(b, name)
                if x != y or x.hex() != y.hex():
                    found.append(
                        f"side {number} player {seat} {name}: {x!r} ({x.hex()}) against "
                        f"openskill's {y!r} ({y.hex()})"
                    )
    return [f"sides {sides}, totals {totals}:", *found] if found else []


def outcome(way, sides: list[list[Skill]], totals: list[int]):
    """The ratings, or the kind of error raised (skills far past a club's overflow exp)."""
    try:
        return way(sides, totals)
    except ArithmeticError as error:
        return type(error)


def assert_same(sides: list[list[Skill]], totals: list[int]) -> None:
    """model.rate and openskill give the very same floats for this game, or the same error."""
    ours, theirs = outcome(rate, sides, totals), outcome(openskill_rate, sides, totals)
    if isinstance(ours, type) or isinstance(theirs, type):
        assert ours == theirs, f"sides {sides}, totals {totals}: {ours} against {theirs}"
        return
    found = differences(sides, totals, ours, theirs)
    assert not found, "\n".join(found)


def test_the_arithmetic_has_the_models_pinned_parameters():
    assert (plackett_luce.BETA, plackett_luce.TAU, plackett_luce.KAPPA) == (
        model.BETA,
        model.TAU,
        model.KAPPA,
    )


skills = st.builds(
    Skill,
    st.floats(min_value=-10.0, max_value=60.0),
    st.floats(min_value=0.5, max_value=9.0),
)
game = st.integers(min_value=2, max_value=6).flatmap(
    lambda count: st.tuples(
        st.lists(st.lists(skills, min_size=1, max_size=4), min_size=count, max_size=count),
        # Totals from a few values, so ties (two, three, all sides) come often; or anything.
        st.one_of(
            st.lists(st.integers(0, 2), min_size=count, max_size=count),
            st.lists(st.integers(-5000, 20000), min_size=count, max_size=count),
        ),
    )
)


@settings(max_examples=500, deadline=None)
@given(game)
def test_any_game_rates_to_openskills_very_floats(played):
    assert_same(*played)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=2, max_value=6).flatmap(
        lambda count: st.tuples(
            st.lists(
                st.lists(
                    st.builds(
                        Skill,
                        st.floats(min_value=-500.0, max_value=500.0),
                        st.floats(min_value=1e-3, max_value=1e3),
                    ),
                    min_size=1,
                    max_size=5,
                ),
                min_size=count,
                max_size=count,
            ),
            st.lists(st.integers(0, 3), min_size=count, max_size=count),
        )
    )
)
def test_far_flung_ratings_rate_to_openskills_very_floats_too(played):
    """Skills far outside a club's: tiny and huge sigmas, mu in the hundreds."""
    assert_same(*played)


def test_skills_past_any_club_overflow_alike():
    """A side's exp(mu / c) past a float's range: both raise the same error, none rates."""
    sides = [[Skill(1e4, 1e-3)], [Skill(-1e4, 1e-3)]]
    assert outcome(rate, sides, [1, 2]) is OverflowError
    assert_same(sides, [1, 2])


def _random_game(rng: random.Random) -> tuple[list[list[Skill]], list[int]]:
    """2 to 6 sides of 1 to 4, mu -10 to 60, sigma 0.5 to 9; half the games' totals drawn from
    0-3 (ties of two, three, all sides), the rest from a Hand and Foot range."""
    count = rng.randint(2, 6)
    sides = [
        [Skill(rng.uniform(-10.0, 60.0), rng.uniform(0.5, 9.0)) for _ in range(rng.randint(1, 4))]
        for _ in range(count)
    ]
    if rng.random() < 0.5:
        totals = [rng.randint(0, 3) for _ in range(count)]
    else:
        totals = [rng.randint(-2000, 15000) for _ in range(count)]
    return sides, totals


def test_a_seeded_sweep_of_games_rates_to_openskills_very_floats():
    rng = random.Random(39)
    found: list[str] = []
    ties = all_tied = three_way = 0
    for _ in range(SWEEP):
        sides, totals = _random_game(rng)
        found += differences(sides, totals, rate(sides, totals), openskill_rate(sides, totals))
        shared = [totals.count(t) for t in totals]
        ties += max(shared) > 1
        three_way += max(shared) >= 3
        all_tied += len(set(totals)) == 1
        if len(found) > 20:
            break
    assert not found, "\n".join(found)
    # The sweep held what it is for: ties of every kind, often.
    assert min(ties, three_way, all_tied) > SWEEP // 100


@pytest.mark.parametrize(
    ("sides", "totals"),
    [
        ([[model.NEW], [model.NEW]], [10, 10]),  # all tied, the same players
        ([[Skill(30, 3)], [Skill(20, 5)], [Skill(10, 2)]], [7, 7, 1]),  # whole numbers in
        ([[Skill(31.0, 2.0)] * 4, [Skill(18.0, 8.0), Skill(40.0, 1.0)]], [1, 2]),
        ([[Skill(25.0, 8.0), Skill(25.0, 8.0), Skill(10.0, 3.0)], [Skill(20.0, 4.0)]], [5, 9]),
        ([[Skill(20.0 + k, 1.0 + k / 2)] for k in range(6)], [4, 4, 4, 2, 2, 9]),
        ([[Skill(-0.0, 0.5)], [Skill(0.0, 0.5)]], [0, 0]),
    ],
)
def test_chosen_games_rate_to_openskills_very_floats(sides, totals):
    """Ties of sides with equal ordinals (where the summing order is the sort's), players
    equal within a side, whole numbers, a tie at nothing."""
    assert_same(sides, totals)


def test_tied_sides_keep_their_own_changes_as_openskill_does():
    """openskill 6.2.0 means to average tied sides' mu changes, but its average is always 0:
    the stronger of two tied sides still loses skill and the weaker gains."""
    sides = [[Skill(30.0, 3.0)], [Skill(20.0, 5.0)], [Skill(10.0, 2.0)]]
    (strong,), (weak,), (last,) = rate(sides, [5, 5, 1])
    assert strong.mu < 30.0 and weak.mu > 20.0
    assert last.mu < 10.0


def test_a_sigma_is_never_shrunk_below_kappas_share():
    """The floor openskill keeps (max(1 - share * delta, kappa)): out of a club's reach, so
    held here on its own, with a delta no game gives."""
    ((mu, floored),) = plackett_luce._moved([(25.0, 3.0)], 9.0, 0.0, 2.0)
    assert (mu, floored) == (25.0, 3.0 * math.sqrt(model.KAPPA))
    ((_, shrunk),) = plackett_luce._moved([(25.0, 3.0)], 9.0, 0.0, 0.5)
    assert shrunk == 3.0 * math.sqrt(0.5)


def test_places_count_the_higher_totals_as_before():
    rng = random.Random(5)
    for _ in range(2000):
        totals = [rng.randint(-3, 3) for _ in range(rng.randint(1, 7))]
        assert places(totals) == [1 + sum(o > t for o in totals) for t in totals]
