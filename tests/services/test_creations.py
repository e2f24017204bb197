"""services/creations.py: how many games, sign-ups and clubs one address may make in a while,
counted by the use cases that make them."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Creation, Game, Organiser
from scorekeeper.services import accounts, clubs, creations, games
from scorekeeper.services.creations import CLUB, GAME, SIGNUP, TooMany
from scorekeeper.services.games import SideSetup

from ._support import NOTHING, ONE_CLEAN, entries, how_many, kept

NOON = datetime(2025, 3, 4, 12, 0, tzinfo=UTC)


def creations_kept() -> list[tuple[str, str, datetime]]:
    """Every creation the database holds: kind, address, when (as UTC)."""
    rows = kept(select(Creation.kind, Creation.address, Creation.at).order_by(Creation.id))
    return [(kind, address, _utc(at)) for kind, address, at in rows]


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite's naive UTC


def allowed(kind: str, peer: str | None, at: datetime) -> TooMany | None:
    """Ask, then commit as the caller does when it has made the thing."""
    refused = creations.allow(kind, peer, at)
    db.session.commit()
    return refused


def test_a_creation_within_the_allowance_is_recorded_by_the_callers_commit():
    assert allowed(GAME, "203.0.113.5", NOON) is None
    assert creations_kept() == [("game", "203.0.113.5", NOON)]


def test_a_creation_that_fails_after_all_is_not_counted():
    """The record is the caller's to commit: rolled back with what failed, nothing counts."""
    assert creations.allow(GAME, "203.0.113.5", NOON) is None
    db.session.rollback()
    assert creations_kept() == []


def test_over_the_allowance_nothing_is_recorded_and_the_wait_is_told(app):
    app.config["GAMES_PER_HOUR"] = 2
    assert allowed(GAME, "203.0.113.5", NOON) is None
    assert allowed(GAME, "203.0.113.5", NOON + timedelta(minutes=10)) is None
    refused = allowed(GAME, "203.0.113.5", NOON + timedelta(minutes=20))
    # Room again when the first leaves the hour: 40 minutes on, and a second for rounding.
    assert refused == TooMany("game", 2, 40 * 60 + 1)
    assert refused.message == (
        "This address has made 2 games in the last hour, the most one address may. "
        "Nothing was saved: try again in 41 minutes."
    )
    assert len(creations_kept()) == 2
    # Another address, and another kind from this one, have allowances of their own.
    assert allowed(GAME, "198.51.100.7", NOON + timedelta(minutes=20)) is None
    assert allowed(CLUB, "203.0.113.5", NOON + timedelta(minutes=20)) is None
    assert len(creations_kept()) == 4


def test_an_ipv6_64_is_one_address():
    assert allowed(SIGNUP, "2001:db8:1:2::1", NOON) is None
    assert allowed(SIGNUP, "2001:db8:1:2:ffff::9", NOON) is None
    # An IPv4-mapped peer counts as its IPv4 address; no peer at all as "?".
    assert allowed(SIGNUP, "::ffff:203.0.113.5", NOON) is None
    assert allowed(SIGNUP, None, NOON) is None
    assert [address for _, address, _ in creations_kept()] == [
        "2001:db8:1:2::/64",
        "2001:db8:1:2::/64",
        "203.0.113.5",
        "?",
    ]


def test_the_64_shares_one_allowance(app):
    app.config["SIGNUPS_PER_DAY"] = 1
    assert allowed(SIGNUP, "2001:db8:1:2::1", NOON) is None
    refused = allowed(SIGNUP, "2001:db8:1:2::2", NOON + timedelta(hours=23, minutes=59))
    assert refused == TooMany("signup", 1, 61)
    assert refused.message == (
        "This address has made 1 organiser sign-ups in the last day, the most one address may. "
        "Nothing was saved: try again in 2 minutes."
    )


def test_creations_older_than_the_window_are_forgotten():
    assert allowed(GAME, "203.0.113.5", NOON) is None
    assert allowed(GAME, "198.51.100.7", NOON + timedelta(minutes=30)) is None
    assert allowed(GAME, "203.0.113.5", NOON + timedelta(hours=1, minutes=1)) is None
    # The first left the hour: gone, whoever made it; the other kinds' rows are their own.
    assert creations_kept() == [
        ("game", "198.51.100.7", NOON + timedelta(minutes=30)),
        ("game", "203.0.113.5", NOON + timedelta(hours=1, minutes=1)),
    ]


