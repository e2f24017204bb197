"""A kept club night's seating (issue 29): drawn again before its round starts (the next
round's, or a round seated whose tables have no deal yet), double taps refused, partners still
spread; a whist schedule continued over the season's nights for the same group; who may run a
night (the club's setting for the table link).
"""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta
from itertools import combinations

import pytest
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Night
from scorekeeper.rules import Round
from scorekeeper.services import clubs, deals, side_lines
from scorekeeper.services.access import Level, may_run_nights, needed_to_run_nights
from scorekeeper.services.deal_outcomes import Saved
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights import seating as night_seating
from scorekeeper.services.nights.play import NightRefused

from ._support import end_round

TODAY = date(2024, 5, 14)
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit", "Lou"]


@pytest.fixture
def ids(club):
    """Tuesday Club with twelve members, by name: id."""
    for name in NAMES:
        if name not in ("Ann", "Cat"):
            clubs.add_member(club, name)
    return {m.name: m.id for m in club.members}


def open_night(club, ids, names, today=TODAY, **more) -> Night:
    asked = {"rounds": 2, "partners": "rotating", "sit_out": "no game", "today": today}
    asked.update(more)
    return night_play.open_night(club, [ids[n] for n in names], "", "classic", **asked)


def seating(planned: Round) -> set[tuple[int, frozenset[frozenset[str]]]]:
    return {(t.number, frozenset(frozenset(s) for s in t.sides)) for t in planned.tables}


def partners(planned: Round) -> set[frozenset[str]]:
    return {frozenset(side) for t in planned.tables for side in t.sides}


def kept_round(night: Night, number: int) -> Round:
    db.session.refresh(night)
    return night_seating._engine_round(night.rounds[number - 1], night)


def game_count() -> int:
    return db.session.execute(select(func.count(Game.id))).scalar_one()


# --- the next round drawn again ------------------------------------------------------------


def test_draw_again_gives_another_seating_and_moves_the_board(club, ids):
    night = open_night(club, ids, NAMES[:10])
    shown = night_play.next_round(night)
    assert night_play.next_round(night) == shown  # the same each time it is asked
    drawn = night_play.draw_again(night, drawn=0)
    db.session.refresh(night)
    assert night.draw >= 1 and night.version == 1
    assert drawn != shown and night_play.next_round(night) == drawn
    seated = night_play.seat_round(night, drawn=night.draw)
    assert kept_round(night, 1) == drawn and seated.number == 1


def test_a_second_tap_of_draw_again_is_refused_not_drawn_twice(club, ids):
    night = open_night(club, ids, NAMES[:10])
    night_play.draw_again(night, drawn=0)
    after_one = db.session.get(Night, night.id).draw
    with pytest.raises(NightRefused, match="Round 1's seating was drawn again meanwhile"):
        night_play.draw_again(night, drawn=0)
    assert db.session.get(Night, night.id).draw == after_one


def test_a_round_is_not_seated_from_a_seating_drawn_again_unseen(club, ids):
    night = open_night(club, ids, NAMES[:10])
    night_play.draw_again(night)
    with pytest.raises(NightRefused, match="drawn again meanwhile: check it, then seat it"):
        night_play.seat_round(night, drawn=0)
    assert game_count() == 0


def test_a_draw_again_still_avoids_tonights_partners(club, ids):
    """Ten players (no whist schedule): round 2 drawn again five times never repeats a pair of
    round 1's partners, as a first draw would not."""
    night = open_night(club, ids, NAMES[:10])
    night_play.seat_round(night)
    first = partners(kept_round(night, 1))
    end_round(night)
    for _ in range(5):
        again = night_play.draw_again(night)
        assert not partners(again) & first


def test_draw_again_is_refused_in_words_while_a_round_plays_or_after_the_night(club, ids):
    night = open_night(club, ids, NAMES[:10])
    night_play.seat_round(night)
    with pytest.raises(NightRefused, match="Round 1 is still playing at table"):
        night_play.draw_again(night)
    end_round(night)
    night_play.finish_night(night)
    with pytest.raises(NightRefused, match="The night has ended"):
        night_play.draw_again(night)


