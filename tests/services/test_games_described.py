"""services/games/: games loaded, described, told apart, and entries read from data."""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.rules import DealRefused
from scorekeeper.services import games
from scorekeeper.services.games import GameSummary, SideSetup

from ._games_support import MARCH, refusals_of
from ._support import ANN_AND_CAT, NOTHING, ONE_CLEAN, ONE_DIRTY, TEAMS, club_game, entries

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
