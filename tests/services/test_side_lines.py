"""services/side_lines.py: each side sends its own line of the next deal; the last saves it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.models import Deal, DealPart, Game
from scorekeeper.rules import DealEntry, Refusal
from scorekeeper.services import deals, games, live, side_lines, table_news
from scorekeeper.services.access import Level
from scorekeeper.services.game_view import game_view
from scorekeeper.services.side_lines import LaterLineKept, Line, LineKept, NoSuchSide

from ._support import ANN_AND_CAT, NOTHING, ONE_CLEAN, ONE_DIRTY, club_game, how_many, kept

TABLE = Level.TABLE
BOTH_OUT = {"books": {"clean": 2, "dirty": 2}, "went_out": True}
# Another phone sent Ann's line entered an hour ago; an earlier time than the server's now.
AN_HOUR_AGO = games.now() - timedelta(hours=1)


def lines_kept() -> list[tuple]:
    """Each line kept: (side, deal, entry, sent by, phone, version, problem)."""
    columns = (
        DealPart.side_position,
        DealPart.deal_number,
        DealPart.entry,
        DealPart.sent_by,
        DealPart.device,
        DealPart.version,
        DealPart.problem,
    )
    return [tuple(row) for row in kept(select(*columns).order_by(DealPart.side_position))]


def fresh_game(**more) -> Game:
    return games.start_game("club", ANN_AND_CAT, **more)


def send(game: Game, side: int, data, *, opened_for: int = 1, **more):
    return side_lines.send_line(game, TABLE, side, data, opened_for=opened_for, **more)


def test_a_line_is_kept_until_the_other_sides_are_in():
    game = fresh_game()
    live.say_entering(game.id, "phone-a", "Ann", 1)
    outcome = send(game, 0, ONE_CLEAN, device="phone-a", sent_by="Ann", entered_at=AN_HOUR_AGO)
    assert isinstance(outcome, LineKept)
    assert outcome.number == 1
    assert outcome.lines == [
        Line(0, "Ann", DealEntry(books={"clean": 1}), "Ann", True, None, AN_HOUR_AGO),
        Line(1, "Cat"),
    ]
    assert lines_kept() == [(0, 1, {"books": {"clean": 1}}, "Ann", "phone-a", 1, None)]
    assert how_many(Deal) == 0
    # Its line is in: the phone is no longer entering; the table's phones were told twice.
    assert kept(select(Game.live_version)) == [(3,)]
    assert live.table_state(game.id, None).entering == []


def test_the_last_line_in_saves_the_deal_once():
    game = fresh_game()
    send(game, 1, {"melded_points": 35}, sent_by="Cat")
    outcome = send(game, 0, ONE_CLEAN, sent_by="Ann")
    assert isinstance(outcome, deals.Saved)
    assert outcome.deal.number == 1
    scores = kept(select(Deal.number, Deal.version))
    assert scores == [(1, 1)]
    assert [s.total for s in games.get_game(game.id).deals[0].scores] == [500, 35]
    assert lines_kept() == []
    assert kept(select(Game.news)) == [(table_news.saved_news(1, "Ann"),)]


def test_a_phone_that_gives_no_name_is_someone_and_a_name_is_cleaned():
    game = fresh_game()
    send(game, 0, ONE_CLEAN)
    assert [sent_by for _, _, _, sent_by, *_ in lines_kept()] == ["Someone"]
    send(game, 0, ONE_DIRTY, sent_by=" Bob\u200b " + "b" * 50)
    assert [sent_by for _, _, _, sent_by, *_ in lines_kept()] == ["Bob " + "b" * 36]  # 40 at most


def test_below_the_tables_level_no_line_is_kept():
    game = fresh_game()
    outcome = side_lines.send_line(game, Level.READ, 0, ONE_CLEAN, opened_for=1)
    assert outcome == deals.NotAllowed(Level.TABLE)
    assert lines_kept() == []


@pytest.mark.parametrize("side", [2, -1])
def test_a_side_the_game_does_not_have_sends_no_line(side):
    game = fresh_game()
    assert send(game, side, ONE_CLEAN) == NoSuchSide(side)
    assert lines_kept() == []


def test_a_figure_refused_is_named_with_the_side():
    game = fresh_game()
    outcome = send(game, 1, {"books": {"clean": -1}})
    assert isinstance(outcome, deals.Refused)
    assert [(r.side, r.field, r.message) for r in outcome.refusals] == [
        (1, "books.clean", "Cat: Clean books cannot be negative (-1).")
    ]
    assert lines_kept() == []


def test_a_line_for_a_deal_not_reached_is_refused():
    game = fresh_game()
    outcome = send(game, 0, ONE_CLEAN, opened_for=2)
    assert outcome == deals.Refused(
        [Refusal(None, "deal", "There is no deal 2 yet: the next deal is 1.")]
    )
    assert lines_kept() == []


def test_a_line_for_a_deal_saved_meanwhile_is_not_kept_for_the_next():
    game = fresh_game()
    send(game, 1, NOTHING)
    deal = send(game, 0, ONE_CLEAN).deal
    # Sent again after its answer was lost: the deal saved holds this very line.
    assert send(game, 0, ONE_CLEAN) == deals.AlreadySaved(deal)
    # Another line for deal 1: it was saved without it.
    assert send(game, 0, ONE_DIRTY) == deals.SavedMeanwhile(1)
    assert lines_kept() == []
    assert how_many(Deal) == 1


def test_a_finished_game_takes_no_line():
    game = club_game(finished=True)
    outcome = send(game, 0, ONE_CLEAN, opened_for=5)
    assert outcome == deals.Ended(
        [Refusal(None, "deal", "The game is over: Ann won after deal 4. No deal can be added.")]
    )
    assert lines_kept() == []


def test_a_game_at_its_deal_limit_takes_no_line():
    game = games.start_game(
        "ten-thousand",
        [games.SideSetup("Us", ["Ann", "Bob"]), games.SideSetup("Them", ["Cat", "Dan"])],
        house_rules={"deal_limit": 2},
    )
    for _ in range(2):
        assert isinstance(deals.enter_deal(game, TABLE, [NOTHING, NOTHING]), deals.Saved)
    outcome = send(game, 0, ONE_CLEAN, opened_for=3)
    assert isinstance(outcome, deals.LimitReached)
    assert [r.message for r in outcome.refusals] == [
        "This game has reached its limit of 2 deals: no more deals can be entered. It has not "
        "ended by its rules, so it has no winner; start a new game to play on."
    ]
    assert lines_kept() == []


def test_the_same_line_again_from_the_same_phone_changes_nothing():
    game = fresh_game()
    send(game, 0, ONE_CLEAN, device="phone-a", sent_by="Ann")
    outcome = send(game, 0, ONE_CLEAN, device="phone-a", sent_by="Ann")
    assert isinstance(outcome, LineKept)
    assert lines_kept() == [(0, 1, {"books": {"clean": 1}}, "Ann", "phone-a", 1, None)]


def test_a_line_entered_later_replaces_the_sides_earlier_one():
    game = fresh_game()
    send(game, 0, ONE_CLEAN, device="phone-a", sent_by="Ann", entered_at=AN_HOUR_AGO)
    send(game, 0, ONE_DIRTY, device="phone-b", sent_by="Bob")
    assert lines_kept() == [(0, 1, {"books": {"dirty": 1}}, "Bob", "phone-b", 2, None)]


def test_a_line_entered_before_the_one_kept_is_refused_and_the_gap_told():
    game = fresh_game()
    later = AN_HOUR_AGO + timedelta(minutes=1)
    send(game, 0, ONE_DIRTY, device="phone-b", sent_by="Bob", entered_at=later)
    outcome = send(game, 0, ONE_CLEAN, device="phone-a", sent_by="Ann", entered_at=AN_HOUR_AGO)
    assert isinstance(outcome, LaterLineKept)
    assert (outcome.number, outcome.line.sent_by, outcome.yours) == (1, "Bob", AN_HOUR_AGO)
    assert outcome.message == (
        "Bob sent a line for Ann entered 1 minute after yours, so theirs is kept and yours was "
        "not. Send yours again to put it in place of theirs."
    )
    assert lines_kept() == [(0, 1, {"books": {"dirty": 1}}, "Bob", "phone-b", 1, None)]
    # Sent again now, it is the later one.
    assert isinstance(send(game, 0, ONE_CLEAN, device="phone-a", sent_by="Ann"), LineKept)
    assert lines_kept() == [(0, 1, {"books": {"clean": 1}}, "Ann", "phone-a", 2, None)]


def test_a_time_ahead_of_the_servers_counts_as_now():
    game = fresh_game()
    send(game, 0, ONE_CLEAN, device="phone-a", entered_at=games.now() + timedelta(days=1))
    # Entered a moment ago (after the first arrived, before its claimed time): it stands.
    assert isinstance(send(game, 0, ONE_DIRTY, device="phone-b"), LineKept)
    assert [entry for _, _, entry, *_ in lines_kept()] == [{"books": {"dirty": 1}}]


def test_a_line_that_cannot_stand_with_anothers_is_refused_and_the_other_flagged():
    game = fresh_game()
    send(game, 0, BOTH_OUT, device="phone-a", sent_by="Ann")
    outcome = send(game, 1, BOTH_OUT, device="phone-c", sent_by="Cat")
    message = "Only one side can go out; Ann and Cat both did."
    assert isinstance(outcome, deals.Refused)
    assert [(r.field, r.message) for r in outcome.refusals] == [("went_out", message)]
    assert lines_kept() == [(0, 1, BOTH_OUT, "Ann", "phone-a", 2, message)]
    assert how_many(Deal) == 0
    # Ann's side sends its line again, put right: the flag goes, Cat's line can come in.
    send(game, 0, ONE_CLEAN, device="phone-a", sent_by="Ann")
    assert lines_kept() == [(0, 1, {"books": {"clean": 1}}, "Ann", "phone-a", 3, None)]
    assert isinstance(send(game, 1, BOTH_OUT, device="phone-c", sent_by="Cat"), deals.Saved)


def test_the_lines_token_and_running_scores_follow_the_lines_in():
    game = fresh_game()
    # The read model's token, as the live corner of a game's pages carries it.
    assert game_view(game).lines_token == "1:"
    send(game, 1, {"melded_points": 35}, device="phone-c", sent_by="Cat")
    assert game_view(game).lines_token == "1:1.1"
    lines = side_lines.lines_of(game, "phone-c")
    assert [(line.side, line.is_in, line.mine) for line in lines] == [
        (0, False, False),
        (1, True, True),
    ]
    assert lines[1].as_json() == {
        "side": 1,
        "name": "Cat",
        "in": True,
        "sent_by": "Cat",
        "mine": True,
        "problem": None,
        "entry": {"melded_points": 35},
    }
    # A side not in counts as a blank line.
    assert [score.total for score in side_lines.running(game, lines)] == [0, 35]
