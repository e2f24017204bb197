"""Club records as CSV: games, deals and standings out, and a club's deals back in whole.

The refusals (all or nothing), what an import accepts and entries cell by cell are in
tests/test_records_import.py; the standard club both play is in tests/records_club.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest

# test_exports.py imports CLASSIC_DEALS, MEMBERS and build_club from here.
from records_club import (
    CLASSIC_DEALS,  # noqa: F401
    MEMBERS,
    Shared,
    build_club,
    dicts_of,
    figures,
    games_of,
    new_club,
    open_shared,
    rows_of,
    snapshot,
)

from scorekeeper.rules import BOOK_KINDS, CARD_CATEGORIES
from scorekeeper.services import clubs, games, records, records_import, standings
from scorekeeper.services.games import SideSetup
from scorekeeper.services.standings import Filters, Standing


@pytest.fixture(scope="module")
def shared(tmp_path_factory, databases) -> Iterator[Shared]:
    """One app and database for the whole file, and the standard club built in it once."""
    yield from open_shared(tmp_path_factory, databases)


# --- round trip -----------------------------------------------------------------------------------


def test_export_then_import_into_a_new_club_reproduces_every_game_and_the_standings(shared):
    with shared.app.app_context():
        source = shared.source()
        text = records.export_deals(source)
        target = new_club("restore")

        report = records_import.import_deals(target, text)

        assert report == records_import.ImportReport(games=6, deals=15, members_added=list(MEMBERS))
        # Rule sets, dates, decks, house rules, sides, players (Zed still a guest), entries,
        # deal totals and every figure the standings add up.
        assert snapshot(target) == snapshot(source)
        for filters in (Filters(), Filters(ruleset="casual"), Filters(end=date(2024, 1, 11))):
            assert figures(standings.standings(target, filters)) == figures(
                standings.standings(source, filters)
            )
        # Exporting the new club gives the same files, but for the new games' ids and each
        # deal's history (issue 40: the source's deals were saved with none; each imported deal
        # came in with the import, `tests/test_api_history.py`).
        assert [row[1:-1] for row in rows_of(records.export_deals(target))] == [
            row[1:-1] for row in rows_of(text)
        ]
        assert [row[1:] for row in rows_of(records.export_games(target, Filters()))] == [
            row[1:] for row in rows_of(records.export_games(source, Filters()))
        ]
        assert records.export_standings(standings.standings(target, Filters())) == (
            records.export_standings(standings.standings(source, Filters()))
        )


def test_import_matches_members_whatever_the_case_and_leaves_guests_guests(shared):
    with shared.app.app_context():
        text = records.export_deals(shared.source())
        target = new_club("friday")
        ann = clubs.add_member(target, "ANN")
        report = records_import.import_deals(target, text)
        assert report.members_added == ["Bob", "Cat", "Dan", "Eve"]
        assert sorted(m.name for m in target.members) == ["ANN", "Bob", "Cat", "Dan", "Eve"]
        casual = games_of(target)[2]
        assert [(p.name, p.member) for p in casual.sides[0].players] == [
            ("Ann", ann),
            ("Zed", None),
        ]
        standing = {row.player: row for row in standings.standings(target, Filters())}
        assert standing["ANN"].games == 4 and "Zed" not in standing


def test_import_into_the_same_club_skips_the_games_it_holds(shared):
    """Restoring a club's own export never counts a game twice (issue 14)."""
    with shared.app.app_context():
        club = build_club("same")
        exported = records.export_deals(club, Filters(ruleset="classic"))
        held = [g.id for g in games_of(club) if g.ruleset == "classic"]
        report = records_import.import_deals(club, exported)
        assert (report.games, report.deals, report.members_added) == (0, 0, [])
        assert [s.ref for s in report.skipped] == [str(i) for i in held]
        assert "already in the records" in report.summary()
        assert [g.ruleset for g in games_of(club)].count("classic") == 1


# --- the exports ----------------------------------------------------------------------------------


