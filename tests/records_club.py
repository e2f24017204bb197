"""The standard club of the club records tests: its games (every rule set, deal by deal), the
module-wide app it is built in once, and the CSV helpers the tests read and spoil files with.
Shared by tests/test_records.py (round trip, exports) and tests/test_records_import.py
(refusals, what import accepts, entries cell by cell); tests/test_exports.py plays the games too.
"""

from __future__ import annotations

import csv
import io
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Member
from scorekeeper.rules import DealEntry
from scorekeeper.services import accounts, clubs, games, records, records_import
from scorekeeper.services.games import SideSetup
from scorekeeper.services.records_import import ImportRefused
from scorekeeper.services.standings import Standing

E = DealEntry
OUT = {"clean": 2, "dirty": 2, "wild": 1}

# Classic, 5 decks: clean 500, dirty 300, wild 1,500, red three +100 down / -100 caught, out 100.
#   Deal 1  Ann & Bob: 1,000 + 600 + 1,500 books + 100 out + 600 melded          = 3,800
#           Cat & Dan: 500 book + 100 red three down + 300 melded - 150 left      =   750
#   Deal 2  Ann & Bob: 500 + 300 books + 400 - 200 cards - 100 red three caught   =   900
#           Cat & Dan: 3,100 books + 100 out + 500 melded                         = 3,700
#   Deal 3  Ann & Bob: 0 melded (entered) - 300 left                              =  -300
#           Cat & Dan: 1,500 + 600 + 1,500 books + 200 red threes + 100 + 700     = 4,600
#   Deal 4  Ann & Bob: 1,000 + 600 + 3,000 books + 100 out + 800 melded           = 5,500
#           Cat & Dan: 300 book + 200 melded - 100 left                           =   400
#   Totals  Ann & Bob 9,900 (wins), Cat & Dan 9,450.
CLASSIC_DEALS = [
    [
        E(books=OUT, went_out=True, melded_points=600),
        E(books={"clean": 1}, red_threes_down=1, melded_points=300, leftover_points=150),
    ],
    [
        E(
            books={"clean": 1, "dirty": 1},
            melded_points=400,
            leftover_points=200,
            red_threes_caught=1,
        ),
        E(books=OUT, went_out=True, melded_points=500),
    ],
    [
        E(melded_points=0, leftover_points=300),
        E(
            books={"clean": 3, "dirty": 2, "wild": 1},
            went_out=True,
            melded_points=700,
            red_threes_down=2,
        ),
    ],
    [
        E(books={"clean": 2, "dirty": 2, "wild": 2}, went_out=True, melded_points=800),
        E(books={"dirty": 1}, melded_points=200, leftover_points=100),
    ],
]

# Cutthroat to 5,000 with a 200 going-out bonus; open books move to the other team.
#   Deal 1  North 3,300 books + 200 + 900 + South's open dirty book 300 and 100 points = 4,800
#           South 500 + 400 - 200 = 700
#   Deal 2  North 500 + 300 - 300 caught = 500
#           South 3,300 + 200 + 1,000 + North's open clean book 500 and 50 points = 5,050
#   Totals  North 5,300, South 5,750: South wins.
CUTTHROAT_DEALS = [
    [
        E(
            books={"clean": 2, "black_threes": 1, "dirty": 1, "wild": 1},
            went_out=True,
            melded_points=900,
        ),
        E(
            books={"clean": 1},
            open_books={"dirty": 1},
            open_book_points=100,
            melded_points=400,
            leftover_points=200,
        ),
    ],
    [
        E(
            books={"clean": 1},
            open_books={"clean": 1},
            open_book_points=50,
            melded_points=300,
            red_threes_caught=1,
        ),
        E(books={"clean": 3, "dirty": 1, "wild": 1}, went_out=True, melded_points=1000),
    ],
]

