"""Real Chromium at a phone's size, driving the app served on a free local port."""

from __future__ import annotations

import os
import re
import shutil
import time
from urllib.parse import urlsplit

import pytest
from conftest import app_of_its_own, serving

# Screenshots are kept only of the tests that fail: the fixture and hook of screenshots.py.
from .screenshots import pytest_runtest_makereport, screenshots_of_failures_only  # noqa: F401

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps trying to reach the internet.
CHROME_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Where tests save screenshots of what a phone showed; kept only if the test fails.
ARTIFACTS = os.path.join(os.path.dirname(__file__), "..", "..", "test-artifacts")


@pytest.fixture(scope="session")
def browser():
    """The system Chromium; skipped where it is missing, unless CI demands it."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium")
        pytest.skip("Chromium not installed (apt-get install chromium) — browser tests skipped")
    # An assertion passes the moment what it waits for is shown; only a failing one waits out
    # its timeout. Playwright's 5 s is too little for a page on two busy cores (CI runs two
    # Chromiums and two servers on two), so a slow page there is waited for, not failed.
    playwright_api.expect.set_options(timeout=15_000)
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        # Playwright's device table (viewport, user agent, touch) by name.
        browser.devices = dict(playwright.devices)
        yield browser
        browser.close()


@pytest.fixture
def live_server(app):
    """The app served on 127.0.0.1 for the length of one test."""
    with serving(app) as server:
        yield f"http://127.0.0.1:{server.server_port}"


# The two phones every browser test runs on: a small one and a large one.
PHONES = {
    "small-375x667": {
        "viewport": {"width": 375, "height": 667},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
    "pixel-7": "Pixel 7",
}
# The organiser's phones (issue 28): the small one and the smallest still sold, 320x568.
ORGANISER_PHONES = {
    "small-375x667": PHONES["small-375x667"],
    "tiny-320x568": {
        "viewport": {"width": 320, "height": 568},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
}
ALL_PHONES = {**PHONES, **ORGANISER_PHONES}


def phone_context(browser, name: str, **extra):
    """A new browser context shaped like the named phone."""
    shape = ALL_PHONES[name]
    options = dict(browser.devices[shape]) if isinstance(shape, str) else dict(shape)
    options.pop("default_browser_type", None)
    return browser.new_context(**options, **extra)


def watch(page, live_server: str) -> None:
    """Record every request: `page.outside` for other hosts, `page.transfers` for sizes, and
    `page.started` and `page.ended` to count them (`transfers_counted` waits on them)."""
    page.outside = []
    page.transfers = []
    page.started = []
    page.ended = []

    def on_request(request) -> None:
        if request.url.startswith(live_server):
            page.started.append(request.url)
        elif not request.url.startswith("data:"):
            page.outside.append(request.url)

    def on_ended(request) -> None:
        if request.url.startswith(live_server):
            page.ended.append(request.url)

    def on_finished(request) -> None:
        try:
            sizes = request.sizes()
        except Exception:  # playwright.sync_api.Error (imported only where it is installed)
            # Finished as its page was put away: nobody counts its bytes any more.
            return on_ended(request)
        page.transfers.append(
            (request.url, sizes["responseHeadersSize"] + max(sizes["responseBodySize"], 0))
        )
        on_ended(request)

    page.on("request", on_request)
    page.on("requestfinished", on_finished)
    page.on("requestfailed", on_ended)


def _events_in_until(page, done, within: float, what: str) -> None:
    """Talk to the browser until `done()`: its events (a request's start and end) reach the
    test only as it talks to the browser, and each round trip lets those waiting in."""
    deadline = time.monotonic() + within
    while not done():
        assert time.monotonic() < deadline, (what, page.started, page.ended)
        page.evaluate("0")


def transfers_counted(page, document: str, within: float = 15.0) -> None:
    """Wait until the page's document and every request the page started on the app's server
    have been counted, finished or failed. A request's end may come after the page's load (on
    CI's busy cores a first visit once counted nothing)."""
    _events_in_until(
        page,
        lambda: document in page.ended and len(page.ended) >= len(page.started),
        within,
        document,
    )


# A page has opened when its document is complete (its stylesheets, scripts and pictures in) and
# the fonts its layout asked for are loaded. Its icon comes after: Chromium asks for it once the
# page has loaded.
OPENED = "() => document.readyState === 'complete' && document.fonts.status === 'loaded'"
ICONS = "() => [...document.querySelectorAll('link[rel~=icon]')].map((link) => link.href)"


def settled(page, within: float = 15.0) -> None:
    """Wait until the page has opened, its icon has come, and every request it started on the
    app's server has ended, finished or failed: all it fetched as it opened is counted (in
    `page.transfers`, since they were last cleared). Not Playwright's "networkidle", which waits
    out half a second of quiet after the last request, whatever the page is doing."""
    page.wait_for_function(OPENED, timeout=within * 1000)
    icons = set(page.evaluate(ICONS))
    _events_in_until(
        page,
        lambda: (
            len(page.ended) >= len(page.started) and not icons - {url for url, _ in page.transfers}
        ),
        within,
        f"the page's icons {sorted(icons)}",
    )


def open_phone(browser, name: str, live_server: str, **extra):
    """A page on a new phone of this shape, watched, knowing the server and its own name."""
    page = phone_context(browser, name, **extra).new_page()
    watch(page, live_server)
    page.base = live_server
    page.device = name
    return page


@pytest.fixture(params=sorted(ORGANISER_PHONES))
def organiser_phone(request, browser, live_server):
    """A page on each organiser's phone (375x667 and 320x568), failing on any outside request."""
    page = open_phone(browser, request.param, live_server)
    context = page.context
    yield page
    context.close()
    assert page.outside == [], f"requests to other hosts: {page.outside}"


@pytest.fixture
def phone_options() -> dict:
    """Extra browser-context options for `phone` (a test module may override this fixture)."""
    return {}


@pytest.fixture(params=sorted(PHONES))
def phone(request, browser, live_server, phone_options):
    """A page on each phone (small and Pixel 7), failing on any request to another host."""
    page = open_phone(browser, request.param, live_server, **phone_options)
    context = page.context
    yield page
    context.close()
    assert page.outside == [], f"requests to other hosts: {page.outside}"


def check_axe(page) -> None:
    """axe-core in the page: no violation of any rule, each one explained if found."""
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page)
    assert result.violations_count == 0, result.generate_report()


# The QR code as the phone shows it (a picture of its own since issue 18), drawn on a canvas:
# whether every pixel is opaque, the lightest and darkest grey, the corner's colour, the share
# of dark pixels, and anything the page's CSS would lay over it.
QR_PIXELS = """img => {
  const size = 160, c = document.createElement("canvas");
  c.width = c.height = size;
  const g = c.getContext("2d");
  g.drawImage(img, 0, 0, size, size);
  const px = g.getImageData(0, 0, size, size).data;
  let light = 0, dark = 765, darkPixels = 0, opaque = true;
  for (let i = 0; i < px.length; i += 4) {
    const sum = px[i] + px[i + 1] + px[i + 2];
    if (px[i + 3] !== 255) opaque = false;
    if (sum < 150) darkPixels++;
    light = Math.max(light, sum); dark = Math.min(dark, sum);
  }
  const grey = (sum) => `rgb(${sum / 3}, ${sum / 3}, ${sum / 3})`;
  const s = getComputedStyle(img);
  return { opaque, light: grey(light), dark: grey(dark), darkShare: darkPixels / (size * size),
           corner: `rgb(${px[0]}, ${px[1]}, ${px[2]})`,
           filter: s.filter, opacity: s.opacity, blend: s.mixBlendMode };
}"""
# A game's private link as a path: /t/ and its 22-character secret.
GAME_LINK = r"/t/[A-Za-z0-9_-]{22}"


def game_link(page) -> str:
    """The private link (`/t/<secret>`) of the game whose page is shown."""
    found = re.match(GAME_LINK + r"(?=/|$)", urlsplit(page.url).path)
    assert found, f"not a game's page: {page.url}"
    return found.group(0)


def start_game(page, ruleset: str = "classic") -> None:
    """Start a game of Ann & Bob against Cat & Dan the quick way; the scoreboard is shown."""
    page.goto(page.base + f"/games/new?ruleset={ruleset}")
    page.fill("#side0_players", "Ann, Bob")
    page.fill("#side1_players", "Cat, Dan")
    page.get_by_role("button", name="Start the game").click()


@pytest.fixture
def app(tmp_path, databases):
    """An app of its own for each test: the live server's threads use it (see app_of_its_own)."""
    yield from app_of_its_own(tmp_path, databases)
