"""How often a game's page asks the server (static/live.js), counted in real Chromium.

Every second while something happens at the table (a deal or line form on this phone, someone
entering, a side's line in, the page just loaded or the game just changed); every 5 seconds
otherwise; never while the page is hidden, and at once when it is shown again.

"Just loaded" lasts 30 seconds in the app. These phones set `window.hf.quickFor` (read by
live.js) to 2 seconds before any script runs, so that the quiet schedule shows sooner; the
schedule itself is the app's.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import expect

from ._live_waits import ANSWERS, quiet
from .conftest import game_link, open_phone, start_game

QUICK_FOR_MS = 2000
PHONE = "pixel-7"
# Hidden, or shown again, as the browser says when the phone sleeps or another tab comes up.
SHOWN = """(hidden) => {
  Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
  Object.defineProperty(document, "visibilityState",
    { value: hidden ? "hidden" : "visible", configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def polling_phone(browser, base: str):
    """A phone whose 'just loaded' spell is 2 s, recording when it asks for the live answer."""
    page = open_phone(browser, PHONE, base)
    page.context.add_init_script(f"window.hf = {{ quickFor: {QUICK_FOR_MS} }};")
    page.context.add_init_script(ANSWERS)
    page.polls = []

    def on_request(request) -> None:
        if "/live?" in request.url:
            page.polls.append(time.monotonic())

    page.on("request", on_request)
    return page


def polls_during(page, seconds: float, start: float | None = None) -> list[float]:
    """The moments (seconds from `start`, or now) at which the page asked, until `seconds`."""
    start = time.monotonic() if start is None else start
    wait_ms = max(0, start + seconds - time.monotonic()) * 1000
    page.wait_for_timeout(wait_ms)  # not a wait: the span whose questions are counted
    return [round(t - start, 2) for t in page.polls if t >= start]


def next_polls(page, count: int, timeout_s: float, start: float | None = None) -> list[float]:
    """The moments (seconds from `start`, or now) of the page's next `count` questions, waited
    for one by one (at most `timeout_s` each)."""
    start = time.monotonic() if start is None else start
    while len([t for t in page.polls if t >= start]) < count:
        page.wait_for_event("request", lambda r: "/live?" in r.url, timeout=timeout_s * 1000)
    return [round(t - start, 2) for t in page.polls if t >= start][:count]


def gaps(moments: list[float]) -> list[float]:
    return [round(b - a, 2) for a, b in zip(moments, moments[1:], strict=False)]


@pytest.fixture
def table(browser, live_server):
    """A game started on one phone, its scoreboard open on a watching phone past its first
    seconds. Yields (watcher, link); every phone opened here is closed after the test."""
    host = polling_phone(browser, live_server)
    start_game(host)
    link = game_link(host)
    host.context.close()
    watcher = polling_phone(browser, live_server)
    watcher.goto(f"{live_server}{link}")
    expect(watcher.get_by_role("link", name="Enter deal 1")).to_be_visible()
    # Past its first seconds (and the first answer's): from now on nothing happens at the table.
    quiet(watcher, QUICK_FOR_MS)
    phones = [watcher]
    watcher.open_another = lambda: phones.append(polling_phone(browser, live_server)) or phones[-1]
    yield watcher, link
    for phone in phones:
        phone.context.close()


def test_a_quiet_scoreboard_asks_every_5_seconds(table):
    watcher, _ = table
    moments = next_polls(watcher, 3, timeout_s=8)
    assert all(4.5 <= gap <= 7 for gap in gaps(moments)), moments


def test_while_a_phone_enters_a_deal_every_second_then_quiet_again(table):
    watcher, link = table
    scorer = watcher.open_another()
    scorer.goto(f"{scorer.base}{link}/deals/new")
    # The watcher learns at its next question (5 s at most), and asks every second from then.
    expect(watcher.get_by_text("Someone is entering deal 1.")).to_be_visible(timeout=7000)
    moments = next_polls(watcher, 5, timeout_s=2)
    assert all(gap <= 1.6 for gap in gaps(moments)), moments
    # The deal form itself asks every second too, whatever the table does.
    mine = next_polls(scorer, 3, timeout_s=2)
    assert all(gap <= 1.6 for gap in gaps(mine)), mine

    # The scorer leaves the form. It says so as it goes (a beacon, which headless Chromium does
    # not always deliver), or else its name runs out of freshness (15 s): the watcher drops the
    # name, asks every second a little longer, then every 5 seconds again.
    scorer.goto(f"{scorer.base}/rules")
    expect(watcher.get_by_text("Someone is entering deal 1.")).to_be_hidden(timeout=17_000)
    quiet(watcher, QUICK_FOR_MS)
    moments = next_polls(watcher, 3, timeout_s=8)
    assert all(4.5 <= gap <= 7 for gap in gaps(moments)), moments


def test_a_hidden_page_asks_nothing_and_asks_at_once_when_shown(table):
    watcher, link = table
    # Someone entering keeps the watcher on the quick schedule, yet hidden it asks nothing.
    scorer = watcher.open_another()
    scorer.goto(f"{scorer.base}{link}/deals/new")
    expect(watcher.get_by_text("Someone is entering deal 1.")).to_be_visible(timeout=7000)
    watcher.evaluate(SHOWN, True)
    assert polls_during(watcher, 7) == []
    shown = time.monotonic()
    watcher.evaluate(SHOWN, False)
    moments = next_polls(watcher, 2, timeout_s=2, start=shown)
    assert moments[0] <= 0.3, moments
    assert moments[1] - moments[0] <= 1.6, moments  # and every second again after that


def test_a_name_goes_when_its_freshness_runs_out(table):
    """A phone put away says nothing more: its name goes after `fresh_for` with no news."""
    watcher, _ = table
    live = watcher.locator("[data-live]")
    answer = {
        "game": 1,
        "version": live.get_attribute("data-version"),
        "deals": 0,
        "next_deal": 1,
        "finished": False,
        "entering": [{"name": "Zed", "deal": 1, "fresh_for": 2}],
        "parts": [],
        "lines": live.get_attribute("data-lines"),
    }
    answered = []

    def reply(route) -> None:
        # Once the news, then nothing new: the same version, an empty 304 each time.
        if answered:
            route.fulfill(status=304, headers={"ETag": '"v999"'})
        else:
            answered.append(time.monotonic())
            route.fulfill(
                status=200,
                headers={"ETag": '"v999"', "Content-Type": "application/json"},
                body=json.dumps(answer),
            )

    watcher.route(re.compile(r"/live\?"), reply)
    name = watcher.get_by_text("Zed is entering deal 1.")
    expect(name).to_be_visible(timeout=7000)
    expect(name).to_be_hidden(timeout=3500)
    gone = time.monotonic() - answered[0]
    assert 1.9 <= gone <= 3.5, gone


def _api_game(app) -> dict:
    """A casual game of Ann v Cat, started through the API; its answer (url, id, key)."""
    made = app.test_client().post("/api/v1/games", json={"ruleset": "club", "sides": SINGLES})
    assert made.status_code == 201, made.get_json()
    return made.get_json()


SINGLES = [{"name": "Ann", "players": ["Ann"]}, {"name": "Cat", "players": ["Cat"]}]


@pytest.mark.parametrize("refresh", ["lost", "older"])
def test_a_scoreboard_whose_refresh_went_wrong_catches_up_at_the_next_poll(
    browser, live_server, app, refresh
):
    """The page fetched after a changed answer is lost (a dropped connection) or older than the
    answer (a server behind the others): the next poll asks in full, not with the answer's ETag
    (which the server answers 304, leaving the phone on the old totals until the next change)."""
    game = _api_game(app)
    watcher = open_phone(browser, PHONE, live_server)
    try:
        watcher.goto(live_server + game["url"])
        expect(watcher.get_by_text("No deal entered yet.")).to_be_visible()
        before = watcher.evaluate("fetch(location.pathname).then(r => r.text())")
        spoilt = []

        def first_refresh_goes_wrong(route) -> None:
            if route.request.resource_type != "fetch" or spoilt:
                return route.continue_()
            spoilt.append(route.request.url)
            if refresh == "lost":
                return route.abort("connectionreset")
            return route.fulfill(status=200, content_type="text/html", body=before)

        watcher.route(re.compile(re.escape(game["url"]) + "$"), first_refresh_goes_wrong)
        saved = app.test_client().post(
            f"/api/v1/games/{game['id']}/deals",
            json={"scores": [{"books": {"clean": 1}}, {}]},
            headers={"X-Game-Key": game["key"]},
        )
        assert saved.status_code == 201, saved.get_json()
        total = saved.get_json()["sides"][0]["total"]
        # The first refresh went wrong; the page is right by the poll after (1 s later).
        expect(watcher.get_by_role("link", name="Enter deal 2")).to_be_visible(timeout=4000)
        expect(watcher.locator("#totals")).to_contain_text(f"{total:,}")
        assert spoilt, "the page was never fetched again"
    finally:
        watcher.context.close()
