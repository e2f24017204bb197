"""services/records.py: a club's records written out as CSV."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest

from scorekeeper.services import clubs, games, records, standings
from scorekeeper.services.games import SideSetup
from scorekeeper.services.standings import Filters

from ._support import ONE_CLEAN, club_game, entries

MARCH = date(2025, 3, 4)
APRIL = date(2025, 4, 1)
CRLF = "\r\n"


def rows_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_games_file_has_a_row_per_finished_game_oldest_first(club):
    saved = clubs.create_saved_rules(club, "Thursday", "club", {"red_three_caught": 300})
    club_game(club, finished=True, played_on=APRIL)
    club_game(
        club,
        finished=True,
        played_on=MARCH,
        sides=[SideSetup("=Cat", ["Cat"]), SideSetup("Ann", ["Ann"])],
        saved_rules=saved,
        house_rules={"red_three_caught": 300},
    )
    club_game(club, finished=False, played_on=MARCH)
    assert records.export_games(club, Filters()) == CRLF.join(
        [
            "game,played_on,ruleset,decks,deals,side_1,side_1_players,side_1_total,"
            "side_2,side_2_players,side_2_total,winners,rule_set",
            # A name a spreadsheet would run as a formula starts with an apostrophe.
            "2,2025-03-04,club,3,4,'=Cat,Cat,2000,Ann,Ann,0,'=Cat,Thursday",
            "1,2025-04-01,club,3,4,Ann,Ann,2000,Cat,Cat,0,Ann,",
            "",
        ]
    )
    only_april = records.export_games(club, Filters(start=APRIL))
    assert [row["game"] for row in rows_of(only_april)] == ["1"]


def test_the_games_file_has_columns_for_the_most_sides(club):
    clubs.add_member(club, "Bob")
    club_game(club, finished=True, played_on=MARCH)
    three = [SideSetup(name, [name]) for name in ("Ann", "Bob", "Cat")]
    games.record_game("club", three, [entries(ONE_CLEAN, {}, {})] * 4, club=club, played_on=APRIL)
    rows = rows_of(records.export_games(club, Filters()))
    assert list(rows[0])[-5:] == ["side_3", "side_3_players", "side_3_total", "winners", "rule_set"]
    assert [(r["side_3"], r["side_3_total"], r["winners"]) for r in rows] == [
        ("", "", "Ann"),
        ("Cat", "0", "Ann"),
    ]


def test_the_deals_file_holds_every_game_deal_and_side(club):
    club_game(club, finished=True, played_on=MARCH)
    guests = [SideSetup("Ann", ["Ann"]), SideSetup("Zed", ["Zed"])]
    games.start_game(
        "club", guests, club=club, played_on=APRIL, house_rules={"going_out_bonus": 200}
    )
    text = records.export_deals(club)
    assert text.split(CRLF)[0] == ",".join(records.DEAL_COLUMNS)
    rows = rows_of(text)
    assert len(rows) == 4 * 2 + 2  # the game without deals: one row per side, no deal
    first = rows[0]
    assert {k: v for k, v in first.items() if v} == {
        "game": "1",
        "played_on": "2025-03-04",
        "ruleset": "club",
        "decks": "3",
        "house_rules": "{}",
        "side": "1",
        "side_name": "Ann",
        "players": "Ann",
        "deal": "1",
        "books_clean": "1",
        "went_out": "no",
        "deal_total": "500",
    }
    assert [(r["deal"], r["side"], r["deal_total"]) for r in rows[6:8]] == [
        ("4", "1", "500"),
        ("4", "2", "0"),
    ]
    assert [
        (r["game"], r["house_rules"], r["side_name"], r["guests"], r["deal"], r["went_out"])
        for r in rows[8:]
    ] == [
        ("2", '{"going_out_bonus":200}', "Ann", "", "", ""),
        ("2", '{"going_out_bonus":200}', "Zed", "Zed", "", ""),
    ]


def test_the_standings_file_shows_rates_and_averages_as_the_page_does(club):
    club_game(club, finished=True, played_on=MARCH)
    club_game(
        club,
        finished=True,
        played_on=MARCH,
        sides=[SideSetup("Cat", ["Cat"]), SideSetup("Ann", ["Ann"])],
    )
    club_game(club, finished=True, played_on=MARCH)
    rows = standings.standings(club, Filters())
    assert records.export_standings(rows) == CRLF.join(
        [
            "rank,player,games,wins,night_wins,win_rate,average_score,average_per_deal,"
            "total_points,clean_books,dirty_books,wild_books,special_books,went_out,"
            "red_threes_caught,rating,rated_games",
            # 2 of 3 is 66.7 %; 4,000 over 3 games is 1,333.3, over 12 deals 333.3. The ratings
            # last: Ann won, lost, won (4.4); Cat the other way (0.1).
            "1,Ann,3,2,0,66.7,1333.3,333.3,4000,8,0,0,0,0,0,4.4,3",
            "2,Cat,3,1,0,33.3,666.7,166.7,2000,4,0,0,0,0,0,0.1,3",
            "",
        ]
    )


def test_an_unranked_line_has_no_rank_and_nothing_divides_by_zero():
    row = standings.Standing(7, "Ann", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, None)
    assert (
        records.export_standings([row]).split(CRLF)[1]
        == "," + "Ann,0,0,0,0.0,0.0,0.0,0,0,0,0,0,0,0,,0"
    )


def test_entry_cells_leave_blank_what_was_not_entered():
    entry = {
        "books": {"clean": 2, "wild": 1},
        "went_out": True,
        "melded_points": 0,
        "leftover_cards": {"joker": 1},
        "bonuses": {"exact_22": 2},
    }
    cells = records.entry_cells(entry)
    assert list(cells) == list(records.ENTRY_NAMES)
    assert {k: v for k, v in cells.items() if v} == {
        "books_clean": "2",
        "books_wild": "1",
        "went_out": "yes",
        "melded_points": "0",
        "leftover_cards_joker": "1",
        "bonus_exact_22": "2",
    }
    assert records.entry_cells({})["went_out"] == "no"


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("=SUM(A1)", "'=SUM(A1)"),
        ("+1", "'+1"),
        ("-Ann", "'-Ann"),
        ("@Ann", "'@Ann"),
        ("'quoted", "''quoted"),
        ("Ann", "Ann"),
        ("", ""),
    ],
)
def test_a_cell_a_spreadsheet_would_run_is_quoted_and_read_back(text, cell):
    assert records.to_cell(text) == cell
    assert records.from_cell(cell) == text


@pytest.mark.parametrize(
    ("numerator", "denominator", "written"),
    [(1, 4, "0.3"), (-1, 4, "-0.3"), (1, 8, "0.1"), (1355, 3, "451.7"), (7, 0, "0.0")],
)
def test_one_decimal_rounds_halves_up_as_every_export_writes_them(numerator, denominator, written):
    assert records.one_decimal(numerator, denominator) == written
