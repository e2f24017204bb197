"""services/game_view.py: one read model of a game, read by the scoreboard, the API and the scorer.

Figures worked out by hand from the classic partnership preset: a clean book 500, a dirty one
300, card points as melded; opening minimums by deal number, 50, 90, 120, 150.
"""

from __future__ import annotations

import pytest
from sqlalchemy import update

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.rules import DealEntry
from scorekeeper.services import deals, games, side_lines
from scorekeeper.services.access import Level
from scorekeeper.services.game_view import Dealer, NextGame, SideView, game_view
from scorekeeper.services.names import SOMEONE
from scorekeeper.services.scorer import scorer_state
from scorekeeper.services.side_lines import Line

from ._support import ONE_CLEAN, TEAMS, entries

# Deal 1: Us 500 + 60 = 560, Them 20 (below the 50 to open: a warning).
DEAL_1 = entries({"books": {"clean": 1}, "melded_points": 60}, {"melded_points": 20})
# Deal 2: Us 100, Them 300 + 95 = 395.
DEAL_2 = entries({"melded_points": 100}, {"books": {"dirty": 1}, "melded_points": 95})
# An evening's house rules that end nothing before the deals run out.
PLAY_ON = {"end_after_deals": None, "target_score": 100_000}


def two_deals(first_dealer: int = 0, **house_rules) -> Game:
    """Us and Them, two deals in, the game going on (unless its house rules say otherwise)."""
    game = games.record_game(
        "classic", TEAMS, [DEAL_1, DEAL_2], house_rules={**PLAY_ON, **house_rules}
    )
    # A recorded game's first dealer is the first seat; a table chooses another before deal 1.
    game.first_dealer = first_dealer
    db.session.commit()
    return game


def fresh(game: Game) -> Game:
    """The game as a new request reads it: nothing this test worked out kept on it."""
    game_id = game.id
    db.session.remove()
    found = games.get_game(game_id)
    assert found is not None
    return found


def test_the_table_as_set_up_and_every_deal_as_entered():
    view = game_view(two_deals(first_dealer=1))
    assert view.rules == games.rules_of(view.game)
    assert view.decks == 5
    assert view.sides == [SideView(0, "Us", ["Ann", "Bob"]), SideView(1, "Them", ["Cat", "Dan"])]
    # Partners apart: each side's first player, then each side's second.
    assert view.seats == [
        engine.Seat(0, "Ann"),
        engine.Seat(1, "Cat"),
        engine.Seat(0, "Bob"),
        engine.Seat(1, "Dan"),
    ]
    assert view.first_dealer == 1
    assert view.entries == [
        [{"books": {"clean": 1}, "melded_points": 60}, {"melded_points": 20}],
        [{"melded_points": 100}, {"books": {"dirty": 1}, "melded_points": 95}],
    ]


def test_where_the_game_stands_totals_minimums_and_who_deals():
    view = game_view(two_deals(first_dealer=1))
    assert view.totals == [660, 415]
    # Deal 3's minimum, whatever the totals.
    assert view.next_minimums == [120, 120]
    assert (view.finished, view.winners, view.closed, view.deal_limit_reached) == (
        False,
        [],
        None,
        False,
    )
    assert view.next_deal == 3
    # From Cat's seat (1), one seat to the left each deal: Cat, Bob, then Dan deals deal 3.
    assert view.dealers == [Dealer(1, 1, "Cat"), Dealer(2, 0, "Bob"), Dealer(3, 1, "Dan")]
    assert view.next_dealer == Dealer(3, 1, "Dan")
    assert view.frozen is None


def test_a_deal_with_its_scores_totals_minimum_warnings_and_figures():
    view = game_view(two_deals())
    first, second = view.deals(1, 2)
    assert (first.number, first.version, first.dealer) == (1, 1, Dealer(0, 0, "Ann"))
    assert [score.total for score in first.scores] == [560, 20]
    assert [(score.books, score.cards) for score in first.scores] == [(500, 60), (0, 20)]
    assert (first.totals, first.minimums) == ([560, 20], [50, 50])
    assert first.warnings == ["Them melded 20, below the 50 needed to open: check."]
    assert first.entries == [{"books": {"clean": 1}, "melded_points": 60}, {"melded_points": 20}]
    assert (second.number, second.dealer) == (2, Dealer(1, 1, "Cat"))
    assert [score.total for score in second.scores] == [100, 395]
    assert (second.totals, second.minimums, second.warnings) == ([660, 415], [90, 90], [])
    assert view.deal(2) == second


@pytest.mark.parametrize(
    ("first", "last", "numbers"),
    [(1, 1, [1]), (2, 20, [2]), (0, 99, [1, 2]), (3, 22, []), (2, 1, [])],
)
def test_a_page_of_deals_holds_only_deals_the_game_has(first, last, numbers):
    view = game_view(two_deals())
    assert [deal.number for deal in view.deals(first, last)] == numbers


