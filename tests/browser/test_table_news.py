"""Each event is told once on a phone, in real Chromium: not again when the same answer comes
back (a poll after a lost signal), nor when the page is loaded again.

The live answer is played by the test (the same event under ever new ETags, as a phone gets
after reconnecting); the page itself is the app's.
"""

from __future__ import annotations

import itertools
import json

from playwright.sync_api import expect

from .conftest import check_axe, open_phone

LIVE = "/live?"


def answered_again(page, times: int = 2) -> None:
    """Wait until the page has asked for its live answer `times` more times: each question is
    asked once the answer before it was read (live.js schedules the next on reading one), so the
    last answer but one has been read in full."""
    for _ in range(times):
        page.wait_for_event("request", lambda request: LIVE in request.url, timeout=10_000)


SINGLES = [{"name": "Ann", "players": ["Ann"]}, {"name": "Cat", "players": ["Cat"]}]
SAVED = {"key": "1.1", "kind": "saved", "deal": 1, "by": "Ann", "changes": []}
CORRECTED = {
    "key": "1.2",
    "kind": "corrected",
    "deal": 1,
    "by": "Ann",
    "changes": [{"side": 1, "name": "Cat", "before": 1355, "after": -35}],
}


def test_each_event_is_told_once(browser, live_server, app):
    made = app.test_client().post("/api/v1/games", json={"ruleset": "club", "sides": SINGLES})
    link = made.get_json()["url"]
    page = open_phone(browser, "small-375x667", live_server)
    try:
        page.goto(f"{live_server}{link}")
        live = page.locator("[data-live]")
        answer = {
            "game": made.get_json()["id"],
            "version": "1.1",
            "deals": 1,
            "next_deal": 2,
            "finished": False,
            "entering": [],
            "parts": [],
            "lines": live.get_attribute("data-lines"),
            "news": {**SAVED, "text": "Ann saved deal 1."},
            "next_game": None,
        }
        tags = itertools.count()

        def reply(route) -> None:
            # The same event, always as a changed answer: nothing tells the page it is old.
            route.fulfill(
                status=200,
                headers={"ETag": f'"v{next(tags)}"', "Content-Type": "application/json"},
                body=json.dumps(answer),
            )

        page.context.route("**/live?*", reply)
        status = page.locator("[data-live-status]")
        expect(status).to_have_text("Ann saved deal 1.", timeout=2000)
        answered_again(page)
        expect(status).to_have_text("Ann saved deal 1.")

        page.reload()
        answered_again(page)  # answered after loading: told already, not again
        assert "saved deal 1" not in status.inner_text()

        # The next event is news again, in the server's words (table_news.news_text).
        said = "Ann corrected deal 1: Cat +1,355 → −35."
        answer.update(version="1.2", news={**CORRECTED, "text": said})
        expect(status).to_have_text(said, timeout=2000)
        check_axe(page)
    finally:
        page.context.close()
