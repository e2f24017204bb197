"""What a club night's pages say of its players and partners: what a count of players gives
(room_words.py), how partners are chosen and fixed pairs (nights/partners.py), the earlier
nights' groups (nights/groups.py) and where tonight stands to its whist schedule
(nights/schedule_words.py).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from scorekeeper.rules import PRESETS
from scorekeeper.services import clubs, room_words
from scorekeeper.services.nights import groups, partners, schedule_words
from scorekeeper.services.nights import play as night_play

from ._support import end_round
from .test_night_play import TODAY, TWELVE, open_twelve

CLASSIC = PRESETS["classic"]


@pytest.fixture
def ids(club) -> dict[str, int]:
    """Tuesday Club with twelve members, by name: id."""
    for name in TWELVE:
        if name not in ("Ann", "Cat"):
            clubs.add_member(club, name)
    return {m.name: m.id for m in club.members}


def play_rounds(night, rounds: int) -> None:
    """Seat and finish `rounds` rounds of the night."""
    for _ in range(rounds):
        night_play.seat_round(night)
        end_round(night)


def test_what_a_count_of_players_gives(club, ids):
    assert room_words.said(10, "sixes", CLASSIC) == (
        "10 players: 1 table of 6 and 1 table of 4, nobody sits out."
    )
    assert (
        room_words.said(9, "fours", CLASSIC) == "9 players: 2 tables of 4, 1 sits out each round."
    )
    counts = room_words.form_counts(club, "classic", "sixes", [ids["Ann"], ids["Bob"]], "Zoe")
    assert counts is not None and counts.ticked == 3
    assert counts.ticked_words == room_words.said(3, "sixes", CLASSIC)
    fours = dict(counts.shapes)
    assert any("8 players: 2 tables of 4, nobody sits out." in w for w in fours.values())
    assert room_words.form_counts(club, "no such rules", "fours", [], "") is None
    night = open_twelve(club, ids, names=TWELVE[:9])
    assert room_words.next_round_words(night) == room_words.said(9, night.shape, CLASSIC)


def test_how_partners_are_chosen_in_words():
    assert partners.said("rotating") != "rotating" and partners.said("odd") == "odd"
    assert partners.ruling("rotating") == ""
    assert partners.ruling("balanced") and partners.ruling("fixed_balanced")
    assert partners.not_yet_kept("fixed") != partners.not_yet_kept("fixed_balanced")
    assert partners.spare_words("Eve").startswith("Eve has no partner tonight")


def test_fixed_partners_pairs_are_shown_from_the_draw_then_as_kept(club, ids):
    night = open_twelve(club, ids, names=TWELVE[:9], partners="fixed")
    drawn = partners.shown(night)
    assert drawn is not None and not drawn.kept
    assert len(drawn.pairs) == 4 and drawn.spare.endswith("plays in for whoever sits out.")
    paired = {name for pair in drawn.pairs for name in pair.split(" & ")}
    assert len(paired) == 8 and paired < set(TWELVE[:9])
    night_play.seat_round(night)
    kept = partners.shown(night)
    assert kept is not None and kept.kept and len(kept.pairs) == 4
    assert partners.shown(open_twelve(club, ids, names=TWELVE[:8])) is None  # rotating


def test_the_earlier_nights_groups_are_each_round_oldest_first(club, ids):
    before = open_twelve(club, ids, names=TWELVE[:8], today=TODAY - timedelta(days=7))
    play_rounds(before, 2)
    night_play.finish_night(before)
    tonight = open_twelve(club, ids, names=TWELVE[:8])
    found = groups.earlier(tonight, "rotating")
    keys = frozenset(str(ids[n]) for n in TWELVE[:8])
    assert found.rounds == ((before.played_on, keys), (before.played_on, keys))
    assert sorted(found.names.values()) == sorted(TWELVE[:8])
    assert groups.earlier(tonight, "fixed").rounds == ()


def test_the_same_group_goes_on_with_its_schedule_and_says_so(club, ids):
    before = open_twelve(club, ids, names=TWELVE[:8], today=TODAY - timedelta(days=7))
    assert schedule_words.said(before) == ""  # the first group of 8: nothing to add
    play_rounds(before, 2)
    night_play.finish_night(before)
    same = open_twelve(club, ids, names=TWELVE[:8])
    assert schedule_words.said(same).startswith(
        "The same 8 played 2 rounds of the whist schedule for 8 at the club's earlier nights"
    )
    assert schedule_words.said(same).endswith("tonight goes on from its round 3.")


def test_a_late_arrival_stops_tonights_schedule(club, ids):
    night = open_twelve(club, ids, names=TWELVE[:8], rounds=4)
    play_rounds(night, 2)
    night_play.add_player(night, ids["Ivy"])
    assert schedule_words.said(night).startswith(
        "The whist schedule for 8 stopped after round 2: Ivy came. From round 3 the rounds are "
        "drawn so nobody partners anyone twice"
    )
