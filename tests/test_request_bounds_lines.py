"""Issue 26: a line names its deal, and a line's moment is never after now.

A line sent without its deal was once kept for whatever deal was next, and a moment ahead of
the clock outlasted a side's real line sent after it. The rest of issue 26 (each body's
allowance, sides and players counted, errors listed) is in test_request_bounds.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from _api_support import assert_errors, game_key, start
from game_links import link
from sqlalchemy import func, select
from test_api_parts import OUT, STAYED_IN, saved, send

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import DealPart

pytestmark = pytest.mark.usefixtures("quick_hashing")


# --------------------------------------------------------------------------- a line's deal


def test_a_line_without_its_deal_is_422_at_deal_and_nothing_is_kept(client):
    """Before: kept for whatever deal was next, racing a whole deal (saved 2-3 times)."""
    game = start(client, "classic")
    answer = client.put(
        f"/api/v1/games/{game['id']}/deals/next/parts/0",
        json={"entry": OUT, "sent_by": "Ann"},
        headers=game_key(game),
    )
    errors = assert_errors(answer)
    assert [[i["pointer"] for i in e["inputs"]] for e in errors] == [["/deal"]]
    assert errors[0]["message"].startswith("deal is required")
    assert saved(client)["parts"] == {}


def test_a_line_without_its_deal_is_not_kept_from_the_page_either(client):
    """The line's form always names its deal: one posted without it keeps nothing (422)."""
    game = start(client, "classic")
    data = {"s0-books-clean": "1", "s0-melded_points": "200", "sent_by": "Ann"}
    answer = client.post(f"{link(client, game['id'])}/deals/next/0", data=data)
    assert answer.status_code == 422
    assert "This line names no deal" in answer.get_data(as_text=True)
    assert saved(client)["parts"] == {}
    # The page shown again names the next deal, so sending it again keeps it.
    assert 'name="number" type="hidden" value="1"' in answer.get_data(as_text=True)


# --------------------------------------------------------------------------- a line's moment


def _kept_moment(client) -> datetime:
    with client.application.app_context():
        kept = db.session.scalars(select(DealPart.entered_at)).one()
    return kept if kept.tzinfo else kept.replace(tzinfo=UTC)


def test_a_line_entered_in_the_future_does_not_outlast_a_real_later_line(client):
    """Before: a moment 4 s ahead (inside the old 5 s slack) beat the side's real line sent
    just after it (409, 'entered 4 seconds after yours')."""
    game = start(client, "classic")
    ahead = (datetime.now(UTC) + timedelta(seconds=4)).isoformat()
    assert send(client, game, 1, entry={"books": {"clean": 3}}, sent_by="Eve", entered_at=ahead)
    assert _kept_moment(client) <= datetime.now(UTC)
    real = send(
        client, game, 1, entry=STAYED_IN, sent_by="Cat", entered_at=datetime.now(UTC).isoformat()
    )
    assert real.status_code == 200, real.get_json()
    assert saved(client)["parts"][1][:2] == (STAYED_IN, "Cat")


def test_the_pages_clamp_a_lines_moment_as_the_api_does(client):
    game = start(client, "classic")
    ahead = datetime.now(UTC) + timedelta(seconds=4)
    data = {
        "number": "1",
        "s1-books-clean": "3",
        "sent_by": "Eve",
        "device": "e" * 32,
        "entered_at": str(int(ahead.timestamp() * 1000)),
    }
    assert client.post(f"{link(client, game['id'])}/deals/next/1", data=data).status_code == 302
    assert _kept_moment(client) <= datetime.now(UTC)
    real = send(
        client, game, 1, entry=STAYED_IN, sent_by="Cat", entered_at=datetime.now(UTC).isoformat()
    )
    assert real.status_code == 200, real.get_json()
    with client.application.app_context():
        assert db.session.scalar(select(func.count()).select_from(DealPart)) == 1
