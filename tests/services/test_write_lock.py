"""Issue 39: a write replays the game before it takes the game's lock, and under the lock reads
the game's deals again only if another request saved or corrected one since (lock_history)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Side
from scorekeeper.services import deals, games
from scorekeeper.services.access import Level

from ._support import ANN_AND_CAT, NOTHING, ONE_CLEAN, ONE_DIRTY, kept

TABLE = Level.TABLE


@pytest.fixture
def steps(monkeypatch) -> list[str]:
    """What a correction or a deal does, in order: each replay of the game and each lock."""
    done: list[str] = []
    replay, lock, play = games.progress_corrected, games.lock_history, games.progress_of

    def replayed(*args, **kwargs):
        done.append("replay")
        return replay(*args, **kwargs)

    def locked(game):
        done.append("lock")
        return lock(game)

    def played(game):
        done.append("play")
        return play(game)

    monkeypatch.setattr(games, "progress_corrected", replayed)
    monkeypatch.setattr(games, "lock_history", locked)
    monkeypatch.setattr(games, "progress_of", played)
    return done


def totals(game_id: int) -> list[int]:
    """Each side's total as the database keeps it."""
    rows = kept(select(Side.final_total).where(Side.game_id == game_id).order_by(Side.position))
    return [total for (total,) in rows]


def two_deals() -> Game:
    game = games.start_game("club", ANN_AND_CAT)
    for entries in ([ONE_CLEAN, NOTHING], [NOTHING, ONE_DIRTY]):
        assert isinstance(deals.enter_deal(game, TABLE, entries), deals.Saved)
    db.session.commit()  # the game read, and the read ended (SQLite: no write lock held)
    return game


def elsewhere(app, write) -> None:
    """`write(game)` done by another request (its own app context and session)."""
    db.session.commit()  # this session's read ended, its objects kept as read
    with app.app_context():
        assert isinstance(write(games.get_game(1)), deals.Saved)
        db.session.remove()


def test_a_correction_replays_the_game_before_taking_its_lock(steps):
    game = two_deals()
    steps.clear()
    assert isinstance(deals.correct_deal(game, TABLE, 1, [ONE_DIRTY, NOTHING], 1), deals.Saved)
    assert steps == ["replay", "lock"]
    assert totals(game.id) == [300, 300]


def test_a_deal_saved_meanwhile_is_read_and_counted_under_the_lock(app, steps):
    game = two_deals()
    elsewhere(app, lambda other: deals.enter_deal(other, TABLE, [ONE_CLEAN, ONE_CLEAN]))
    steps.clear()
    outcome = deals.correct_deal(game, TABLE, 1, [ONE_DIRTY, NOTHING], 1)
    assert isinstance(outcome, deals.Saved), outcome
    # Replayed once on the deals as read, then again on the three deals there are now.
    assert steps == ["replay", "lock", "replay", "lock"]
    assert totals(game.id) == [800, 800]  # 300 + 500; 300 + 500: deal 3 is counted


def test_a_correction_meanwhile_of_another_deal_is_read_too(app, steps):
    game = two_deals()
    elsewhere(app, lambda other: deals.correct_deal(other, TABLE, 2, [NOTHING, ONE_CLEAN], 1))
    steps.clear()
    assert isinstance(deals.correct_deal(game, TABLE, 1, [ONE_DIRTY, NOTHING], 1), deals.Saved)
    assert steps == ["replay", "lock", "replay", "lock"]
    assert totals(game.id) == [300, 500]  # deal 2 as corrected elsewhere


def test_a_deal_is_replayed_before_the_lock_and_not_again_under_it(app, steps):
    game = two_deals()
    steps.clear()
    assert isinstance(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]), deals.Saved)
    # Asked again under the lock, the replay is the one made before it (kept on the game).
    assert steps[:2] == ["play", "lock"]
    assert totals(game.id) == [1000, 300]
    elsewhere(app, lambda other: deals.enter_deal(other, TABLE, [NOTHING, ONE_CLEAN]))
    # Deal 4, saved elsewhere, is read under the lock: it ended the game (the club's four deals),
    # so this one, sent as deal 4 from the game as read before, is refused and saves nothing.
    assert isinstance(deals.enter_deal(game, TABLE, [ONE_DIRTY, NOTHING]), deals.Ended)
    assert totals(game.id) == [1000, 800]