def test_fixed_partners_draw_round_one_only(club, ids):
    night = open_night(club, ids, NAMES[:8], partners="fixed")
    night_play.draw_again(night)
    night_play.seat_round(night)
    end_round(night)
    assert night_play.why_no_draw(night, 2).startswith("Partners are fixed: round 1 drew")
    with pytest.raises(NightRefused, match="Partners are fixed"):
        night_play.draw_again(night)


# --- a round seated drawn again ------------------------------------------------------------


def test_a_round_seated_with_no_deal_is_drawn_again_its_games_replaced(club, ids):
    night = open_night(club, ids, NAMES[:10])
    night_play.seat_round(night)
    old = kept_round(night, 1)
    secrets = set(db.session.execute(select(Game.secret)).scalars())
    version = db.session.get(Night, night.id).version
    again = night_play.redraw_round(night, drawn=0, number=1)
    db.session.refresh(night)
    assert len(night.rounds) == 1 and again.number == 1
    assert kept_round(night, 1) != old
    # The old games are gone (their links with them): only the new round's are left.
    assert game_count() == len(again.games) == 2
    assert not set(db.session.execute(select(Game.secret)).scalars()) & secrets
    assert {t.game_id for t in night.rounds[0].tables} == set(again.games)
    assert night.draw >= 1 and night.version > version


def test_a_round_with_a_deal_is_not_drawn_again(club, ids):
    night = open_night(club, ids, NAMES[:8])
    night_play.seat_round(night)
    db.session.refresh(night)
    table = night.rounds[0].tables[1]
    entry = [{"books": {"clean": 1}}, {"books": {"dirty": 1}}]
    assert isinstance(deals.enter_deal(table.game, Level.TABLE, entry), Saved)
    old = kept_round(night, 1)
    with pytest.raises(NightRefused) as refused:
        night_play.redraw_round(night, number=1)
    assert str(refused.value) == f"Table {table.number} has a deal: round 1 has started."
    db.session.refresh(night)
    assert kept_round(night, 1) == old and night.draw == 0 and game_count() == 2


def test_a_second_tap_of_a_round_drawn_again_is_refused(club, ids):
    night = open_night(club, ids, NAMES[:10])
    night_play.seat_round(night)
    night_play.redraw_round(night, drawn=0, number=1)
    games_now = game_count()
    with pytest.raises(NightRefused, match="drawn again meanwhile"):
        night_play.redraw_round(night, drawn=0, number=1)
    assert game_count() == games_now


def test_only_the_last_round_seated_is_drawn_again(club, ids):
    night = open_night(club, ids, NAMES[:10])
    with pytest.raises(NightRefused, match="No round is seated yet"):
        night_play.redraw_round(night)
    night_play.seat_round(night)
    end_round(night)
    night_play.seat_round(night)
    with pytest.raises(NightRefused, match="Round 1 is not the last round seated"):
        night_play.redraw_round(night, number=1)


def test_a_whist_round_drawn_again_keeps_its_partners(club, ids):
    """Eight players follow the whist schedule: a draw again changes table numbers and seats,
    never who partners or opposes whom."""
    night = open_night(club, ids, NAMES[:8])
    shown = night_play.next_round(night)
    again = night_play.draw_again(night)
    tables = {frozenset(frozenset(s) for s in t.sides) for t in shown.tables}
    assert {frozenset(frozenset(s) for s in t.sides) for t in again.tables} == tables
    assert again != shown


# --- a whist schedule over the season's nights ---------------------------------------------


def whist_night(club, ids, names, rounds: int, today: date) -> list[Round]:
    """A kept night of `rounds` rounds, each played out: its rounds as seated."""
    night = open_night(club, ids, names, today=today, rounds=rounds)
    played = []
    for number in range(1, rounds + 1):
        place = night_play.schedule_place(night)
        assert place is not None and place.length == 7
        night_play.seat_round(night)
        played.append(kept_round(night, number))
        end_round(night)
    return played


