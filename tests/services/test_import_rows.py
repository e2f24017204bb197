"""A deals file read back row by row (services/records_import/rows.py) and each deal's history
read from its cell (services/records_import/history.py): the rows the club's own deals export
wrote gather into the game they came from; a bad row or history is refused naming its line.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

import pytest

from scorekeeper.services import deals, games, records, records_read
from scorekeeper.services.access import Level
from scorekeeper.services.records_import.history import check_history, read_history
from scorekeeper.services.records_import.refusals import ImportRefused
from scorekeeper.services.records_import.rows import check_game, read_header, take_row

from ._support import ANN_AND_CAT, NOTHING, ONE_CLEAN, ONE_DIRTY

AT = datetime(2025, 3, 4, 19, 30, tzinfo=UTC)


def exported(club) -> list[list[str]]:
    """The club's deals file, as rows of cells (the header first)."""
    return list(csv.reader(io.StringIO(records.export_deals(club))))


def test_the_exported_rows_gather_into_the_game_they_came_from(club):
    game = games.start_game("club", ANN_AND_CAT, club=club)
    deals.enter_deal(game, Level.TABLE, [ONE_CLEAN, NOTHING], sent_by="Ann")
    deals.enter_deal(game, Level.TABLE, [NOTHING, ONE_DIRTY], sent_by="Cat")
    header, *rows = exported(club)
    names = read_header(header, 1)
    found: dict = {}
    for line, row in enumerate(rows, start=2):
        take_row(found, dict(zip(names, row, strict=True)), line)
    (read,) = found.values()
    check_game(read)
    assert (read.ruleset, read.played_on, read.line) == ("club", game.played_on, 2)
    assert [(s.position, s.name, s.players) for s in read.sides.values()] == [
        (1, "Ann", ["Ann"]),
        (2, "Cat", ["Cat"]),
    ]
    assert sorted(read.deals) == [1, 2]
    first = read.deals[1].entries
    assert first[1][1].books["clean"] == 1 and not first[2][1].books.get("clean")
    assert read.deals[2].entries[2][1].books["dirty"] == 1
    # Each deal's history came with it: who sent it.
    assert [e.by for e in read.deals[1].history] == ["Ann"]


def test_a_header_that_is_not_a_deals_exports_is_refused(club):
    header = exported(club)[0]
    with pytest.raises(ImportRefused, match="'colour' is not a column"):
        read_header([*header, "colour"], 1)
    with pytest.raises(ImportRefused, match="appears twice"):
        read_header([*header, header[0]], 1)
    with pytest.raises(ImportRefused, match="The header has no game column"):
        read_header([c for c in header if c != "game"], 1)


def test_a_side_named_otherwise_on_a_later_row_is_refused_naming_both_lines(club):
    game = games.start_game("club", ANN_AND_CAT, club=club)
    deals.enter_deal(game, Level.TABLE, [ONE_CLEAN, NOTHING])
    deals.enter_deal(game, Level.TABLE, [ONE_CLEAN, NOTHING])
    header, *rows = exported(club)
    names = read_header(header, 1)
    cells = [dict(zip(names, row, strict=True)) for row in rows]
    cells[2]["side_name"] = "Annie"  # deal 2, side 1
    found: dict = {}
    take_row(found, cells[0], 2)
    take_row(found, cells[1], 3)
    with pytest.raises(ImportRefused) as refused:
        take_row(found, cells[2], 4)
    assert (refused.value.line, refused.value.column) == (4, "side_name")
    assert "on line 2" in refused.value.message
    # A game missing a side's row for a deal is refused at its check.
    found = {}
    for line, row in ((2, cells[0]), (3, cells[1]), (4, cells[3])):
        take_row(found, row, line)
    with pytest.raises(ImportRefused, match="has no row for side 1"):
        check_game(next(iter(found.values())))


def test_a_history_reads_back_as_the_deals_file_wrote_it():
    written = [
        records_read.history_of("whole", 0, "Ann", "phone-1", AT, 1, None, None, None),
        records_read.history_of("correction", None, "Olga", "organiser", AT, 2, "typo", None, None),
    ]
    events = read_history(json.dumps(written), 7)
    assert [(e.kind, e.side, e.by, e.version, e.at) for e in events] == [
        ("whole", 0, "Ann", 1, AT),
        ("correction", None, "Olga", 2, AT),
    ]
    assert events[1].reason == "typo"
    check_history(events, 2, 7, "deal 1")


def test_a_history_that_is_not_one_is_refused_naming_its_line():
    with pytest.raises(ImportRefused, match="not valid JSON") as refused:
        read_history("[{", 9)
    assert refused.value.line == 9
    with pytest.raises(ImportRefused, match="levels deep"):
        read_history("[" * 200 + "]" * 200, 9)
    third = [records_read.history_of("whole", 2, "Ann", None, AT, 1, None, None, None)]
    with pytest.raises(ImportRefused, match="names side 3"):
        check_history(read_history(json.dumps(third), 9), 2, 9, "deal 1")
