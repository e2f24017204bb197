"""A first visit to each main page: what it transfers, nothing fetched twice, nothing shifting.

Each page is opened on a phone that never saw the app (a new browser context: empty cache, no
service worker yet, as after scanning a game's QR code), and counted as test_every_page.py
counts a page: every request the page makes, headers and bodies as they travel (gzipped), from
the navigation until the network has been idle for half a second; on a game's page, also until
its first question to the server (its first live answer) is in. The service worker registers
only after that (static/app.js), and what it fetches for no signal is not the page's.

- **Weight:** at most 10 KiB (issue 18; the lightest peer's scoring page is 6.8 KB).
- **Once:** no address fetched twice (the live answer and "entering" are asked again on
  purpose, and are left out).
- **Still:** no layout shift (CLS 0, as a PerformanceObserver in the page adds it up), even when
  the scripts arrive well after the first paint: they are held back until the page has painted.
  (Before issue 18, a deal or line form moved by 0.046 when its script showed "Other phones
  see you as" and the steppers.)
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.rules import DealEntry
from scorekeeper.services import clubs, deals, demo, games
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup
from scorekeeper.services.links import path_of

from .conftest import open_phone, settled, transfers_counted
from .seeded import kept

LIMIT = 10 * 1024
# The game's two pages are over the limit, and would be even if they carried nothing they do not
# use: bench/page_floor.py takes each page with only the CSS rules it uses and all its scripts in
# one response, and still finds 11.8 KB for the scoreboard and 12.6 KB for the deal form (the
# page itself, the live client, the first live answer and, on the form, "entering"). See
# docs/PERFORMANCE.md, *Lighter on the wire*. What they weigh at most today (13.7 and 15.3 KB),
# so that they do not grow unnoticed. Issue 25 gives the deal page 18 KB: its scorer loads
# after the first paint (from the worker, or once a figure is touched on a first visit). Its
# table's news, the next game and the disclosure marks took the scoreboard from 13.7 KB to
# 14.5 KB (live.js +477 bytes, the live answer +108, app.css +236): 14.75 KB was its ceiling.
# Issue 37's club night took it to 14.88 KB: live.js +137 bytes (a night's game reloads when
# its night moves on, and asks twice a second while its phones wait for the next round), the
# live answer's `night` and `waiting` +20, the club nav's break in app.css +5; the page itself
# is lighter (its whitespace trimmed). 14.9 KB is its ceiling now.
# Issue 40's agreement added 0.5 KB: the seeded game's two deals, entered whole on no side's
# phone, each asked of both sides on this phone of no side (the Agree and Query forms, +308
# bytes gzipped), live.js +154 (the scoreboard fetched again when a side agrees or queries; who
# answered filled in), the live answer's `answers` and `queries` +20.
# Issue 40's first visit that scores offline: the phone's scorer comes with the deal form, not
# at the first touch of a figure (with no signal by then it never came): scorer.js,
# scorer_game.js and scorer_form.js, 10,657 bytes on the wire, and what the server states of the
# game in the form (data-stated, 1.9 KB of the page), +12.6 KB: 16.7 KB then (31.8 KB measured
# with the other parts, comfort.js's 1.6 KB among them). On the scoreboard, the address
# bar kept to the game's link and a prompter reconnect: live.js +65 bytes, data-link +15.
# Issue 40's table comfort on the scoreboard, +1,970: comfort.js (the screen kept awake, larger
# text, the name asked once) 1,570 bytes on the wire, its tag and the "may dim" words +81, the
# one-time "Who is holding this phone?" form a new phone meets +255 (its CSRF token most of
# it), the Larger text toggle +61; larger.css comes only to a phone that chose it.
# Each deal's history in words in its details (+21 a deal) and the parts above measured together:
# 17,696 bytes (live.js 4,100 on the wire with all of issue 40's changes); then every second
# while a deal waits for a side's answer, live.js +55 and the live answer's `asking` +16.
# Issue 41's refusals as data: the form states the templates of the sentences the phone fills
# (rules/sentences.PHONE, its refusals, warnings and breakdown details), +817 bytes of the page
# (31,895 measured before, 32,436 after), while the scorer's scripts lose their copies (-275)
# and the form carries only the queue's words it says itself (queue_words.ON_THE_FORM): +550.
# Then the live corner's words of the queue (a game gone from the server, a side it cannot name,
# the next game's "Open it") stated by the page (data-words) rather than written in live.js:
# 17,838 bytes measured, about 70 over the 17,767 above; the ceiling +50.
CEILING = {"scoreboard": 17_800 + 50, "deal-entry": 18_000 + 12_600 + 1_400 + 550}
DEMO_SLUG = "demo"
REPEATED = re.compile(r"/live\?|/entering$")
# In the page: resolved once the browser has drawn two more frames, so what was laid out before
# is painted and its layout shifts (if any) reported to the observer (CLS, below).
PAINTED = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
# In the page: resolved once the service worker is in charge, its files stored (its install)
# and its old ones gone (its activation).
WORKER_ACTIVE = """async () => {
  const worker = (await navigator.serviceWorker.ready).active;
  while (worker.state !== "activated") {
    await new Promise((r) => worker.addEventListener("statechange", r, { once: true }));
  }
}"""
# Adds up every layout shift from the start. Nobody touches these pages, so every shift counts:
# a phone's emulated touch screen marks shifts as following input (hadRecentInput) when there
# was none, which Lighthouse ignores too.
CLS = """window.__cls = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__cls += entry.value;
}).observe({ type: "layout-shift", buffered: true });"""


@dataclass
class Seeded:
    game: str  # a casual game three deals in, by its link
    finished: str  # a finished game (its result to share)
    member: int


def won(melded: int) -> DealEntry:
    return DealEntry(books={"clean": 2, "dirty": 2, "wild": 1}, went_out=True, melded_points=melded)


def caught(melded: int, leftover: int) -> DealEntry:
    return DealEntry(books={"clean": 1}, melded_points=melded, leftover_points=leftover)


@kept
def seed(app) -> Seeded:
    """The demo club, and a game of two partnerships in progress, as bench/lighthouse.py has."""
    with app.app_context():
        club = demo.fill_demo(DEMO_SLUG, games=8)
        counts = {m.id: clubs.games_of_member(m) for m in club.members}
        sides = [
            SideSetup("Harold & Linda", ["Harold", "Linda"]),
            SideSetup("Doug & Rosa", ["Doug", "Rosa"]),
        ]
        game = games.start_game("classic", sides)
        for scores in ([won(310), caught(185, 95)], [caught(240, 60), won(355)]):
            saved = deals.enter_deal(game, Level.TABLE, [entry.to_dict() for entry in scores])
            assert isinstance(saved, deals.Saved), saved
        finished = games.record_game("classic", sides, [[won(400), caught(150, 45)]] * 4)
        return Seeded(path_of(game), path_of(finished), max(counts, key=counts.get))


MAIN_PAGES = {
    "home": "/",
    "new-game": "/games/new",
    "scoreboard": "{s.game}",
    "deal-entry": "{s.game}/deals/new",
    "rules": "/rules",
    "rule-card": "/rules/classic",
    "club": f"/clubs/{DEMO_SLUG}",
    "standings": f"/clubs/{DEMO_SLUG}/standings",
    "member": f"/clubs/{DEMO_SLUG}/members/{{s.member}}",
}
# Pages whose scripts show or hide something, checked for shifts too.
MORE_PAGES = {
    "new-game-form": "/games/new?ruleset=classic",
    "line-entry": "{s.game}/deals/next/1",
    "scoreboard-finished": "{s.finished}",
}


def first_visit(page: Page, path: str) -> list[tuple[str, int]]:
    """Open the page on a phone that never saw the app; (url, bytes) of what it transferred."""
    page.transfers.clear()
    page.started.clear()
    page.ended.clear()
    game = path.startswith("/t/")
    if game:
        with page.expect_response(lambda r: "/live?" in r.url, timeout=10_000):
            page.goto(page.base + path)
    else:
        page.goto(page.base + path)
    settled(page)
    transfers_counted(page, page.base + path)
    # The live answer's transfer is counted as it ends (watch() asks its sizes then): each end
    # of a request lets that count in, and the page asks again every second or so.
    while game and not any("/live?" in url for url, _ in page.transfers):
        page.wait_for_event("requestfinished", timeout=10_000)
    taken = list(page.transfers)
    # Only the first live answer: the page asks again every second or so, by design.
    polls = [i for i, (url, _) in enumerate(taken) if "/live?" in url]
    return [t for i, t in enumerate(taken) if i not in polls[1:]]


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            name,
            marks=pytest.mark.xfail(
                reason="over 10 KiB even at its floor (bench/page_floor.py): the page, the "
                "live client and its first answer",
                strict=True,
            ),
        )
        if name in CEILING
        else name
        for name in MAIN_PAGES
    ],
)
def test_a_first_visit_weighs_at_most_10_kib(phone, app, name):
    page = phone
    taken = first_visit(page, MAIN_PAGES[name].format(s=seed(app)))
    weight = sum(size for _, size in taken)
    print(f"{page.device} {name}: {weight:,} bytes in {len(taken)} requests: {taken}")
    assert weight <= LIMIT, f"{name} weighs {weight:,} bytes: {taken}"


@pytest.mark.parametrize("name", sorted(CEILING))
def test_the_game_pages_weigh_no_more_than_now(phone, app, name):
    page = phone
    taken = first_visit(page, MAIN_PAGES[name].format(s=seed(app)))
    weight = sum(size for _, size in taken)
    print(f"{page.device} {name}: {weight:,} bytes in {len(taken)} requests: {taken}")
    assert weight <= CEILING[name], f"{name} weighs {weight:,} bytes: {taken}"


@pytest.fixture
def asked(app):
    """Every address the server is asked for while the test runs: the page's requests, the
    browser's own, and the service worker's."""
    paths: list[str] = []
    inner = app.wsgi_app

    def record(environ, start_response):
        query = environ.get("QUERY_STRING")
        paths.append(environ.get("PATH_INFO", "") + (f"?{query}" if query else ""))
        return inner(environ, start_response)

    app.wsgi_app = record
    yield paths
    app.wsgi_app = inner


@pytest.mark.parametrize("name", list(MAIN_PAGES))
def test_a_first_visit_fetches_nothing_twice(phone, app, asked, name):
    page = phone
    path = MAIN_PAGES[name].format(s=seed(app))
    asked.clear()
    taken = first_visit(page, path)
    assert any("/static/app.css?v=" in url for url, _ in taken), taken
    # The service worker, registered once the page is idle, installs: it stores the app's files
    # from the browser's cache, not asking the server for them again.
    page.evaluate(WORKER_ACTIVE)
    by_page = Counter(url for url, _ in page.transfers if not REPEATED.search(url))
    assert all(count == 1 for count in by_page.values()), by_page
    files = Counter(p for p in asked if p.startswith("/static/") or p == "/sw.js")
    assert all(count == 1 for count in files.values()), files
    assert "/sw.js" in files and any(p.startswith("/static/offline.js?v=") for p in files), files


@pytest.fixture
def late_scripts(browser, live_server):
    """A phone whose scripts arrive only once the page has painted (a slow first visit)."""
    page = open_phone(browser, "pixel-7", live_server)
    page.context.add_init_script(CLS)
    page.held = []
    page.released = False

    def hold(route) -> None:
        if page.released:
            route.continue_()
        else:
            page.held.append(route)

    page.context.route(re.compile(r"\.js(\?|$)"), hold)
    yield page
    page.context.close()


def release(page: Page) -> None:
    page.released = True
    for route in page.held:
        route.continue_()
    page.held.clear()


@pytest.mark.parametrize("name", [*MAIN_PAGES, *MORE_PAGES])
def test_nothing_shifts_when_the_scripts_start(late_scripts, app, name):
    page = late_scripts
    path = {**MAIN_PAGES, **MORE_PAGES}[name].format(s=seed(app))
    page.goto(page.base + path, wait_until="commit")
    expect(page.locator("main h1")).to_be_visible()
    page.evaluate(PAINTED)  # painted without its scripts
    assert page.held, "the scripts were not held back"
    before = page.evaluate("window.__cls")
    release(page)
    settled(page)  # the document complete among it
    page.wait_for_function("() => !!window.hf")
    page.evaluate(PAINTED)  # what the scripts showed or hid, painted
    shift = page.evaluate("window.__cls")
    assert (before, shift) == (0, 0), f"{name}: shifted {before} before the scripts, {shift} after"


@pytest.fixture
def row_by_row(app):
    """The standings page sent a row at a time, a tenth of a second apart, as to a phone on poor
    signal: the browser paints the table before its last rows arrive."""
    inner = app.wsgi_app

    def trickle(environ, start_response):
        if not environ.get("PATH_INFO", "").endswith("/standings"):
            return inner(environ, start_response)
        environ.pop("HTTP_ACCEPT_ENCODING", None)  # the page as text, to cut between its rows
        body = b"".join(inner(environ, start_response))
        pieces = body.split(b"<tr")

        def sent():
            yield pieces[0]
            for piece in pieces[1:]:
                time.sleep(0.1)  # not a wait: the poor signal itself, between two rows
                yield b"<tr" + piece

        return sent()

    app.wsgi_app = trickle
    yield
    app.wsgi_app = inner


def test_standings_rows_arriving_late_move_nothing(late_scripts, app, row_by_row):
    """Rows that arrive after the table has painted (a longer name, a wider figure) leave its
    columns where they were (before issue 26's review, the name column widened under them)."""
    page = late_scripts
    seed(app)
    page.goto(page.base + MAIN_PAGES["standings"], wait_until="commit")
    expect(page.get_by_role("link", name="Standings CSV")).to_be_attached(timeout=10_000)
    page.evaluate(PAINTED)
    assert page.locator(".standings tbody tr").count() >= 3, "too few rows to arrive one by one"
    assert page.evaluate("window.__cls") == 0
