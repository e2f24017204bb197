"""A club night kept and played (issue 29): opened, its rounds seated by the engine with each
table's game started, players come late and gone early, the board's view and version.

The use cases are called directly; deals are entered as a table's phone enters them.
"""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Night, NightRound, NightTable
from scorekeeper.services import clubs, deals
from scorekeeper.services.access import Level
from scorekeeper.services.deal_outcomes import Saved
from scorekeeper.services.nights import board as night_board
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights.play import NightRefused

TODAY = date(2024, 5, 14)
TWELVE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit", "Lou"]
ONE_CLEAN = {"books": {"clean": 1}}
ONE_DIRTY = {"books": {"dirty": 1}}


@pytest.fixture
def ids(club):
    """Tuesday Club with twelve members, by name: id."""
    for name in TWELVE:
        if name not in ("Ann", "Cat"):
            clubs.add_member(club, name)
    return {m.name: m.id for m in club.members}


def open_twelve(club, ids, names=TWELVE, **more) -> Night:
    asked = {
        "guests": "",
        "rules": "classic",
        "rounds": 2,
        "partners": "rotating",
        "sit_out": "no game",
        "today": TODAY,
    }
    asked.update(more)
    guests = asked.pop("guests")
    return night_play.open_night(club, [ids[n] for n in names], guests, **asked)


def table_games(night: Night, number: int) -> list[Game]:
    db.session.refresh(night)
    return [t.game for t in night.rounds[number - 1].tables]


def play_out(game: Game, first=ONE_CLEAN, second=ONE_DIRTY, deals_=4) -> None:
    """A whole game of 4 deals (classic ends after 4): side 1 first's figures, side 2 second's."""
    for _ in range(deals_):
        assert isinstance(deals.enter_deal(game, Level.TABLE, [first, second]), Saved)


def test_a_night_opens_with_its_players_and_rules(club, ids):
    night = open_twelve(club, ids, guests="Zoe")
    kept = db.session.get(Night, night.id)
    assert kept.ruleset == "classic" and kept.shape == "fours" and kept.rounds_planned == 2
    assert sorted(p.name for p in kept.players) == sorted([*TWELVE, "Zoe"])
    assert [p.member_id for p in kept.players if p.name == "Zoe"] == [None]
    assert kept.rounds == [] and kept.version == 0


def test_a_night_from_a_saved_rule_set_plays_it(club, ids):
    saved = clubs.create_saved_rules(club, "Tuesday rules", "classic", {"red_three_caught": 300})
    night = open_twelve(club, ids, rules=saved)
    assert (night.saved_rules_id, night.rules_name) == (saved.id, "Tuesday rules")
    night_play.seat_round(night)
    for game in table_games(night, 1):
        assert game.saved_rules_id == saved.id and game.rules_name == "Tuesday rules"
        assert game.house_rules == {"red_three_caught": 300}


def test_round_one_seats_three_tables_of_four_each_game_started_as_seated(club, ids):
    night = open_twelve(club, ids)
    seated = night_play.seat_round(night)
    assert seated.number == 1 and len(seated.games) == 3
    db.session.refresh(night)
    everyone = []
    for table in night.rounds[0].tables:
        game = table.game
        assert game.club_id == club.id and game.played_on == TODAY and game.first_dealer == 0
        by_id = {p.id: p for p in night.players}
        seated_names = [[by_id[i].name for i in side] for side in table.sides]
        assert [[p.name for p in s.players] for s in game.sides] == seated_names
        assert [s.name for s in game.sides] == [" & ".join(side) for side in seated_names]
        for side in game.sides:
            assert all(p.member_id == ids[p.name] for p in side.players)
        everyone += [n for side in seated_names for n in side]
    assert sorted(everyone) == sorted(TWELVE)
    assert night.version == 1


def test_the_next_round_waits_for_every_table(club, ids):
    night = open_twelve(club, ids)
    night_play.seat_round(night)
    first, second, third = table_games(night, 1)
    play_out(first)
    play_out(second)
    with pytest.raises(NightRefused) as refused:
        night_play.seat_round(night)
    assert str(refused.value) == "Round 1 is still playing at table 3."
    play_out(third)
    night_play.seat_round(night)
    db.session.refresh(night)
    assert len(night.rounds) == 2
    partners_one = {frozenset(s) for t in night.rounds[0].tables for s in map(tuple, t.sides)}
    partners_two = {frozenset(s) for t in night.rounds[1].tables for s in map(tuple, t.sides)}
    assert not partners_one & partners_two  # nobody partners the same player twice
    for game in table_games(night, 2):
        play_out(game)
    with pytest.raises(NightRefused, match="All 2 rounds planned are seated."):
        night_play.seat_round(night)