CASUAL_DEALS = [
    [
        E(
            books={"clean": 2, "dirty": 1, "wild": 1},
            went_out=True,
            bonuses={"exact_22": 2},
            melded_cards={"joker": 1, "two": 2, "ace": 3, "eight_to_king": 10, "four_to_seven": 6},
        ),
        E(books={"clean": 1}, melded_points=250, leftover_cards={"joker": 1, "eight_to_king": 3}),
    ],
    [
        E(red_threes_caught=1, melded_points=0, leftover_points=300),
        E(
            books={"clean": 2, "dirty": 2},
            went_out=True,
            bonuses={"exact_22": 1},
            melded_points=350,
        ),
    ],
    [
        E(books={"clean": 3, "wild": 1, "dirty": 1}, went_out=True, melded_points=500),
        E(),
    ],
    [
        E(books={"dirty": 1}, melded_cards={"four_to_seven": 7}),
        E(books={"clean": 2, "dirty": 2}, went_out=True, melded_points=150),
    ],
]

CLUB_DEALS = [
    [
        E(books={"clean": 2, "dirty": 2}, went_out=True, melded_points=300),
        E(books={"clean": 1}, melded_points=200, leftover_points=50),
        E(red_threes_down=1, melded_points=100, leftover_points=100),
    ],
    [
        E(leftover_cards={"two": 1, "joker": 1}),
        E(books={"clean": 2, "dirty": 2}, went_out=True, melded_points=250, red_threes_down=1),
        E(books={"dirty": 1}, melded_points=150),
    ],
    [
        E(books={"clean": 1}, melded_points=100, red_threes_caught=1),
        E(books={"dirty": 1}),
        E(books={"clean": 2, "dirty": 2}, went_out=True, melded_points=400),
    ],
    [
        E(books={"clean": 3, "dirty": 2}, went_out=True, melded_points=500),
        E(),
        E(books={"clean": 1}, leftover_points=45),
    ],
]

FAMILY_DEALS = [
    [
        E(
            books={"clean_sevens": 1, "dirty": 2},
            went_out=True,
            melded_cards={"joker": 2, "ace": 2},
        ),
        E(books={"clean": 1}, melded_points=100, leftover_points=50),
    ],
]

MEMBERS = ("Ann", "Bob", "Cat", "Dan", "Eve")
SLUGS = itertools.count(1)
_EXPORT: dict[str, str] = {}


def organiser():
    """The one organiser every test club belongs to."""
    return accounts.organiser_named("keeper") or accounts.register("keeper", "keeper-of-records")


def new_club(prefix: str = "club") -> Club:
    """An empty club whose games are ranked from one game on."""
    club = clubs.create_club(prefix.title(), f"{prefix}-{next(SLUGS)}", organiser())
    clubs.update_settings(club, name=club.name, public=False, min_games=1)
    return club


def build_club(prefix: str = "thursday") -> Club:
    """A club with members and six games: four finished, one unfinished, one without deals."""
    club = new_club(prefix)
    for name in MEMBERS:
        clubs.add_member(club, name)
    pairs = [SideSetup("Ann & Bob", ["Ann", "Bob"]), SideSetup("Cat & Dan", ["Cat", "Dan"])]
    record = games.record_game
    record("classic", pairs, CLASSIC_DEALS, club=club, played_on=date(2024, 1, 4))
    record(
        "cutthroat",
        [SideSetup("North", ["Ann", "Cat"]), SideSetup("South", ["Bob", "Eve"])],
        CUTTHROAT_DEALS,
        decks=4,
        house_rules={"target_score": 5000, "going_out_bonus": 200},
        club=club,
        played_on=date(2024, 1, 11),
    )
    record(
        "casual",
        [SideSetup("Ann & Zed", ["Ann", "Zed"]), SideSetup("Bob & Dan", ["Bob", "Dan"])],
        CASUAL_DEALS,
        club=club,
        played_on=date(2024, 1, 18),
    )
    record(
        "club",
        [SideSetup(name, [name]) for name in ("Ann", "Cat", "Eve")],
        CLUB_DEALS,
        house_rules={
            "going_out_bonus": 250,
            "opening_minimums": [[1, 60], [2, 90], [3, 120], [4, 150]],
        },
        club=club,
        played_on=date(2024, 2, 1),
    )
    record(
        "family",
        [SideSetup("Team 1", ["Ann", "Bob"]), SideSetup("Team 2", ["Cat", "Dan"])],
        FAMILY_DEALS,
        house_rules={"card_values": {"joker": 100}},
        club=club,
        played_on=date(2024, 2, 8),
    )
    record(
        "ten-thousand",
        [SideSetup("East", ["Ann", "Bob"]), SideSetup("West", ["Cat", "Eve"])],
        [],
        club=club,
        played_on=date(2024, 2, 15),
    )
    return club


