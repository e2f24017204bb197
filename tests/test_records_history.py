"""Each deal's history and agreement kept by the club's deals file (issue 40): out with the
export, back in with the import, as a job too; a file from before it still imports, each deal
then with one `import` event; a history cell that cannot be read names its line and column.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime
from typing import Any

import pytest
from records_club import new_club
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, DealEvent, Game
from scorekeeper.plumbing.models.history import AGREED, IMPORT, QUERIED
from scorekeeper.services import (
    agreement,
    clubs,
    corrections,
    deal_history,
    deals,
    exports,
    games,
    records,
    records_history,
    records_import,
)
from scorekeeper.services.access import Level
from scorekeeper.services.agreement import agreement_of
from scorekeeper.services.deal_history import BY_ORGANISER, in_utc
from scorekeeper.services.games import SideSetup
from scorekeeper.services.records_import import jobs
from scorekeeper.services.records_import.jobs import job_of
from scorekeeper.services.standings import Filters

pytestmark = pytest.mark.usefixtures("quick_hashing")

PHONE = "0123456789abcdef0123456789abcdef"
SIDES = [SideSetup("Ann", ["Ann"]), SideSetup('Zoë, "the Sharp"', ["Zoë"])]
AT = datetime(2026, 12, 2, 14, 32, tzinfo=UTC)


def source_club() -> Club:
    """A club of two games: one played on phones (corrected by its organiser, agreed by one
    side and queried by the other), one kept before history was (none)."""
    club = new_club("history")
    played = games.start_game("club", SIDES, club=club, played_on=date(2026, 12, 1))
    for scores in ([{"books": {"clean": 1}}, {}], [{}, {"books": {"dirty": 1}}]):
        saved = deals.enter_deal(played, Level.TABLE, scores, sent_by="Ann", side=0, device=PHONE)
        assert type(saved).__name__ == "Saved", saved
    fixed = corrections.correct_deal(
        played,
        Level.ORGANISER,
        1,
        [{"books": {"clean": 2}}, {}],
        1,
        sent_by="Olga",
        reason='Misread the sheet, "clean" twice',
    )
    assert type(fixed).__name__ == "Saved", fixed
    for event in (
        DealEvent(deal_number=1, deal_version=2, kind=AGREED, side_position=1, by="Zoë"),
        DealEvent(
            deal_number=2,
            deal_version=1,
            kind=QUERIED,
            side_position=1,
            by="Zoë",
            reason="Was it dirty, really?",
        ),  # fmt: skip
        DealEvent(deal_number=2, deal_version=1, kind=AGREED, side_position=0, by="=Ann"),
    ):
        event.game_id, event.device, event.at = played.id, PHONE, AT
        db.session.add(event)
    db.session.commit()
    games.record_game(
        "club", SIDES, [[_entry({"books": {"clean": 1}}), _entry({})]], club=club,
        played_on=date(2026, 11, 3),
    )  # fmt: skip
    return club


def _entry(figures: dict[str, Any]):
    from scorekeeper.rules import DealEntry

    return DealEntry.from_dict(figures)


def club_games(club: Club) -> list[Game]:
    query = select(Game).where(Game.club_id == club.id).order_by(Game.played_on, Game.id)
    return list(db.session.execute(query).scalars())


def history(game: Game) -> dict[int, list[tuple]]:
    """Each deal's events as the file keeps them: no ids, no phone's id (an organiser's kept)."""
    found: dict[int, list[tuple]] = {}
    for event in deal_history.events_of(game):
        found.setdefault(event.deal_number, []).append(
            (
                event.deal_version,
                event.kind,
                event.side_position,
                event.by,
                event.device == BY_ORGANISER,
                in_utc(event.at),
                event.before,
                event.after,
                event.reason,
            )
        )
    return found


def agreements(game: Game) -> list[tuple]:
    return [(a.number, a.version, a.sides, a.queries) for a in agreement_of(game)]


def import_event(deal) -> tuple:
    """What an imported deal's last event is: the import, with the deal's figures."""
    return (deal.version, IMPORT, None, deal_history.IMPORTED_BY, False)


def assert_kept(source: Game, target: Game) -> None:
    """The target's history is the source's, each deal's followed by its import."""
    was, now = history(source), history(target)
    assert [d.version for d in target.deals] == [d.version for d in source.deals]
    for deal in target.deals:
        *kept, last = now[deal.number]
        assert kept == was.get(deal.number, [])
        assert last[:5] == import_event(deal)
        assert last[7] == deal_history.figures_saved(deal)


def test_the_history_and_agreements_go_out_and_come_back(app):
    with app.app_context():
        source = source_club()
        text = records.export_deals(source)
        cells = [row["history"] for row in csv.DictReader(io.StringIO(text))]
        # On each deal's first row: the phones' game's two deals; the older game has none.
        assert [bool(cell) for cell in cells] == [False, False, True, False, True, False]
        assert PHONE not in text and '"organiser":true' in cells[2]
        target = new_club("restored")
        report = records_import.import_deals(target, text)
        assert (report.games, report.deals) == (2, 3)
        older, played = club_games(source)
        older_in, played_in = club_games(target)
        assert_kept(played, played_in)
        assert_kept(older, older_in)
        # Each side's agreement and query stand as they did: deal 1 (version 2) agreed by Zoë
        # alone, deal 2 agreed by Ann and queried by Zoë.
        assert agreements(played_in) == agreements(played)
        assert [a.sides for a in agreement_of(played_in)] == [
            ("waiting", "agreed"),
            ("agreed", "queried"),
        ]
        # The organiser's correction is still an organiser's, with its reason.
        correction = next(e for e in history(played_in)[1] if e[1] == "correction")
        assert correction[3:5] == ("Olga", True) and correction[8].startswith("Misread")
        # Exported again, the file is the same but for the games' ids and each deal's import.
        again = records.export_deals(target)
        assert len(again.splitlines()) == len(text.splitlines())


def test_an_import_job_keeps_the_history_too(app):
    with app.app_context():
        source = source_club()
        text = records.export_deals(source)
        target = new_club("by-job")
        job = jobs.start_import(target, text)
        assert job_of(target, job.id).state == "done"
        assert_kept(club_games(source)[1], club_games(target)[1])
        assert agreements(club_games(target)[1]) == agreements(club_games(source)[1])


def test_a_file_from_before_history_still_imports_each_deal_imported(app):
    with app.app_context():
        rows = list(csv.reader(io.StringIO(records.export_deals(source_club()))))
        assert rows[0][-1] == "history"
        older = io.StringIO()
        csv.writer(older).writerows(row[:-1] for row in rows)
        target = new_club("older")
        assert records_import.import_deals(target, older.getvalue()).deals == 3
        for game in club_games(target):
            found = history(game)
            for deal in game.deals:
                assert len(found[deal.number]) == 1
                assert found[deal.number][0][:5] == (1, IMPORT, None, deal_history.IMPORTED_BY,
                                                     False)  # fmt: skip
                assert found[deal.number][0][7] == deal_history.figures_saved(deal)
            # Nobody was asked of a deal kept before history: its sides are not asked again.
            assert [deal.agreed for deal in agreement_of(game)] == [True] * len(game.deals)


def _spoiled(text: str, history: str) -> str:
    """The file with the first deal's history cell replaced."""
    rows = list(csv.reader(io.StringIO(text)))
    column = rows[0].index("history")
    line = next(n for n, row in enumerate(rows) if n and row[column])
    rows[line][column] = history
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


@pytest.mark.parametrize(
    ("history", "words"),
    [
        ("[{", "not valid JSON"),
        ("{}", "a JSON list of its events"),
        ("null", "a JSON list of its events"),
        ("[" * 50 + "]" * 50, "over 8 levels deep"),
        ('[{"kind":"moved","by":"A","at":"2026-12-02T14:32:00+00:00","version":1}]', "kind"),
        ('[{"kind":"agreed","side":3,"by":"A","at":"2026-12-02T14:32:00","version":1}]',
         "names side 3"),
        ('[{"kind":"agreed","by":"A","at":"yesterday","version":1}]', "ISO 8601"),
        ('[{"kind":"agreed","by":"A","at":"2026-12-02T14:32:00","version":0}]', "version"),
        ('[{"kind":"whole","by":"A","at":"2026-12-02T14:32:00","version":1,'
         '"after":[{"entry":{},"total":0}]}]', "figures of 1 sides, not 2"),
        ('[{"kind":"whole","by":"A","at":"2026-12-02T14:32:00","version":1,'
         '"after":[{"entry":{"books":{"clean":-1}},"total":0},{"entry":{},"total":0}]}]',
         "entry of side 1 refused"),
        ('[{"kind":"agreed","by":"A","at":"2026-12-02T14:32:00","version":1,"device":"x"}]',
         "not a part of an event"),
    ],
)  # fmt: skip
def test_a_history_that_cannot_be_read_names_its_line_and_column(app, history, words):
    with app.app_context():
        text = _spoiled(records.export_deals(source_club()), history)
        target = new_club("spoiled")
        with pytest.raises(records_import.ImportRefused) as refused:
            records_import.import_deals(target, text)
        assert refused.value.column == "history" and refused.value.line == 4
        assert words in str(refused.value)
        assert club_games(target) == []


def test_a_sides_agreement_changes_the_deals_files_etag(app):
    """A phone that kept the file is not told 304 once a side has agreed a deal since."""
    with app.app_context():
        club = source_club()
        before = exports.version_of(club, "deals", Filters(), None)
        played = club_games(club)[1]
        answered = agreement.agree(played, Level.TABLE, 1, 0, 2, by="Ann", device=PHONE)
        assert type(answered).__name__ == "Answered", answered
        assert exports.version_of(club, "deals", Filters(), None) != before
        rows = csv.DictReader(io.StringIO(records.export_deals(club)))
        first = next(row["history"] for row in rows if row["game"] == str(played.id))
        assert '"kind":"agreed","side":1,"by":"Ann"' in first


def test_the_history_file_is_one_row_per_event_streamed_with_its_etag(app, client):
    """For spreadsheets: who, how, when, the totals before and after; 304 while unchanged."""
    with app.app_context():
        club = source_club()
        clubs.update_settings(club, name=club.name, public=True, min_games=1)
        slug, played = club.slug, club_games(club)[1]
        events = deal_history.events_of(played)
        expected = records_history.HISTORY_HEADER + "".join(records_history.history_rows(club))
    answer = client.get(f"/clubs/{slug}/export/history.csv?season=all")
    assert answer.status_code == 200 and answer.is_streamed
    text = answer.get_data(as_text=True)
    assert text == expected and PHONE not in text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(events)  # the older game has none
    correction = next(row for row in rows if row["event"] == "correction")
    assert (correction["deal"], correction["version"], correction["side"]) == ("1", "2", "")
    assert (correction["by"], correction["organiser"]) == ("Olga", "yes")
    assert (correction["before_totals"], correction["after_totals"]) == ("500; 0", "1000; 0")
    assert correction["reason"] == 'Misread the sheet, "clean" twice'
    query = next(row for row in rows if row["event"] == "queried")
    assert (query["side"], query["side_name"], query["by"]) == ("2", 'Zoë, "the Sharp"', "Zoë")
    assert query["at"] == "2026-12-02T14:32:00+00:00"
    # A spreadsheet runs no name as a formula.
    assert next(row for row in rows if row["by"].endswith("=Ann"))["by"] == "'=Ann"
    again = client.get(
        f"/clubs/{slug}/export/history.csv?season=all",
        headers={"If-None-Match": answer.headers["ETag"]},
    )
    assert again.status_code == 304