def test_a_round_seated_twice_at_once_is_seated_once(club, ids):
    night = open_twelve(club, ids)
    assert night.rounds == []  # this request read the night before the other tap's round
    other = NightRound.__table__.insert().values(night_id=night.id, number=1, sitting_out=[])
    db.session.execute(other)
    with pytest.raises(NightRefused, match="Round 1 was seated meanwhile."):
        night_play.seat_round(night)
    assert db.session.execute(select(Game)).first() is None


def test_a_round_named_is_seated_only_if_it_is_the_next(club, ids):
    night = open_twelve(club, ids)
    with pytest.raises(night_play.RoundAhead) as ahead:
        night_play.seat_round(night, number=2)
    assert ahead.value.problems == (("round", "Round 2 is not next: round 1 is."),)
    assert night_play.seat_round(night, number=1).number == 1
    # Sent twice: refused as seated already (not a round further on), before the tables play.
    with pytest.raises(NightRefused) as again:
        night_play.seat_round(night, number=1)
    assert not isinstance(again.value, night_play.RoundAhead)
    assert again.value.problems == (("round", "Round 1 is seated already."),)
    db.session.refresh(night)
    assert len(night.rounds) == 1


def test_a_night_ends_once_no_table_plays(club, ids):
    night = open_twelve(club, ids, rounds=3)
    night_play.seat_round(night)
    first, *rest = table_games(night, 1)
    play_out(first)
    with pytest.raises(NightRefused, match="Round 1 is still playing at table 2, 3."):
        night_play.finish_night(night)
    for game in rest:
        play_out(game)
    night_play.finish_night(night)
    assert db.session.get(Night, night.id).finished_at is not None
    view = night_board.night_view(night)
    assert view.done and view.next_round is None
    with pytest.raises(NightRefused, match="The night has ended: no round is seated after it."):
        night_play.seat_round(night)
    with pytest.raises(NightRefused, match="The night has already ended."):
        night_play.finish_night(night)


def test_fixed_partners_stay_together(club, ids):
    night = open_twelve(club, ids, partners="fixed")
    night_play.seat_round(night)
    for game in table_games(night, 1):
        play_out(game)
    night_play.seat_round(night)
    db.session.refresh(night)
    pairs = [{frozenset(s) for t in r.tables for s in map(tuple, t.sides)} for r in night.rounds]
    assert pairs[0] == pairs[1]


def test_a_late_arrival_is_seated_next_round_and_a_leaver_is_not(club, ids):
    night = open_twelve(club, ids, names=TWELVE[:8], rounds=3)
    night_play.seat_round(night)
    late = night_play.add_player(night, member_id=ids["Ivy"])
    guest = night_play.add_player(night, guest="Zoe")
    night_play.add_player(night, member_id=ids["Jon"])
    night_play.add_player(night, member_id=ids["Kit"])
    gone = next(p for p in night.players if p.name == "Ann")
    night_play.player_leaves(night, gone.id)
    assert (late.from_round, guest.from_round, gone.left_after) == (2, 2, 1)
    for game in table_games(night, 1):
        assert all(p.name not in ("Ivy", "Zoe") for s in game.sides for p in s.players)
        play_out(game)
    night_play.seat_round(night)
    names = {p.name for game in table_games(night, 2) for s in game.sides for p in s.players}
    assert {"Ivy", "Zoe", "Jon", "Kit"} <= names and "Ann" not in names
    assert night.version == 7  # two rounds seated, four come, one gone


def test_an_odd_number_sits_out_and_the_sit_out_is_said(club, ids):
    night = open_twelve(club, ids, names=TWELVE[:9], sit_out="zero")
    night_play.seat_round(night)
    view = night_board.night_view(night)
    assert len(view.rounds[0].sitting_out) == 1 and len(view.rounds[0].tables) == 2
    assert view.sit_out_rule == "A round sat out counts as a game of 0 points"
    out = view.rounds[0].sitting_out[0]
    for game in table_games(night, 1):
        play_out(game)
    view = night_board.night_view(night)
    resting = next(s for s in view.standings if s.name == out)
    assert (resting.games, resting.points, resting.sat_out) == (1, 0, 1)
    assert resting.rank == len(view.standings)


