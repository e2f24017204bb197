"""The main pages at 200% text, on both phones.

At 200% text (the browser's own text-size setting doubled, as a player with poor eyesight
sets it) the main pages still fit the phone's width with no control clipped or covering
another, and a whole deal is entered and saved. Moved from test_every_page.py; the pages,
the seeding and the checks are in _every_page_checks.py and _every_page_world.py.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ._every_page_checks import (
    CLOSE_OPENED,
    LARGE_ROOT_PX,
    LARGE_TEXT,
    LAYOUT_PROBLEMS,
    OPEN_ALL,
    PAGES,
    shot,
    too_wide,
)
from ._every_page_world import seed
from .conftest import PHONES, open_phone

pytestmark = pytest.mark.usefixtures("quick_hashing")


@pytest.fixture(params=sorted(PHONES))
def large_text(request, browser, live_server):
    """A phone whose owner doubled the browser's text size (Chromium's font-size setting)."""
    page = open_phone(browser, request.param, live_server)
    context = page.context
    session = context.new_cdp_session(page)
    session.send("Page.setFontSizes", {"fontSizes": LARGE_TEXT})
    yield page
    context.close()
    assert page.outside == [], f"requests to other hosts: {page.outside}"


def assert_usable_at_large_text(page: Page, name: str) -> None:
    """Text really is doubled, the page fits the phone, and no control is clipped or covered."""
    root = page.evaluate("getComputedStyle(document.documentElement).fontSize")
    assert root == LARGE_ROOT_PX, f"{name}: root text is {root}, not doubled"
    wide = too_wide(page)
    problems = page.evaluate(LAYOUT_PROBLEMS, page.viewport_size["width"])
    shot(page, f"200pc-{name}")
    assert wide is None, f"{name} at 200% text: {wide}"
    assert problems == [], f"{name} at 200% text: {problems}"
    # What folds away (card counts, each deal's lines, the filters) must fit as well.
    page.evaluate(OPEN_ALL)
    wide = too_wide(page)
    problems = page.evaluate(LAYOUT_PROBLEMS, page.viewport_size["width"])
    page.evaluate(CLOSE_OPENED)
    assert wide is None, f"{name} at 200% text, details open: {wide}"
    assert problems == [], f"{name} at 200% text, details open: {problems}"


LARGE_TEXT_PAGES = (
    "home",
    "home-my-games",
    "choose-rules",
    "new-game-classic",
    "deal-entry",
    "scoreboard-mid-game",
    "scoreboard-finished",
    "club-standings",
)


@pytest.mark.parametrize("name", LARGE_TEXT_PAGES)
def test_main_pages_at_200_percent_text(large_text, app, name):
    """The pages a table uses most fit the phone with doubled text, nothing clipped."""
    page = large_text
    PAGES[name](page, seed(app))
    assert_usable_at_large_text(page, name)


def test_a_deal_at_200_percent_text(large_text, app):
    """From the home page to a saved deal with doubled text: every tap lands on its control."""
    page = large_text
    page.goto(page.base + "/")
    assert_usable_at_large_text(page, "journey-home")
    page.get_by_role("link", name="Start a game").click()
    page.get_by_role("link", name="Play Classic partnership rules").click()
    page.fill("#side0_players", "Ann, Bob")
    page.fill("#side1_players", "Cat, Dan")
    assert_usable_at_large_text(page, "journey-new-game")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter deal 1").click()

    # Ann & Bob: 2 clean, 2 dirty, 1 wild, a red three laid down, 480 melded, went out:
    # 2×500 + 2×300 + 1,500 + 100 + 100 out + 480 = 3,780.
    # Cat & Dan: 1 clean book, 130 melded, 30 left: 500 + 130 − 30 = 600.
    ann, cat = (page.locator("fieldset.side-entry").nth(i) for i in (0, 1))
    for label, taps in (("clean books", 2), ("dirty books", 2), ("wild books", 1)):
        for _ in range(taps):
            ann.get_by_role("button", name=f"One more: {label}").tap()
    ann.get_by_role("button", name="One more: red threes laid down").tap()
    page.locator("#s0-melded_points").tap()
    page.keyboard.type("480")
    cat.get_by_role("button", name="One more: clean books").tap()
    page.locator("#s1-melded_points").tap()
    page.keyboard.type("130")
    page.locator("#s1-leftover_points").tap()
    page.keyboard.type("30")
    page.get_by_label("Ann & Bob", exact=True).tap()
    cat.locator("details.counter summary").tap()
    expect(page.locator("#breakdown")).to_contain_text("130 melded − 30 left")
    assert_usable_at_large_text(page, "journey-deal-entry")

    page.get_by_role("button", name="Save deal 1").tap()
    totals = page.locator(".side .total")
    expect(totals).to_have_count(2)
    assert [t.split()[-1] for t in totals.all_inner_texts()] == ["3,780", "600"]
    assert_usable_at_large_text(page, "journey-scoreboard")
