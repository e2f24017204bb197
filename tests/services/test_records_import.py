"""services/records_import/: a deals file read back into a club, all or nothing."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from sqlalchemy import select

from scorekeeper.plumbing.models import Club, Deal, DealScore, Game, Member, Player
from scorekeeper.services import clubs, records, records_import
from scorekeeper.services.games import SideSetup
from scorekeeper.services.records_import import ImportRefused, ImportReport, SkippedGame

from ._support import club_game, how_many, kept

MARCH = date(2025, 3, 4)


@pytest.fixture
def exported(club) -> str:
    """The deals file of a club holding one finished game: Ann beats Zed, a guest, 2,000 to 0."""
    club_game(
        club,
        finished=True,
        played_on=MARCH,
        sides=[SideSetup("Ann", ["Ann"]), SideSetup("Zed", ["Zed"])],
    )
    return records.export_deals(club)


@pytest.fixture
def other(olga) -> Club:
    """Another club of Olga's, empty."""
    return clubs.create_club("Thursday Club", "thursday", olga)


def edited(text: str, line: int, **cells: str) -> str:
    """The file with cells of one line (numbered from 1, the header's) changed."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    for column, value in cells.items():
        rows[line - 1][header.index(column)] = value
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


def refusal(club: Club, text: str) -> tuple[int, str | None, str]:
    with pytest.raises(ImportRefused) as refused:
        records_import.import_deals(club, text)
    error = refused.value
    assert str(error) == (
        f"Line {error.line}, column {error.column}: {error.message}"
        if error.column
        else f"Line {error.line}: {error.message}"
    )
    return error.line, error.column, error.message


def games_of(club: Club) -> list[tuple]:
    rows = kept(
        select(Game.id, Game.played_on, Game.finished_at.is_not(None)).where(
            Game.club_id == club.id
        )
    )
    return [tuple(row) for row in rows]


def test_a_clubs_deals_file_is_read_into_another_club(exported, other):
    report = records_import.import_deals(other, exported)
    assert report == ImportReport(games=1, deals=4, members_added=["Ann"])
    assert report.summary() == "Imported 1 game with 4 deals."
    # Ann becomes a member; Zed was a guest and stays one.
    assert kept(select(Member.name).where(Member.club_id == other.id)) == [("Ann",)]
    ((game_id, played_on, finished),) = games_of(other)
    assert (played_on, finished) == (MARCH, True)
    players = select(Player.name, Player.member_id.is_not(None)).order_by(Player.id)
    assert kept(players)[-2:] == [
        ("Ann", True),
        ("Zed", False),
    ]
    scores = (
        select(Deal.number, DealScore.side_position, DealScore.entry, DealScore.total)
        .join(DealScore.deal)
        .where(Deal.game_id == game_id)
        .order_by(Deal.number, DealScore.side_position)
    )
    assert kept(scores) == [
        row
        for number in (1, 2, 3, 4)
        for row in ((number, 0, {"books": {"clean": 1}}, 500), (number, 1, {}, 0))
    ]


def test_a_game_the_club_holds_is_skipped(club, exported):
    report = records_import.import_deals(club, exported)
    assert report == ImportReport(games=0, deals=0, skipped=[SkippedGame("1", 2, 9)])
    assert report.summary() == (
        "Nothing imported: the file's one game is already in the records (game 1, lines 2–9)."
    )
    assert how_many(Game) == 1


def test_names_in_a_file_match_the_clubs_whatever_their_spaces(club, other):
    """A file's "Ann  Smith" is member Ann Smith (no member added, the player is her), and a
    game the club holds is recognised though the file spaces its names otherwise."""
    clubs.add_member(club, "Ann Smith")
    clubs.add_member(other, "Ann Smith")
    club_game(
        club,
        finished=True,
        played_on=MARCH,
        sides=[SideSetup("Ann Smith", ["Ann Smith"]), SideSetup("Zed", ["Zed"])],
    )
    spaced = records.export_deals(club).replace("Ann Smith", "Ann  Smith")
    assert "Ann  Smith" in spaced
    report = records_import.import_deals(other, spaced)
    assert report == ImportReport(games=1, deals=4, members_added=[])
    players = select(Player.name, Member.name).join(Player.member).order_by(Player.id)
    assert kept(players)[-1] == ("Ann Smith", "Ann Smith")
    # Both clubs now hold the game: the spaced file again is skipped by each.
    for holder in (club, other):
        again = records_import.import_deals(holder, spaced)
        assert again == ImportReport(games=0, deals=0, skipped=[SkippedGame("1", 2, 9)])
    assert how_many(Game) == 2


def test_an_import_summary_names_ten_skipped_games_and_counts_the_rest():
    skipped = [SkippedGame(str(n), n, n) for n in range(1, 13)]
    report = ImportReport(games=2, deals=9, skipped=skipped)
    named = "; ".join(f"game {n}, line {n}" for n in range(1, 11))
    assert report.summary() == (
        f"Imported 2 games with 9 deals. Skipped 12 games already in the records ({named}; and "
        "2 more)."
    )


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        pytest.param(
            lambda text: "",
            (1, None, "The file is empty: it needs a header and rows of deals."),
            id="empty",
        ),
        pytest.param(
            lambda text: text.split("\r\n")[0] + "\r\n",
            (2, None, "The file has a header but no rows of deals."),
            id="header-only",
        ),
        pytest.param(
            lambda text: text.replace("game,", "nonsense,", 1),
            (1, "nonsense", "'nonsense' is not a column of a deals export."),
            id="unknown-column",
        ),
        pytest.param(
            lambda text: edited(text, 3, played_on="2025-13-01"),
            (3, "played_on", "Game 1 has '2025-03-04' on line 2, not '2025-13-01'."),
            id="another-date-for-the-game",
        ),
        pytest.param(
            lambda text: edited(text, 2, played_on="04/03/2025"),
            (2, "played_on", "'04/03/2025' is not a date written as YYYY-MM-DD."),
            id="bad-date",
        ),
        pytest.param(
            lambda text: edited(text, 4, books_dirty="-1"),
            (4, "books_dirty", "'-1' is negative; figures start at 0."),
            id="negative",
        ),
        pytest.param(
            lambda text: edited(text, 5, went_out="perhaps"),
            (5, "went_out", "'perhaps' is not yes or no."),
            id="yes-or-no",
        ),
        pytest.param(
            lambda text: edited(text, 2, ruleset="poker"),
            (
                2,
                "ruleset",
                "'poker' is not a rule set; try classic, club, family, casual, ten-thousand, "
                "cutthroat.",
            ),
            id="no-such-rule-set",
        ),
        pytest.param(
            lambda text: edited(text, 6, books_wild="1"),
            (
                6,
                "books_wild",
                "Deal 3 of game 1 is refused: Ann: the Club individual rules have no wild book.",
            ),
            id="engine-refuses-a-deal",
        ),
        pytest.param(
            lambda text: "\r\n".join(line for n, line in enumerate(text.split("\r\n")) if n != 8),
            (8, "side", "Deal 4 of game 1 has no row for side 2."),
            id="side-missing-from-a-deal",
        ),
        pytest.param(
            lambda text: text.replace("\r\n1,2025", "\r\n1,2025,extra", 1),
            (2, None, "This row has 43 cells; the header has 42."),
            id="cells-counted",
        ),
    ],
)
def test_a_file_that_cannot_be_imported_names_line_column_and_why(
    other, exported, change, expected
):
    assert refusal(other, change(exported)) == expected
    assert games_of(other) == []
    assert kept(select(Member.name).where(Member.club_id == other.id)) == []


def test_all_or_nothing_a_bad_second_game_keeps_the_first_out(club, other):
    club_game(club, finished=True, played_on=MARCH)
    club_game(club, finished=True, played_on=MARCH)
    text = records.export_deals(club)
    # The second game's last deal: both sides went out.
    broken = edited(
        edited(text, 16, went_out="yes", books_clean="2", books_dirty="2"),
        17,
        went_out="yes",
        books_clean="2",
        books_dirty="2",
    )
    line, column, message = refusal(other, broken)
    assert (line, column) == (16, "went_out")
    assert message == "Deal 4 of game 2 is refused: Only one side can go out; Ann and Cat both did."
    assert games_of(other) == []
    assert kept(select(Member.name).where(Member.club_id == other.id)) == []


def test_a_rule_set_name_links_the_clubs_saved_rules_if_the_numbers_match(olga, club, other):
    thursday = {"red_three_caught": 300}
    saved = clubs.create_saved_rules(club, "Thursday", "club", thursday)
    club_game(club, finished=True, played_on=MARCH, saved_rules=saved, house_rules=thursday)
    text = records.export_deals(club)
    same = clubs.create_saved_rules(other, "thursday", "club", thursday)
    records_import.import_deals(other, text)
    # A third club's Thursday rules have other numbers: the game keeps the name alone.
    third = clubs.create_club("Friday Club", "friday", olga)
    clubs.create_saved_rules(third, "Thursday", "club", {"red_three_caught": 200})
    records_import.import_deals(third, text)
    rules = select(Game.club_id, Game.rules_name, Game.saved_rules_id).order_by(Game.id)
    assert kept(rules) == [
        (club.id, "Thursday", saved.id),
        (other.id, "Thursday", same.id),
        (third.id, "Thursday", None),
    ]


def test_entry_from_cells_reads_an_entry_as_entry_cells_wrote_it():
    entry = {
        "books": {"clean": 2},
        "went_out": True,
        "melded_points": 0,
        "bonuses": {"exact_22": 1},
    }
    cells = records.entry_cells(entry)
    assert records_import.entry_from_cells(cells, 7).to_dict() == entry
    with pytest.raises(ImportRefused) as refused:
        records_import.entry_from_cells({**cells, "red_threes_down": "x1"}, 7)
    assert (refused.value.line, refused.value.column, refused.value.message) == (
        7,
        "red_threes_down",
        "'x1' is not a whole number.",
    )