def test_a_lowered_allowance_waits_for_the_one_that_makes_room(app):
    for minutes in (0, 10, 20):
        assert allowed(CLUB, "203.0.113.5", NOON + timedelta(minutes=minutes)) is None
    app.config["CLUBS_PER_DAY"] = 2
    refused = allowed(CLUB, "203.0.113.5", NOON + timedelta(hours=1))
    # Three made, two allowed: room once the second leaves the day (the first is not enough).
    assert refused == TooMany("club", 2, (23 * 60 + 10) * 60 + 1)
    assert refused.message.endswith("Nothing was saved: try again in 24 hours.")
    assert len(creations_kept()) == 3


def test_most_of_reads_the_setting_then_the_environment_then_the_default(app, monkeypatch):
    assert creations.most_of(GAME) == 60
    assert creations.most_of(SIGNUP) == 10
    assert creations.most_of(CLUB) == 10
    monkeypatch.setenv("SCOREKEEPER_GAMES_PER_HOUR", "400")
    assert creations.most_of(GAME) == 400
    app.config["GAMES_PER_HOUR"] = "500"
    assert creations.most_of(GAME) == 500


@pytest.mark.parametrize("setting", ["many", 0, -3])
def test_a_setting_that_is_no_allowance_keeps_the_default(app, caplog, setting):
    app.config["GAMES_PER_HOUR"] = setting
    with caplog.at_level(logging.WARNING, logger="scorekeeper.services.creations"):
        assert creations.most_of(GAME) == 60
    assert caplog.messages == [f"GAMES_PER_HOUR={setting!r} is no allowance: 60 used"]


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (1, "1 second"),
        (59, "59 seconds"),
        (60, "1 minute"),
        (61, "2 minutes"),
        (7140, "119 minutes"),
        (7141, "2 hours"),
        (86400, "24 hours"),
    ],
)
def test_the_wait_is_said_as_people_say_it(seconds, words):
    assert TooMany(GAME, 60, seconds).message == (
        "This address has made 60 games in the last hour, the most one address may. "
        f"Nothing was saved: try again in {words}."
    )


# --- the use cases count their own (issue 41) ---------------------------------------------------

HERE = "203.0.113.9"


def test_the_use_cases_hold_the_allowance_themselves(app, olga):
    """Past each allowance, the use case called with the address it is made from makes nothing
    and says so (OverAllowance); another address, or none (the demo, an import), is not held."""
    app.config.update(GAMES_PER_HOUR=1, CLUBS_PER_DAY=1, SIGNUPS_PER_DAY=1)
    sides = [SideSetup("Us", ["Ann"]), SideSetup("Them", ["Bob"])]
    games.start_game("classic", sides, made_from=HERE)
    clubs.create_club("Tuesday Club", "tuesday", olga, made_from=HERE)
    accounts.register("paula", "violet-harbour-lantern", made_from=HERE)
    refused = {
        GAME: lambda: games.start_game("classic", sides, made_from=HERE),
        CLUB: lambda: clubs.create_club("Friday Club", "friday", olga, made_from=HERE),
        SIGNUP: lambda: accounts.register("quinn", "violet-harbour-lantern", made_from=HERE),
    }
    for kind, make in refused.items():
        with pytest.raises(creations.OverAllowance) as over:
            make()
        assert over.value.too_many.kind == kind
        db.session.rollback()
    assert (how_many(Game), how_many(Club), how_many(Organiser)) == (1, 1, 2)
    games.start_game("classic", sides, made_from="198.51.100.7")
    games.start_game("classic", sides)
    assert how_many(Game) == 3
    assert [kind for kind, _, _ in creations_kept()] == [GAME, CLUB, SIGNUP, GAME]


def test_play_again_counts_the_game_it_starts_not_the_one_it_opens(app):
    app.config["GAMES_PER_HOUR"] = 1
    sides = [SideSetup("Us", ["Ann"]), SideSetup("Them", ["Bob"])]
    finished = games.record_game("classic", sides, [entries(ONE_CLEAN, NOTHING)] * 4)
    games.start_game("classic", sides, made_from=HERE)
    with pytest.raises(creations.OverAllowance):
        games.play_again(finished, "Ann", made_from=HERE)
    db.session.rollback()
    assert finished.next_game_id is None
    started = games.play_again(finished, "Ann", made_from="198.51.100.7")
    assert started.started_here
    opened = games.play_again(finished, "Bob", made_from=HERE)  # HERE is at its allowance
    assert (opened.game.id, opened.started_here) == (started.game.id, False)
