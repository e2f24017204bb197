"""services/games/: games started, recorded, loaded, described, played again and deleted."""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest
from sqlalchemy import select, update

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import (
    Deal,
    DealScore,
    Game,
    MemberDay,
    MemberResult,
    Player,
    Side,
)
from scorekeeper.rules import DealRefused, Refusal
from scorekeeper.services import clubs, games
from scorekeeper.services.games import GameRefused, GameSummary, NextGame, SideSetup

from ._support import (
    ANN_AND_CAT,
    NOTHING,
    ONE_CLEAN,
    ONE_DIRTY,
    TEAMS,
    club_game,
    entries,
    how_many,
    kept,
    kept_one,
)

MARCH = date(2025, 3, 4)
PRESETS = "classic, club, family, casual, ten-thousand, cutthroat"


def refusals_of(refused: pytest.ExceptionInfo) -> list[tuple]:
    """Each refusal as (side, field, message)."""
    return [(r.side, r.field, r.message) for r in refused.value.refusals]


def sides_kept(game_id: int) -> list[tuple]:
    """Each side's players as kept: (side position, side name, player position, name, member)."""
    query = (
        select(Side.position, Side.name, Player.position, Player.name, Player.member_id)
        .join(Player, Player.side_id == Side.id)
        .where(Side.game_id == game_id)
        .order_by(Side.position, Player.position)
    )
    return [tuple(row) for row in kept(query)]


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


# --- who deals --------------------------------------------------------------------------------


def test_the_first_dealer_is_chosen_before_deal_one():
    game = games.start_game("classic", TEAMS)
    games.choose_first_dealer(game, 3)
    assert kept(select(Game.first_dealer, Game.live_version)) == [(3, 1)]
    # Deal 1 by seat 4 (Dan), then to the left: seat 1 (Ann) deals deal 2.
    assert games.dealer_of(game, 1) == engine.Seat(1, "Dan")
    assert games.dealer_of(game, 2) == engine.Seat(0, "Ann")
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


# --- loading and describing -------------------------------------------------------------------


def test_get_game_loads_a_game_or_none():
    game = club_game(finished=False)
    db.session.expunge_all()
    loaded = games.get_game(game.id)
    assert (loaded.id, [s.name for s in loaded.sides], len(loaded.deals)) == (
        game.id,
        ["Ann", "Cat"],
        1,
    )
    assert games.get_game(game.id + 1) is None
    assert games.get_game(0) is None
    assert games.get_game(2**63) is None


def test_a_summary_from_the_figures_kept():
    game = club_game(finished=True)
    assert games.summary(game) == GameSummary(
        game, engine.PRESETS["club"], [("Ann", 2000), ("Cat", 0)], 4, True
    )


def test_the_winner_in_words():
    game = club_game(finished=True)
    assert games.winners_text(game, games.progress_of(game)) == "Winner: Ann, 2,000"
    shared = games.record_game(
        "club", ANN_AND_CAT, [entries(ONE_CLEAN, ONE_CLEAN)] * 4, played_on=MARCH
    )
    assert games.winners_text(shared, games.progress_of(shared)) == (
        "Shared win: Ann and Cat, 2,000 each"
    )
    unfinished = club_game(finished=False)
    assert games.winners_text(unfinished, games.progress_of(unfinished)) == ""


def test_the_game_in_plain_text_to_share():
    game = games.record_game(
        "classic",
        TEAMS,
        [entries(ONE_CLEAN, ONE_DIRTY)] * 3 + [entries({"melded_points": 35}, {})],
        played_on=MARCH,
    )
    assert games.summary_text(game) == (
        "Hand and Foot: Classic partnership, 04 Mar 2025\n"
        "Us: Ann, Bob\n"
        "Them: Cat, Dan\n"
        "\n"
        "Deal 1: Us +500, Them +300\n"
        "Deal 2: Us +500, Them +300\n"
        "Deal 3: Us +500, Them +300\n"
        "Deal 4: Us +35, Them +0\n"
        "Final: Us 1,535, Them 900\n"
        "Winner: Us, 1,535\n"
    )