def test_standings_are_a_hand_count_of_the_deals_recorded(club, ids):
    night = open_twelve(club, ids)
    night_play.seat_round(night)
    first, second, third = table_games(night, 1)
    play_out(first)  # side 1: 4 x 500 plus minimums... counted by hand below
    play_out(second, ONE_DIRTY, ONE_CLEAN)
    deals.enter_deal(third, Level.TABLE, [ONE_CLEAN, {}])  # still playing
    db.session.expire_all()
    hand: dict[str, int] = {}
    wins: dict[str, int] = {}
    for game in (first, second, third):
        for side in game.sides:
            total = sum(
                score.total
                for deal in game.deals
                for score in deal.scores
                if score.side_id == side.id
            )
            for player in side.players:
                hand[player.name] = hand.get(player.name, 0) + total
                wins[player.name] = wins.get(player.name, 0) + (
                    game.finished_at is not None and side.won
                )
    view = night_board.night_view(db.session.get(Night, night.id))
    assert {s.name: s.points for s in view.standings} == hand
    assert {s.name: s.wins for s in view.standings} == wins
    assert sum(s.wins for s in view.standings) == 4  # two tables finished, two winners each
    ranked = [s.points / s.games for s in view.standings]
    assert ranked == sorted(ranked, reverse=True)
    # Equal averages share a rank: the four who won a finished game, 2,000 each.
    top = [s for s in view.standings if s.points == view.standings[0].points]
    assert {s.rank for s in top} == {1} and len(top) >= 2
    table_three = view.rounds[0].tables[2]
    assert table_three.deals == 1 and not table_three.finished
    assert not view.round_over and view.next_round is None


def test_the_next_round_is_shown_once_the_last_table_finishes_and_kept_as_shown(club, ids):
    night = open_twelve(club, ids)
    night_play.seat_round(night)
    for game in table_games(night, 1):
        play_out(game)
    view = night_board.night_view(night)
    assert view.round_over and view.next_round is not None
    shown = [t.title for t in view.next_round.tables]
    night_play.seat_round(night)
    view = night_board.night_view(db.session.get(Night, night.id))
    assert [t.title for t in view.rounds[1].tables] == shown


def test_the_board_version_moves_with_a_deal_and_with_the_night(club, ids):
    night = open_twelve(club, ids)
    before = night_board.board_version(club.id, night.id)
    night_play.seat_round(night)
    seated = night_board.board_version(club.id, night.id)
    assert seated != before
    assert night_board.board_version(club.id, night.id) == seated
    deals.enter_deal(table_games(night, 1)[1], Level.TABLE, [ONE_CLEAN, {}])
    saved = night_board.board_version(club.id, night.id)
    assert saved != seated
    night_play.add_player(night, guest="Zoe")
    assert night_board.board_version(club.id, night.id) != saved
    assert night_board.board_version(club.id + 1, night.id) is None


@pytest.mark.parametrize(
    ("asked", "field", "words"),
    [
        ({"rounds": 13}, "rounds", "A night has 1 to 12 rounds; 13 cannot be."),
        ({"rules": "bridge"}, "rules", "Choose the night's rules: 'bridge' is none of them."),
        (
            {"partners": "drawn"},
            "partners",
            "Partners rotate, stay fixed or are balanced by rating; 'drawn' is none of these.",
        ),
        ({"sit_out": "half"}, "sit_out", "A round sat out is no game or 0 points; not 'half'."),
        ({"shape": "singles"}, "shape", "Classic partnership seat partnerships: tables of 4 or 6."),
        ({"guests": "Ann"}, "guests", "Ann is a member: tick Ann instead."),
        ({"names": TWELVE[:3]}, "members", "A partnership table needs 4 players; 3 are present."),
    ],
)
def test_refusals_name_the_figure(club, ids, asked, field, words):
    with pytest.raises(NightRefused) as refused:
        open_twelve(club, ids, **asked)
    assert (field, words) in refused.value.problems
    assert db.session.execute(select(Night)).first() is None


def test_fixed_partners_at_individual_tables_is_refused(club, ids):
    with pytest.raises(NightRefused, match="Individual tables have no partners to keep fixed."):
        open_twelve(club, ids, rules="club", partners="fixed")


def test_comers_and_leavers_refused_in_words(club, ids):
    night = open_twelve(club, ids, names=TWELVE[:8])
    with pytest.raises(NightRefused, match="Bob is already at tonight's night."):
        night_play.add_player(night, member_id=ids["Bob"])
    with pytest.raises(NightRefused, match="cat is a member: choose Cat from the members instead."):
        night_play.add_player(night, guest="cat")
    with pytest.raises(NightRefused, match="Choose the member come late, or type the guest's"):
        night_play.add_player(night, guest="  ")
    with pytest.raises(NightRefused, match="The guest's name is 61 characters long: at most 60."):
        night_play.add_player(night, guest="x" * 61)
    with pytest.raises(NightRefused, match="That player is not at tonight's night."):
        night_play.player_leaves(night, 10**6)


def test_an_individual_night_seats_every_player_alone(club, ids):
    night = open_twelve(club, ids, names=TWELVE[:7], rules="club")
    assert night.shape == "singles"
    night_play.seat_round(night)
    tables = db.session.execute(select(NightTable)).scalars().all()
    assert sorted(len(t.sides) for t in tables) == [3, 4]
    assert all(len(side) == 1 for t in tables for side in t.sides)
