"""A club night's movement cards (issue 37): printed before a round is seated, they say what
seat_round then seats, round after round; a night drawn round by round has none, and says why.
"""

from __future__ import annotations

from datetime import date

import pytest

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.rules import Round
from scorekeeper.rules.whist import whist_sizes_said
from scorekeeper.services import clubs
from scorekeeper.services.nights import cards as night_cards
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights import seating as night_seating

from ._support import end_round

TODAY = date(2024, 5, 14)
THIRTEEN = [
    *("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit", "Lou"),
    "Max",
]


@pytest.fixture
def ids(club):
    """Tuesday Club with thirteen members, by name: id."""
    for name in THIRTEEN:
        if name not in ("Ann", "Cat"):
            clubs.add_member(club, name)
    return {m.name: m.id for m in club.members}


def open_night(club, ids, names, **more) -> Night:
    asked = {"rounds": 3, "partners": "rotating", "sit_out": "no game", "today": TODAY}
    asked.update(more)
    return night_play.open_night(club, [ids[n] for n in names], "", "classic", **asked)


def kept_round(night: Night, number: int) -> Round:
    db.session.refresh(night)
    return night_seating._engine_round(night.rounds[number - 1], night)


def seat_every_round(night: Night, printed: night_cards.Cards) -> None:
    """Seat each round in turn: each is the round the cards printed before any was seated, and
    cards printed again between rounds still say the same."""
    for number in range(1, night.rounds_planned + 1):
        night_play.seat_round(night)
        assert kept_round(night, number) == printed.seating[number - 1], number
        end_round(night)
        if number < night.rounds_planned:
            again = night_cards.movement_cards(night)
            assert again.seating == printed.seating and again.seated == number


def names_of(night: Night) -> dict[str, str]:
    return {night_seating.player_key(p): p.name for p in night.players}


def check_cards_read_the_seating(cards: night_cards.Cards, night: Night) -> None:
    """Each player's card and each table's card say what the seating says, for every round."""
    name = names_of(night)
    by_name = {card.name: card for card in cards.players}
    assert sorted(by_name) == sorted(name.values())
    for i, played in enumerate(cards.seating):
        for table in played.tables:
            table_card = next(t for t in cards.tables if t.number == table.number)
            sides = tuple(tuple(name[k] for k in side) for side in table.sides)
            assert table_card.rounds[i].sides == sides
            for side in table.sides:
                for key in side:
                    place = by_name[name[key]].places[i]
                    assert (place.round, place.table, place.away) == (
                        played.number,
                        table.number,
                        "",
                    )
                    assert place.partners == tuple(name[k] for k in side if k != key)
                    against = [tuple(name[k] for k in s) for s in table.sides if s != side]
                    assert list(place.against) == against
        for key in played.sitting_out:
            assert by_name[name[key]].places[i].away == night_cards.SITS_OUT
            assert by_name[name[key]].places[i].table is None


def test_thirteen_on_a_whist_schedule_are_seated_as_their_cards_say(club, ids):
    night = open_night(club, ids, THIRTEEN, rounds=4)
    printed = night_cards.movement_cards(night)
    assert printed.none == "" and printed.stops == "" and printed.seated == 0
    assert printed.numbers == (1, 2, 3, 4)
    for played in printed.seating:
        assert len(played.tables) == 3 and len(played.sitting_out) == 1
    # Rotating: nobody partners the same player twice, on the cards as at the tables.
    partners = [frozenset(s) for r in printed.seating for t in r.tables for s in t.sides]
    assert len(partners) == len(set(partners))
    check_cards_read_the_seating(printed, night)
    assert {len(card.places) for card in printed.players} == {4}
    seat_every_round(night, printed)


