"""The rule card at 200% text (issue 25): its tables fit a 375 px phone, no sideways scroll.

The phone's owner doubles the browser's text size (Chromium's font-size setting, as
test_every_page.py sets it). Every rule set's card, and a game's card with house rules, is
checked: the document and each table's box are no wider than the screen, no text runs out of
its box, and axe finds nothing.
"""

from __future__ import annotations

import pytest

from scorekeeper.rules import PRESETS

from .conftest import check_axe, open_phone
from .test_every_page import LARGE_ROOT_PX, LARGE_TEXT, LAYOUT_PROBLEMS

# How wide the document is, and each table's box, against what shows of it.
WIDTHS = """() => ({
  page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
  tables: [...document.querySelectorAll("main table")].map((t) => {
    const box = t.parentElement;
    return {box: box.className, scroll: box.scrollWidth, shown: box.clientWidth,
            right: t.getBoundingClientRect().right};
  }),
})"""


@pytest.fixture
def large_text(browser, live_server):
    """A 375 px phone whose owner doubled the browser's text size."""
    page = open_phone(browser, "small-375x667", live_server)
    page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": LARGE_TEXT})
    yield page
    page.context.close()
    assert page.outside == [], f"requests to other hosts: {page.outside}"


def assert_fits(page, name: str) -> None:
    """Text doubled; the page and every table's box no wider than the phone; no text clipped."""
    root = page.evaluate("getComputedStyle(document.documentElement).fontSize")
    assert root == LARGE_ROOT_PX, f"{name}: root text is {root}, not doubled"
    widths = page.evaluate(WIDTHS)
    width = page.viewport_size["width"]
    scroll, shown = widths["page"]
    assert scroll <= shown, f"{name} scrolls sideways: {widths}"
    assert widths["tables"], f"{name}: no table"
    for table in widths["tables"]:
        assert table["scroll"] <= table["shown"] and table["right"] <= width + 1, (name, table)
    problems = page.evaluate(LAYOUT_PROBLEMS, width)
    assert problems == [], f"{name} at 200% text: {problems}"


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_rule_card_fits_at_200_percent_text(large_text, key):
    page = large_text
    page.goto(f"{page.base}/rules/{key}")
    assert_fits(page, key)


def test_a_games_rule_card_with_house_rules_fits_at_200_percent_text(large_text):
    page = large_text
    page.goto(page.base + "/games/new?ruleset=classic")
    page.fill("#side0_players", "Ann, Bob")
    page.fill("#side1_players", "Cat, Dan")
    page.locator("details.house-rules summary").click()
    page.fill("#rule_going_out_bonus", "200")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Rule card").click()
    # The click does not wait for the card: read it once it has loaded with its stylesheet.
    page.wait_for_url("**/t/*/rules", wait_until="load")
    assert_fits(page, "game")
    check_axe(page)
