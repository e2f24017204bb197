"""Ratings folded off the save path (issue 39): a save only marks what changed, in its own
transaction; the fold runs after the commit, one folder a club at a time, and whatever stops
it, the marks it leaves are folded again to the ratings a fold from scratch gives.
"""

from __future__ import annotations

import threading
import time
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import event, select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, RatingFold, RatingMark
from scorekeeper.services import clubs, deals
from scorekeeper.services.access import Level
from scorekeeper.services.ratings import folder, folding, kept, refold

from ._support import NOTHING, ONE_CLEAN
from .test_ratings_kept import GAMES, WHY, folded, play, stored


@pytest.fixture
def four(club: Club) -> Club:
    """The club with four members: Ann and Cat, Bob and Dan; and Eve, who sits out."""
    for name in ("Bob", "Dan", "Eve"):
        clubs.add_member(club, name)
    return club


@pytest.fixture
def unfolded(app):
    """This app folds nothing itself (`RATINGS_FOLD` off): a test folds when it says."""
    app.config["RATINGS_FOLD"] = "off"
    yield app
    app.config.pop("RATINGS_FOLD")


def marks(club: Club) -> list[RatingMark]:
    db.session.rollback()
    query = select(RatingMark).where(RatingMark.club_id == club.id)
    return list(db.session.execute(query).scalars())


def statements_during(action) -> list[str]:
    """The SQL `action` runs, lower-cased."""
    seen: list[str] = []

    def note(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement.lower())

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        action()
    finally:
        event.remove(db.engine, "before_cursor_execute", note)
    return seen


def test_a_correction_of_the_oldest_game_writes_no_rating_only_a_mark(unfolded, four):
    first = play(four, *GAMES[0])
    for sides, winner in GAMES[1:]:
        play(four, sides, winner)
    refold.fold_every_club()
    before = stored(four)
    seen = statements_during(
        lambda: deals.correct_deal(first, Level.ORGANISER, 1, [NOTHING, ONE_CLEAN], None, None, WHY)
    )
    touched = [s for s in seen if "rating_step" in s or "rating " in s or "rating\n" in s]
    assert not [s for s in touched if not s.startswith("select")], touched
    assert not any(s.startswith("insert into rating_step") for s in seen)
    assert [mark.game_id for mark in marks(four)] == [first.id]
    assert kept.updating(four.id)
    assert stored(four) == before  # nothing folded yet
    assert refold.fold_every_club() == 1
    assert not kept.updating(four.id) and not marks(four)
    assert kept.recompute_club(four) == 0


def test_a_fold_that_fails_keeps_the_save_and_its_marks_and_the_next_fold_puts_it_right(
    four, monkeypatch
):
    play(four, *GAMES[0])
    play(four, *GAMES[1])
    fold = folding._fold
    failures = []

    def fails_once(club_id, scope, games_, state, first):
        if not failures:
            failures.append(scope)
            raise RuntimeError("the database went away")
        return fold(club_id, scope, games_, state, first)

    monkeypatch.setattr(folding, "_fold", fails_once)
    game = play(four, *GAMES[2])  # the save answers, kept, whatever its fold did
    assert failures and game.id is not None
    assert stored(four) == folded(GAMES[:2]) and kept.updating(four.id)
    refold.fold_every_club()
    assert stored(four) == folded(GAMES[:3]) and not kept.updating(four.id)
    assert kept.recompute_club(four) == 0


def test_a_fold_cut_short_between_batches_is_finished_by_the_next(unfolded, four, monkeypatch):
    for sides, winner in GAMES:
        play(four, sides, winner, played_on=date(2026, 3, 12))
    play(four, *GAMES[0], played_on=date(2026, 3, 1))  # first in the order: every step moves
    monkeypatch.setattr(refold, "BATCH", 3)
    batches = refold._batch
    written = []

    def killed_after_two(club_id, holder):
        if len(written) == 2:
            raise SystemExit("killed")
        written.append(club_id)
        return batches(club_id, holder)

    monkeypatch.setattr(refold, "_batch", killed_after_two)
    with pytest.raises(SystemExit):
        refold.fold_every_club()
    assert kept.updating(four.id)
    monkeypatch.setattr(refold, "_batch", batches)
    refold.fold_every_club()
    assert not kept.updating(four.id)
    assert stored(four) == folded([GAMES[0], *GAMES])
    assert kept.recompute_club(four) == 0


