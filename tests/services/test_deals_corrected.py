"""services/deals.py: correcting a deal, every outcome and what it kept."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, MemberResult
from scorekeeper.rules import DealRefused, Refusal
from scorekeeper.services import deals, games, table_news
from scorekeeper.services.deals import (
    ChangedMeanwhile,
    LimitReached,
    NoSuchDeal,
    Refused,
    Saved,
)

from ._deals_support import (
    BOTH_OUT,
    ORGANISER,
    PAST_TEN_THOUSAND,
    TABLE,
    deals_kept,
    fresh_game,
    refused_as,
    saved,
    totals_kept,
)
from ._support import NOTHING, ONE_CLEAN, ONE_DIRTY, club_game, kept

# --- correcting a deal ------------------------------------------------------------------------


def test_a_correction_replaces_the_deal_and_tells_the_table_what_moved():
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    saved(deals.enter_deal(game, TABLE, [NOTHING, ONE_DIRTY]))
    deal = saved(
        deals.correct_deal(game, TABLE, 1, [{"books": {"clean": 2}}, NOTHING], 1, sent_by="Cat")
    )
    assert (deal.number, deal.version) == (1, 2)
    assert deals_kept() == [
        (1, 2, ({"books": {"clean": 2}}, 1000), ({}, 0)),
        (2, 1, ({}, 0), ({"books": {"dirty": 1}}, 300)),
    ]
    assert totals_kept() == [1000, 300]
    assert kept(select(Game.live_version, Game.news)) == [
        (3, table_news.corrected_news(1, 2, "Cat", [(0, "Ann", 500, 1000)]))
    ]


def test_a_correction_that_changes_nothing_is_no_conflict_and_keeps_the_version():
    game = fresh_game()
    first = saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    assert deals.correct_deal(game, TABLE, 1, [ONE_CLEAN, NOTHING], 1) == Saved(first)
    assert deals_kept() == [(1, 1, ({"books": {"clean": 1}}, 500), ({}, 0))]
    assert kept(select(Game.live_version)) == [(1,)]


def test_a_correction_made_to_an_older_version_is_refused():
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    saved(deals.correct_deal(game, TABLE, 1, [{"books": {"clean": 2}}, NOTHING], 1))
    outcome = deals.correct_deal(game, TABLE, 1, [ONE_DIRTY, NOTHING], 1)
    assert isinstance(outcome, ChangedMeanwhile)
    assert (outcome.deal.version, outcome.version) == (2, 1)
    assert outcome.message == (
        "Deal 1 was changed meanwhile (now version 2, the correction was made to version 1)."
    )
    assert deals_kept() == [(1, 2, ({"books": {"clean": 2}}, 1000), ({}, 0))]


def test_a_correction_without_a_version_replaces_whatever_is_saved():
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    saved(deals.correct_deal(game, TABLE, 1, [{"books": {"clean": 2}}, NOTHING], 1))
    saved(deals.correct_deal(game, TABLE, 1, [ONE_DIRTY, NOTHING], None))
    assert deals_kept() == [(1, 3, ({"books": {"dirty": 1}}, 300), ({}, 0))]


@pytest.mark.parametrize(
    ("version", "message"),
    [
        pytest.param(
            "",
            "This correction names no version of deal 1: open deal 1 again and make the "
            "correction there.",
            id="blank",
        ),
        pytest.param(
            "one",
            "This correction names version 'one', which is not a version: open deal 1 again and "
            "make the correction there.",
            id="text",
        ),
        pytest.param(
            True,
            "This correction names version True, which is not a version: open deal 1 again and "
            "make the correction there.",
            id="bool",
        ),
        pytest.param(
            "x" * 30,
            "This correction names version 'xxxxxxxxxxxxxxxx..., which is not a version: open deal "
            "1 again and make the correction there.",
            id="long",
        ),
    ],
)
def test_a_version_that_is_no_version_is_refused(version, message):
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    outcome = deals.correct_deal(game, TABLE, 1, [ONE_DIRTY, NOTHING], version)
    assert outcome == Refused([Refusal(None, "version", message)])
    assert deals_kept() == [(1, 1, ({"books": {"clean": 1}}, 500), ({}, 0))]


def test_a_version_no_deal_ever_had_is_a_conflict():
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    outcome = deals.correct_deal(game, TABLE, 1, [ONE_DIRTY, NOTHING], 2**31)
    assert isinstance(outcome, ChangedMeanwhile)
    assert outcome.message == (
        "Deal 1 was changed meanwhile (now version 1, the correction was made to version "
        "2147483648)."
    )
    assert deals_kept()[0][1] == 1


@pytest.mark.parametrize("number", [0, 2, -1])
def test_a_deal_the_game_does_not_have_is_not_corrected(number):
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    assert deals.correct_deal(game, TABLE, number, [ONE_DIRTY, NOTHING], 1) == NoSuchDeal(number)
    assert deals_kept() == [(1, 1, ({"books": {"clean": 1}}, 500), ({}, 0))]


def test_a_finished_club_games_deal_is_corrected_by_an_organiser_alone(club):
    # Issue 40: a club's finished game is locked once its sides agreed every deal (or the
    # club's hours after it ended, services/locking.py), no longer the moment it ends. This
    # one was kept with no history, which counts as agreed: locked. A table's phone is told
    # why; an organiser corrects it giving a reason.
    game = club_game(club, finished=True)
    both_clean = [ONE_CLEAN, ONE_CLEAN]
    locked = deals.correct_deal(game, TABLE, 4, both_clean, 1)
    assert isinstance(locked, deals.Locked), locked
    assert locked.message.startswith("Deal 4 of this club game is locked: ")
    assert totals_kept() == [2000, 0]
    saved(deals.correct_deal(game, ORGANISER, 4, both_clean, 1, reason="Cat's book was missed"))
    # Cat's clean book in deal 4: still over, Ann still the winner, 2,000 to 500.
    assert totals_kept() == [2000, 500]
    assert kept(select(Game.finished_at.is_not(None))) == [(True,)]
    assert kept(select(MemberResult.final_total).order_by("id")) == [(2000,), (500,)]


def test_a_correction_the_rules_refuse_changes_nothing():
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    outcome = deals.correct_deal(game, TABLE, 1, [BOTH_OUT, BOTH_OUT], 1)
    assert refused_as(outcome) == [
        (None, "went_out", "Only one side can go out; Ann and Cat both did.")
    ]
    assert deals_kept() == [(1, 1, ({"books": {"clean": 1}}, 500), ({}, 0))]


def test_a_correction_that_would_end_the_game_before_later_deals_is_refused():
    game = fresh_game("ten-thousand", decks=10)
    for _ in range(3):
        saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    outcome = deals.correct_deal(game, TABLE, 1, [PAST_TEN_THOUSAND, NOTHING], 1)
    assert refused_as(outcome) == [
        (
            None,
            "deal",
            "This correction would end the game after deal 1 (Us winning), but deals 2 to 3 "
            "already follow it.",
        )
    ]
    assert totals_kept() == [1500, 0]


def test_a_game_holding_more_deals_than_it_may_is_read_only():
    game = fresh_game("ten-thousand")
    for _ in range(3):
        saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    # A game from before its limit was lowered.
    db.session.execute(update(Game).values(house_rules={"deal_limit": 2}))
    db.session.commit()
    db.session.expire_all()
    game = games.get_game(game.id)
    why = Refusal(
        None,
        "deal",
        "This game holds 3 deals, more than the 2 a game may hold: its deals can be read but not "
        "corrected.",
    )
    assert deals.correction_refused(game) == why
    assert deals.correct_deal(game, TABLE, 1, [ONE_DIRTY, NOTHING], 1) == LimitReached([why])
    with pytest.raises(DealRefused) as refused:
        deals.preview_deal(game, games.entries_from([ONE_DIRTY, NOTHING], game), 1)
    assert refused.value.refusals == [why]
    assert totals_kept() == [1500, 0]
