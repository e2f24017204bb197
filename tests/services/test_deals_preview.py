"""services/deals.py: what a deal would score, the lines in, the checks a form and a line share."""

from __future__ import annotations

import pytest

from scorekeeper.plumbing.db import db
from scorekeeper.rules import DealRefused, Refusal
from scorekeeper.services import deals, games
from scorekeeper.services.deals import AlreadySaved, Ended, LimitReached, Refused, SavedMeanwhile

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
from ._support import NOTHING, ONE_CLEAN, ONE_DIRTY, club_game

# --- what a deal would score, and the lines in ------------------------------------------------


def test_a_preview_scores_without_saving():
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    entries = games.entries_from([ONE_DIRTY, {"melded_points": 35}], game)
    next_one = deals.preview_deal(game, entries)
    assert (next_one.number, [s.total for s in next_one.scores], next_one.totals) == (
        2,
        [300, 35],
        [800, 35],
    )
    again = deals.preview_deal(game, entries, 1)
    assert (again.number, [s.total for s in again.scores]) == (1, [300, 35])
    assert len(deals_kept()) == 1
    with pytest.raises(DealRefused):
        deals.preview_deal(game, games.entries_from([BOTH_OUT, BOTH_OUT], game))


def test_lines_in_are_the_sides_lines_of_that_deal():
    game = fresh_game()
    db.session.add_all([line_of(game, side=1, number=1), line_of(game, side=0, number=2)])
    db.session.commit()
    assert list(deals.lines_in(game, 1)) == [1]
    assert list(deals.lines_in(game, 2)) == [0]
    assert deals.lines_in(game, 3) == {}


# --- the checks a form and a side's line share ------------------------------------------------


def test_no_deal_now_says_why_a_game_takes_no_deal():
    game = fresh_game("ten-thousand", house_rules={"deal_limit": 2})
    assert deals.no_deal_now(game) is None
    for _ in range(2):
        saved(deals.enter_deal(game, TABLE, [NOTHING, NOTHING]))
    closed = deals.no_deal_now(game)
    assert isinstance(closed, LimitReached)
    assert closed.refusals[0].message.startswith("This game has reached its limit of 2 deals")
    over = club_game(finished=True)
    assert deals.no_deal_now(over) == Ended(
        [Refusal(None, "deal", "The game is over: Ann won after deal 4. No deal can be added.")]
    )


def test_an_ended_game_at_its_limit_too_is_said_to_be_over():
    game = club_game(finished=True, house_rules={"deal_limit": 4})
    assert isinstance(deals.no_deal_now(game), Ended)


def test_stale_number_for_the_next_deal_a_later_one_and_one_saved_meanwhile():
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    so_far = games.progress_of(game)
    assert deals.stale_number(game, so_far, 2) is None
    assert deals.stale_number(game, so_far, None) is None
    assert deals.stale_number(game, so_far, 4) == Refused(
        [Refusal(None, "deal", "There is no deal 4 yet: the next deal is 2.")]
    )
    assert deals.stale_number(game, so_far, 1) == SavedMeanwhile(1)
    # A side's line sent again after its answer was lost: deal 1 holds that very line.
    ann_clean = (0, games.entries_from([ONE_CLEAN, NOTHING], game)[0])
    assert deals.stale_number(game, so_far, 1, ann_clean) == AlreadySaved(game.deals[0])
    cat_clean = (1, games.entries_from([NOTHING, ONE_CLEAN], game)[1])
    assert deals.stale_number(game, so_far, 1, cat_clean) == SavedMeanwhile(1)


def test_save_next_deal_scores_on_top_of_the_game_so_far():
    game = fresh_game()
    saved(deals.enter_deal(game, TABLE, [ONE_CLEAN, NOTHING]))
    deals.lock(game)
    deal = saved(deals.save_next_deal(game, games.progress_of(game), [NOTHING, ONE_DIRTY]))
    assert deal.number == 2
    assert totals_kept() == [500, 300]
    deals.lock(game)
    outcome = deals.save_next_deal(game, games.progress_of(game), [BOTH_OUT, BOTH_OUT])
    assert refused_as(outcome) == [
        (None, "went_out", "Only one side can go out; Ann and Cat both did.")
    ]
    assert len(deals_kept()) == 2


def test_a_pages_key_is_kept_if_this_app_made_it_else_a_fresh_one():
    mine = "0123456789abcdef0123456789abcdef"
    assert deals.form_key(mine) == mine
    for sent in (None, "", mine.upper(), mine + "0", "k-1"):
        fresh = deals.form_key(sent)
        assert deals.FORM_KEY.fullmatch(fresh) and fresh != sent
    assert deals.form_key(None) != deals.form_key(None)
