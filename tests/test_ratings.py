"""`flask recompute` and the ratings kept: a clean club's ratings are found as they should be,
a tampered one is reported and put right (the demo club: seasons, presets, a saved rule set)."""

from __future__ import annotations

from sqlalchemy import func, select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Rating, RatingStep
from scorekeeper.services import clubs
from scorekeeper.services.ratings import kept


def _ratings(club_id: int) -> list[tuple]:
    """Every kept rating of the club, comparable before and after."""
    query = select(Rating.scope, Rating.member_id, Rating.guest, Rating.mu, Rating.sigma)
    rows = db.session.execute(query.where(Rating.club_id == club_id))
    return sorted(rows, key=lambda r: (r.scope, r.member_id or 0, r.guest or ""))


def test_recompute_finds_a_clean_clubs_ratings_unchanged_and_puts_a_tampered_one_right(app, runner):
    result = runner.invoke(args=["demo", "--club", "demo", "--games", "40"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        club = clubs.club_by_slug("demo")
        good = _ratings(club.id)
        scopes = {scope for scope, *_ in good}
        # Every game's scopes: all, its preset's, and seasons and the saved rule set the demo has.
        assert "all" in scopes and any(s.startswith(kept.SEASON) for s in scopes)
        assert any(s.startswith(kept.RULES) for s in scopes)
        steps = select(func.count()).select_from(RatingStep).where(RatingStep.club_id == club.id)
        assert db.session.execute(steps).scalar_one() > 0

    result = runner.invoke(args=["recompute"])
    assert result.exit_code == 0, result.output
    assert "Ratings and rating steps put right: 0\n" in result.output
    assert "Every stored figure already matched the entries." in result.output

    with app.app_context():
        club = db.session.get(Club, clubs.club_by_slug("demo").id)
        one = db.session.execute(
            select(Rating.id).where(Rating.club_id == club.id).order_by(Rating.id).limit(1)
        ).scalar_one()
        db.session.execute(update(Rating).where(Rating.id == one).values(mu=99.0))
        db.session.commit()

    result = runner.invoke(args=["recompute", "--dry-run"])
    assert "Ratings and rating steps put right: 1\n" in result.output

    result = runner.invoke(args=["recompute"])
    assert result.exit_code == 0, result.output
    assert "Ratings and rating steps put right: 1\n" in result.output
    with app.app_context():
        assert _ratings(clubs.club_by_slug("demo").id) == good
    again = runner.invoke(args=["recompute"])
    assert "Ratings and rating steps put right: 0\n" in again.output
