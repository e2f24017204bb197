"""services/figures.py: the figures kept beside the deals, so standings are sums in the database."""

from __future__ import annotations

from datetime import date

from sqlalchemy import delete, select, update

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import RESULT_FIGURES, MemberDay, MemberResult, Side
from scorekeeper.services import figures, games
from scorekeeper.services.games import SideSetup

from ._support import ANN_AND_CAT, ONE_CLEAN, club_game, entries, kept

MARCH = date(2025, 3, 4)
APRIL = date(2025, 4, 1)
NIGHT = (
    MemberDay.member_id,
    MemberDay.played_on,
    MemberDay.games,
    MemberDay.won,
    MemberDay.final_total,
    MemberDay.clean_books,
    MemberDay.red_threes_caught,
)


def test_side_figures_count_each_sides_game_so_far():
    deals = [
        entries(
            # Family: 500 + 2×300, nothing for going out, 100 in cards: 1,200.
            {"books": {"clean": 1, "dirty": 2}, "went_out": True, "melded_points": 100},
            # A clean book of sevens 1,500, a red three caught −500, 35 in cards: 1,035.
            {"books": {"clean_sevens": 1}, "red_threes_caught": 1, "melded_points": 35},
        ),
        entries({"books": {"dirty": 1}}, {}),
    ]
    rules = engine.ruleset("family", None)
    progress = engine.play(rules, 4, [engine.Side("Us", 2), engine.Side("Them", 2)], deals)
    assert figures.side_figures(2, progress, deals) == [
        {
            "final_total": 1500,
            "won": False,  # two deals of four: nobody has won yet
            "deals_played": 2,
            "clean_books": 1,
            "dirty_books": 3,
            "wild_books": 0,
            "special_books": 0,
            "went_out": 1,
            "red_threes_caught": 0,
        },
        {
            "final_total": 1035,
            "won": False,
            "deals_played": 2,
            "clean_books": 0,
            "dirty_books": 0,
            "wild_books": 0,
            "special_books": 1,
            "went_out": 0,
            "red_threes_caught": 1,
        },
    ]


def test_a_recorded_game_keeps_each_sides_figures():
    game = club_game(finished=True)
    assert kept(select(Side.name, *(getattr(Side, n) for n in RESULT_FIGURES))) == [
        ("Ann", True, 2000, 4, 4, 0, 0, 0, 0, 0),
        ("Cat", False, 0, 4, 0, 0, 0, 0, 0, 0),
    ]
    assert figures.member_results_of(game, True) == []  # a casual game has no members


def test_a_finished_club_game_keeps_each_members_result_and_the_nights_sums(club):
    ann, cat = club.members
    club_game(club, finished=True, played_on=MARCH)
    club_game(club, finished=True, played_on=MARCH)
    results = select(MemberResult.member_id, MemberResult.won, MemberResult.final_total)
    assert sorted(kept(results)) == sorted(
        [(ann.id, True, 2000), (cat.id, False, 0), (ann.id, True, 2000), (cat.id, False, 0)]
    )
    assert sorted(kept(select(*NIGHT))) == sorted(
        [(ann.id, MARCH, 2, 2, 4000, 8, 0), (cat.id, MARCH, 2, 0, 0, 0, 0)]
    )


def test_a_guest_and_an_unfinished_game_keep_no_result(club):
    ann = club.members[0]
    guests = [SideSetup("Ann", ["Ann"]), SideSetup("Zed", ["Zed"])]
    club_game(club, finished=True, sides=guests, played_on=MARCH)
    club_game(club, finished=False, played_on=MARCH)
    assert kept(select(MemberResult.member_id, MemberResult.won)) == [(ann.id, True)]
    assert kept(select(*NIGHT)) == [(ann.id, MARCH, 1, 1, 2000, 4, 0)]


def test_a_game_no_longer_finished_loses_its_results(club):
    game = club_game(club, finished=True, played_on=MARCH)
    progress = games.progress_of(game)
    unfinished = engine.Progress(progress.deals, progress.totals, progress.minimums, False, [])
    figures.keep_side_figures(game, unfinished, games.entries_of(game))
    db.session.commit()
    assert kept(select(MemberResult.id)) == []
    assert kept(select(MemberDay.id)) == []
    assert kept(select(Side.won)) == [(False,), (False,)]


def test_nights_marked_then_rolled_back_are_forgotten(club):
    club_game(club, finished=True, played_on=MARCH)
    db.session.execute(delete(MemberDay))
    figures.nights_to_refresh(club, MARCH)
    db.session.rollback()
    assert figures.PENDING_NIGHTS not in db.session.info
    # The rows deleted above come back with the rollback, and nothing else was re-added.
    assert len(kept(select(MemberDay.id))) == 2


def test_refresh_member_days_adds_each_night_again_from_the_results(club):
    ann, cat = club.members
    club_game(club, finished=True, played_on=MARCH)
    club_game(club, finished=True, played_on=APRIL)
    # Sums gone wrong on both nights; only March is added again.
    db.session.execute(update(MemberDay).values(final_total=1, games=9))
    db.session.commit()
    figures.refresh_member_days(club.id, [MARCH])
    db.session.commit()
    assert sorted(kept(select(*NIGHT))) == sorted(
        [
            (ann.id, MARCH, 1, 1, 2000, 4, 0),
            (cat.id, MARCH, 1, 0, 0, 0, 0),
            (ann.id, APRIL, 9, 1, 1, 4, 0),
            (cat.id, APRIL, 9, 0, 1, 0, 0),
        ]
    )
    figures.refresh_member_days(club.id)  # every night
    db.session.commit()
    assert sorted(kept(select(MemberDay.played_on, MemberDay.games, MemberDay.final_total))) == [
        (MARCH, 1, 0),
        (MARCH, 1, 2000),
        (APRIL, 1, 0),
        (APRIL, 1, 2000),
    ]


def test_recording_games_of_several_nights_adds_each_night_once_at_commit(club):
    ann = club.members[0]
    for day in (MARCH, APRIL):
        games.record_game(
            "club",
            ANN_AND_CAT,
            [entries(ONE_CLEAN, {})] * 4,
            club=club,
            played_on=day,
            commit=False,
        )
    # Not yet committed: the nights wait for the commit.
    assert db.session.info[figures.PENDING_NIGHTS] == {(club, MARCH), (club, APRIL)}
    db.session.commit()
    assert figures.PENDING_NIGHTS not in db.session.info
    ann_nights = select(MemberDay.played_on, MemberDay.games).where(MemberDay.member_id == ann.id)
    assert sorted(kept(ann_nights)) == [(MARCH, 1), (APRIL, 1)]
