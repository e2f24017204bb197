"""services/deal_history.py: every way a deal is entered or changed leaves one history entry
(who, when, how, the figures before and after), plus the agreements that came with it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import DealEvent, Game
from scorekeeper.plumbing.models.history import AGREED, CORRECTION, IMPORT, LINES, WHOLE
from scorekeeper.services import agreement, deal_history, deals, games, side_lines
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup

from ._support import ANN_AND_CAT, NOTHING, ONE_CLEAN, ONE_DIRTY, club_game, kept

TABLE = Level.TABLE
PHONE_A, PHONE_B = "a" * 32, "b" * 32
TEAMS = [SideSetup("Us", ["Ann", "Bob"]), SideSetup("Them", ["Cat", "Dan"])]


def history() -> list[tuple]:
    """Every event kept: (deal, version, kind, side, by, device, before, after, reason)."""
    columns = (
        DealEvent.deal_number,
        DealEvent.deal_version,
        DealEvent.kind,
        DealEvent.side_position,
        DealEvent.by,
        DealEvent.device,
        DealEvent.before,
        DealEvent.after,
        DealEvent.reason,
    )
    return [tuple(row) for row in kept(select(*columns).order_by(DealEvent.id))]


def figures(*pairs: tuple[dict, int]) -> list[dict]:
    return [{"entry": entry, "total": total} for entry, total in pairs]


def fresh(setup=ANN_AND_CAT) -> Game:
    return games.start_game("club" if setup is ANN_AND_CAT else "classic", setup)


def test_a_whole_deal_leaves_one_entry_with_who_how_when_and_its_figures():
    game = fresh()
    before = datetime.now(UTC)
    outcome = deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], sent_by="Ann", device=PHONE_A)
    assert isinstance(outcome, deals.Saved)
    after = figures(({"books": {"clean": 1}}, 500), ({}, 0))
    assert history() == [(1, 1, WHOLE, None, "Ann", PHONE_A, None, after, None)]
    moment = deal_history.in_utc(kept(select(DealEvent.at))[0][0])
    assert before - timedelta(seconds=1) <= moment <= datetime.now(UTC)
    # No side said: nobody's agreement came with it, so each side is asked.
    assert agreement.agreement_of(game)[0].sides == (agreement.WAITING, agreement.WAITING)


def test_a_whole_deal_from_a_phone_on_a_side_is_that_sides_agreement():
    game = fresh()
    deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], sent_by="Cat", side=1, device=PHONE_B)
    assert [row[2:6] for row in history()] == [
        (WHOLE, None, "Cat", PHONE_B),
        (AGREED, 1, "Cat", PHONE_B),
    ]
    assert agreement.agreement_of(game)[0].sides == (agreement.WAITING, agreement.AGREES)


def test_no_name_is_someone_and_a_device_not_a_phones_id_is_not_kept():
    game = fresh()
    deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], device="not-a-phone")
    assert [row[2:6] for row in history()] == [(WHOLE, None, "Someone", None)]


def test_a_side_that_is_none_of_the_games_is_refused_and_nothing_kept():
    game = fresh()
    outcome = deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], side=2)
    assert isinstance(outcome, deals.Refused)
    assert outcome.refusals[0].field == "side"
    assert "0 to 1" in outcome.refusals[0].message
    assert history() == []


def test_a_refused_deal_and_a_replayed_one_leave_nothing_more():
    game = fresh()
    both_out = {"books": {"clean": 2, "dirty": 2}, "went_out": True}
    assert isinstance(deals.enter_deal(game, TABLE, [both_out, both_out]), deals.Refused)
    assert history() == []
    deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], "key-1")
    replay = deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], "key-1")
    assert isinstance(replay, deals.AlreadySaved)
    assert len(history()) == 1


def test_the_sides_own_lines_leave_one_entry_and_each_sides_agreement():
    game = fresh()
    send = side_lines.send_line
    send(game, TABLE, 0, ONE_CLEAN, opened_for=1, device=PHONE_A, sent_by="Ann")
    assert history() == []  # a line alone is no deal
    send(game, TABLE, 1, ONE_DIRTY, opened_for=1, device=PHONE_B, sent_by="Cat")
    after = figures(({"books": {"clean": 1}}, 500), ({"books": {"dirty": 1}}, 300))
    assert history() == [
        (1, 1, LINES, None, "Cat", PHONE_B, None, after, None),
        (1, 1, AGREED, 0, "Ann", PHONE_A, None, None, None),
        (1, 1, AGREED, 1, "Cat", PHONE_B, None, None, None),
    ]
    assert all(d.agreed for d in agreement.agreement_of(game))


def test_a_correction_keeps_the_figures_before_and_after_and_asks_the_sides_again():
    game = fresh(TEAMS)
    deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], sent_by="Ann", side=0)
    outcome = deals.correct_deal(game, TABLE, 1, [ONE_CLEAN, ONE_DIRTY], 1, "Bob")
    assert isinstance(outcome, deals.Saved)
    before = figures(({"books": {"clean": 1}}, 500), ({}, 0))
    after = figures(({"books": {"clean": 1}}, 500), ({"books": {"dirty": 1}}, 300))
    assert history()[-1] == (1, 2, CORRECTION, None, "Bob", None, before, after, None)
    # Us agreed version 1; version 2 is asked again.
    assert agreement.agreement_of(game)[0].sides == (agreement.WAITING, agreement.WAITING)
    words = deal_history.history_words(game)[1]
    assert words[0].startswith("Entered by Ann, ") and words[0].endswith(" UTC, whole deal")
    assert words[1].startswith("Agreed by Ann for Us, ")
    assert words[2].startswith("Corrected by Bob, ")
    assert words[2].endswith(": Them +0 \u2192 +300")


def test_a_correction_that_changes_nothing_and_a_refused_one_leave_nothing():
    game = fresh()
    deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING])
    assert isinstance(deals.correct_deal(game, TABLE, 1, [ONE_CLEAN, NOTHING], 1), deals.Saved)
    both_out = {"books": {"clean": 2, "dirty": 2}, "went_out": True}
    assert isinstance(deals.correct_deal(game, TABLE, 1, [both_out, both_out], 1), deals.Refused)
    assert [row[2] for row in history()] == [WHOLE]


def test_an_imported_game_has_one_import_entry_a_deal_and_counts_as_agreed(club):
    game = club_game(club, finished=True)
    deal_history.imported(game)
    db.session.commit()
    rows = history()
    assert [row[:5] for row in rows] == [
        (n, 1, IMPORT, None, "the club's records") for n in (1, 2, 3, 4)
    ]
    assert rows[0][7] == figures(({"books": {"clean": 1}}, 500), ({}, 0))
    words = deal_history.history_words(game)[1]
    assert len(words) == 1 and words[0].startswith("Imported from the club's records, ")


def test_the_words_of_each_kind():
    at = datetime(2026, 12, 2, 14, 32, tzinfo=UTC)
    names = ["Us", "Them"]
    day = at.date()

    def said(**values) -> str:
        row = DealEvent(deal_number=1, deal_version=1, side_position=None, at=at, **values)
        return deal_history.words_of(row, names, day)

    assert said(kind=WHOLE, by="Ann") == "Entered by Ann, 14:32 UTC, whole deal"
    assert said(kind=LINES, by="Cat") == "Entered by Cat, 14:32 UTC, from each side's own line"
    before = figures(({}, 0), ({"books": {"clean": 2}}, 1355))
    after = figures(({}, 0), ({"books": {"clean": 2}}, 1390))
    assert (
        said(kind=CORRECTION, by="Bob", before=before, after=after)
        == "Corrected by Bob, 14:32 UTC: Them +1,355 \u2192 +1,390"
    )
    later = DealEvent(
        deal_number=1,
        deal_version=3,
        kind=CORRECTION,
        by="Carol",
        device=deal_history.BY_ORGANISER,
        at=at + timedelta(days=1),
        before=after,
        after=before,
        reason="Books miscounted",
    )
    assert deal_history.words_of(later, names, day) == (
        "Corrected by Carol (organiser), 3 Dec, 14:32 UTC: Them +1,390 \u2192 +1,355. "
        "Reason: Books miscounted"
    )
    agreed = DealEvent(deal_number=1, deal_version=1, kind=AGREED, side_position=1, by="Cat", at=at)
    assert deal_history.words_of(agreed, names, day) == "Agreed by Cat for Them, 14:32 UTC"


def test_entering_a_deal_adds_one_plain_insert_and_no_read_of_the_history():
    game = fresh()
    games.progress_of(game)
    seen: list[str] = []

    def note(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement.lower())

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], sent_by="Ann", side=0)
    finally:
        event.remove(db.engine, "before_cursor_execute", note)
    touching = [s for s in seen if "deal_event" in s]
    assert len(touching) == 1 and touching[0].startswith("insert into deal_event"), touching
    assert len(history()) == 2  # the entry and Us's agreement, in that one statement


@pytest.mark.parametrize("reason", [7, "x" * 501])
def test_a_reason_that_cannot_be_kept_is_refused_in_words(reason):
    problem = deal_history.reason_problem(reason)
    assert problem is not None and problem.startswith("reason is ")
    assert deal_history.reason_problem("  The books were miscounted  ") is None
