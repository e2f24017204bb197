"""services/games/: games started, recorded and deleted."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealScore, Game, MemberDay, MemberResult, Player, Side
from scorekeeper.rules import DealRefused, Refusal
from scorekeeper.services import clubs, games
from scorekeeper.services.games import GameRefused, SideSetup

from ._games_support import MARCH, PRESETS, refusals_of, sides_kept
from ._support import (
    ANN_AND_CAT,
    NOTHING,
    ONE_CLEAN,
    TEAMS,
    club_game,
    entries,
    how_many,
    kept,
    kept_one,
)

# --- starting a game --------------------------------------------------------------------------


def test_a_casual_game_starts_with_its_sides_and_the_default_decks():
    game = games.start_game("classic", TEAMS, played_on=MARCH, first_dealer=3)
    row = kept_one(
        select(
            Game.id,
            Game.ruleset,
            Game.decks,
            Game.club_id,
            Game.house_rules,
            Game.played_on,
            Game.first_dealer,
            Game.finished_at,
            Game.rules_name,
        )
    )
    assert tuple(row) == (game.id, "classic", 5, None, {}, MARCH, 3, None, None)
    assert len(game.secret) == 22
    assert sides_kept(game.id) == [
        (0, "Us", 0, "Ann", None),
        (0, "Us", 1, "Bob", None),
        (1, "Them", 0, "Cat", None),
        (1, "Them", 1, "Dan", None),
    ]


def test_in_a_club_a_players_name_that_is_a_members_is_that_member(club):
    ann, cat = club.members
    sides = [SideSetup(" Us ", [" ANN ", "Zed"]), SideSetup("Them", ["cat", "Yan"])]
    game = games.start_game("classic", sides, club=club, decks=4)
    assert sides_kept(game.id) == [
        (0, "Us", 0, "ANN", ann.id),
        (0, "Us", 1, "Zed", None),
        (1, "Them", 0, "cat", cat.id),
        (1, "Them", 1, "Yan", None),
    ]
    assert kept(select(Game.club_id, Game.decks)) == [(club.id, 4)]


def test_a_side_without_players_plays_as_its_name():
    game = games.start_game("club", [SideSetup("Ann", []), SideSetup("Cat", [])])
    assert sides_kept(game.id) == [(0, "Ann", 0, "Ann", None), (1, "Cat", 0, "Cat", None)]


def test_a_game_from_a_saved_rule_set_keeps_its_name_and_numbers(club):
    saved = clubs.create_saved_rules(club, "Thursday", "club", {"red_three_caught": 300})
    game = games.start_game(
        "club", ANN_AND_CAT, club=club, house_rules={"red_three_caught": 300}, saved_rules=saved
    )
    assert kept(select(Game.saved_rules_id, Game.rules_name, Game.house_rules)) == [
        (saved.id, "Thursday", {"red_three_caught": 300})
    ]
    assert games.rules_title(game) == "Thursday"
    assert games.same_rules(saved, "club", {"red_three_caught": 300}) is True
    assert games.same_rules(saved, "club", {"red_three_caught": 200}) is False
    assert games.same_rules(saved, "club", {"nonsense": 1}) is False


@pytest.mark.parametrize(
    ("ruleset", "sides", "more", "expected"),
    [
        pytest.param(
            "poker",
            ANN_AND_CAT,
            {},
            [(None, "ruleset", f"No rule set 'poker'; try {PRESETS}.")],
            id="no-such-rule-set",
        ),
        pytest.param(
            "club",
            ANN_AND_CAT,
            {"house_rules": {"nonsense": 1}},
            [(None, "rules", "There is no rule called 'nonsense' that a club can change.")],
            id="no-such-house-rule",
        ),
        pytest.param(
            "club",
            ANN_AND_CAT[:1],
            {},
            [(None, "sides", "The Club individual rules need at least 2 sides.")],
            id="one-side",
        ),
        pytest.param(
            "classic",
            TEAMS,
            {"decks": 0},
            [(None, "decks", "Decks must be a whole number from 1 to 20.")],
            id="no-decks",
        ),
        pytest.param(
            "club",
            ANN_AND_CAT,
            {"first_dealer": 2},
            [
                (
                    None,
                    "first_dealer",
                    "The first dealer is a seat from 1 to 2, one for each player.",
                )
            ],
            id="first-dealer-past-the-table",
        ),
        pytest.param(
            "club",
            ANN_AND_CAT,
            {"first_dealer": True},
            [
                (
                    None,
                    "first_dealer",
                    "The first dealer is a seat from 1 to 2, one for each player.",
                )
            ],
            id="first-dealer-not-a-number",
        ),
        pytest.param(
            "classic",
            [SideSetup("Us\t", ["Ann", "Bob"]), SideSetup("Them", ["ann", "x" * 61])],
            {},
            [
                (0, "name", "Side 1 name cannot hold control characters (tabs, line breaks, NUL)."),
                (1, "players", "ann cannot play on two sides."),
                (1, "players", "Them: each player needs a short name."),
            ],
            id="names",
        ),
        pytest.param(
            "classic",
            [SideSetup("Us", ["A\u200bnn", "Bob"]), SideSetup("", ["Cat", "Dan"])],
            {},
            [
                (1, "name", "Side 2 needs a name."),
                (
                    0,
                    "players",
                    "A player's name on side 1 cannot hold invisible or text-direction "
                    "characters (zero-width spaces, joiners, right-to-left marks).",
                ),
            ],
            id="invisible-and-blank",
        ),
    ],
)
def test_a_game_that_cannot_start_says_why_and_keeps_nothing(ruleset, sides, more, expected):
    with pytest.raises(GameRefused) as refused:
        games.start_game(ruleset, sides, **more)
    assert refusals_of(refused) == expected
    assert str(refused.value) == "; ".join(message for _, _, message in expected)
    assert how_many(Game) == 0


def test_a_house_rule_refused_names_the_rule_and_a_hundred_at_most_are_listed():
    with pytest.raises(GameRefused) as refused:
        games.rules_for("club", {"going_out_bonus": -5})
    assert refused.value.refusals == [
        Refusal(
            None,
            "rules",
            "going_out_bonus must be between 0 and 100,000, not -5.",
            ((None, "rules.going_out_bonus"),),
        )
    ]
    with pytest.raises(GameRefused) as refused:
        games.rules_for("club", {f"rule{n}": 1 for n in range(105)})
    listed = refused.value.refusals
    assert len(listed) == 100
    assert listed[0].message == "There is no rule called 'rule0' that a club can change."
    assert listed[-1] == Refusal(
        None, "rules", "6 more house rules are refused too (not listed).", ()
    )
    assert games.rules_for("club", None) == engine.PRESETS["club"]


# --- recording a whole game -------------------------------------------------------------------


def test_a_recorded_game_keeps_every_deal_and_its_end(club):
    game = club_game(club, finished=True, played_on=MARCH)
    assert kept(select(Game.finished_at.is_not(None), Game.played_on)) == [(True, MARCH)]
    scores = (
        select(Deal.number, Deal.version, DealScore.side_position, DealScore.entry, DealScore.total)
        .join(DealScore.deal)
        .order_by(Deal.number, DealScore.side_position)
    )
    assert kept(scores) == [
        row
        for number in (1, 2, 3, 4)
        for row in ((number, 1, 0, {"books": {"clean": 1}}, 500), (number, 1, 1, {}, 0))
    ]
    assert kept(select(Side.final_total, Side.won).order_by(Side.position)) == [
        (2000, True),
        (0, False),
    ]
    assert games.progress_of(game).winners == [0]


def test_a_games_finish_is_decided_in_one_place():
    """`finished_when`: the moment a game first finished stays through a correction that leaves
    it over; deals that end it end it now; deals that leave it unfinished unfinish it."""
    game = club_game(finished=True)
    first = game.finished_at
    later = games.now()
    over = games.progress_of(game)
    deal_one = games.entries_of(game)[:1]
    playing = engine.play(games.rules_of(game), game.decks, games.sides_of(game), deal_one)
    assert first is not None and over.finished and not playing.finished
    assert games.finished_when(game, over, later) is first
    assert games.finished_when(game, playing, later) is None
    game.finished_at = None
    assert games.finished_when(game, over, later) is later


def test_a_recorded_game_with_a_deal_refused_keeps_nothing(club):
    both_out = {"books": {"clean": 2, "dirty": 2}, "went_out": True}
    deals = [entries(ONE_CLEAN, NOTHING), entries(both_out, both_out)]
    with pytest.raises(DealRefused) as refused:
        games.record_game("club", ANN_AND_CAT, deals, club=club)
    assert [r.message for r in refused.value.refusals] == [
        "Only one side can go out; Ann and Cat both did."
    ]
    db.session.commit()  # nothing was left in the session to commit
    assert how_many(Game) == 0
    assert how_many(Player) == 0


def test_a_recorded_game_takes_a_rule_set_name_from_an_import(club):
    club_game(club, finished=True, rules_name="Old Thursday")
    assert kept(select(Game.rules_name, Game.saved_rules_id)) == [("Old Thursday", None)]


# --- deleting ---------------------------------------------------------------------------------


def test_deleting_a_club_game_takes_its_deals_and_results_and_the_nights_sums(club):
    ann = club.members[0]
    first = club_game(club, finished=True, played_on=MARCH)
    club_game(club, finished=True, played_on=MARCH)
    games.delete_game(first)
    assert how_many(Game) == 1
    assert how_many(Deal) == 4
    assert how_many(MemberResult) == 2
    ann_night = select(MemberDay.games, MemberDay.final_total).where(MemberDay.member_id == ann.id)
    assert kept(ann_night) == [(1, 2000)]
