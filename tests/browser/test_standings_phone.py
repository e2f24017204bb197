"""The standings on the organiser's phones, 375x667 and 320x568 (issue 28).

- **Read on a phone:** the page never scrolls sideways; the table does, inside its own box, the
  rank and name staying put beside the first figures; "Swipe for all 13 columns" above it and a
  shade at the box's right edge, gone once the last column is in view; every figure of a
  member reached that way; a column's heading still sorts.
- **Who is ranked**, said above the table.
- **On paper:** each heading on one line, the table within a portrait A4 page, no controls.
- **No zoom:** every field of the standings' filter and the club's settings has text of at
  least 16 px (less, and a phone zooms in when it is tapped) and is at least 44 px tall.
"""

from __future__ import annotations

import base64
import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.services import demo

from .conftest import check_axe

SLUG = "demo"
STANDINGS = f"/clubs/{SLUG}/standings?season=all"
# A portrait A4 page's width in CSS pixels, less Chromium's default margins (0.4 in each side).
A4_PRINTED_WIDTH = 718
# How light the pixels of a PNG are on average, 0 (black) to 1 (white): decoded in the page.
LIGHTNESS = """async (png) => {
  const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
  const picture = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
  const canvas = new OffscreenCanvas(picture.width, picture.height);
  const drawn = canvas.getContext("2d");
  drawn.drawImage(picture, 0, 0);
  const px = drawn.getImageData(0, 0, picture.width, picture.height).data;
  let sum = 0;
  for (let i = 0; i < px.length; i += 4) sum += px[i] + px[i + 1] + px[i + 2];
  return sum / (px.length / 4) / 765;
}"""
# Each shown field a phone types in or chooses from: its name, text size and height.
FIELDS = """() => [...document.querySelectorAll(
    "input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea")]
  .filter((el) => el.checkVisibility())
  .map((el) => [el.name || el.id, parseFloat(getComputedStyle(el).fontSize),
                el.getBoundingClientRect().height])"""
# Each heading of the table: its words, the height of its words as laid out, its line height.
HEADINGS = """() => [...document.querySelectorAll("table.standings thead th")].map((th) => {
  const words = document.createRange();
  words.selectNodeContents(th);
  return [th.textContent.trim(), words.getBoundingClientRect().height,
          parseFloat(getComputedStyle(th).lineHeight)];
})"""
# Whether the element is within the box and what a tap at its middle lands on is itself.
IN_VIEW = """([el, box]) => {
  const r = el.getBoundingClientRect(), b = box.getBoundingClientRect();
  const within = r.left >= b.left - 0.5 && r.right <= b.right + 0.5;
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return within && el.contains(hit);
}"""


@pytest.fixture
def club(app):
    """The demo club with ten finished games: some members ranked, more not yet."""
    with app.app_context():
        demo.fill_demo(SLUG, games=10)


def in_view(page: Page, element, box) -> bool:
    return page.evaluate(IN_VIEW, [element.element_handle(), box.element_handle()])


def right_edge_lightness(page: Page, region) -> float:
    """How light the strip just inside the table box's right edge is, its text made clear: the
    shade alone, and the rows' lines (the same wherever the table is scrolled)."""
    page.evaluate(
        "() => document.querySelectorAll('.standings *').forEach("
        "(el) => el.style.setProperty('color', 'transparent'))"
    )
    box = region.bounding_box()
    clip = {"x": box["x"] + box["width"] - 12, "y": box["y"] + 12, "width": 9, "height": 200}
    png = page.screenshot(clip=clip)
    page.evaluate(
        "() => document.querySelectorAll('.standings *').forEach("
        "(el) => el.style.removeProperty('color'))"
    )
    return page.evaluate(LIGHTNESS, base64.b64encode(png).decode())


