"""services/games/: who deals first, and the table playing again."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.services import clubs, games
from scorekeeper.services.game_view import Dealer, game_view
from scorekeeper.services.games import GameRefused, NextGame, SideSetup

from ._games_support import MARCH, refusals_of, sides_kept
from ._support import NOTHING, ONE_CLEAN, TEAMS, club_game, entries, how_many, kept, kept_one

# --- who deals --------------------------------------------------------------------------------


def test_the_first_dealer_is_chosen_before_deal_one():
    game = games.start_game("classic", TEAMS)
    games.choose_first_dealer(game, 3)
    assert kept(select(Game.first_dealer, Game.live_version)) == [(3, 1)]
    # Deal 1 by seat 4 (Dan), then to the left: seat 1 (Ann) deals deal 2 (as pages read it).
    view = game_view(game)
    assert view.dealer(1) == Dealer(3, 1, "Dan")
    assert view.dealer(2) == Dealer(0, 0, "Ann")
    assert [seat.player for seat in games.seats_of(game)] == ["Ann", "Cat", "Bob", "Dan"]


@pytest.mark.parametrize("seat", [4, -1, True, "1"], ids=["past", "negative", "bool", "text"])
def test_a_first_dealer_not_at_the_table_is_refused(seat):
    game = games.start_game("classic", TEAMS, first_dealer=1)
    with pytest.raises(GameRefused) as refused:
        games.choose_first_dealer(game, seat)
    assert refusals_of(refused) == [
        (None, "first_dealer", "The first dealer is a seat from 1 to 4, one for each player.")
    ]
    assert kept(select(Game.first_dealer, Game.live_version)) == [(1, 0)]


def test_the_first_dealer_stays_once_deal_one_is_saved():
    game = club_game(finished=False)
    with pytest.raises(GameRefused) as refused:
        games.choose_first_dealer(game, 1)
    assert refusals_of(refused) == [
        (
            None,
            "first_dealer",
            "The first dealer is chosen before the first deal; deal 1 is already saved.",
        )
    ]
    assert kept(select(Game.first_dealer)) == [(0,)]


# --- playing again ----------------------------------------------------------------------------


def three_at_the_table(club=None) -> Game:
    """A finished club game of three, Bob dealing first: after four deals Cat deals next."""
    sides = [SideSetup(name, [name]) for name in ("Ann", "Bob", "Cat")]
    deals = [entries(ONE_CLEAN, NOTHING, NOTHING)] * 4
    game = games.record_game("club", sides, deals, club=club, played_on=MARCH)
    game.first_dealer = 1  # as if chosen before deal 1
    db.session.commit()
    return game


def test_play_again_starts_one_next_game_for_the_whole_table(club):
    clubs.add_member(club, "Bob")
    game = three_at_the_table(club)
    first = games.play_again(game, " Ann\u200b ")
    assert first == NextGame(first.game, "Ann", True)
    again = games.play_again(game, "Cat")
    assert (again.game.id, again.started_by, again.started_here) == (first.game.id, "Ann", False)
    assert how_many(Game) == 2
    after = first.game.id
    assert kept(
        select(Game.next_game_id, Game.next_started_by, Game.live_version).where(Game.id == game.id)
    ) == [(after, "Ann", 1)]
    row = kept_one(
        select(Game.ruleset, Game.decks, Game.club_id, Game.first_dealer, Game.finished_at).where(
            Game.id == after
        )
    )
    # Four deals from Bob's seat: the fifth is Cat's, the next game's first.
    assert tuple(row) == ("club", game.decks, club.id, 2, None)
    # The same members, matched by who they are.
    member_ids = {member.name: member.id for member in club.members}
    assert [member for *_, member in sides_kept(after)] == [
        member_ids["Ann"],
        member_ids["Bob"],
        member_ids["Cat"],
    ]
    assert games.next_game_of(game) == NextGame(first.game, "Ann", False)


def test_a_tap_from_a_phone_with_no_name_is_someones():
    game = club_game(finished=True)
    assert games.play_again(game).started_by == "Someone"
    db.session.execute(update(Game).where(Game.id == game.id).values(next_started_by=None))
    db.session.commit()
    assert games.next_game_of(game).started_by == "Someone"


def test_a_game_not_over_is_not_played_again():
    game = club_game(finished=False)
    with pytest.raises(GameRefused) as refused:
        games.play_again(game, "Ann")
    assert refusals_of(refused) == [
        (None, "game", "This game is not over yet: finish it before playing again.")
    ]
    assert how_many(Game) == 1
    assert games.next_game_of(game) is None


def test_saved_rules_changed_since_are_not_the_next_games(club):
    saved = clubs.create_saved_rules(club, "Thursday", "club", {"red_three_caught": 300})
    game = club_game(club, finished=True, saved_rules=saved, house_rules={"red_three_caught": 300})
    clubs.update_saved_rules(saved, "Thursday", {"red_three_caught": 200})
    after = games.play_again(game, "Ann").game
    row = kept_one(
        select(Game.house_rules, Game.saved_rules_id, Game.rules_name).where(Game.id == after.id)
    )
    assert tuple(row) == ({"red_three_caught": 300}, None, None)
