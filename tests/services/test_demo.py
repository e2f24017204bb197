"""services/demo.py: a demo club of made-up finished games, every deal checked by the engine."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import (
    Club,
    Game,
    Member,
    Organiser,
    RatingStep,
    SavedRules,
    Season,
)
from scorekeeper.services import clubs, demo, games
from scorekeeper.services.clubs import ClubRefused
from scorekeeper.services.ratings import kept as ratings
from scorekeeper.services.ratings import refold

from ._support import how_many, kept, kept_one

pytestmark = pytest.mark.usefixtures("quick_hashing")


def fingerprints(club: Club) -> list[str]:
    """What makes each of the club's games the game it is, in the order they were made."""
    query = select(Game).where(Game.club_id == club.id).order_by(Game.id)
    return [games.fingerprint_of(game) for game in db.session.execute(query).scalars()]


def test_a_demo_club_is_made_with_members_seasons_rules_and_finished_games():
    made = demo.fill_demo("demo", games=3)
    club = kept_one(select(Club.id, Club.name, Club.slug, Club.standings_public))
    assert tuple(club) == (made.id, "Demo Card Club", "demo", True)
    assert kept(select(Organiser.username)) == [("demo",)]
    assert clubs.is_organiser(made, clubs.organiser_named("demo"))
    assert sorted(name for (name,) in kept(select(Member.name))) == sorted(demo.MEMBERS)
    assert how_many(Season) == 4
    assert kept(select(SavedRules.name, SavedRules.house_rules, SavedRules.is_default)) == [
        ("Thursday rules", {"red_three_caught": 300}, True)
    ]
    assert demo.finished_games(made) == 3
    assert kept(select(Game.finished_at.is_not(None))) == [(True,)] * 3


def test_the_same_seed_makes_the_same_club_again_in_place_of_the_old():
    first = fingerprints(demo.fill_demo("demo", games=3, seed=11))
    again = demo.fill_demo("demo", games=3, seed=11)
    assert fingerprints(again) == first
    assert how_many(Club) == 1 and how_many(Game) == 3
    other = demo.fill_demo("demo", games=3, seed=12)
    assert fingerprints(other) != first


def test_progress_is_told_after_each_batch(monkeypatch):
    monkeypatch.setattr(demo, "BATCH", 2)
    told: list[tuple[int, int]] = []
    demo.fill_demo("demo", games=3, progress=lambda done, of: told.append((done, of)))
    assert told == [(2, 3), (3, 3)]


def test_the_ratings_are_folded_once_at_the_end_not_at_each_batch(monkeypatch):
    """A fill committing in batches marks the club once, when it ends, and that one mark is
    folded as a rebuild: each batch of games would otherwise be folded again on its own."""
    monkeypatch.setattr(demo, "BATCH", 10)
    rebuilt: list[int] = []
    folds: list[list[tuple[int | None, bool]]] = []  # each fold's marks (game, whole club)
    real_rebuilt, real_planned = refold.rebuilt, refold._planned

    def rebuild(club_id: int, found=None):
        rebuilt.append(club_id)
        return real_rebuilt(club_id)

    def planned(club_id: int, marks):
        folds.append([(mark.game_id, mark.whole) for mark in marks])
        return real_planned(club_id, marks)

    monkeypatch.setattr(refold, "rebuilt", rebuild)
    monkeypatch.setattr(refold, "_planned", planned)
    made = demo.fill_demo("demo", games=35)
    assert rebuilt == [made.id]
    # The seasons' commits mark their scopes; none of the 4 batches' commits marked a game.
    assert folds[-1] == [(None, True)]
    assert not any(game for marks in folds for game, _ in marks)
    assert not ratings.updating(made.id)
    assert ratings.recompute_club(made, dry_run=True) == 0  # and the ratings are all there
    assert how_many(RatingStep) > 35 * 4  # a step per player, scope and game


def test_a_club_the_demo_account_does_not_run_is_never_replaced(club):
    with pytest.raises(ClubRefused) as refused:
        demo.fill_demo("tuesday", games=1)
    assert str(refused.value) == (
        "The club 'tuesday' is not a demo club (the demo account does not run it)."
    )
    assert kept(select(Club.name)) == [("Tuesday Club",)]
    assert sorted(kept(select(Member.name))) == [("Ann",), ("Cat",)]


def test_four_seasons_newest_first_the_newest_ending_today():
    assert demo.season_dates(date(2025, 3, 15)) == [
        ("Winter 2024/25", date(2024, 12, 1), date(2025, 3, 15)),
        ("Autumn 2024", date(2024, 8, 1), date(2024, 11, 30)),
        ("Summer 2024", date(2024, 4, 1), date(2024, 7, 31)),
        ("Winter 2023/24", date(2023, 12, 1), date(2024, 3, 31)),
    ]