@dataclass(frozen=True)
class Shared:
    """One app and database for the whole file, and a club built in it once.

    Every test works in clubs of its own (or only reads the shared one), and refused imports
    must leave the database as they found it, so one migrated database keeps the file fast.
    """

    app: Flask
    source_id: int

    def source(self) -> Club:
        """The standard club, in the current session."""
        return db.session.get(Club, self.source_id)


def open_shared(tmp_path_factory, databases) -> Iterator[Shared]:
    """What a test module's module-wide `shared` fixture yields: one app on a fresh database and
    the standard club built in it once (its deals export kept for `valid_file`)."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": databases.fresh(tmp_path_factory.mktemp("records")),
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        source = build_club()
        _EXPORT["deals"] = records.export_deals(source)
        source_id = source.id
    yield Shared(app, source_id)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def valid_file() -> str:
    """The deals export of the shared club."""
    return _EXPORT["deals"]


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def text_of(rows: list[list[str]]) -> str:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


def dicts_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


def games_of(club: Club) -> list[Game]:
    query = select(Game).where(Game.club_id == club.id).order_by(Game.played_on, Game.id)
    return list(db.session.execute(query).scalars())


def snapshot(club: Club) -> list[dict]:
    """Everything a game holds, without database ids."""
    return [
        {
            "ruleset": game.ruleset,
            "played_on": game.played_on,
            "decks": game.decks,
            "house_rules": game.house_rules,
            "finished": game.finished_at is not None,
            "sides": [
                (
                    side.position,
                    side.name,
                    [(p.name, p.member.name if p.member else None) for p in side.players],
                    side.final_total,
                    side.won,
                    side.deals_played,
                    side.clean_books,
                    side.dirty_books,
                    side.wild_books,
                    side.special_books,
                    side.went_out,
                    side.red_threes_caught,
                )
                for side in game.sides
            ],
            "deals": [
                [(s.side_position, s.entry, s.total) for s in deal.scores] for deal in game.deals
            ],
        }
        for game in games_of(club)
    ]


def figures(rows: list[Standing]) -> list[tuple]:
    """Standings without member ids, which differ between clubs, nor the partners' digests
    made of them (whether each rating is always partnered stays)."""
    other = {"member_id", "rating_partners"}
    return [
        (*(v for k, v in row.__dict__.items() if k not in other), row.always_partnered)
        for row in rows
    ]


def counts() -> tuple[int, int]:
    games = db.session.scalar(select(func.count()).select_from(Game))
    members = db.session.scalar(select(func.count()).select_from(Member))
    return games, members


def refused(text: str) -> ImportRefused:
    """Import into a new club, expect a refusal, and check nothing at all was saved."""
    target = new_club("target")
    clubs.add_member(target, "Ann")
    before = counts()
    with pytest.raises(ImportRefused) as caught:
        records_import.import_deals(target, text)
    assert counts() == before
    assert [m.name for m in target.members] == ["Ann"]
    assert games_of(target) == []
    return caught.value


def mutated(row_index: int, column: str, value: str, text: str | None = None) -> str:
    """The valid file with one cell changed (row_index 1 is the first row after the header)."""
    rows = rows_of(text or valid_file())
    rows[row_index][rows[0].index(column)] = value
    return text_of(rows)


def row_index(game_number: int, deal: str, side: str, text: str | None = None) -> int:
    """The index of a row (game_number counts games in the file from 1)."""
    rows = dicts_of(text or valid_file())
    refs = list(dict.fromkeys(row["game"] for row in rows))
    for index, row in enumerate(rows, start=1):
        if (row["game"], row["deal"], row["side"]) == (refs[game_number - 1], deal, side):
            return index
    raise AssertionError("no such row")