def test_standings_read_on_a_phone(organiser_phone, app, club):
    page = organiser_phone
    page.goto(page.base + STANDINGS)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]

    # Who is ranked is said before the table: ten games leave more than four members short.
    said = page.locator("#ranked-after")
    expect(said).to_have_text(
        re.compile(
            r"^Ranked after 3 games\. Not yet ranked: (\w+ \(\d games?\), ){2}\w+ \(\d "
            r"games?\) and \d+ more\.$"
        )
    )
    region = page.locator(".standings-scroll")
    above = said.bounding_box()
    assert above["y"] + above["height"] <= region.bounding_box()["y"]

    # The cue: said, and a shade at the right edge while there is more that way.
    cue = page.locator(".swipe")
    expect(cue).to_be_visible()
    expect(cue).to_have_text("Swipe for all 13 columns")
    region.evaluate("(el) => el.scrollIntoView({ block: 'start' })")
    shaded = right_edge_lightness(page, region)

    # A member's line: the rank, the name and the first figures in view; the last is not.
    row = page.locator("table.standings tbody tr").first
    rank, name = row.locator("td").first, row.locator("th")
    figures = row.locator("td")
    assert figures.count() == 14  # the rank and 13 figures, the Rating last
    assert in_view(page, rank, region) and in_view(page, name, region)
    assert in_view(page, figures.nth(1), region), "no figure beside the name"
    if page.viewport_size["width"] >= 375:
        assert in_view(page, figures.nth(3), region), "Win % not beside the name on 375 px"
    assert not in_view(page, figures.last, region)

    # Swiped to the end: the last figure in view, the rank and name still beside it, no shade.
    region.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
    assert region.evaluate("(el) => el.scrollLeft + el.clientWidth >= el.scrollWidth - 1")
    assert in_view(page, figures.last, region)
    assert in_view(page, rank, region) and in_view(page, name, region)
    unshaded = right_edge_lightness(page, region)
    assert unshaded - shaded > 0.02, f"no shade at the edge: {shaded:.3f} then {unshaded:.3f}"
    # Every column passed under the name in view on the way.
    for column in range(2, 14):
        cell = figures.nth(column)
        cell.scroll_into_view_if_needed()
        assert in_view(page, cell, region), f"column {column + 2} never in view"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # A heading sorts, even one out of view at first.
    region.evaluate("(el) => { el.scrollLeft = 0; }")
    page.get_by_role("link", name="Went out", exact=True).click()
    expect(page).to_have_url(re.compile(r"sort=went_out"))
    expect(page.locator("table.standings th[aria-sort=descending]")).to_have_text("Went out")
    went_out = [
        int(line.locator("td").nth(11).inner_text())
        for line in page.locator("table.standings tbody tr:not(.unranked)").all()
    ]
    assert len(went_out) >= 3 and went_out == sorted(went_out, reverse=True), went_out
    check_axe(page)


def test_standings_on_paper(organiser_phone, app, club):
    page = organiser_phone
    page.goto(page.base + STANDINGS)
    page.emulate_media(media="print")
    # Even on a phone's narrow page, each heading keeps to one line ("Win %" not split).
    for label, height, line in page.evaluate(HEADINGS):
        assert height < 1.5 * line, f"{label!r} printed on more than one line: {height} px"
    # Portrait A4: every column on the page, without the phone's cue, filters and buttons.
    page.set_viewport_size({"width": A4_PRINTED_WIDTH, "height": 1000})
    for label, height, line in page.evaluate(HEADINGS):
        assert height < 1.5 * line, f"{label!r} printed on more than one line: {height} px"
    table = page.locator("table.standings").bounding_box()
    assert table["x"] >= 0 and table["x"] + table["width"] <= A4_PRINTED_WIDTH
    assert page.evaluate("document.documentElement.scrollWidth") <= A4_PRINTED_WIDTH
    expect(page.locator("#ranked-after")).to_be_visible()
    expect(page.locator("table.standings tbody tr").last).to_be_visible()
    for hidden in (".swipe", "details.filters", ".subnav", ".actions", ".top"):
        expect(page.locator(hidden)).to_be_hidden()


def test_fields_a_phone_does_not_zoom_into(organiser_phone, app, club):
    page = organiser_phone
    page.goto(page.base + STANDINGS)
    page.locator("details.filters summary").click()
    shown = page.evaluate(FIELDS)
    assert {name for name, _, _ in shown} == {"season", "ruleset", "games", "start", "end"}, shown

    page.goto(page.base + "/login")
    page.fill("#username", demo.ORGANISER)
    page.fill("#password", demo.PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text(f"Signed in as {demo.ORGANISER}")).to_be_visible()
    page.goto(f"{page.base}/clubs/{SLUG}/settings")
    settings = page.evaluate(FIELDS)
    assert "min_games" in {name for name, _, _ in settings}, settings
    for name, size, height in shown + settings:
        assert size >= 16, f"{name}: {size} px text, a phone zooms in on it"
        assert height >= 44, f"{name}: {height} px tall, too small to tap"
    check_axe(page)
