"""Night mode and paper: charts and the invitation with the phone set dark, and the record
pages printed. (Every page set dark is checked in test_every_page.py.)

- Charts in both themes: every line, marker, bar and label stands out from the page
  (3:1 for graphics, 4.5:1 for text), whatever the phone's setting.
- Paper (`@media print`), from a light phone and a dark one: the scoreboard of a finished
  game, the scoreboard with the sides' own lines of the next deal in, the club's standings and
  its games print black on white, with no navigation, button, form or field, no live banner,
  no invitation, and no blue underlined link; the figures stay.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from . import test_every_page as every
from ._colours import COLOURS, contrast, luminance, rgb
from .conftest import QR_PIXELS, open_phone

pytestmark = pytest.mark.usefixtures("quick_hashing")

PHONE = "small-375x667"

# Elements that must not be printed: the phone's controls and the page's chrome.
NOT_ON_PAPER = (
    "header, nav, footer, button, .button, form, input, select, textarea, .skip, .live, "
    ".flash, details.invite, details.filters"
)
SHOWN = """(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.checkVisibility({ visibilityProperty: true, opacityProperty: true })
    && el.getBoundingClientRect().width > 0)
  .map((el) => el.outerHTML.slice(0, 90))"""


def open_dark(browser, live_server, scheme: str = "dark") -> Page:
    """The small phone with its colour scheme set; no service worker, as in test_every_page."""
    return open_phone(browser, PHONE, live_server, color_scheme=scheme, service_workers="block")


@pytest.fixture(params=["light", "dark"])
def scheme(request) -> str:
    """The phone's colour setting: each test using it runs once for each."""
    return request.param


def phone_in(browser, live_server, scheme: str):
    page = open_dark(browser, live_server, scheme)
    yield page
    page.context.close()
    assert page.outside == [], f"requests to other hosts: {page.outside}"


@pytest.fixture
def dark_phone(browser, live_server):
    """The small phone set dark, failing on any request to another host."""
    yield from phone_in(browser, live_server, "dark")


@pytest.fixture
def themed_phone(browser, live_server, scheme):
    """The small phone set light, then dark."""
    yield from phone_in(browser, live_server, scheme)


def visit(page: Page, app, name: str) -> None:
    world = every.seed(app)
    go = every.PAGES[name]
    if go in every.NEEDS_APP:
        go(page, world, app)
    else:
        go(page, world)


# ------------------------------------------------------------------------- night mode
# Every page at night (dark background, light text, axe with colour contrast) is checked in
# test_every_page.py, on the small phone, after its light checks: the page set dark in place.


CHARTS = {
    "scoreboard-finished": "line",
    "club-member": "bar",
}
GRAPHICS = "svg.chart .line, svg.chart .marker, svg.chart .bar, svg.chart .zero-line"


@pytest.mark.parametrize("name", sorted(CHARTS))
def test_charts_stand_out_in_both_themes(themed_phone, app, scheme, name):
    """Every line, marker and bar 3:1 against the page behind it, every label 4.5:1."""
    page = themed_phone
    visit(page, app, name)
    every.shot(page, f"chart-{scheme}-{name}")
    assert page.locator(f"svg.chart.chart-{CHARTS[name]}").count() == 1
    graphics = page.evaluate(COLOURS, GRAPHICS)
    labels = page.evaluate(COLOURS, "svg.chart text")
    assert graphics and labels
    for el in graphics:
        paint = el["fill"] if el["tag"] in ("rect", "circle", "polygon") else el["stroke"]
        if el["fill"] == "none":  # a hollow marker is drawn by its outline
            paint = el["stroke"]
        ratio = contrast(paint, el["background"])
        assert ratio >= 3, f"{scheme}: {paint} on {el['background']} is {ratio:.2f}: {el['what']}"
    for el in labels:
        ratio = contrast(el["fill"], el["background"])
        assert ratio >= 4.5, f"{scheme}: label {ratio:.2f}: {el['what']}"
    # The series keep their own colours at night too: told apart, not all one colour.
    series = {el["stroke"] for el in graphics if 'class="line"' in el["what"]}
    bars = {el["fill"] for el in graphics if el["tag"] == "rect" and "bar" in el["what"]}
    assert len(series) > 1 or len(bars) > 1


def test_the_invitation_stays_dark_on_light_at_night(dark_phone, app):
    """A QR code scans only dark on light: at night it keeps its white ground (its own, every
    pixel opaque, its quiet zone included), and no style of the page dims or inverts it."""
    page = dark_phone
    visit(page, app, "scoreboard-empty")
    qr = page.locator("#invite img.qr")
    expect(qr).to_be_visible()
    page.wait_for_function("() => document.querySelector('#invite img.qr').naturalWidth > 0")
    shown = qr.evaluate(QR_PIXELS)
    assert shown["opaque"], shown
    assert luminance(shown["corner"]) > 0.9 and luminance(shown["light"]) > 0.9, shown
    assert contrast(shown["dark"], shown["light"]) >= 15, shown
    assert (shown["filter"], shown["opacity"], shown["blend"]) == ("none", "1", "normal"), shown


# ------------------------------------------------------------------------- paper

PRINTED = {
    "scoreboard-finished": ".sides .total, .result, svg.chart, .deal summary",
    "club-scoreboard-finished": ".sides .total, svg.chart",
    # The lines in so far (one in question) and their running breakdown, without the buttons.
    "scoreboard-line-flagged": "#lines .line-state, #lines p.error, #lines .breakdown td",
    "club-standings": "table.standings td",
    "club-games": ".games .game-line",
}


@pytest.mark.parametrize("name", sorted(PRINTED))
def test_printed_black_on_white_without_controls(themed_phone, app, scheme, name):
    """On paper: the figures in black on white; no chrome, control, banner or blue link."""
    page = themed_phone
    visit(page, app, name)
    page.emulate_media(media="print")
    assert page.evaluate("matchMedia('print').matches")

    every.shot(page, f"print-from-{scheme}-{name}")
    shown = page.evaluate(SHOWN, NOT_ON_PAPER)
    assert shown == [], f"{name} printed from a {scheme} phone shows controls: {shown}"
    assert page.evaluate(SHOWN, PRINTED[name]), f"{name}: the figures are not printed"

    body = page.evaluate(COLOURS, "body")[0]
    assert luminance(body["background"]) == 1, f"{name}: paper not white: {body}"
    assert contrast(body["color"], body["background"]) >= 18, f"{name}: ink not black: {body}"
    for el in page.evaluate(COLOURS, "main *"):
        if el["tag"] in ("svg", "line", "polyline", "circle", "rect", "polygon", "g"):
            continue  # the chart's lines keep their series colours (checked below)
        assert luminance(el["background"]) > 0.9, f"{name}: a dark ground: {el}"
        ratio = contrast(el["color"], el["background"])
        assert ratio >= 7, f"{name}: grey on paper ({ratio:.1f}): {el}"
    for link in page.evaluate(COLOURS, "main a"):
        assert link["decoration"] == "none", f"{name}: an underlined link: {link}"
        assert max(rgb(link["color"])) < 80, f"{name}: a coloured link: {link}"
    for el in page.evaluate(COLOURS, GRAPHICS):
        paint = el["stroke"] if el["tag"] in ("polyline", "line") else el["fill"]
        if paint != "none":
            assert contrast(paint, "rgb(255, 255, 255)") >= 3, f"{name}: faint: {el}"
    page.emulate_media(media="screen")
