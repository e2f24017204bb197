"""services/recompute.py: every stored figure rebuilt from the deals' entries."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import DealScore, Game, MemberDay, MemberResult, Side
from scorekeeper.services import recompute
from scorekeeper.services.recompute import Report

from ._support import club_game, kept

MARCH = date(2025, 3, 4)


def stored() -> dict[str, list]:
    """Every figure recompute may put right, as the database holds it."""
    return {
        "totals": kept(select(DealScore.total).order_by(DealScore.id)),
        "sides": kept(select(Side.final_total, Side.won).order_by(Side.id)),
        "finished": kept(select(Game.finished_at.is_not(None)).order_by(Game.id)),
        "results": kept(select(MemberResult.won, MemberResult.final_total).order_by("id")),
        "nights": sorted(kept(select(MemberDay.member_id, MemberDay.final_total))),
    }


def corrupt(*statements) -> None:
    """What a bad restore leaves; the session then reads afresh, as a new process would."""
    for statement in statements:
        db.session.execute(statement)
    db.session.commit()
    db.session.expire_all()


@pytest.fixture
def two_games(club):
    """Two finished club games of one night, Ann winning both 2,000 to 0."""
    return club_game(club, finished=True, played_on=MARCH), club_game(
        club, finished=True, played_on=MARCH
    )


def wrong_in_every_way(first: Game, second: Game) -> None:
    ann_side, cat_side = first.sides
    corrupt(
        update(DealScore).where(DealScore.id == first.deals[0].scores[0].id).values(total=999_999),
        update(Side).where(Side.id == cat_side.id).values(final_total=-7),
        update(Game).where(Game.id == second.id).values(finished_at=None),
        update(MemberResult)
        .where(MemberResult.game_id == first.id, MemberResult.side_id == ann_side.id)
        .values(won=False),
        update(MemberDay).values(final_total=1),
    )


def test_sound_figures_are_left_as_they_are(two_games):
    before = stored()
    report = recompute.recompute()
    assert report == Report(games=2)
    assert not report.changed
    assert report.lines() == [
        "2 games replayed from their entries.",
        "Deal totals put right: 0",
        "Sides' figures put right: 0",
        "Games finished or unfinished put right: 0",
        "Games whose members' results were put right: 0",
        "Clubs whose nightly sums were put right: 0",
        "Ratings and rating steps put right: 0",
        "Every stored figure already matched the entries.",
    ]
    assert stored() == before


def test_each_wrong_figure_is_put_right_and_counted(two_games):
    sound = stored()
    wrong_in_every_way(*two_games)
    assert stored() != sound
    report = recompute.recompute()
    assert report == Report(games=2, deal_totals=1, sides=1, finished=1, member_results=1, clubs=1)
    assert report.changed
    assert stored() == sound


def test_a_dry_run_reports_and_keeps_nothing(two_games):
    wrong_in_every_way(*two_games)
    wrong = stored()
    report = recompute.recompute(dry_run=True)
    # Nothing put right, the ratings are compared with the games as stored: the second game
    # unfinished, its 4 steps (Ann and Cat, in "all" and "rules:club") and 4 ratings are off.
    assert report == Report(
        games=2, deal_totals=1, sides=1, finished=1, member_results=1, clubs=1, ratings=8
    )
    assert stored() == wrong


def test_a_game_its_rules_no_longer_play_is_left_as_it_was(two_games):
    first, second = two_games
    corrupt(
        update(Game).where(Game.id == first.id).values(house_rules={"nonsense": 1}),
        update(Side).where(Side.game_id == first.id).values(final_total=5),
    )
    report = recompute.recompute()
    message = "There is no rule called 'nonsense' that a club can change."
    assert report.refused == [(first.id, message)]
    # Its sides' totals, as stored, are what its ratings are folded from: a tie at 5 now, so
    # Ann's and Cat's steps and ratings after it, in "all" and "rules:club", are put right.
    assert report.lines()[-2:] == [
        "Ratings and rating steps put right: 12",
        f"Game {first.id} left as it was: {message}",
    ]
    assert kept(select(Side.final_total).where(Side.game_id == first.id)) == [(5,), (5,)]


def test_progress_is_told_after_each_batch(monkeypatch):
    for _ in range(3):
        club_game(finished=False)
    monkeypatch.setattr(recompute, "BATCH", 2)
    told: list[int] = []
    assert recompute.recompute(progress=told.append).games == 3
    assert told == [2, 3]


def test_an_unfinished_game_stays_unfinished(club):
    club_game(club, finished=False)
    report = recompute.recompute()
    assert (report.finished, report.member_results) == (0, 0)
    assert kept(select(Game.finished_at)) == [(None,)]
    assert kept(select(MemberResult.id)) == []