def test_one_folder_a_club_at_a_time_and_a_lease_left_by_a_killed_one_runs_out(unfolded, four):
    play(four, *GAMES[0])
    unfolded.config["RATINGS_FOLD_LEASE"] = 0.5
    assert refold._take(four.id, "killed")  # a folder that was killed holding the club
    assert refold.fold_club(four.id) is False and kept.updating(four.id)
    held_until = db.session.get(RatingFold, four.id).until
    deadline = time.monotonic() + 10
    while refold.fold_club(four.id) is False:
        assert time.monotonic() < deadline, f"the lease to {held_until} never ran out"
        time.sleep(0.1)
    assert not kept.updating(four.id) and stored(four) == folded(GAMES[:1])
    assert db.session.get(RatingFold, four.id) is None  # given back


def test_a_folder_whose_lease_was_taken_over_while_it_computed_writes_nothing(
    unfolded, four, monkeypatch
):
    """Its lease ran out while it computed and another folder took the club and folded it:
    the first finds that out at its first write and stops, and the ratings are the second's."""
    for sides, winner in GAMES[:3]:
        play(four, sides, winner)
    planned = refold._planned
    taken_over = []

    def slow_compute(club_id, marks):
        found = planned(club_id, marks)
        if not taken_over:
            taken_over.append(True)
            # As if the lease had run out meanwhile: another folder takes the club, folds it.
            db.session.execute(update(RatingFold).values(until=datetime(2000, 1, 1, tzinfo=UTC)))
            db.session.commit()
            assert refold.fold_club(four.id) is True
        return found

    monkeypatch.setattr(refold, "_planned", slow_compute)
    assert refold.fold_club(four.id) is False
    assert not kept.updating(four.id) and db.session.get(RatingFold, four.id) is None
    assert stored(four) == folded(GAMES[:3]) and kept.recompute_club(four) == 0


def test_a_save_between_a_folds_reading_and_writing_is_folded_in_the_next_pass(
    app, four, monkeypatch
):
    """Another table finishes a game of an earlier day while the fold is computing: the fold
    writes what it computed, the other's mark stays, and the fold's next pass folds it."""
    play(four, *GAMES[0], played_on=date(2026, 3, 10))
    app.config["RATINGS_FOLD"] = "off"
    play(four, *GAMES[1], played_on=date(2026, 3, 12))
    write = refold._write
    failures: list[BaseException] = []
    slug = four.slug  # read here: in the other thread it would begin this session's transaction

    def another_table(*args):
        if not failures:
            thread = threading.Thread(target=finish)
            thread.start()
            thread.join(30)
        write(*args)

    def finish():
        try:
            with app.app_context():
                play(clubs.club_by_slug(slug), *GAMES[2], played_on=date(2026, 3, 11))
                db.session.remove()
        except BaseException as exc:  # noqa: BLE001 - reported below, in the test's thread
            failures.append(exc)
        failures.append(None)

    monkeypatch.setattr(refold, "_write", another_table)
    refold.fold_every_club()
    assert failures == [None]
    assert stored(four) == folded([GAMES[0], GAMES[2], GAMES[1]])
    assert not kept.updating(four.id) and kept.recompute_club(four) == 0
    app.config.pop("RATINGS_FOLD")


def test_the_folding_thread_folds_after_the_save_has_answered(app, four):
    app.config["RATINGS_FOLD"] = "thread"
    try:
        club_id = four.id
        play(four, *GAMES[0])
        play(four, *GAMES[1])
        deadline = time.monotonic() + 20
        while kept.updating(club_id):
            # Each look in a transaction of its own, ended before the next: on SQLite a test's
            # session left open would hold the write lock the folding thread needs.
            db.session.rollback()
            assert time.monotonic() < deadline, "the folding thread never folded"
            time.sleep(0.05)
        assert stored(four) == folded(GAMES[:2]) and kept.recompute_club(four) == 0
        assert folder.folder_of(app)._thread.is_alive()
    finally:
        app.config.pop("RATINGS_FOLD")


@pytest.mark.parametrize(
    "mode, testing, expected",
    [
        ("", True, "at_once"),
        ("", False, "thread"),
        ("nonsense", False, "thread"),
        ("off", 0, "off"),
    ],
)
def test_a_testing_app_folds_at_once_and_any_other_in_a_thread_unless_told(
    app, mode, testing, expected
):
    app.config["RATINGS_FOLD"] = mode
    app.testing = bool(testing)
    try:
        assert folder.mode_of(app) == expected
    finally:
        app.testing = True
        app.config.pop("RATINGS_FOLD")