def test_deals_csv_is_one_row_per_game_deal_and_side_with_blanks_for_what_was_not_entered(shared):
    with shared.app.app_context():
        rows = dicts_of(records.export_deals(shared.source()))
    assert list(rows[0]) == [
        "game", "played_on", "ruleset", "decks", "house_rules", "side", "side_name", "players",
        "guests", "deal",
        *(f"books_{kind}" for kind in BOOK_KINDS),
        "red_threes_down", "red_threes_caught", "went_out", "melded_points", "leftover_points",
        *(f"melded_cards_{c}" for c in CARD_CATEGORIES),
        *(f"leftover_cards_{c}" for c in CARD_CATEGORIES),
        "bonus_exact_22",
        *(f"open_books_{kind}" for kind in BOOK_KINDS),
        "open_book_points", "deal_total", "rule_set", "history",
    ]  # fmt: skip
    # 8 classic + 4 cutthroat + 8 casual + 12 club + 2 family (unfinished) + 2 without deals.
    assert len(rows) == 36
    classic = [r for r in rows if r["ruleset"] == "classic"]
    assert [(r["deal"], r["side"], r["deal_total"]) for r in classic] == [
        ("1", "1", "3800"), ("1", "2", "750"), ("2", "1", "900"), ("2", "2", "3700"),
        ("3", "1", "-300"), ("3", "2", "4600"), ("4", "1", "5500"), ("4", "2", "400"),
    ]  # fmt: skip
    first = classic[0]
    assert (first["played_on"], first["decks"], first["house_rules"]) == ("2024-01-04", "5", "{}")
    assert (first["side_name"], first["players"], first["guests"]) == ("Ann & Bob", "Ann; Bob", "")
    assert (first["books_clean"], first["books_dirty"], first["books_wild"]) == ("2", "2", "1")
    assert (first["went_out"], first["melded_points"], first["leftover_points"]) == (
        "yes",
        "600",
        "",
    )
    # Deal 3: Ann & Bob entered 0 melded points, which is not the same as entering nothing.
    assert (classic[4]["melded_points"], classic[4]["books_clean"]) == ("0", "")
    cutthroat = [r for r in rows if r["ruleset"] == "cutthroat"]
    assert cutthroat[0]["house_rules"] == '{"going_out_bonus":200,"target_score":5000}'
    assert (cutthroat[1]["open_books_dirty"], cutthroat[1]["open_book_points"]) == ("1", "100")
    assert cutthroat[0]["books_black_threes"] == "1"
    casual = [r for r in rows if r["ruleset"] == "casual"]
    assert (casual[0]["guests"], casual[0]["bonus_exact_22"]) == ("Zed", "2")
    assert casual[0]["melded_cards_eight_to_king"] == "10" and casual[0]["melded_points"] == ""
    assert [r["went_out"] for r in casual[4:6]] == ["yes", "no"]
    empty = [r for r in rows if r["ruleset"] == "ten-thousand"]
    assert [(r["side_name"], r["deal"], r["went_out"], r["deal_total"]) for r in empty] == [
        ("East", "", "", ""),
        ("West", "", "", ""),
    ]


def test_deals_csv_follows_the_filters(shared):
    with shared.app.app_context():
        club = shared.source()
        only = dicts_of(records.export_deals(club, Filters(ruleset="family")))
        assert {r["ruleset"] for r in only} == {"family"}
        dated = dicts_of(records.export_deals(club, Filters(start=date(2024, 2, 1))))
        assert {r["ruleset"] for r in dated} == {"club", "family", "ten-thousand"}
        bob = next(m for m in club.members if m.name == "Bob")
        played = dicts_of(records.export_deals(club, Filters(member_id=bob.id)))
        assert {r["ruleset"] for r in played} == {
            "classic", "cutthroat", "casual", "family", "ten-thousand",
        }  # fmt: skip


def test_games_csv_has_a_row_per_finished_game_with_sides_totals_and_winners(shared):
    with shared.app.app_context():
        text = records.export_games(shared.source(), Filters())
    rows = dicts_of(text)
    assert list(rows[0]) == [
        "game", "played_on", "ruleset", "decks", "deals",
        "side_1", "side_1_players", "side_1_total",
        "side_2", "side_2_players", "side_2_total",
        "side_3", "side_3_players", "side_3_total",
        "winners", "rule_set",
    ]  # fmt: skip
    # The unfinished family game and the game without deals are not results.
    assert [r["ruleset"] for r in rows] == ["classic", "cutthroat", "casual", "club"]
    classic, cutthroat = rows[0], rows[1]
    # Worked out by hand above CLASSIC_DEALS.
    assert {k: v for k, v in classic.items() if k != "game"} == {
        "played_on": "2024-01-04",
        "ruleset": "classic",
        "decks": "5",
        "deals": "4",
        "side_1": "Ann & Bob",
        "side_1_players": "Ann; Bob",
        "side_1_total": "9900",
        "side_2": "Cat & Dan",
        "side_2_players": "Cat; Dan",
        "side_2_total": "9450",
        "side_3": "",
        "side_3_players": "",
        "side_3_total": "",
        "winners": "Ann & Bob",
        "rule_set": "",
    }
    # And above CUTTHROAT_DEALS.
    assert (cutthroat["side_1_total"], cutthroat["side_2_total"]) == ("5300", "5750")
    assert (cutthroat["deals"], cutthroat["decks"], cutthroat["winners"]) == ("2", "4", "South")
    assert (rows[3]["side_3"], rows[3]["side_3_players"]) == ("Eve", "Eve")


