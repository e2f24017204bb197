"""How many writes one game and one address may send (services/writes.py), and games from a
club's table link held out of its standings and ratings until confirmed (services/holding.py,
services/rating_holds.py).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.services import deals, games, holding, rating_holds, writes
from scorekeeper.services.access import Level
from scorekeeper.services.rating_holds import HoldRefused

from ._support import ANN_AND_CAT, NOTHING, ONE_CLEAN
from .test_ratings_kept import stored

# The clock stopped part way into a minute and into ten: no window ends during a test.
HALF_WAY = 2_000_000 * 600 + 329.5
ADDRESS, OTHER = "10.0.0.1", "10.0.0.2"


@pytest.fixture
def stopped_clock(monkeypatch):
    """The writes' clock stopped, and no refusal remembered by this process before or after."""
    monkeypatch.setattr(writes, "clock", lambda: HALF_WAY)
    writes.forget_refusals()
    yield
    writes.forget_refusals()


def test_a_game_takes_its_allowance_of_corrections_then_is_refused(app, club, stopped_clock):
    app.config["CORRECTIONS_PER_GAME"] = 2
    game = rating_game(club, by_table=False)
    for _ in range(2):
        assert writes.allow(writes.CORRECTION, game.id, ADDRESS) is None
        db.session.commit()  # the write's own commit counts it (SQLite)
    refused = writes.allow(writes.CORRECTION, game.id, OTHER)
    assert refused is not None and (refused.whose, refused.most) == (writes.GAME, 2)
    assert refused.message.startswith("This game has had 2 corrections within a minute")
    assert "Nothing was saved: try again in" in refused.message
    # Remembered by this process: refused again without a count, another game not at all.
    assert writes.remembered(writes.CORRECTION, game.id, OTHER) == refused
    other = rating_game(club, by_table=False)
    assert writes.allow(writes.CORRECTION, other.id, OTHER) is None


def test_an_address_takes_its_allowance_across_games(app, club, stopped_clock):
    app.config["CORRECTIONS_PER_ADDRESS"] = 1
    first, second = rating_game(club, by_table=False), rating_game(club, by_table=False)
    assert writes.allow(writes.CORRECTION, first.id, ADDRESS) is None
    db.session.commit()
    refused = writes.allow(writes.CORRECTION, second.id, ADDRESS)
    assert refused is not None and refused.whose == writes.ADDRESS
    assert refused.message.startswith("This address has sent 1 correction within a minute")
    assert writes.allow(writes.CORRECTION, second.id, OTHER) is None


def test_a_write_that_committed_nothing_is_counted_all_the_same(app, club, stopped_clock):
    app.config["ENTRIES_PER_GAME"] = 1
    game = rating_game(club, by_table=False)
    assert writes.allow(writes.ENTRY, game.id, ADDRESS) is None
    db.session.rollback()  # the write was refused for its figures: nothing of it committed
    writes.keep_uncommitted()
    assert writes.allow(writes.ENTRY, game.id, ADDRESS) is not None


def test_window_words():
    assert writes.window_words(timedelta(minutes=1)) == "a minute"
    assert writes.window_words(timedelta(minutes=10)) == "10 minutes"
    assert writes.most_of(writes.ENTRY, writes.GAME) == 150


def rating_game(club, *, by_table: bool = True) -> Game:
    """A finished game of Ann v Cat in the club, as if started from its table link."""
    game = games.start_game("club", ANN_AND_CAT, club=club, by_table_link=by_table)
    for _ in range(4):
        deals.enter_deal(game, Level.TABLE, [ONE_CLEAN, NOTHING])
    return game


def test_a_club_that_confirms_holds_its_table_games_until_confirmed(club):
    with pytest.raises(HoldRefused, match="choose one of"):
        rating_holds.choose(club, "sometimes")
    rating_holds.choose(club, holding.CONFIRMED)
    game = rating_game(club)
    assert game.finished_at is not None
    assert (game.held_from_ratings, game.rating_review) == (True, holding.CLUB)
    assert rating_holds.held_count(club) == 1
    (held,) = rating_holds.held_games(club)
    assert held.game.id == game.id and held.why == rating_holds.WHY_HELD[holding.CLUB]
    assert stored(club) == {}  # held: rated for nobody
    assert rating_holds.confirm_all(club) == 1
    assert rating_holds.held_count(club) == 0
    assert set(stored(club)) == {"Ann", "Cat"}  # confirmed: now rated
    assert db.session.get(Game, game.id).rating_review == holding.CONFIRMED_REVIEW


def test_a_club_that_counts_every_game_holds_only_a_burst(club):
    rating_holds.choose(club, holding.EVERY)
    played = [rating_game(club) for _ in range(holding.MOST_AN_HOUR + 1)]
    assert [g.rating_review for g in played[:-1]] == [holding.COUNTS] * holding.MOST_AN_HOUR
    assert (played[-1].held_from_ratings, played[-1].rating_review) == (True, holding.BURST)
    # An organiser's own game is never held.
    assert rating_game(club, by_table=False).held_from_ratings in (False, None)
    assert rating_holds.confirm(club, [played[0].id]) == 0  # not held: nothing to confirm
    assert rating_holds.confirm(club, [played[-1].id]) == 1


def test_a_held_game_is_judged_once_as_it_first_finishes(club):
    rating_holds.choose(club, holding.CONFIRMED)
    game = rating_game(club)
    rating_holds.confirm(club, [game.id])
    holding.judge(game, True)  # finishing again (a correction) judges nothing anew
    assert (game.held_from_ratings, game.rating_review) == (False, holding.CONFIRMED_REVIEW)
