"""One rounding of a night's averages over HTTP (issue 38): a night whose averages are each a
half shows every one to the whole point, halves up, on its page, its board, its read-only
link, the API and the CSV, and says so beside its standings; before, the page and the API
said 2,512 for 2,512.5 (Python's `round`) and the CSV 2512.5.

The expected figures are worked out here with `decimal`'s ROUND_HALF_UP from the games' kept
totals, apart from the code under test.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

import pytest
from sqlalchemy import select, update
from test_api_nights import NIGHTS, matches, table_code
from test_night_links import board_link
from test_night_pages import finish_round, open_night

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night, Side
from scorekeeper.rules import rounding

pytestmark = pytest.mark.usefixtures("quick_hashing")

FOUR = ["Ann", "Bob", "Cat", "Dan"]
# Each round's two sides' totals, set once it is played: a player's two games add up to
# 5,025 or 5,027 (partners kept) or 5,017 or 5,035 (partners changed), each average a half,
# and 5,025 / 2 or 5,017 / 2 among them, where round() and halves up part.
TOTALS = ((2_500, 2_510), (2_525, 2_517))
# A standings row of a page: the player's name, then the figure the night ranks by.
ROW = re.compile(r'<th scope="row">([A-Za-z]+)</th><td>([^<]*)</td>')


@pytest.fixture
def document(client) -> dict[str, Any]:
    return client.get("/api/v1/openapi.json").get_json()


@pytest.fixture
def night(app, olga) -> tuple[str, dict[str, Fraction]]:
    """A night of four at one table, both rounds played with `TOTALS`: its page's address and
    each player's exact average from the games' kept sides."""
    url = open_night(app, olga, names=FOUR)
    night_id = int(url.rsplit("/", 1)[1])
    for number, totals in enumerate(TOTALS, 1):
        assert olga.post(f"{url}/seat").status_code == 302
        finish_round(app, url, number)
        with app.app_context():
            (table,) = db.session.get(Night, night_id).rounds[number - 1].tables
            for position, total in enumerate(totals):
                db.session.execute(
                    update(Side)
                    .where(Side.game_id == table.game_id, Side.position == position)
                    .values(final_total=total)
                )
            db.session.commit()
            db.session.remove()
    with app.app_context():
        found = db.session.get(Night, night_id)
        names = {p.id: p.name for p in found.players}
        points = dict.fromkeys(names.values(), 0)
        for r in found.rounds:
            for table in r.tables:
                kept = select(Side.final_total).where(Side.game_id == table.game_id)
                totals = db.session.execute(kept.order_by(Side.position)).scalars()
                for seated, total in zip(table.sides, totals, strict=True):
                    for i in seated:
                        points[names[i]] += total
        db.session.remove()
    return url, {name: Fraction(p, 2) for name, p in points.items()}


def half_up(exact: Fraction) -> int:
    return int((Decimal(exact.numerator) / exact.denominator).quantize(1, ROUND_HALF_UP))


def shown(html: str) -> dict[str, str]:
    """Each player's figure in the standings on a page (the night ranks by average)."""
    return dict(ROW.findall(html))


def test_the_page_board_link_api_and_csv_show_one_rounding(app, olga, client, night, document):
    url, exact = night
    assert {f.denominator for f in exact.values()} == {2}
    assert any(round(f) != half_up(f) for f in exact.values())
    expected = {name: half_up(f) for name, f in exact.items()}
    on_pages = {name: f"{figure:,}" for name, figure in expected.items()}

    page = olga.get(url).text
    assert shown(page) == on_pages
    assert rounding.RULE in page
    board = olga.get(f"{url}/board")
    assert board.status_code == 200 and shown(board.text) == on_pages
    assert rounding.RULE in board.text
    assert shown(client.get(board_link(olga, url)).text) == on_pages

    night_id = int(url.rsplit("/", 1)[1])
    answer = client.get(f"{NIGHTS}/{night_id}", headers=table_code(app)).get_json()
    matches(document, "Night", answer)
    api = {s["name"]: (s["average"], s["score"]) for s in answer["standings"]}
    assert api == {name: (figure, figure) for name, figure in expected.items()}

    rows = list(csv.reader(io.StringIO(olga.get(f"{url}/results.csv").text, newline="")))
    head = rows[0]
    written = {
        row[1]: (row[head.index("average")], row[head.index("score")])
        for row in rows[1 : rows.index([])]
    }
    assert written == {name: (str(figure), str(figure)) for name, figure in expected.items()}
