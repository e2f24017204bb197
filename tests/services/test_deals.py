"""services/deals.py: entering the next deal and correcting one, every outcome and what it kept."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealPart, DealScore, Game, MemberResult, Side
from scorekeeper.rules import DealRefused, Refusal
from scorekeeper.services import deals, games, live
from scorekeeper.services.access import Level
from scorekeeper.services.deals import (
    AlreadySaved,
    ChangedMeanwhile,
    Ended,
    KeyReused,
    LimitReached,
    LinesArrived,
    NoSuchDeal,
    NotAllowed,
    Refused,
    Saved,
    SavedMeanwhile,
)

from ._support import ANN_AND_CAT, NOTHING, ONE_CLEAN, ONE_DIRTY, TEAMS, club_game, how_many, kept

TABLE, ORGANISER = Level.TABLE, Level.ORGANISER
BOTH_OUT = {"books": {"clean": 2, "dirty": 2}, "went_out": True}
# Ten thousand: 3×500 + 300 + 6×1500 + 100 for going out is 10,900, past the target at once.
PAST_TEN_THOUSAND = {"books": {"clean": 3, "dirty": 1, "wild": 6}, "went_out": True}


def fresh_game(ruleset: str = "club", **more) -> Game:
    sides = ANN_AND_CAT if ruleset == "club" else TEAMS
    return games.start_game(ruleset, sides, **more)


def saved(outcome) -> Deal:
    assert isinstance(outcome, Saved), outcome
    return outcome.deal


def deals_kept() -> list[tuple]:
    """Each deal kept: (number, version, each side's entry and total in order)."""
    rows = kept(
        select(Deal.number, Deal.version, DealScore.entry, DealScore.total)
        .join(DealScore.deal)
        .order_by(Deal.number, DealScore.side_position)
    )
    found: dict[int, tuple] = {}
    for number, version, entry, total in rows:
        found.setdefault(number, (number, version))
        found[number] += ((entry, total),)
    return list(found.values())


def totals_kept() -> list[int]:
    return [total for (total,) in kept(select(Side.final_total).order_by(Side.id))]


def refused_as(outcome) -> list[tuple]:
    """A refusal's reasons as (side, field, message)."""
    return [(r.side, r.field, r.message) for r in outcome.refusals]


def line_of(game: Game, side: int, number: int, version: int = 1) -> DealPart:
    """A side's own line of a deal, as a phone would have sent it."""
    return DealPart(
        game_id=game.id,
        side_position=side,
        deal_number=number,
        entry={},
        sent_by="Cat",
        entered_at=datetime(2025, 3, 4, 12, tzinfo=UTC),
        version=version,
    )


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
        (1, live.saved_news(1, "Ann"), None)
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
        (3, live.corrected_news(1, 2, "Cat", [(0, "Ann", 500, 1000)]))
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
    game = club_game(club, finished=True)
    both_clean = [ONE_CLEAN, ONE_CLEAN]
    assert deals.correct_deal(game, TABLE, 4, both_clean, 1) == NotAllowed(ORGANISER)
    assert totals_kept() == [2000, 0]
    saved(deals.correct_deal(game, ORGANISER, 4, both_clean, 1))
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
