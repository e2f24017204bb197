"""Issue 14, input hardening: import files with bad names or house rules, and imports done twice.

Every bad input gets a clear refusal naming its field (422, a form's field error, or an import's
line and column), never a 500.

The club with games and the file's helpers are in _hardening_support.py.
"""

from __future__ import annotations

from datetime import date

import pytest
from _hardening_support import (
    SURROGATE,
    club_with_games,
    game_count,
    new_club,
    refused,
    rows_of,
    text_of,
    with_cell,
)

from scorekeeper.plumbing.models import Club
from scorekeeper.services import records, records_import, standings
from scorekeeper.services.standings import Filters

# --------------------------------------------------------------------------- import files


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("side_name", "Ann\u200b & Bob"),
        ("side_name", "\u202eboB & nnA"),
        ("side_name", f"Ann{SURROGATE}"),
        ("side_name", "Ann\x00"),
        ("players", "Ann; Bob\u2066"),
        ("players", f"Ann; Bob{SURROGATE}"),
        ("guests", "Bob\ufeff"),
        ("guests", f"Bob{SURROGATE}"),
    ],
    ids=repr,
)
def test_an_import_refuses_a_bad_name_at_its_line_and_column(app, column, value):
    with app.app_context():
        source = club_with_games()
        text = with_cell(records.export_deals(source), 1, column, value)
        problem = refused(new_club("target"), text)
        assert (problem.line, problem.column) == (2, column)
        assert "cannot hold" in problem.message
        assert SURROGATE not in str(problem)


@pytest.mark.parametrize(
    "value",
    [
        "[" * 100_000,
        '{"card_values": ' + "[" * 900 + "]" * 900 + "}",
        "[" * 3000,
        '{"a": ' * 50 + "1" + "}" * 50,
    ],
    ids=["100,000 brackets", "900 deep", "3,000 brackets", "50 deep objects"],
)
def test_deeply_nested_house_rules_are_refused_not_a_recursion_error(app, value):
    with app.app_context():
        text = with_cell(records.export_deals(club_with_games()), 1, "house_rules", value)
        problem = refused(new_club("target"), text)
        assert (problem.line, problem.column) == (2, "house_rules")
        assert "nest" in problem.message or "characters" in problem.message


@pytest.mark.parametrize(
    "value",
    ['{"\\ud800": 1}', '{"card_values": {"\\udfff": 1}}', '{"target_score": "\\ud800"}'],
)
def test_house_rules_with_broken_text_are_refused_without_repeating_it(app, client, value):
    with app.app_context():
        text = with_cell(records.export_deals(club_with_games()), 1, "house_rules", value)
        problem = refused(new_club("target"), text)
        assert (problem.line, problem.column) == (2, "house_rules")
        assert "surrogate" in problem.message
        # The message is shown on a page: one lone surrogate in it would fail the page's encoding.
        str(problem).encode("utf-8")


# --------------------------------------------------------------------------- importing twice


def club_figures(club: Club) -> list[tuple]:
    """The club's standings, every figure."""
    return [tuple(vars(row).values()) for row in standings.standings(club, Filters())]


def test_importing_the_clubs_own_export_adds_nothing_and_names_the_games_skipped(app):
    with app.app_context():
        club = club_with_games()
        text = records.export_deals(club)
        before, table = game_count(), club_figures(club)

        report = records_import.import_deals(club, text)

        assert (report.games, report.deals, report.members_added) == (0, 0, [])
        assert [(s.ref, s.first_line, s.last_line) for s in report.skipped] == [
            ("1", 2, 5),
            ("2", 6, 7),
            ("3", 8, 9),
        ]
        assert report.summary() == (
            "Nothing imported: all 3 games in the file are already in the records "
            "(game 1, lines 2–5; game 2, lines 6–7; game 3, lines 8–9)."
        )
        assert game_count() == before
        assert club_figures(club) == table


def test_only_the_games_not_yet_held_are_imported(app):
    with app.app_context():
        club = club_with_games()
        text = records.export_deals(club)
        # Game 2's only deal differs in one figure: another game, imported.
        changed = with_cell(text, 6, "melded_points", "700")
        changed = with_cell(changed, 6, "deal_total", "")
        before = game_count()

        report = records_import.import_deals(club, changed)

        assert (report.games, report.deals) == (1, 1)
        assert [s.ref for s in report.skipped] == ["1", "3"]
        assert report.summary() == (
            "Imported 1 game with 1 deal. Skipped 2 games already in the records "
            "(game 1, lines 2–5; game 3, lines 8–9)."
        )
        assert game_count() == before + 1


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("played_on", "2024-01-05"),
        ("house_rules", '{"going_out_bonus": 200}'),
        ("side_name", "Ann and Bob"),
        ("players", "Bob; Ann"),
        ("decks", "6"),
    ],
)
def test_a_game_that_differs_in_day_rules_or_sides_is_another_game(app, column, value):
    # (A rule set of its own is another game too; these deals score under classic only.)
    with app.app_context():
        club = club_with_games()
        text = records.export_deals(club, Filters(end=date(2024, 1, 4)))
        rows = rows_of(text)
        keep = [rows[0]] + [row for row in rows[1:] if row[0] == rows[1][0]]
        for index in range(1, len(keep)):
            if column in ("side_name", "players") and keep[index][5] != "1":
                continue
            keep[index][keep[0].index(column)] = value
        report = records_import.import_deals(club, text_of(keep))
        assert (report.games, report.skipped) == (1, [])


def test_names_match_whatever_their_case_and_spacing(app):
    with app.app_context():
        club = club_with_games()
        text = records.export_deals(club, Filters(end=date(2024, 1, 4)))
        text = text.replace("Ann & Bob", "ANN  &  bob").replace("Ann; Bob", "ann;  BOB")
        report = records_import.import_deals(club, text)
        assert (report.games, [s.ref for s in report.skipped]) == (0, ["1", "2"])


def test_each_game_held_matches_one_game_of_the_file(app):
    with app.app_context():
        club = club_with_games()
        rows = rows_of(records.export_deals(club, Filters(start=date(2024, 1, 11))))
        # The deal-less game three times over, as three games: the club holds one of them.
        copies = [rows[0]] + [[ref, *row[1:]] for ref in ("a", "b", "c") for row in rows[1:]]
        report = records_import.import_deals(club, text_of(copies))
        assert (report.games, [s.ref for s in report.skipped]) == (2, ["a"])
        again = records_import.import_deals(club, text_of(copies))
        assert (again.games, [s.ref for s in again.skipped]) == (0, ["a", "b", "c"])


def test_a_new_club_imports_every_game(app):
    with app.app_context():
        text = records.export_deals(club_with_games())
        report = records_import.import_deals(new_club("other"), text)
        assert (report.games, report.deals, report.skipped) == (3, 3, [])
        assert report.summary() == "Imported 3 games with 3 deals."