def test_eight_fixed_pairs_are_seated_as_their_cards_say(club, ids):
    night = open_night(club, ids, THIRTEEN[:8], partners="fixed", rounds=3)
    printed = night_cards.movement_cards(night)
    assert printed.none == "" and printed.numbers == (1, 2, 3)
    check_cards_read_the_seating(printed, night)
    # Each player's partner on the card is the same all night.
    for card in printed.players:
        assert len({place.partners for place in card.places}) == 1, card
    seat_every_round(night, printed)


def test_cards_follow_a_seating_drawn_again(club, ids):
    night = open_night(club, ids, THIRTEEN[:8], rounds=2)
    before = night_cards.movement_cards(night)
    night_play.draw_again(night)
    after = night_cards.movement_cards(night)
    assert after.seating != before.seating
    assert after.seating[0] == night_play.next_round(night)
    seat_every_round(night, after)


def test_a_night_drawn_round_by_round_has_no_cards_and_says_why(club, ids):
    balanced = open_night(club, ids, THIRTEEN[:8], partners="balanced")
    cards = night_cards.movement_cards(balanced)
    assert cards.players == () and cards.tables == () and cards.seating == ()
    assert cards.none.startswith(night_cards.ROUND_BY_ROUND)
    assert "balanced by the club's ratings" in cards.none
    ten = open_night(club, ids, THIRTEEN[:10])
    assert night_play.schedule_place(ten) is None
    cards = night_cards.movement_cards(ten)
    assert cards.players == () and cards.none.startswith(night_cards.ROUND_BY_ROUND)
    assert "10 are here" in cards.none
    assert f"known for {whist_sizes_said()};" in cards.none


def test_a_player_come_late_ends_the_cards(club, ids):
    night = open_night(club, ids, THIRTEEN[:8], rounds=3)
    assert night_cards.movement_cards(night).numbers == (1, 2, 3)
    night_play.seat_round(night)
    end_round(night)
    night_play.add_player(night, ids["Ivy"])
    cards = night_cards.movement_cards(night)
    assert cards.players == () and "A player came or went" in cards.none


def test_a_player_leaving_later_is_on_the_cards_until_then(club, ids):
    """Known to leave after round 1 (marked while round 1 plays): the cards stop at round 1."""
    night = open_night(club, ids, THIRTEEN[:9], rounds=3)
    night_play.seat_round(night)
    gone = next(p for p in night.players if p.name == "Ivy")
    night_play.player_leaves(night, gone.id)
    cards = night_cards.movement_cards(night)
    assert cards.none.startswith(night_cards.ROUND_BY_ROUND)


def test_five_fixed_pairs_rest_in_turn_on_the_cards(club, ids):
    """Ten with fixed partners: five pairs, one resting each round, a different one each time;
    every round is on the cards (issue 38: round 1 is the round robin's too)."""
    night = open_night(club, ids, THIRTEEN[:10], partners="fixed", rounds=3)
    cards = night_cards.movement_cards(night)
    assert cards.numbers == (1, 2, 3)
    resting = [frozenset(r.sitting_out) for r in cards.seating]
    assert all(len(out) == 2 for out in resting) and len(set(resting)) == 3
    seat_every_round(night, cards)


def test_a_late_player_stops_fixed_cards(club, ids):
    """A player come after round 1 has no pair: round 2 is drawn when it comes, not printed."""
    night = open_night(club, ids, THIRTEEN[:10], partners="fixed", rounds=3)
    night_play.seat_round(night)
    end_round(night)
    night_play.add_player(night, ids["Kit"])
    cards = night_cards.movement_cards(night)
    assert cards.none.startswith(night_cards.ROUND_BY_ROUND), cards.none


def test_an_ended_or_fully_seated_night_has_no_cards(club, ids):
    night = open_night(club, ids, THIRTEEN[:8], rounds=1)
    night_play.seat_round(night)
    assert night_cards.movement_cards(night).none.startswith("Every round planned is seated")
    end_round(night)
    night_play.finish_night(night)
    assert night_cards.movement_cards(night).none.startswith("The night has ended")