def test_games_csv_with_no_games_is_a_header(shared):
    with shared.app.app_context():
        club = shared.source()
        text = records.export_games(club, Filters(ruleset="family"))
    assert text.splitlines() == ["game,played_on,ruleset,decks,deals,winners,rule_set"]


def test_standings_csv_carries_the_club_figures(shared):
    with shared.app.app_context():
        rows = standings.standings(shared.source(), Filters(ruleset="classic"))
        text = records.export_standings(rows)
    # From the classic game worked out above: Ann & Bob won 9,900 over 4 deals with books
    # clean 2+1+0+2, dirty 2+1+0+2, wild 1+0+0+2, out twice and one red three caught;
    # Cat & Dan made 9,450 (2,362.5 a deal), books clean 1+2+3+0, dirty 0+2+2+1, wild 0+1+1+0.
    assert text.splitlines() == [
        "rank,player,games,wins,night_wins,win_rate,average_score,average_per_deal,total_points,"
        "clean_books,dirty_books,wild_books,special_books,went_out,red_threes_caught,rating,"
        "rated_games",
        # The ratings within the classic games, last: one game from new, won (2.4) or lost.
        "1,Ann,1,1,0,100.0,9900.0,2475.0,9900,5,5,3,0,2,1,2.4,1",
        "1,Bob,1,1,0,100.0,9900.0,2475.0,9900,5,5,3,0,2,1,2.4,1",
        "3,Cat,1,0,0,0.0,9450.0,2362.5,9450,6,5,2,0,2,0,-1.5,1",
        "3,Dan,1,0,0,0.0,9450.0,2362.5,9450,6,5,2,0,2,0,-1.5,1",
    ]


def test_standings_csv_rounds_half_up_leaves_unranked_blank_and_defuses_formulas():
    row = Standing(
        member_id=1, player="=HYPERLINK(\"x\")", games=3, wins=2, total_points=-1234, deals=7,
        clean_books=4, dirty_books=3, wild_books=2, special_books=1, went_out=2,
        red_threes_caught=5, rank=None,
    )  # fmt: skip
    half = Standing(
        member_id=2, player="Bo", games=8, wins=1, total_points=1, deals=16, clean_books=0,
        dirty_books=0, wild_books=0, special_books=0, went_out=0, red_threes_caught=0, rank=2,
    )  # fmt: skip
    lines = dicts_of(records.export_standings([row, half]))
    assert lines[0] == {
        "rank": "",
        "player": '\'=HYPERLINK("x")',
        "games": "3",
        "wins": "2",
        "night_wins": "0",
        "win_rate": "66.7",
        "average_score": "-411.3",
        "average_per_deal": "-176.3",
        "total_points": "-1234",
        "clean_books": "4",
        "dirty_books": "3",
        "wild_books": "2",
        "special_books": "1",
        "went_out": "2",
        "red_threes_caught": "5",
        # No rating kept for the filters: blank, and no games behind it.
        "rating": "",
        "rated_games": "0",
    }
    # 1/8 = 12.5% exactly; 1/16 = 0.0625 rounds to 0.1.
    assert (lines[1]["rank"], lines[1]["win_rate"], lines[1]["average_per_deal"]) == (
        "2",
        "12.5",
        "0.1",
    )


def test_names_a_spreadsheet_would_run_are_defused_and_still_round_trip(shared):
    with shared.app.app_context():
        source = new_club("tricky")
        clubs.add_member(source, "'Quote")
        sides = [SideSetup("=1+1", ["-Bob", "@Cat"]), SideSetup("'Quote", ["'Quote", "+Dan"])]
        games.record_game("classic", sides, [], club=source, played_on=date(2024, 3, 1))
        text = records.export_deals(source)
        row = dicts_of(text)[0]
        assert (row["side_name"], row["players"], row["guests"]) == (
            "'=1+1",
            "'-Bob; @Cat",
            "'-Bob; @Cat",
        )
        assert dicts_of(text)[1]["side_name"] == "''Quote"
        target = new_club("plain")
        report = records_import.import_deals(target, text)
        assert report.members_added == ["'Quote"]
        assert snapshot(target) == snapshot(source)