def test_eight_players_over_two_nights_partner_each_once_and_oppose_each_twice(club, ids):
    clubs.add_season(club, "Spring", TODAY, TODAY + timedelta(days=60))
    eight = NAMES[:8]
    first = whist_night(club, ids, eight, 4, TODAY)
    later = open_night(club, ids, eight, today=TODAY + timedelta(days=7), rounds=3)
    place = night_play.schedule_place(later)
    assert place.words == (
        "Round 5 of 7 of the whist schedule for 8: everyone partners everyone once"
    )
    db.session.delete(later)
    db.session.commit()
    second = whist_night(club, ids, eight, 3, TODAY + timedelta(days=7))
    partnered: Counter[frozenset[str]] = Counter()
    opposed: Counter[frozenset[str]] = Counter()
    for played in first + second:
        assert not played.sitting_out and len(played.tables) == 2
        for table in played.tables:
            a, b = table.sides
            partnered.update([frozenset(a), frozenset(b)])
            opposed.update(frozenset((x, y)) for x in a for y in b)
    everyone = [str(ids[n]) for n in eight]
    for pair in map(frozenset, combinations(everyone, 2)):
        assert partnered[pair] == 1, pair
        assert opposed[pair] == 2, pair


def test_another_group_starts_its_own_schedule(club, ids):
    clubs.add_season(club, "Spring", TODAY, TODAY + timedelta(days=60))
    whist_night(club, ids, NAMES[:8], 2, TODAY)
    other = open_night(club, ids, NAMES[1:9], today=TODAY + timedelta(days=7))
    assert night_play.schedule_place(other).round == 1
    same = open_night(club, ids, NAMES[:8], today=TODAY + timedelta(days=7))
    assert night_play.schedule_place(same).round == 3


def test_a_player_come_late_seats_the_night_round_by_round(club, ids):
    night = open_night(club, ids, NAMES[:8], rounds=3)
    assert night_play.schedule_place(night).round == 1
    night_play.seat_round(night)
    end_round(night)
    night_play.add_player(night, ids["Ivy"])
    # Nine have a whist schedule too, but tonight's rounds were another group's.
    assert night_play.schedule_place(night) is None
    first = partners(kept_round(night, 1))
    assert not partners(night_play.next_round(night)) & first


def test_a_night_with_fixed_partners_follows_no_whist_schedule(club, ids):
    night = open_night(club, ids, NAMES[:8], partners="fixed")
    assert night_play.schedule_place(night) is None


# --- who may run a night -------------------------------------------------------------------


def test_the_table_link_runs_nights_only_where_the_club_allows(club):
    assert needed_to_run_nights(club) is Level.ORGANISER
    assert may_run_nights(club, Level.ORGANISER) and not may_run_nights(club, Level.TABLE)
    clubs.update_settings(club, name=club.name, public=False, min_games=3, tables_run_nights=True)
    assert db.session.get(type(club), club.id).tables_run_nights
    assert may_run_nights(club, Level.TABLE) and not may_run_nights(club, Level.READ)
    # Left out, the setting stays as it is (the API and older callers change the rest).
    clubs.update_settings(club, name=club.name, public=True, min_games=3)
    assert club.tables_run_nights


def test_a_round_with_a_line_sent_is_not_drawn_again(club, ids):
    """A side's own line of deal 1 sent from its phone: that table's deal is being entered."""
    night = open_night(club, ids, NAMES[:8])
    night_play.seat_round(night)
    db.session.refresh(night)
    table = night.rounds[0].tables[0]
    side_lines.send_line(table.game, Level.TABLE, 0, {"books": {"clean": 1}}, opened_for=1)
    with pytest.raises(NightRefused, match=f"Table {table.number} has a deal: round 1 has"):
        night_play.redraw_round(night)
    assert game_count() == 2
