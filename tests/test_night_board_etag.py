"""The night board as a browser asks it (issue 29): gzipped, so its ETag is weak; sent back in
If-None-Match it still answers 304 while nothing changed, and 200 once a deal is saved."""

from __future__ import annotations

from test_night_pages import holder, open_night

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.services import deals
from scorekeeper.services.access import Level

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def test_a_gzipped_boards_weak_etag_is_answered_304(app, olga):
    url = open_night(app, olga)
    olga.post(f"{url}/seat")
    phone = holder(app)
    first = phone.get(f"{url}/board", headers=GZIP)
    assert first.headers["Content-Encoding"] == "gzip"
    etag = first.headers["ETag"]
    assert etag.startswith('W/"'), etag
    again = phone.get(f"{url}/board", headers={**GZIP, "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    # The page's own version (board.js's first ask, strong) matches too.
    strong = etag.removeprefix("W/")
    assert phone.get(f"{url}/board", headers={"If-None-Match": strong}).status_code == 304
    with app.app_context():
        game = db.session.get(Night, int(url.rsplit("/", 1)[1])).rounds[0].tables[0].game
        deals.enter_deal(game, Level.TABLE, [{"books": {"clean": 1}}, {}])
        db.session.remove()
    changed = phone.get(f"{url}/board", headers={**GZIP, "If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
