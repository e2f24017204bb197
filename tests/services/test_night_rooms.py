"""Where a club night's pages lead (services/nights/): the hub's nights (hub.py), tonight's line
(tonight.py), a game's place in its night (place.py), the board's read-only link (links.py) and
players checking themselves in (checkin.py).
"""

from __future__ import annotations

from datetime import date

import pytest

from scorekeeper.plumbing.db import db
from scorekeeper.services import clubs, links
from scorekeeper.services.access import Level
from scorekeeper.services.nights import checkin, hub, place, tonight
from scorekeeper.services.nights import links as night_links
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights.play import NightRefused

from ._support import club_game
from .test_night_play import TODAY, TWELVE, open_twelve, play_out, table_games

ADDRESS = "10.1.2.3"


@pytest.fixture
def ids(club) -> dict[str, int]:
    """Tuesday Club with twelve members, by name: id."""
    for name in TWELVE:
        if name not in ("Ann", "Cat"):
            clubs.add_member(club, name)
    return {m.name: m.id for m in club.members}


def test_a_night_in_progress_leads_the_hub_and_tonights_line(club, ids):
    assert hub.in_progress(club) == () and tonight.tonight(club.id) is None
    night = open_twelve(club, ids, rounds=3)
    (going,) = hub.in_progress(club)
    assert (going.id, going.seated, going.planned) == (night.id, 0, 3)
    assert going.words(TODAY) == "Tonight · Round 1 of 3 to seat"
    night_play.seat_round(night)
    line = tonight.tonight(club.id)
    assert line is not None
    assert (line.night_id, line.seated, line.planned, line.playing) == (night.id, 1, 3, 3)
    assert line.words.endswith("Round 1 of 3 · 3 tables playing")
    # The phone that kept table 2's game is told its table.
    second = table_games(night, 1)[1]
    assert tonight.tonight(club.id, [second.secret]).my_table == (2, second.secret)
    assert tonight.places_of([g.id for g in table_games(night, 1)]) == {
        g.id: (1, n) for n, g in enumerate(table_games(night, 1), start=1)
    }
    assert tonight.places_of([club_game(club, finished=True).id]) == {}


def test_a_tables_game_knows_its_place_and_where_its_players_go_next(club, ids):
    night = open_twelve(club, ids)
    night_play.seat_round(night)
    first = table_games(night, 1)[0]
    found = place.place_of(first)
    assert found is not None
    assert (found.night_id, found.round, found.table, found.rounds_planned) == (night.id, 1, 1, 2)
    assert found.title == f"Club night of {place.day_of(TODAY)} · Round 1 · Table 1"
    assert not found.finished and found.next == ()
    for game in table_games(night, 1):
        play_out(game)
    night_play.seat_round(night)
    after = place.place_of(first)
    assert after.finished and after.seated == 2
    names = [p.name for s in first.sides for p in s.players]
    assert len(after.next) == len(names)
    assert all(line.startswith("Round 2: ") for line in after.next), after.next
    assert place.live_place(first.id).round == 1
    assert place.place_of(club_game(club, finished=True)) is None


def test_place_words():
    assert [place.listed(n) for n in ([], ["Ann"], ["Ann", "Bob"], ["Ann", "Bob", "Cat"])] == [
        "",
        "Ann",
        "Ann and Bob",
        "Ann, Bob and Cat",
    ]
    assert place.day_of(date(2024, 12, 3)) == "3 Dec"
    assert (place.tables_words(1), place.tables_words(3)) == ("1 table", "3 tables")


def test_the_boards_link_opens_its_night_until_replaced(club, ids):
    night = open_twelve(club, ids)
    secret = night_links.board_secret(night)
    assert night_links.board_secret(night) == secret  # kept, not made again
    assert night_links.path_of(secret) == f"/n/{secret}"
    opened = night_links.open_night_link(secret, ADDRESS)
    assert isinstance(opened, night_links.NightFound)
    assert (opened.night_id, opened.club_id) == (night.id, club.id)
    fresh = night_links.new_board_link(night)
    assert fresh != secret
    assert not isinstance(night_links.open_night_link(secret, ADDRESS), night_links.NightFound)
    assert isinstance(night_links.open_night_link(fresh, ADDRESS), night_links.NightFound)


def test_guessing_board_links_runs_out_of_allowance(club):
    for _ in range(links.MISSES_ALLOWED):
        assert not isinstance(night_links.open_night_link("x" * 22, ADDRESS), links.TooManyMisses)
    assert isinstance(night_links.open_night_link("x" * 22, ADDRESS), links.TooManyMisses)


def test_a_member_checks_in_only_where_the_club_allows_it(club, ids):
    night = open_twelve(club, ids, names=TWELVE[:8])
    with pytest.raises(NightRefused):
        checkin.check_in(night, ids["Ivy"])
    club.self_check_in = True
    db.session.commit()
    assert checkin.may_check_in(club, Level.TABLE) and not checkin.may_check_in(club, Level.NONE)
    with pytest.raises(NightRefused):
        checkin.check_in(night, None)
    ivy = checkin.check_in(night, ids["Ivy"])
    assert ivy.by_self and [p.name for p in checkin.by_self(night)] == ["Ivy"]
    # Not yet seated: undoing takes Ivy off the night.
    undone = checkin.undo_check_in(night, ivy.id)
    assert (undone.name, undone.removed) == ("Ivy", True)
    assert "Ivy" not in [p.name for p in night.players] and checkin.by_self(night) == []
    with pytest.raises(NightRefused):
        checkin.undo_check_in(night, ivy.id)
