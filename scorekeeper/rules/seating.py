"""Who sits where and who deals: players seated in the order entered, the deal passing left."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Seat:
    """One chair at the table: the side it belongs to and who sits in it."""

    side: int
    player: str


def seating(players_by_side: Sequence[Sequence[str]]) -> list[Seat]:
    """The table, seat by seat: partners never side by side, so the teams alternate.

    Each side's first player, then each side's second, and so on; individuals simply sit in the
    order entered.
    """
    seats: list[Seat] = []
    for place in range(max((len(players) for players in players_by_side), default=0)):
        for side, players in enumerate(players_by_side):
            if place < len(players):
                seats.append(Seat(side, players[place]))
    return seats


def dealer_seat(seats: Sequence[Seat], first_dealer: int, deal_number: int) -> int:
    """The seat (from 0) that deals the given deal: the first dealer's, then one more each deal."""
    return (first_dealer + deal_number - 1) % len(seats)


def dealer(seats: Sequence[Seat], first_dealer: int, deal_number: int) -> Seat:
    """Who deals the given deal: the first dealer, then the next seat to the left each deal."""
    return seats[dealer_seat(seats, first_dealer, deal_number)]
