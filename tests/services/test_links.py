"""services/links.py: a game found by its secret, a club by its table code, guessers slowed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, LinkMiss
from scorekeeper.services import clubs, links, table_news
from scorekeeper.services.links import CodeKnown, Found, Missed, TooManyMisses

from ._support import club_game, kept

HOME = "203.0.113.5"
AWAY = "198.51.100.7"
NOON = datetime(2025, 3, 4, 12, 0, tzinfo=UTC)
NO_SUCH_SECRET = "A" * 22


@pytest.fixture
def clock(monkeypatch):
    """The time links.py reads, held at NOON until a test moves it (clock[0] = ...)."""
    now = [NOON]

    class Held(datetime):
        @classmethod
        def now(cls, tz=None):
            return now[0]

    monkeypatch.setattr(links, "datetime", Held)
    return now


def misses_kept() -> list[tuple[str, datetime]]:
    """Every miss the database holds: address, when (as UTC)."""
    rows = kept(select(LinkMiss.address, LinkMiss.at).order_by(LinkMiss.id))
    return [(address, at if at.tzinfo else at.replace(tzinfo=UTC)) for address, at in rows]


def test_a_secret_opens_its_game_with_club_and_live_version(clock, club):
    game = club_game(club, finished=False)
    table_news.touch(game.id)
    db.session.commit()
    assert links.open_link(game.secret, HOME) == Found(game.id, club.id, 1)
    assert links.open_link(game.secret, HOME, game.id) == Found(game.id, club.id, 1)
    assert misses_kept() == []


@pytest.mark.parametrize(
    "secret",
    [NO_SUCH_SECRET, "short", "A" * 21 + "!", "", None],
    ids=["unknown", "short", "not-url-safe", "empty", "not-text"],
)
def test_a_secret_no_game_has_is_a_miss_counted_against_the_address(clock, secret):
    club_game(finished=False)
    assert links.open_link(secret, HOME) == Missed()
    assert misses_kept() == [(HOME, NOON)]


def test_a_secret_with_another_games_id_is_a_miss(clock):
    first, second = club_game(finished=False), club_game(finished=False)
    assert links.open_link(first.secret, HOME, second.id) == Missed()
    assert links.open_link(first.secret, HOME, 2**63) == Missed()  # past any integer: id 0
    assert misses_kept() == [(HOME, NOON), (HOME, NOON)]


def test_twenty_misses_shut_the_address_out_for_ten_minutes(clock):
    game = club_game(finished=False)
    for _ in range(20):
        assert links.open_link(NO_SUCH_SECRET, HOME) == Missed()
    clock[0] = NOON + timedelta(minutes=4)
    # Even the right secret is not looked up; the wait runs from the oldest miss.
    assert links.open_link(game.secret, HOME) == TooManyMisses(6 * 60 + 1)
    assert links.open_link(NO_SUCH_SECRET, HOME) == TooManyMisses(6 * 60 + 1)
    assert len(misses_kept()) == 20
    # Another address guesses on its own allowance.
    assert links.open_link(game.secret, AWAY) == Found(game.id, None, 0)
    clock[0] = NOON + timedelta(minutes=10, seconds=1)
    assert links.open_link(game.secret, HOME) == Found(game.id, None, 0)


def test_record_miss_refuses_once_the_allowance_is_spent_and_forgets_old_misses():
    links.record_miss(AWAY, NOON - timedelta(days=1, seconds=1))
    for _ in range(20):
        assert links.record_miss(HOME, NOON) == Missed()
    # The miss a day old went with the first of these.
    assert {address for address, _ in misses_kept()} == {HOME}
    assert links.record_miss(HOME, NOON + timedelta(minutes=1)) == TooManyMisses(9 * 60 + 1)
    assert len(misses_kept()) == 20


def test_a_long_address_is_kept_cut_to_the_column(clock):
    long_address = "x" * 100
    assert links.open_link(NO_SUCH_SECRET, long_address) == Missed()
    assert misses_kept() == [("x" * 64, NOON)]


def test_a_clubs_table_code_is_known_and_any_other_is_a_miss(clock, olga, club):
    other = clubs.create_club("Other Club", "other", olga)
    assert links.open_table_code(club.table_code, HOME) == CodeKnown()
    assert links.open_table_code(club.table_code, HOME, "tuesday") == CodeKnown()
    assert misses_kept() == []
    # Another club's real code on this club's link, a code no club has, nothing, too long.
    for code, slug in (
        (other.table_code, "tuesday"),
        ("no-such-code", None),
        ("", None),
        (club.table_code + "x" * 64, None),
        (club.table_code, "no-such-club"),
    ):
        assert links.open_table_code(code, HOME, slug) == Missed()
    assert misses_kept() == [(HOME, NOON)] * 5


def test_a_spent_allowance_checks_no_table_code(clock, club):
    for _ in range(20):
        links.record_miss(HOME, NOON)
    assert links.open_table_code(club.table_code, HOME) == TooManyMisses(10 * 60 + 1)
    assert len(misses_kept()) == 20


def test_a_games_link_is_its_secret_under_t():
    game = club_game(finished=False)
    assert links.path_of(game) == f"/t/{game.secret}"
    assert links.link_of(game, "https://cards.example/") == f"https://cards.example/t/{game.secret}"


def test_games_by_secret_skips_unknown_ones_and_lists_the_latest_played_first():
    first, second, third = (club_game(finished=False) for _ in range(3))
    db.session.execute(update(Game).where(Game.id == first.id).values(updated_at=NOON))
    db.session.execute(
        update(Game)
        .where(Game.id.in_([second.id, third.id]))
        .values(updated_at=NOON - timedelta(1))
    )
    db.session.commit()
    found = links.games_by_secret(
        [second.secret, NO_SUCH_SECRET, "bad", first.secret, third.secret]
    )
    # Equal times: the later game first.
    assert [game.id for game in found] == [first.id, third.id, second.id]
    assert links.games_by_secret(["bad", 7]) == []


def test_every_game_oldest_first():
    made = [club_game(finished=False).id for _ in range(3)]
    assert [game.id for game in links.every_game()] == made
