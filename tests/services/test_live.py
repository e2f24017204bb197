"""services/live.py: what every phone at a table polls for, read from the database alone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealPart, Entering, Game
from scorekeeper.services import games, live, table_news
from scorekeeper.services.live import TableState

from ._support import club_game, kept, kept_one

NOON = datetime(2025, 3, 4, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch):
    """The time live.py reads, held at NOON until a test moves it (clock[0] = ...)."""
    now = [NOON]

    class Held(datetime):
        @classmethod
        def now(cls, tz=None):
            return now[0]

    monkeypatch.setattr(live, "datetime", Held)
    return now


def live_version(game: Game) -> int:
    return kept_one(select(Game.live_version).where(Game.id == game.id))[0]


def entering_kept() -> list[tuple[str, str, int]]:
    rows = kept(select(Entering.device, Entering.name, Entering.deal_number).order_by("device"))
    return [tuple(row) for row in rows]


# --- the news --------------------------------------------------------------------------------


def test_news_of_a_saved_deal():
    news = table_news.saved_news(3, "Ann")
    assert news == {"key": "3.1", "kind": "saved", "deal": 3, "by": "Ann", "changes": []}
    assert table_news.news_text(news) == "Ann saved deal 3."
    assert table_news.news_text(table_news.saved_news(3, None)) == "Deal 3 saved."


def test_news_of_a_correction_names_each_total_that_moved():
    news = table_news.corrected_news(1, 2, "Ann", [(1, "Them", 1355, 1390), (0, "Us", 0, -35)])
    assert news == {
        "key": "1.2",
        "kind": "corrected",
        "deal": 1,
        "by": "Ann",
        "changes": [
            {"side": 1, "name": "Them", "before": 1355, "after": 1390},
            {"side": 0, "name": "Us", "before": 0, "after": -35},
        ],
    }
    assert table_news.news_text(news) == "Ann corrected deal 1: Them +1,355 → +1,390; Us +0 → −35."
    assert table_news.news_text(table_news.corrected_news(4, 3, None, [])) == "Deal 4 corrected."


def test_touch_moves_the_live_version_on_and_keeps_the_news():
    game = club_game(finished=False)
    table_news.touch(game.id)
    table_news.touch(game.id, table_news.saved_news(1, "Ann"))
    db.session.commit()
    assert kept(select(Game.live_version, Game.news)) == [(2, table_news.saved_news(1, "Ann"))]


def test_touch_is_the_callers_to_commit():
    game = club_game(finished=False)
    table_news.touch(game.id)
    db.session.rollback()
    assert live_version(game) == 0


# --- who is entering ---------------------------------------------------------------------------


def test_say_entering_lists_the_phone_for_the_others(clock):
    game = club_game(finished=False)  # deal 1 saved: deal 2 is next
    assert live.say_entering(game.id, "phone-a", "Ann", 2) is True
    clock[0] = NOON + timedelta(seconds=5)
    assert live.say_entering(game.id, "phone-b", "Cat", 2) is True
    assert entering_kept() == [("phone-a", "Ann", 2), ("phone-b", "Cat", 2)]
    assert live_version(game) == 2
    state = live.table_state(game.id, "phone-b", NOON + timedelta(seconds=6))
    # Ann was heard 6 s ago: 9 s more before her name goes; a phone never sees itself.
    assert state.entering == [("Ann", 2, 9)]
    state = live.table_state(game.id, None, NOON + timedelta(seconds=15, milliseconds=1))
    assert state.entering == [("Cat", 2, 5)]


def test_a_phone_saying_it_again_is_one_row(clock):
    game = club_game(finished=False)
    live.say_entering(game.id, "phone-a", "Ann", 2)
    clock[0] = NOON + timedelta(seconds=10)
    assert live.say_entering(game.id, "phone-a", "Ann (kitchen)", 3) is True
    assert entering_kept() == [("phone-a", "Ann (kitchen)", 3)]


def test_a_ninth_phone_is_not_listed_until_a_quiet_one_goes(clock):
    game = club_game(finished=False)
    for n in range(8):
        assert live.say_entering(game.id, f"phone-{n}", f"Phone {n}", 2) is True
    assert live.say_entering(game.id, "phone-9", "Phone 9", 2) is False
    assert "phone-9" not in [device for device, _, _ in entering_kept()]
    assert len(entering_kept()) == 8
    # The eight go quiet: the ninth takes a place, and the quiet ones' rows go.
    clock[0] = NOON + timedelta(seconds=16)
    assert live.say_entering(game.id, "phone-9", "Phone 9", 2) is True
    assert entering_kept() == [("phone-9", "Phone 9", 2)]


def test_rows_an_hour_old_are_swept_whatever_the_game(clock):
    first, second = club_game(finished=False), club_game(finished=False)
    live.say_entering(first.id, "phone-a", "Ann", 2)
    clock[0] = NOON + timedelta(hours=1, seconds=1)
    live.say_entering(second.id, "phone-b", "Cat", 2)
    assert entering_kept() == [("phone-b", "Cat", 2)]


def test_stop_entering_takes_the_phone_off_the_list(clock):
    game = club_game(finished=False)
    live.say_entering(game.id, "phone-a", "Ann", 2)
    live.stop_entering(game.id, "phone-a")
    assert entering_kept() == []
    assert live_version(game) == 2
    # A phone not listed changes nothing the table sees.
    live.stop_entering(game.id, "phone-a")
    assert live_version(game) == 2


def test_stop_entering_without_commit_is_the_callers(clock):
    game = club_game(finished=False)
    live.say_entering(game.id, "phone-a", "Ann", 2)
    live.stop_entering(game.id, "phone-a", commit=False)
    db.session.rollback()
    assert entering_kept() == [("phone-a", "Ann", 2)]


# --- the state a phone polls -----------------------------------------------------------------


def test_table_state_of_a_game_in_play(clock, club):
    game = club_game(club, finished=False)
    live.say_entering(game.id, "phone-a", "Ann", 2)
    live.say_entering(game.id, "phone-old", "Cat", 1)  # deal 1 is saved: not listed
    db.session.add(
        DealPart(
            game_id=game.id,
            side_position=1,
            deal_number=2,
            entry={},
            sent_by="Cat",
            device="phone-c",
            entered_at=NOON,
            version=3,
            problem="Two sides went out.",
        )
    )
    db.session.commit()
    state = live.table_state(game.id, "phone-c", NOON)
    assert state == TableState(
        game_id=game.id,
        club_id=club.id,
        version="1.1",
        deals=1,
        finished=False,
        entering=[("Ann", 2, 15)],
        parts=[{"side": 1, "sent_by": "Cat", "mine": True, "problem": "Two sides went out."}],
        lines="2:1.3",
        news=None,
        next_game=None,
    )
    assert state.as_json(lambda secret: f"/t/{secret}")["next_deal"] == 2


def test_table_state_counts_corrections_and_names_the_next_game():
    game = club_game(finished=True)
    # Deal 2 corrected twice: the version counts deals, then every deal's versions.
    db.session.execute(update(Deal).where(Deal.number == 2).values(version=3))
    db.session.commit()
    after = games.play_again(game, "Ann")
    assert after.started_here
    state = live.table_state(game.id, None)
    assert (state.version, state.deals, state.finished) == ("4.6", 4, True)
    assert state.next_game == (after.game.secret, "Ann")
    assert state.as_json(lambda secret: f"/t/{secret}")["next_game"] == {
        "url": f"/t/{after.game.secret}",
        "started_by": "Ann",
    }


def test_no_such_game_has_no_state():
    assert live.table_state(1, None) is None
    assert live.table_state(2**63, None) is None
    assert live.game_row(1) is None


def test_game_row_reads_club_and_end(club):
    game = club_game(club, finished=True)
    club_id, finished_at = live.game_row(game.id)
    assert club_id == club.id and finished_at is not None


def test_tokens_change_with_each_deal_and_line():
    game = club_game(finished=False)
    assert live.version_of(game) == "1.1"
    assert live.version(3, 5) == "3.5"
    rows = [DealPart(side_position=1, version=2), DealPart(side_position=0, version=1)]
    assert live.lines_token(2, rows) == "2:0.1,1.2"
    assert live.lines_token(2, []) == "2:"
