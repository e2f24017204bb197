"""`flask --app scorekeeper recompute`: every stored figure rebuilt from the deals' entries."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, DealScore, Game, MemberDay, MemberResult, Side
from scorekeeper.services import clubs, games, standings


@pytest.fixture
def demo_club(app, runner):
    """A demo club of eight finished games, its members' results and nights stored."""
    result = runner.invoke(args=["demo", "--club", "demo", "--games", "8"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        return clubs.club_by_slug("demo").id


def _stored(club_id: int) -> dict:
    """Every stored figure of the club's games, comparable before and after."""
    totals = select(DealScore.id, DealScore.total).order_by(DealScore.id)
    sides = select(Side.id, Side.final_total, Side.won, Side.clean_books).order_by(Side.id)
    finished = select(Game.id, Game.finished_at.is_not(None)).order_by(Game.id)
    # Results put right are written anew: compared by what they say, not by their ids.
    results = select(
        MemberResult.game_id, MemberResult.member_id, MemberResult.final_total, MemberResult.won
    )
    nights = select(MemberDay.member_id, MemberDay.played_on, MemberDay.final_total)
    return {
        "totals": list(db.session.execute(totals)),
        "sides": list(db.session.execute(sides)),
        "finished": list(db.session.execute(finished)),
        "results": sorted(db.session.execute(results)),
        "nights": sorted(db.session.execute(nights.where(MemberDay.club_id == club_id))),
        "standings": [
            (s.player, s.games, s.wins, s.total_points, s.clean_books)
            for s in standings.standings(db.session.get(Club, club_id), standings.Filters())
        ],
    }


def _corrupt(club_id: int) -> None:
    """What a bad restore or a preset fixed after the fact leaves: one of each figure wrong."""
    first_game = (
        db.session.execute(select(Game).where(Game.club_id == club_id).order_by(Game.id))
        .scalars()
        .first()
    )
    score = first_game.deals[0].scores[0]
    db.session.execute(update(DealScore).where(DealScore.id == score.id).values(total=999_999))
    side = first_game.sides[1]
    db.session.execute(
        update(Side).where(Side.id == side.id).values(final_total=-7, clean_books=99)
    )
    last_game = (
        db.session.execute(select(Game).where(Game.club_id == club_id).order_by(Game.id.desc()))
        .scalars()
        .first()
    )
    db.session.execute(update(Game).where(Game.id == last_game.id).values(finished_at=None))
    db.session.execute(
        update(MemberResult)
        .where(MemberResult.game_id == first_game.id)
        .values(final_total=123_456, won=True)
    )
    night = db.session.execute(select(func.min(MemberDay.id))).scalar_one()
    db.session.execute(update(MemberDay).where(MemberDay.id == night).values(final_total=1))
    db.session.commit()


def test_recompute_puts_each_corrupted_figure_right(app, runner, demo_club):
    with app.app_context():
        good = _stored(demo_club)
        _corrupt(demo_club)
        bad = _stored(demo_club)
        for kind in ("totals", "sides", "finished", "results", "nights", "standings"):
            assert bad[kind] != good[kind], kind

    result = runner.invoke(args=["recompute"])

    assert result.exit_code == 0, result.output
    assert "8 games replayed from their entries." in result.output
    assert "Deal totals put right: 1\n" in result.output
    assert "Sides' figures put right: 1\n" in result.output
    assert "Games finished or unfinished put right: 1\n" in result.output
    assert "Games whose members' results were put right: 1\n" in result.output
    assert "Clubs whose nightly sums were put right: 1\n" in result.output
    with app.app_context():
        fixed = _stored(demo_club)
        # Finishing again stamps a new time: only whether the game is finished is compared.
        assert fixed == good


def test_a_dry_run_reports_and_changes_nothing(app, runner, demo_club):
    with app.app_context():
        _corrupt(demo_club)
        bad = _stored(demo_club)

    result = runner.invoke(args=["recompute", "--dry-run"])

    assert result.exit_code == 0, result.output
    assert "Deal totals put right: 1\n" in result.output
    assert "Dry run: nothing was changed." in result.output
    with app.app_context():
        assert _stored(demo_club) == bad


def test_recompute_of_sound_figures_changes_nothing(app, runner, demo_club):
    with app.app_context():
        good = _stored(demo_club)

    result = runner.invoke(args=["recompute"])

    assert result.exit_code == 0, result.output
    assert "Every stored figure already matched the entries." in result.output
    assert "Deal totals put right: 0\n" in result.output
    with app.app_context():
        assert _stored(demo_club) == good


def test_a_game_in_progress_stays_in_progress(app, runner):
    """A casual game's figures are rebuilt too, and an unfinished game is not marked finished."""
    with app.app_context():
        sides = [games.SideSetup("Ann", ["Ann"]), games.SideSetup("Cat", ["Cat"])]
        game = games.start_game("club", sides)
        game_id = game.id
        db.session.execute(
            update(Game).where(Game.id == game_id).values(finished_at=datetime.now(UTC))
        )
        db.session.commit()

    result = runner.invoke(args=["recompute"])

    assert "Games finished or unfinished put right: 1\n" in result.output
    with app.app_context():
        assert db.session.get(Game, game_id).finished_at is None
