"""Club records as CSV, deals back in, all or nothing: a spoiled file is refused naming its line
and column with nothing imported, spreadsheet habits and left-out optional columns are
accepted, and every entry survives its cells exactly.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from records_club import (
    Shared,
    games_of,
    mutated,
    new_club,
    open_shared,
    refused,
    row_index,
    rows_of,
    text_of,
    valid_file,
)

from scorekeeper.rules import BOOK_KINDS, CARD_CATEGORIES, DealEntry
from scorekeeper.services import records, records_import
from scorekeeper.services.records_import import ImportRefused
from scorekeeper.services.standings import Filters


@pytest.fixture(scope="module")
def shared(tmp_path_factory, databases) -> Iterator[Shared]:
    """One app and database for the whole file, and the standard club built in it once."""
    yield from open_shared(tmp_path_factory, databases)


# --- refusals ------------------------------------------------------------------------------------


def test_a_refusal_reads_like_a_sentence():
    assert str(ImportRefused(7, "melded_points", "'abc' is not a whole number.")) == (
        "Line 7, column melded_points: 'abc' is not a whole number."
    )
    assert str(ImportRefused(1, None, "The file is empty.")) == "Line 1: The file is empty."


def drop_column(name: str) -> str:
    rows = rows_of(valid_file())
    index = rows[0].index(name)
    return text_of([row[:index] + row[index + 1 :] for row in rows])


def add_column(name: str) -> str:
    return text_of([row + [name if i == 0 else ""] for i, row in enumerate(rows_of(valid_file()))])


# (how to spoil the file, line, column, words of the message)
SPOILED = {
    "missing column": (lambda: drop_column("melded_points"), 1, "melded_points", "no melded"),
    "unknown column": (lambda: add_column("colour"), 1, "colour", "not a column"),
    "not a number": (lambda: mutated(6, "melded_points", "abc"), 7, "melded_points", None),
    "negative": (lambda: mutated(3, "books_clean", "-1"), 4, "books_clean", "negative"),
    "fraction": (lambda: mutated(3, "red_threes_caught", "1.5"), 4, "red_threes_caught", "whole"),
    "unknown rule set": (lambda: mutated(9, "ruleset", "poker"), 10, "ruleset", "'poker' is not"),
    "rule set differs": (lambda: mutated(10, "ruleset", "classic"), 11, "ruleset", "line 10"),
    "impossible date": (lambda: mutated(1, "played_on", "2024-02-30"), 2, "played_on", "YYYY"),
    "other date format": (lambda: mutated(1, "played_on", "04/01/2024"), 2, "played_on", "date"),
    "date differs": (lambda: mutated(2, "played_on", "2024-01-05"), 3, "played_on", "line 2"),
    "bad json": (lambda: mutated(9, "house_rules", "{oops"), 10, "house_rules", "JSON"),
    "json not an object": (lambda: mutated(9, "house_rules", "[1]"), 10, "house_rules", "object"),
    "unknown house rule": (
        lambda: mutated(9, "house_rules", '{"wild_cards":9}'),
        10,
        "house_rules",
        "no rule called 'wild_cards'",
    ),
    "players differ": (lambda: mutated(4, "players", "Cat; Eve"), 5, "players", "line 3"),
    "side name differs": (lambda: mutated(3, "side_name", "Us"), 4, "side_name", "line 2"),
    "went out maybe": (lambda: mutated(2, "went_out", "maybe"), 3, "went_out", "yes or no"),
    "no game": (lambda: mutated(2, "game", ""), 3, "game", "game it belongs to"),
    "side zero": (lambda: mutated(2, "side", "0"), 3, "side", "from 1"),
    "too many figures": (
        lambda: mutated(2, "melded_points", "99999999999"),
        3,
        "melded_points",
        "too large",
    ),
    "guest who is not playing": (lambda: mutated(1, "guests", "Zed"), 2, "guests", "Zed"),
}


@pytest.mark.parametrize("case", SPOILED, ids=list(SPOILED))
def test_a_spoiled_file_is_refused_naming_line_and_column_and_nothing_is_imported(shared, case):
    spoil, line, column, words = SPOILED[case]
    with shared.app.app_context():
        refusal = refused(spoil())
    assert (refusal.line, refusal.column) == (line, column), str(refusal)
    assert str(refusal).startswith(f"Line {line}, column {column}: ")
    assert words is None or words in str(refusal), str(refusal)


def test_abc_in_a_number_reads_exactly(shared):
    with shared.app.app_context():
        refusal = refused(mutated(6, "melded_points", "abc"))
    assert str(refusal) == "Line 7, column melded_points: 'abc' is not a whole number."


def test_two_sides_going_out_is_refused_by_the_engine_at_the_deal(shared):
    with shared.app.app_context():
        text = mutated(2, "went_out", "yes")  # Cat & Dan, deal 1 of the classic game
        for column, value in (("books_clean", "2"), ("books_dirty", "2"), ("books_wild", "1")):
            text = mutated(2, column, value, text)
        refusal = refused(text)
    assert (refusal.line, refusal.column) == (2, "went_out")  # the deal's first row
    game = rows_of(valid_file())[1][0]
    assert f"Deal 1 of game {game} is refused: Only one side can go out" in str(refusal)


def test_a_figure_the_engine_refuses_points_at_that_side_and_column(shared):
    with shared.app.app_context():
        refusal = refused(mutated(row_index(1, "3", "2"), "melded_points", "703"))
    assert (refusal.line, refusal.column) == (7, "melded_points")
    assert "not a multiple of 5" in str(refusal) and "Deal 3" in str(refusal)


def test_an_engine_refusal_of_a_book_points_at_its_column(shared):
    with shared.app.app_context():
        # Classic has no book of black threes.
        refusal = refused(mutated(1, "books_black_threes", "1"))
    assert (refusal.line, refusal.column) == (2, "books_black_threes")


def test_a_deal_after_the_game_ended_is_refused(shared):
    with shared.app.app_context():
        rows = rows_of(valid_file())
        extra = [list(rows[7]), list(rows[8])]
        for row in extra:
            row[rows[0].index("deal")] = "5"
        refusal = refused(text_of(rows[:9] + extra + rows[9:]))
    assert (refusal.line, refusal.column) == (10, "deal")
    assert "The game is over" in str(refusal)


def test_deals_and_sides_must_be_complete(shared):
    with shared.app.app_context():
        rows = rows_of(valid_file())
        missing_side = refused(text_of(rows[:4] + rows[5:]))
        assert (missing_side.line, missing_side.column) == (4, "side")
        assert f"Deal 2 of game {rows[1][0]} has no row for side 2" in str(missing_side)
        gap = [list(row) for row in rows]
        for row in gap[7:9]:
            row[rows[0].index("deal")] = "6"
        missing_deal = refused(text_of(gap))
        assert (missing_deal.line, missing_deal.column) == (8, "deal")
        assert "has no deal 4" in str(missing_deal)
        twice = refused(text_of(rows[:3] + [rows[1]] + rows[3:]))
        assert (twice.line, twice.column) == (4, "side")
        short = refused(text_of(rows[:2] + [rows[2][:-3]] + rows[3:]))
        assert (short.line, short.column) == (3, None)
        assert "cells" in str(short)


def test_a_refusal_in_the_last_game_imports_none_of_the_good_games_before_it(shared):
    with shared.app.app_context():
        rows = rows_of(valid_file())
        assert rows[-1][rows[0].index("ruleset")] == "ten-thousand"
        rows[-1][rows[0].index("decks")] = rows[-2][rows[0].index("decks")] = "0"
        refusal = refused(text_of(rows))
        assert (refusal.line, refusal.column) == (len(rows) - 1, "decks")
        assert "Decks must be a whole number" in str(refusal)
        # The same with an engine refusal in the last deal of the last game.
        without_last = text_of(rows[:-2])
        refusal = refused(mutated(len(rows) - 3, "leftover_points", "53", without_last))
        assert (refusal.line, refusal.column) == (len(rows) - 2, "leftover_points")


def test_empty_files_and_big_files_are_refused(shared, monkeypatch):
    with shared.app.app_context():
        for text in ("", "\n\n", "\ufeff"):
            refusal = refused(text)
            assert (refusal.line, refusal.column) == (1, None) and "empty" in str(refusal)
        header_only = valid_file().splitlines()[0]
        assert "no rows" in str(refused(header_only))
        assert "5 MB" in str(refused("x" * (5 * 1024 * 1024 + 1)))
        monkeypatch.setattr(records_import, "MAX_ROWS", 5)
        too_many = refused(valid_file())
        assert (too_many.line, too_many.column) == (7, None) and "over 5 rows" in str(too_many)
        assert "not readable CSV" in str(refused('game,"' + "x" * 200_000))


def test_a_games_export_is_not_mistaken_for_a_deals_file(shared):
    with shared.app.app_context():
        refusal = refused(records.export_games(shared.source(), Filters()))
    assert (refusal.line, refusal.column) == (1, "deals")


# --- what import accepts --------------------------------------------------------------------------


def test_import_accepts_spreadsheet_habits(shared):
    with shared.app.app_context():
        rows = rows_of(valid_file())
        went_out = rows[0].index("went_out")
        truthy, falsy = iter(["TRUE", "1", "Yes", "true"]), iter(["", "False", "0", "N"])
        for row in rows[1:9]:  # the classic game
            row[went_out] = next(truthy if row[went_out] == "yes" else falsy)
        # Blank lines, a byte order mark, padded cells and columns in another order are fine.
        order = [0, *reversed(range(1, len(rows[0])))]
        moved = [[f" {row[i]} " if row[i] else row[i] for i in order] for row in rows]
        text = "\ufeff" + text_of(moved[:5]) + "\r\n\r\n" + text_of(moved[5:])
        target = new_club("habits")
        report = records_import.import_deals(target, text)
        assert report.games == 6
        classic = games_of(target)[0]
        assert [[bool(s.entry.get("went_out")) for s in d.scores] for d in classic.deals] == [
            [True, False],
            [False, True],
            [False, True],
            [True, False],
        ]
        assert [s.final_total for s in classic.sides] == [9900, 9450]


def test_optional_columns_may_be_left_out(shared):
    with shared.app.app_context():
        rows = rows_of(valid_file())
        keep = [i for i, name in enumerate(rows[0]) if name not in ("guests", "deal_total")]
        target = new_club("bare")
        report = records_import.import_deals(
            target, text_of([[row[i] for i in keep] for row in rows])
        )
        # Without the guests column, every player becomes a member, the guest too.
        assert report.members_added == ["Ann", "Bob", "Cat", "Dan", "Eve", "Zed"]


# --- entries cell by cell ------------------------------------------------------------------------


def mapping(keys) -> st.SearchStrategy:
    return st.dictionaries(st.sampled_from(keys), st.integers(0, 40), max_size=len(keys))


@st.composite
def entries(draw) -> DealEntry:
    melded_cards = draw(st.none() | mapping(CARD_CATEGORIES))
    leftover_cards = draw(st.none() | mapping(CARD_CATEGORIES))
    return DealEntry(
        books=draw(mapping(BOOK_KINDS)),
        red_threes_down=draw(st.integers(0, 8)),
        red_threes_caught=draw(st.integers(0, 8)),
        went_out=draw(st.booleans()),
        melded_points=None if melded_cards else draw(st.none() | st.integers(0, 5000)),
        melded_cards=melded_cards,
        leftover_points=None if leftover_cards else draw(st.none() | st.integers(0, 5000)),
        leftover_cards=leftover_cards,
        bonuses=draw(mapping(("exact_22",))),
        open_books=draw(mapping(BOOK_KINDS)),
        open_book_points=draw(st.integers(0, 2000)),
    )


@settings(max_examples=60, deadline=None)
@given(entries())
def test_any_entry_survives_its_cells_exactly(entry):
    stored = entry.to_dict()
    cells = records.entry_cells(stored)
    assert list(cells) == list(records.ENTRY_NAMES)
    written = rows_of(text_of([list(cells), list(cells.values())]))
    back = records_import.entry_from_cells(dict(zip(*written, strict=True)), 2)
    assert back.to_dict() == stored
