"""A club night's results as CSV (services/nights/export.py): its standings, a blank line, then a
row per table of each round with its sides, their totals and who won; cells formula-safe.

The rows are read back with the csv module and checked against the night as played: the games'
own totals, the winners, and the night's standings as its page shows them.
"""

from __future__ import annotations

import csv
import io

import pytest

from scorekeeper.rules.terms import PARTNERS
from scorekeeper.services import clubs, games
from scorekeeper.services.nights import board as night_board
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights.export import STANDING_COLUMNS, TABLE_COLUMNS, export_night

from .test_night_play import TWELVE, open_twelve, play_out, table_games


@pytest.fixture
def ids(club) -> dict[str, int]:
    """Tuesday Club with twelve members, by name: id."""
    for name in TWELVE:
        if name not in ("Ann", "Cat"):
            clubs.add_member(club, name)
    return {m.name: m.id for m in club.members}


def read(text: str) -> tuple[list[list[str]], list[list[str]]]:
    """The standings' rows (header first) and the tables' rows (header first)."""
    rows = list(csv.reader(io.StringIO(text)))
    blank = rows.index([])
    return rows[:blank], rows[blank + 1 :]


def test_a_played_round_is_its_standings_then_its_tables(club, ids):
    night = open_twelve(club, ids)
    night_play.seat_round(night)
    played = table_games(night, 1)
    for game in played:
        play_out(game)  # side 1 takes a clean book each deal, side 2 a dirty one: side 1 wins

    standings, tables = read(export_night(night))

    assert standings[0] == list(STANDING_COLUMNS)
    assert tables[0] == [*TABLE_COLUMNS, "side_1", "side_1_total", "side_2", "side_2_total", "won"]
    # A row per table of round 1, in table order, each the game as its scoreboard adds it up.
    assert len(tables) == 1 + len(played) == 4
    points: dict[str, int] = {}
    winners: set[str] = set()
    for number, (row, game) in enumerate(zip(tables[1:], played, strict=True), start=1):
        progress = games.progress_of(game)
        sides = [PARTNERS.join(p.name for p in side.players) for side in game.sides]
        totals = [str(t) for t in progress.totals]
        assert row == ["1", str(number), "4", sides[0], totals[0], sides[1], totals[1], sides[0]]
        assert progress.totals[0] > progress.totals[1]
        for side, total in zip(game.sides, progress.totals, strict=True):
            points.update({p.name: total for p in side.players})
        winners.update(p.name for p in game.sides[0].players)

    # The standings: everyone, with their side's total and their win, as the page ranks them.
    by_name = {row[1]: dict(zip(STANDING_COLUMNS, row, strict=True)) for row in standings[1:]}
    assert sorted(by_name) == sorted(TWELVE)
    for name, row in by_name.items():
        assert (row["points"], row["games"], row["sat_out"]) == (str(points[name]), "1", "0")
        assert row["wins"] == ("1" if name in winners else "0")
    shown = night_board.night_view(night).standings
    assert [row[:2] for row in standings[1:]] == [
        ["" if s.rank is None else str(s.rank), s.name] for s in shown
    ]
    assert [by_name[s.name]["average"] for s in shown] == [str(s.average) for s in shown]


def test_a_round_still_playing_has_no_winner_yet(club, ids):
    night = open_twelve(club, ids)
    night_play.seat_round(night)
    _, tables = read(export_night(night))
    assert [row[:3] for row in tables[1:]] == [["1", "1", "0"], ["1", "2", "0"], ["1", "3", "0"]]
    assert all(row[-1] == "" for row in tables[1:]), tables


def test_a_night_not_yet_seated_has_its_players_and_no_tables(club, ids):
    standings, tables = read(export_night(open_twelve(club, ids)))
    assert sorted(row[1] for row in standings[1:]) == sorted(TWELVE)
    assert all(row[2:6] == ["0", "0", "0", "0"] for row in standings[1:]), standings
    assert tables == [[*TABLE_COLUMNS, "side_1", "side_1_total", "side_2", "side_2_total", "won"]]


def test_a_guest_named_as_a_formula_is_written_as_text(club, ids):
    night = open_twelve(club, ids, guests="=HYPERLINK(1)")
    night_play.seat_round(night)
    text = export_night(night)
    assert "'=HYPERLINK(1)" in text
    assert ",=HYPERLINK" not in text and "\n=HYPERLINK" not in text
