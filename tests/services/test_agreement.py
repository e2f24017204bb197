"""services/agreement.py: a side agrees or queries a saved deal from its phone; a correction
asks again; the table and a club's organiser see the queries standing."""

from __future__ import annotations

from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import DealEvent, Game
from scorekeeper.plumbing.models.history import AGREED, QUERIED, WHOLE
from scorekeeper.services import agreement, agreement_shown, deals, games
from scorekeeper.services.access import Level
from scorekeeper.services.agreement import AGREES, QUERIES, WAITING

from ._support import ANN_AND_CAT, NOTHING, ONE_CLEAN, ONE_DIRTY, kept

TABLE = Level.TABLE


def entered(game: Game, *scores: list) -> Game:
    """Deals entered whole on one phone, each with its history's first entry (as deals.py
    keeps it), so that every side is asked to agree."""
    for entry in scores:
        saved = deals.enter_deal(game, TABLE, entry)
        assert isinstance(saved, deals.Saved), saved
        db.session.add(
            DealEvent(
                game_id=game.id,
                deal_number=saved.deal.number,
                deal_version=saved.deal.version,
                kind=WHOLE,
                by="Ann",
            )
        )
    db.session.commit()
    return game


def a_game(**more) -> Game:
    """Ann v Cat, two deals entered whole."""
    game = games.start_game("club", ANN_AND_CAT, **more)
    return entered(game, [ONE_CLEAN, NOTHING], [ONE_DIRTY, NOTHING])


def states(game: Game) -> list[tuple[str, ...]]:
    db.session.expire_all()
    return [a.sides for a in agreement.agreement_of(game)]


def test_one_tap_agrees_the_deal_for_that_side_alone():
    game = a_game()
    before = kept(select(Game.live_version))[0][0]
    outcome = agreement.agree(game, TABLE, 1, 1, 1, by="Cat", device="a" * 32)
    assert outcome == agreement.Answered(1, 1, 1, "Cat", AGREED, "Cat")
    assert outcome.message == "Cat agreed deal 1."
    assert states(game) == [(WAITING, AGREES), (WAITING, WAITING)]
    event = kept(select(DealEvent.by, DealEvent.device).where(DealEvent.kind == AGREED))
    assert event == [("Cat", "a" * 32)]
    # Every phone of the table is told: the game's live version moved on.
    assert kept(select(Game.live_version))[0][0] == before + 1


def test_every_side_agreeing_marks_the_deal_agreed():
    game = a_game()
    agreement.agree(game, TABLE, 2, 0, 1)
    agreement.agree(game, TABLE, 2, 1, 1)
    agreed = [a.agreed for a in agreement.agreement_of(game)]
    assert agreed == [False, True]
    assert not all(d.agreed for d in agreement.agreement_of(game))


def test_agreeing_again_keeps_nothing_more():
    game = a_game()
    agreement.agree(game, TABLE, 1, 1, 1)
    again = agreement.agree(game, TABLE, 1, 1, 1)
    assert isinstance(again, agreement.Answered) and again.again
    assert len(kept(select(DealEvent.id).where(DealEvent.kind == AGREED))) == 1


def test_a_query_stands_until_the_side_agrees():
    game = a_game()
    outcome = agreement.query(game, TABLE, 1, 1, 1, by="Cat", reason="  The melds\tlook wrong ")
    assert isinstance(outcome, agreement.Answered)
    assert outcome.kind == QUERIED and outcome.reason == "The melds look wrong"
    assert outcome.message.startswith("Cat queried deal 1. Talk it over")
    assert states(game)[0] == (WAITING, QUERIES)
    (standing,) = agreement_shown.open_queries([game.id])[game.id]
    assert standing.words == "Deal 1 queried by Cat: The melds look wrong"
    assert standing.for_organiser(2) == (
        "Table 2 asks for the organiser: deal 1 queried by Cat: The melds look wrong"
    )
    agreement.agree(game, TABLE, 1, 1, 1)
    assert states(game)[0] == (WAITING, AGREES)
    assert agreement_shown.open_queries([game.id]) == {}


def test_a_club_games_query_asks_the_organiser(club):
    game = a_game(club=club)
    outcome = agreement.query(game, TABLE, 2, 0, 1, by="Linda")
    assert outcome.asks_organiser
    assert "The organiser is asked to look at it" in outcome.message


def test_a_correction_asks_every_side_again():
    game = a_game()
    agreement.agree(game, TABLE, 1, 1, 1)
    agreement.query(game, TABLE, 1, 0, 1)
    corrected = deals.correct_deal(game, TABLE, 1, [ONE_DIRTY, NOTHING], 1)
    assert isinstance(corrected, deals.Saved)
    assert states(game)[0] == (WAITING, WAITING)
    assert agreement_shown.open_queries([game.id]) == {}
    # An answer to the version shown before the correction is not kept.
    stale = agreement.agree(game, TABLE, 1, 1, 1)
    assert stale == agreement.DealChanged(1, 1, 2)
    assert "corrected since this phone showed it" in stale.message
    assert states(game)[0] == (WAITING, WAITING)


def test_what_cannot_stand_is_refused_in_words():
    game = a_game()
    no_side = agreement.agree(game, TABLE, 1, 2, 1)
    assert isinstance(no_side, deals.Refused)
    assert [(r.field, r.message) for r in no_side.refusals] == [
        ("side", "side must be one of the game's sides, 0 to 1.")
    ]
    no_version = agreement.agree(game, TABLE, 1, 0, "1")
    assert [r.field for r in no_version.refusals] == ["version"]
    long = agreement.query(game, TABLE, 1, 0, 1, reason="x" * 301)
    assert [r.message for r in long.refusals] == [
        "reason is at most 300 characters: say it shorter."
    ]
    assert agreement.agree(game, TABLE, 9, 0, 1) == deals.NoSuchDeal(9)
    assert agreement.agree(game, Level.READ, 1, 0, 1) == deals.NotAllowed(TABLE)
    assert kept(select(DealEvent.id).where(DealEvent.kind.in_((AGREED, QUERIED)))) == []


def test_each_phone_is_asked_its_own_sides_deals_newest_first():
    game = a_game()
    agreement.agree(game, TABLE, 1, 1, 1)
    agreements = agreement.agreement_of(game)
    mine = agreement_shown.to_answer(game, agreements, 1)
    assert [(a.number, a.side) for a in mine] == [(2, 1)]
    anyone = agreement_shown.to_answer(game, agreements, None)
    assert [(a.number, a.side) for a in anyone] == [(2, 0), (2, 1), (1, 0)]
    assert agreement_shown.states_words(game, agreements[0]) == "Ann to agree · Cat agreed"


def test_the_live_answer_carries_the_queries_and_moves_its_token():
    from scorekeeper.services import live

    game = a_game()
    before = live.table_state(game.id, None)
    agreement.query(game, TABLE, 2, 1, 1, by="Cat")
    after = live.table_state(game.id, None)
    assert after.answers != before.answers
    assert after.queries == ["Deal 2 queried by Cat"]
    assert after.as_json(str)["queries"] == ["Deal 2 queried by Cat"]
