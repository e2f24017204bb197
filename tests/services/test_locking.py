"""services/locking.py: a club's finished game locks once every side agreed every deal, or the
club's hours after it ended; then only an organiser corrects it, giving a reason the history
keeps. Standings and ratings follow; casual games keep their freedom."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, DealEvent, Game, MemberResult
from scorekeeper.plumbing.models.history import CORRECTION
from scorekeeper.services import access, agreement, deal_history, deals, games, locking, side_lines
from scorekeeper.services.access import Level
from scorekeeper.services.ratings import folding, refold

from ._support import ANN_AND_CAT, NOTHING, ONE_CLEAN, ONE_DIRTY, kept
from .test_ratings_kept import stored

TABLE, ORGANISER = Level.TABLE, Level.ORGANISER
ONLY = "Only an organiser may correct it now, giving a reason."


def played(club: Club | None, *, lines: bool = False) -> Game:
    """A game of four deals, Ann a clean book in each (2,000 to 0: over), entered at a table:
    each deal whole from a phone on no side, or each side's own line (its agreement)."""
    game = games.start_game("club", ANN_AND_CAT, club=club)
    for number in range(1, 5):
        if lines:
            side_lines.send_line(game, TABLE, 0, ONE_CLEAN, opened_for=number, sent_by="Ann")
            side_lines.send_line(game, TABLE, 1, NOTHING, opened_for=number, sent_by="Cat")
        else:
            deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], sent_by="Ann")
    assert game.finished_at is not None
    return game


def ended_ago(game: Game, hours: float) -> None:
    """The game ended `hours` ago (rather than waiting for it)."""
    game.finished_at = games.now() - timedelta(hours=hours)
    db.session.commit()


def totals() -> list[int]:
    return [row[0] for row in kept(select(MemberResult.final_total).order_by(MemberResult.id))]


def test_a_casual_game_never_locks_and_the_table_corrects_it_with_its_history():
    game = played(None)
    ended_ago(game, 24 * 400)
    assert locking.lock_of(game) is None
    assert access.needed_to_correct(game) is TABLE
    assert isinstance(
        deals.correct_deal(game, TABLE, 4, [ONE_CLEAN, ONE_DIRTY], 1, "Bob"), deals.Saved
    )
    assert kept(select(DealEvent.kind, DealEvent.by).where(DealEvent.kind == CORRECTION)) == [
        (CORRECTION, "Bob")
    ]


def test_a_finished_club_game_not_yet_agreed_stays_the_tables_until_the_clubs_hours(club):
    game = played(club)
    ended_ago(game, 23)
    assert locking.lock_of(game) is None
    assert access.needed_to_correct(game) is TABLE
    ended_ago(game, 25)
    lock = locking.lock_of(game)
    assert lock is not None and lock.why == locking.HOURS
    assert access.needed_to_correct(game) is ORGANISER
    assert lock.words(3).startswith("Deal 3 of this club game is locked: it ended on ")
    assert lock.words(3).endswith(
        ", and the club locks a finished game 24 hours after it ends. " + ONLY
    )


def test_a_club_of_no_hours_locks_a_game_as_soon_as_it_ends(club):
    club.lock_after_hours = 0
    db.session.commit()
    game = played(club)
    lock = locking.lock_of(game)
    assert lock is not None and "as soon as it ends" in lock.words(1)


def test_a_game_whose_sides_agreed_every_deal_locks_at_once(club):
    game = played(club, lines=True)
    assert all(d.agreed for d in agreement.agreement_of(game))
    lock = locking.lock_of(game)
    assert lock is not None and lock.why == locking.AGREEMENT
    day = deal_history.day_words(lock.since)
    assert (
        lock.words(3)
        == f"Deal 3 of this club game is locked: both sides agreed it on {day}. {ONLY}"
    )


def test_an_unfinished_club_game_is_never_locked(club):
    game = games.start_game("club", ANN_AND_CAT, club=club)
    side_lines.send_line(game, TABLE, 0, ONE_CLEAN, opened_for=1)
    side_lines.send_line(game, TABLE, 1, NOTHING, opened_for=1)
    assert all(d.agreed for d in agreement.agreement_of(game)) and locking.lock_of(game) is None


def test_a_locked_game_refuses_a_tables_correction_in_words_and_changes_nothing(club):
    game = played(club, lines=True)
    before = totals()
    outcome = deals.correct_deal(game, TABLE, 3, [ONE_CLEAN, ONE_DIRTY], 1, "Cat")
    assert isinstance(outcome, deals.Locked)
    assert outcome.message.startswith("Deal 3 of this club game is locked: both sides agreed it")
    assert totals() == before
    assert kept(select(DealEvent.id).where(DealEvent.kind == CORRECTION)) == []


@pytest.mark.parametrize(
    ("reason", "said"),
    [
        (None, "Give a reason for the correction"),
        ("   ", "Give a reason for the correction"),
        ("x" * 501, "reason is at most 500 characters"),
    ],
    ids=["none", "blank", "too-long"],
)
def test_an_organiser_corrects_a_locked_game_only_with_a_reason(club, reason, said):
    game = played(club, lines=True)
    outcome = deals.correct_deal(game, ORGANISER, 3, [ONE_CLEAN, ONE_DIRTY], 1, "olga", reason)
    assert isinstance(outcome, deals.Refused)
    assert [r.field for r in outcome.refusals] == ["reason"]
    assert said in outcome.refusals[0].message
    assert kept(select(DealEvent.id).where(DealEvent.kind == CORRECTION)) == []


def test_an_organisers_correction_is_kept_with_its_reason_and_the_game_stays_locked(club):
    game = played(club, lines=True)
    outcome = deals.correct_deal(
        game, ORGANISER, 4, [ONE_CLEAN, ONE_DIRTY], 1, "olga", "  Cat's dirty book was missed "
    )
    assert isinstance(outcome, deals.Saved)
    row = kept(select(DealEvent).where(DealEvent.kind == CORRECTION))[0][0]
    assert (row.by, row.device, row.reason) == ("olga", "organiser", "Cat's dirty book was missed")
    assert (row.before[1]["total"], row.after[1]["total"]) == (0, 300)
    # Standings follow: Cat's total is 300 now.
    assert totals() == [2000, 300]
    # Version 2 of deal 4 is not agreed yet, but the game locked once and stays locked.
    assert not all(d.agreed for d in agreement.agreement_of(game))
    assert locking.lock_of(game) is not None
    assert isinstance(
        deals.correct_deal(game, TABLE, 4, [ONE_CLEAN, NOTHING], 2, "Cat"), deals.Locked
    )
    words = deal_history.history_words(game)[4][-1]
    assert words.startswith("Corrected by olga (organiser), ")
    assert words.endswith(": Cat +0 \u2192 +300. Reason: Cat's dirty book was missed")


def test_after_an_organisers_correction_the_ratings_equal_a_fold_from_scratch(club):
    first = played(club, lines=True)
    played(club, lines=True)
    refold.fold_every_club()
    before = stored(club)
    # Cat wins the first game now: every deal corrected to her two clean books to Ann's one.
    both = {"books": {"clean": 2}}
    for number in range(1, 5):
        outcome = deals.correct_deal(
            first, ORGANISER, number, [ONE_CLEAN, both], None, "olga", "Sides swapped"
        )
        assert isinstance(outcome, deals.Saved), outcome
    refold.fold_every_club()
    db.session.rollback()
    assert stored(club) != before  # the correction moved the ratings
    assert folding.recompute_club(club, dry_run=True) == 0  # as a fold from scratch has them