def test_a_games_house_rules_as_a_card_and_a_line_shows_them():
    game = games.start_game(
        "club", ANN_AND_CAT, house_rules={"going_out_bonus": 200, "red_three_caught": 1000}
    )
    assert games.changed_rules(game) == [
        ("Red three caught (points lost)", "500", "1,000"),
        ("Going-out bonus", "100", "200"),
    ]
    assert games.rules_described(game) == (
        "Club individual, red three caught 1,000, going-out bonus 200"
    )
    assert games.rules_described(game, longest=30) == "Club individual, red three ca…"
    assert games.rules_title(game) == "Club individual"
    plain = games.start_game("club", ANN_AND_CAT)
    assert (games.changed_rules(plain), games.rules_described(plain)) == ([], "Club individual")


# --- one game told from another ---------------------------------------------------------------


def test_a_fingerprint_ignores_case_and_spacing_of_names_but_not_figures():
    deals = [[{"books": {"clean": 1}}, {}]]
    sides = [("Ann", ["Ann"]), ("Cat", [])]
    one = games.fingerprint(MARCH, "club", 3, {}, sides, deals)
    assert (
        games.fingerprint(MARCH, "club", 3, None, [(" ANN ", ["ann"]), ("cat", ["Cat"])], deals)
        == one
    )
    assert games.fingerprint(MARCH, "club", 3, {}, sides, [[{"books": {"clean": 2}}, {}]]) != one
    assert games.fingerprint(date(2025, 3, 5), "club", 3, {}, sides, deals) != one
    game = games.record_game("club", ANN_AND_CAT, [entries(ONE_CLEAN, NOTHING)], played_on=MARCH)
    assert games.fingerprint_of(game) == one


def test_held_fingerprints_count_each_of_the_clubs_games_on_those_days(club):
    first = club_game(club, finished=True, played_on=MARCH)
    club_game(club, finished=True, played_on=MARCH)
    club_game(club, finished=True, played_on=date(2025, 3, 5))
    club_game(finished=True, played_on=MARCH)  # not the club's
    assert games.held_fingerprints(club, [MARCH, MARCH]) == Counter(
        {games.fingerprint_of(first): 2}
    )
    assert games.held_fingerprints(club, []) == Counter()


# --- entries from JSON-like data --------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        pytest.param(
            {"scores": []},
            [(None, "scores", "Give 'scores': one entry per side.")],
            id="not-a-list",
        ),
        pytest.param(
            [{}, {}, {}],
            [(None, "scores", "Enter one score for each of the 2 sides, not 3.")],
            id="too-many",
        ),
        pytest.param(
            [{"books": {"clean": -1}}, {"went_out": "yes"}],
            [
                (0, "books.clean", "Ann: Clean books cannot be negative (-1)."),
                (1, "went_out", "Cat: Went out must be true or false, not 'yes'."),
            ],
            id="bad-figures",
        ),
    ],
)
def test_entries_from_names_every_bad_figure(scores, expected):
    game = games.start_game("club", ANN_AND_CAT)
    with pytest.raises(DealRefused) as refused:
        games.entries_from(scores, game)
    assert refusals_of(refused) == expected


def test_entries_from_reads_one_entry_per_side():
    game = games.start_game("club", ANN_AND_CAT)
    read = games.entries_from([{"books": {"clean": 1}}, {"melded_points": 35}], game)
    assert [entry.to_dict() for entry in read] == [{"books": {"clean": 1}}, {"melded_points": 35}]


def test_the_last_table_of_a_phone_is_its_newest_game_of_the_club(club):
    first = games.start_game(
        "club", [SideSetup("Ann", ["Ann"]), SideSetup("Cat", ["Cat"])], club=club
    )
    later = games.start_game(
        "classic",
        [SideSetup("Ann & Zed", ["Ann", "Zed"]), SideSetup("Cat & Yan", ["Cat", "Yan"])],
        club=club,
    )
    casual = games.start_game("club", [SideSetup("Bo", ["Bo"]), SideSetup("Di", ["Di"])])
    # Only the games the phone names count, and only the club's: the newest of them.
    found = games.last_table(club, [first.secret, later.secret, casual.secret])
    assert found == games.LastTable(later.played_on, [["Ann", "Zed"], ["Cat", "Yan"]])
    assert games.last_table(club, [first.secret]).sides == [["Ann"], ["Cat"]]
    assert games.last_table(club, [casual.secret]) is None
    assert games.last_table(club, []) is None
    # A member renamed since is named as the club lists them now; a guest as typed.
    ann = next(m for m in club.members if m.name == "Ann")
    ann.name = "Annie"
    assert games.last_table(club, [later.secret]).sides == [["Annie", "Zed"], ["Cat", "Yan"]]
