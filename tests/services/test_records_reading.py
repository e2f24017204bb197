"""A club's records as read for its files: the games a batch at a time (records_read.py), each
deal's history (history_read.py, records_history.py) and the files' versions and allowance
(exports.py).
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta

from scorekeeper.services import deals, exports, games, history_read, records_history, records_read
from scorekeeper.services.access import Level
from scorekeeper.services.standings import Filters

from ._support import ANN_AND_CAT, NOTHING, ONE_CLEAN, club_game

MARCH = date(2025, 3, 4)
APRIL = date(2025, 4, 1)
WHY = "Cat's book was Ann's"


def played_at_the_table(club, played_on=MARCH):
    """A club game of Ann v Cat whose two deals were entered from a phone, the first corrected
    by the organiser: each deal has a history."""
    game = games.start_game("club", ANN_AND_CAT, club=club, played_on=played_on)
    deals.enter_deal(game, Level.TABLE, [ONE_CLEAN, NOTHING], sent_by="Ann")
    deals.enter_deal(game, Level.TABLE, [NOTHING, ONE_CLEAN], sent_by="Cat")
    deals.correct_deal(game, Level.ORGANISER, 1, [NOTHING, ONE_CLEAN], None, None, WHY)
    return game


def history_file(club) -> str:
    """The history file whole: its header, then its rows."""
    return records_history.HISTORY_HEADER + "".join(records_history.history_rows(club))


def test_the_games_are_read_oldest_first_with_their_sides_and_deals(club):
    later = club_game(club, finished=True, played_on=APRIL)
    first = club_game(club, finished=True, played_on=MARCH)
    club_game(None, finished=True)  # a casual game: not the club's
    read = [
        game
        for batch in records_read.games(club, Filters(), finished_only=True, with_deals=True)
        for game in batch
    ]
    assert [g.id for g in read] == [first.id, later.id]
    game = read[0]
    assert (game.played_on, game.ruleset) == (MARCH, "club")
    assert [(s.position, s.name, s.final_total, s.won) for s in game.sides] == [
        (0, "Ann", 2000, True),
        (1, "Cat", 0, False),
    ]
    assert [p.name for s in game.sides for p in s.players] == ["Ann", "Cat"]
    assert [d.number for d in game.deals] == [1, 2, 3, 4]
    assert [sc.total for sc in game.deals[0].scores] == [500, 0]
    # Without deals the games file reads the totals kept on the sides alone.
    bare = next(records_read.games(club, Filters(), finished_only=True, with_deals=False))
    assert [g.deals for g in bare] == [[], []]
    assert records_read.most_sides(club, Filters()) == 2


def test_an_unfinished_game_is_read_only_when_asked_for(club):
    club_game(club, finished=False)
    assert list(records_read.games(club, Filters(), finished_only=True, with_deals=False)) == []
    (batch,) = records_read.games(club, Filters(), finished_only=False, with_deals=False)
    assert len(batch) == 1


def test_a_deals_history_is_each_event_in_order(club):
    game = played_at_the_table(club)
    found = history_read.deal_records(game)
    assert sorted(found) == [1, 2]
    first = found[1].events
    assert (first[-1].kind, first[-1].organiser) == ("correction", True)
    assert first[0].by == "Ann" and not first[0].organiser
    assert first[-1].reason == WHY
    assert [e.version for e in first] == sorted(e.version for e in first)
    assert found[2].events[0].by == "Cat"
    # A range of deals reads only those.
    assert sorted(history_read.deal_records(game, 2, 2)) == [2]
    assert history_read.deal_records(game, 3) == {}


def test_the_history_file_has_a_row_per_event(club):
    game = played_at_the_table(club)
    text = history_file(club)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == list(records_history.HISTORY_FILE_COLUMNS)
    events = history_read.deal_records(game)
    expected = [(str(n), e.kind) for n in sorted(events) for e in events[n].events]
    assert [(r["deal"], r["event"]) for r in rows] == expected
    corrected = next(r for r in rows if r["event"] == "correction")
    assert (corrected["organiser"], corrected["reason"]) == ("yes", WHY)
    assert corrected["after_totals"] and corrected["before_totals"]


def test_a_files_version_changes_with_a_deal_and_not_with_nothing(club):
    game = games.start_game("club", ANN_AND_CAT, club=club, played_on=MARCH)
    before = exports.version_of(club, "games")
    assert exports.version_of(club, "games") == before
    assert exports.version_of(club, "deals") != before  # another file, another version
    deals.enter_deal(game, Level.TABLE, [ONE_CLEAN, NOTHING])
    assert exports.version_of(club, "games") != before


def test_an_address_may_download_its_allowance_an_hour(app):
    app.config["EXPORTS_PER_HOUR"] = 2
    now = datetime(2025, 3, 4, 20, 0, tzinfo=UTC)
    assert exports.allow("10.0.0.1", False, now) is None
    assert exports.allow("10.0.0.1", False, now + timedelta(minutes=1)) is None
    refused = exports.allow("10.0.0.1", False, now + timedelta(minutes=2))
    assert refused is not None and refused.most == 2
    assert refused.retry_after == 58 * 60 + 1
    assert (
        "2 club records files" in refused.message and "59 minutes" in refused.message
    )  # rounded up
    assert exports.allow("10.0.0.2", False, now + timedelta(minutes=2)) is None  # another address
    assert exports.allow("10.0.0.1", False, now + timedelta(minutes=61)) is None  # the hour passed


def test_a_file_as_read_is_its_header_then_its_rows(club):
    game = played_at_the_table(club)
    text = "".join(exports.written_as_read("history", club, Filters()))
    assert text == history_file(club)
    assert text.startswith(records_history.HISTORY_HEADER)
    assert str(game.id) in text
