"""A club's deals exported as CSV and imported into another club, refused whole if a line is bad."""

from __future__ import annotations

import csv
import io

import pytest
from _club_support import (
    EXPECTED_ALL,
    SLUG,
    classic_partnership,
    member_ids,
    new_club,
    signup,
    standings_rows,
    text,
    tuesday,
)

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game

pytestmark = pytest.mark.usefixtures("quick_hashing")


# ------------------------------------------------------------------------- export and import


def _upload(client, slug: str, content: str):
    return client.post(
        f"/clubs/{slug}/import",
        data={"file": (io.BytesIO(content.encode()), "deals.csv")},
        content_type="multipart/form-data",
    )


def _changed(content: str, line: int, **cells: str) -> str:
    """The CSV with some cells of one line (1 = the header) replaced."""
    rows = list(csv.reader(io.StringIO(content)))
    header = rows[0]
    for column, value in cells.items():
        rows[line - 1][header.index(column)] = value
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


def test_export_deals_and_import_into_another_club(app, client):
    tuesday(app, client)
    g8 = classic_partnership(app)
    exported = client.get(f"/clubs/{SLUG}/export/deals.csv?season=all")
    assert exported.status_code == 200
    assert exported.mimetype == "text/csv"
    content = exported.get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(content)))
    # g1..g6: 4 deals each; g7: 1 deal; g8: 4 deals. One row per deal and side:
    # g1 2x4, g2 3x4, g3 3x4, g4 2x4, g5 3x4, g6 2x4, g7 2x1, g8 2x4 = 8+12+12+8+12+8+2+8.
    assert len(rows) == 70
    vera = app.test_client()
    signup(vera, "vera")
    new_club(vera, "thursday", "Thursday Club")

    # A malformed file first: a figure that is not a number on line 3. Nothing is imported.
    # The upload is answered at once with its job's page (issue 39), which says why.
    refused = _upload(vera, "thursday", _changed(content, 3, melded_points="4OO"))
    assert refused.status_code == 302
    assert "Line 3, column melded_points" in text(vera.get(refused.location))
    assert "Nothing was imported" in text(vera.get(refused.location))
    assert member_ids(app, "thursday") == {}

    # Figures the rules refuse in the last game of the file (going out without the books):
    # nothing is imported either, though every earlier game was fine.
    last = len(rows) + 1  # the header is line 1
    assert rows[-1]["game"] == str(g8) and rows[-1]["deal"] == "4"
    refused = _upload(vera, "thursday", _changed(content, last, went_out="yes"))
    assert refused.status_code == 302
    assert f"Line {last}, column went_out" in text(vera.get(refused.location))
    assert member_ids(app, "thursday") == {}
    with app.app_context():
        assert db.session.query(Game).filter(Game.club.has(slug="thursday")).count() == 0

    done = _upload(vera, "thursday", content)
    assert done.status_code == 302, text(done)
    assert "Imported 8 games with 29 deals" in text(vera.get(done.location))
    # Gus was a guest: he stays one. The members are those who played.
    assert sorted(member_ids(app, "thursday")) == ["Ann", "Bob", "Cat", "Dan", "Eve"]
    assert standings_rows(vera, "thursday", season="all") == standings_rows(client, season="all")
    assert standings_rows(vera, "thursday", season="all", ruleset="club") == EXPECTED_ALL
