"""The input-hardening tests' shared helpers (test_hardening_input.py,
test_hardening_imports.py): a club with games, built by hand, and its export file read and
changed cell by cell.
"""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game
from scorekeeper.rules import DealEntry
from scorekeeper.services import accounts, clubs, games, records_import
from scorekeeper.services.games import SideSetup
from scorekeeper.services.records_import import ImportRefused

PASSWORD = "correct horse"
SURROGATE = "\ud800"


# --------------------------------------------------------------------------- import files

E = DealEntry
OUT = {"clean": 2, "dirty": 2, "wild": 1}
DEALS = [
    [
        E(books=OUT, went_out=True, melded_points=600),
        E(books={"clean": 1}, red_threes_down=1, melded_points=300, leftover_points=150),
    ],
    [
        E(books={"clean": 1, "dirty": 1}, melded_points=400, leftover_points=200),
        E(books=OUT, went_out=True, melded_points=500),
    ],
]


def new_club(slug: str = "club") -> Club:
    """An organiser's club with four members, ranked from one game."""
    organiser = accounts.organiser_named("org") or accounts.register("org", PASSWORD)
    club = clubs.create_club(slug.title(), slug, organiser)
    clubs.update_settings(club, name=club.name, public=False, min_games=1)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        clubs.add_member(club, name)
    return club


def club_with_games(slug: str = "club") -> Club:
    """A club with three games: two on one day (one with a guest), one with no deals yet."""
    club = new_club(slug)
    pairs = [SideSetup("Ann & Bob", ["Ann", "Bob"]), SideSetup("Cat & Dan", ["Cat", "Dan"])]
    games.record_game("classic", pairs, DEALS, club=club, played_on=date(2024, 1, 4))
    guests = [SideSetup("Ann & Zed", ["Ann", "Zed"]), SideSetup("Cat & Dan", ["Cat", "Dan"])]
    games.record_game("classic", guests, DEALS[:1], club=club, played_on=date(2024, 1, 4))
    games.record_game("casual", pairs, [], club=club, played_on=date(2024, 1, 11))
    return club


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def text_of(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


def with_cell(text: str, row: int, column: str, value: str) -> str:
    """The file with one cell changed (row 1 is the first after the header)."""
    rows = rows_of(text)
    rows[row][rows[0].index(column)] = value
    return text_of(rows)


def game_count() -> int:
    return db.session.scalar(select(func.count()).select_from(Game))


def refused(club: Club, text: str) -> ImportRefused:
    """The import is refused and nothing at all is saved."""
    before = game_count()
    with pytest.raises(ImportRefused) as caught:
        records_import.import_deals(club, text)
    assert game_count() == before
    return caught.value
