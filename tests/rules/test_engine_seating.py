"""Seating and the deal passing left, as the rulebooks describe the table."""

import pytest

from scorekeeper.rules import Seat, dealer, seating


def test_partners_never_sit_side_by_side():
    """Two teams of two: Ann, Cat, Bob, Dan round the table."""
    seats = seating([["Ann", "Bob"], ["Cat", "Dan"]])
    assert [s.player for s in seats] == ["Ann", "Cat", "Bob", "Dan"]
    assert [s.side for s in seats] == [0, 1, 0, 1]


def test_three_teams_of_two_alternate():
    seats = seating([["A1", "A2"], ["B1", "B2"], ["C1", "C2"]])
    assert [s.player for s in seats] == ["A1", "B1", "C1", "A2", "B2", "C2"]


def test_individuals_sit_in_the_order_entered():
    assert [s.player for s in seating([["Ann"], ["Bob"], ["Cat"]])] == ["Ann", "Bob", "Cat"]


@pytest.mark.parametrize(
    ("first", "deal", "who"),
    [
        (0, 1, "Ann"),  # the first player deals first by default
        (0, 2, "Cat"),  # then the deal passes to the left
        (0, 4, "Dan"),
        (0, 5, "Ann"),  # and round again
        (2, 1, "Bob"),  # a chosen first dealer
        (2, 3, "Ann"),
    ],
)
def test_the_deal_passes_to_the_left(first, deal, who):
    seats = seating([["Ann", "Bob"], ["Cat", "Dan"]])
    assert dealer(seats, first, deal) == Seat(side=0 if who in ("Ann", "Bob") else 1, player=who)
