"""services/deals.py: entering the next deal, every outcome and what it kept."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealPart, Game, MemberResult, Side
from scorekeeper.rules import Refusal
from scorekeeper.services import deals, table_news
from scorekeeper.services.access import Level
from scorekeeper.services.deals import (
    AlreadySaved,
    Ended,
    KeyReused,
    LimitReached,
    LinesArrived,
    NotAllowed,
    Refused,
    SavedMeanwhile,
)

from ._deals_support import (
    BOTH_OUT,
    TABLE,
    deals_kept,
    fresh_game,
    line_of,
    refused_as,
    saved,
    totals_kept,
)
from ._support import NOTHING, ONE_CLEAN, ONE_DIRTY, club_game, how_many, kept

# --- entering the next deal -------------------------------------------------------------------


def test_a_deal_entered_is_saved_with_its_figures_and_the_table_is_told():
    game = fresh_game()
    deal = saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], key="k-1", sent_by="Ann"))
    assert (deal.number, deal.version) == (1, 1)
    assert deals_kept() == [(1, 1, ({"books": {"clean": 1}}, 500), ({}, 0))]
    assert kept(select(Deal.idempotency_key, Deal.request_hash)) == [
        ("k-1", deals.request_hash([ONE_CLEAN, NOTHING]))
    ]
    assert kept(select(Side.final_total, Side.deals_played, Side.clean_books)) == [
        (500, 1, 1),
        (0, 1, 0),
    ]
    assert kept(select(Game.live_version, Game.news, Game.finished_at)) == [
        (1, table_news.saved_news(1, "Ann"), None)
    ]


def test_the_last_deal_ends_the_game_and_keeps_the_members_results(club):
    game = fresh_game(club=club)
    for _ in range(3):
        saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    assert how_many(MemberResult) == 0
    saved(deals.enter_deal(game, TABLE, [NOTHING, ONE_DIRTY]))
    assert kept(select(Game.finished_at.is_not(None))) == [(True,)]
    assert kept(select(MemberResult.final_total, MemberResult.won).order_by("id")) == [
        (1500, True),
        (300, False),
    ]


def test_the_sides_lines_go_when_the_deal_is_saved():
    game = fresh_game()
    db.session.add(line_of(game, side=1, number=1))
    db.session.commit()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], lines_seen="1:1.1"))
    assert how_many(DealPart) == 0


def test_below_the_tables_level_nothing_is_entered():
    game = fresh_game()
    assert deals.enter_deal(game, Level.READ, [ONE_CLEAN, NOTHING]) == NotAllowed(Level.TABLE)
    assert how_many(Deal) == 0


def test_a_key_that_is_no_key_is_refused():
    game = fresh_game()
    outcome = deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], key="two words")
    assert outcome == Refused(
        [
            Refusal(
                None,
                "Idempotency-Key",
                "Idempotency-Key must be 1 to 64 letters, digits or any of - _ . :",
            )
        ]
    )
    assert how_many(Deal) == 0


def test_the_same_submission_again_saves_nothing_more():
    game = fresh_game()
    first = saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], key="k-1"))
    again = deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], key="k-1")
    assert again == AlreadySaved(first)
    assert deals.deal_with_key(game, "k-1") is first
    assert len(deals_kept()) == 1


def test_a_key_used_for_other_figures_is_refused():
    game = fresh_game()
    first = saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], key="k-1"))
    outcome = deals.enter_deal(game, TABLE, [ONE_DIRTY, NOTHING], key="k-1")
    assert outcome == KeyReused(first, "k-1")
    assert outcome.message == (
        "This Idempotency-Key was already used for different figures: it saved deal 1. Nothing "
        "was saved; send these figures with a new key if they are another deal."
    )
    assert deals_kept() == [(1, 1, ({"books": {"clean": 1}}, 500), ({}, 0))]


def test_a_form_opened_for_a_deal_saved_meanwhile_saves_nothing():
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], opened_for=1))
    outcome = deals.enter_deal(game, TABLE, [ONE_DIRTY, NOTHING], opened_for=1)
    assert outcome == SavedMeanwhile(1)
    assert outcome.message == (
        "Another phone saved deal 1 a moment ago. Check the scoreboard, then enter this deal "
        "again if it is still missing."
    )
    assert len(deals_kept()) == 1


def test_a_form_for_a_deal_not_reached_is_refused():
    game = fresh_game()
    outcome = deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], opened_for=3)
    assert refused_as(outcome) == [(None, "deal", "There is no deal 3 yet: the next deal is 1.")]
    assert isinstance(outcome, Refused)
    assert how_many(Deal) == 0


def test_a_line_sent_since_the_form_was_opened_is_shown_not_saved_over():
    game = fresh_game()
    db.session.add(line_of(game, side=1, number=1, version=2))
    db.session.commit()
    assert deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], lines_seen="1:") == LinesArrived(
        1, "1:1.2"
    )
    # A form opened before an earlier deal knew of no line of this one.
    assert deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING], lines_seen="0:1.2") == (
        LinesArrived(1, "1:1.2")
    )
    assert how_many(Deal) == 0
    assert how_many(DealPart) == 1


def test_a_finished_game_takes_no_deal():
    game = club_game(finished=True)
    outcome = deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING])
    assert outcome == Ended(
        [Refusal(None, "deal", "The game is over: Ann won after deal 4. No deal can be added.")]
    )
    assert len(deals_kept()) == 4


def test_a_game_at_its_deal_limit_takes_no_deal_and_has_not_ended():
    game = fresh_game("ten-thousand", house_rules={"deal_limit": 2})
    for _ in range(2):
        saved(deals.enter_deal(game, TABLE, [NOTHING, NOTHING]))
    outcome = deals.enter_deal(game, TABLE, [NOTHING, NOTHING])
    assert outcome == LimitReached(
        [
            Refusal(
                None,
                "deal",
                "This game has reached its limit of 2 deals: no more deals can be entered. It "
                "has not ended by its rules, so it has no winner; start a new game to play on.",
            )
        ]
    )
    assert len(deals_kept()) == 2
    assert kept(select(Game.finished_at)) == [(None,)]


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        pytest.param(
            [{"books": {"wild": 1}}, NOTHING],
            [(0, "books.wild", "Ann: the Club individual rules have no wild book.")],
            id="no-wild-books-in-club",
        ),
        pytest.param(
            [BOTH_OUT, BOTH_OUT],
            [(None, "went_out", "Only one side can go out; Ann and Cat both did.")],
            id="both-went-out",
        ),
        pytest.param(
            [NOTHING],
            [(None, "scores", "Enter one score for each of the 2 sides.")],
            id="a-side-missing",
        ),
    ],
)
def test_figures_the_rules_refuse_save_nothing(scores, expected):
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    outcome = deals.enter_deal(game, TABLE, scores)
    assert isinstance(outcome, Refused)
    assert refused_as(outcome) == expected
    assert len(deals_kept()) == 1
    assert totals_kept() == [500, 0]
    assert kept(select(Game.live_version)) == [(1,)]