def test_a_corrected_deal_shows_its_new_version():
    game = two_deals()
    outcome = deals.correct_deal(game, Level.TABLE, 1, [ONE_CLEAN, {"melded_points": 55}], 1)
    assert isinstance(outcome, deals.Saved)
    view = game_view(fresh(game))
    assert (view.deal(1).version, view.deal(2).version) == (2, 1)
    assert view.totals == [600, 450]


def test_a_finished_game_has_its_winner_and_takes_no_deal():
    game = games.record_game("classic", TEAMS, [DEAL_1], house_rules={"end_after_deals": 1})
    view = game_view(game)
    assert (view.finished, view.winners, view.totals) == (True, [view.sides[0]], [560, 20])
    assert isinstance(view.closed, deals.Ended)
    assert [r.message for r in view.closed.refusals] == [
        "The game is over: Us won after deal 1. No deal can be added."
    ]
    assert (view.next_deal, view.next_dealer, view.lines, view.running) == (None, None, [], None)
    # Who would deal next: the next game's first dealer (Play again).
    assert view.dealers[-1] == Dealer(1, 1, "Cat")
    assert view.deal_limit_reached is False
    assert view.next_game is None


def test_a_shared_win_names_every_winner():
    same = entries({"melded_points": 50}, {"melded_points": 50})
    game = games.record_game("classic", TEAMS, [same], house_rules={"end_after_deals": 1})
    view = game_view(game)
    assert [side.name for side in view.winners] == ["Us", "Them"]
    assert view.totals == [50, 50]


def test_a_game_at_its_deal_limit_takes_no_deal_and_has_no_winner():
    view = game_view(two_deals(deal_limit=2))
    assert isinstance(view.closed, deals.LimitReached)
    assert [r.message for r in view.closed.refusals] == [
        "This game has reached its limit of 2 deals: no more deals can be entered. It has not "
        "ended by its rules, so it has no winner; start a new game to play on."
    ]
    assert (view.finished, view.winners, view.deal_limit_reached) == (False, [], True)
    assert (view.next_deal, view.next_dealer) == (None, None)
    # A game at its limit may still be corrected: it holds no more than it may.
    assert view.frozen is None


def test_a_game_over_at_its_limit_is_over_and_full_both():
    game = games.record_game(
        "classic", TEAMS, [DEAL_1], house_rules={"end_after_deals": 1, "deal_limit": 1}
    )
    view = game_view(game)
    assert isinstance(view.closed, deals.Ended)
    assert view.deal_limit_reached is True


def test_a_game_holding_more_than_its_limit_is_read_only():
    game = two_deals()
    db.session.execute(
        update(Game).where(Game.id == game.id).values(house_rules={**PLAY_ON, "deal_limit": 1})
    )
    db.session.commit()
    view = game_view(fresh(game))
    assert view.frozen is not None
    assert view.frozen.message == (
        "This game holds 2 deals, more than the 1 a game may hold: its deals can be read but "
        "not corrected."
    )
    assert isinstance(view.closed, deals.LimitReached)
    assert view.totals == [660, 415]


def test_the_lines_in_for_the_next_deal_and_what_they_score():
    game = two_deals()
    side_lines.send_line(game, Level.TABLE, 1, ONE_CLEAN, opened_for=3, sent_by="Cat")
    view = game_view(fresh(game))
    assert [(line.side, line.name, line.entry, line.sent_by) for line in view.lines] == [
        (0, "Us", None, None),
        (1, "Them", DealEntry(books={"clean": 1}), "Cat"),
    ]
    assert view.running is not None
    # A side not in counts as a blank line.
    assert [score.total for score in view.running] == [0, 500]


def test_no_line_in_scores_nothing():
    view = game_view(two_deals())
    assert view.lines == [Line(0, "Us"), Line(1, "Them")]
    assert view.running is None


def test_the_next_game_and_who_started_it():
    game = games.record_game("classic", TEAMS, [DEAL_1], house_rules={"end_after_deals": 1})
    again = games.play_again(game, "Zoë").game
    view = game_view(fresh(game))
    assert view.next_game == NextGame(again.id, again.secret, f"/t/{again.secret}", "Zoë")


def test_a_next_game_whose_starter_was_not_kept_is_someones():
    game = games.record_game("classic", TEAMS, [DEAL_1], house_rules={"end_after_deals": 1})
    again = games.play_again(game, "Zoë").game
    db.session.execute(update(Game).where(Game.id == game.id).values(next_started_by=None))
    db.session.commit()
    assert game_view(fresh(game)).next_game == NextGame(
        again.id, again.secret, f"/t/{again.secret}", SOMEONE
    )


def test_the_scorer_reads_the_view_without_a_replay(monkeypatch):
    game = fresh(two_deals())

    def no_replay(*args, **kwargs):
        raise AssertionError("replayed")

    monkeypatch.setattr(engine, "play", no_replay)
    state = scorer_state(game)["game"]
    assert state["table"] == ["Ann", "Cat", "Bob", "Dan"]
    assert state["deals"] == game_view(game).entries
    # What the phone works out itself, the server works out only when asked.
    with pytest.raises(AssertionError, match="replayed"):
        game_view(game).totals  # noqa: B018
