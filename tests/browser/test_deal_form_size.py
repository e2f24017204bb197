"""A short deal form (issue 25): who went out first, each side's figures in a tight block.

Measured in real Chromium on a 375x667 phone: the whole deal's form for two sides (classic
rules), from the form's top to the foot of its Save button, was 1,802 px before; at most 1,400
now. On a 320x568 phone a side's first figure (its clean books) shows on the first screen,
without scrolling. A side's own line is as tight. Taps and keystrokes are test_taps.py's.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import check_axe, game_link, open_phone, start_game

MOST_FORM_PX = 1400
# A side's own line (one side, going out as one box): 1,058 px before.
MOST_LINE_PX = 900
# The form from its top to the foot of its Save button, and where the first figure is.
MEASURE = """() => {
  const form = document.querySelector("main form[data-preview]");
  const top = form.getBoundingClientRect().top;
  const save = form.querySelector("button[type=submit]").getBoundingClientRect();
  const first = form.querySelector("fieldset.side-entry input").getBoundingClientRect();
  return {form: save.bottom - top, firstTop: first.top, firstBottom: first.bottom,
          scrolled: window.scrollY, screen: window.innerHeight};
}"""


def deal_form(browser, live_server, width: int, height: int):
    """A phone of this size on deal 1's form of a new classic game."""
    page = open_phone(browser, "small-375x667", live_server)
    page.set_viewport_size({"width": width, "height": height})
    start_game(page)
    # Who holds the phone is asked once, on the first game page it opens (the scoreboard here,
    # as its QR code opens it): answered there, the deal form starts with the deal.
    page.get_by_role("button", name="Skip", exact=True).tap()
    expect(page.get_by_label("Who is holding this phone?")).to_have_count(0)
    page.goto(page.base + game_link(page) + "/deals/new")
    expect(page.locator("h1")).to_have_text("Enter deal 1")
    return page


def test_the_whole_deal_form_for_two_sides_is_short(browser, live_server):
    page = deal_form(browser, live_server, 375, 667)
    try:
        # Who went out comes first: marking it fills in the books below.
        firsts = page.locator("main form > fieldset").evaluate_all(
            "sets => sets.map(s => s.id || s.dataset.side)"
        )
        assert firsts == ["went_out", "0", "1"], firsts
        # Counting cards stays closed until asked for.
        expect(page.locator("details.counter[open]")).to_have_count(0)
        size = page.evaluate(MEASURE)
        print(f"\n375x667: the form is {size['form']:.0f} px to its Save button")
        assert size["form"] <= MOST_FORM_PX, size
        check_axe(page)
    finally:
        page.context.close()


def test_a_sides_first_figure_is_on_the_first_screen_at_320_px(browser, live_server):
    page = deal_form(browser, live_server, 320, 568)
    try:
        size = page.evaluate(MEASURE)
        print(f"\n320x568: the first figure is at {size['firstTop']:.0f}-{size['firstBottom']:.0f}")
        assert size["scrolled"] == 0, size
        assert 0 <= size["firstTop"] and size["firstBottom"] <= size["screen"], size
        expect(page.locator("fieldset.side-entry input").first).to_be_in_viewport()
    finally:
        page.context.close()


def test_a_sides_own_line_is_as_short_and_its_phone_sees_its_side_labelled(browser, live_server):
    page = deal_form(browser, live_server, 375, 667)
    try:
        game = game_link(page)
        page.goto(page.base + game + "/deals/next/1")
        expect(page.locator("h1")).to_have_text("Line for Cat & Dan, deal 1")
        # Going out first, then the side's figures, in the same tight block.
        firsts = page.locator("main form > fieldset").evaluate_all(
            "sets => sets.map(s => s.id || s.dataset.side)"
        )
        assert firsts == ["went_out", "1"], firsts
        size = page.evaluate(MEASURE)
        print(f"\n375x667: a side's line is {size['form']:.0f} px to its Send button")
        assert size["form"] <= MOST_LINE_PX, size
        check_axe(page)

        # Once this phone has sent Cat & Dan's line, the whole deal's form labels their side,
        # in the table's order (issue 40: a player who learned the layout keeps it).
        page.get_by_role("button", name="One more: clean books").tap()
        page.get_by_role("button", name="Send this line").tap()
        expect(page).to_have_url(re.compile(re.escape(game) + "#lines$"))
        page.goto(page.base + game + "/deals/new")
        sides = page.locator("fieldset.side-entry").evaluate_all("s => s.map(f => f.dataset.side)")
        assert sides == ["0", "1"], sides
        expect(page.locator("#went_out label")).to_have_text(
            ["Nobody (stock ran out)", "Ann & Bob", "Cat & Dan"]
        )
        expect(page.locator("fieldset.side-entry > legend").nth(1)).to_contain_text(
            "Your side: Cat & Dan"
        )
        expect(page.locator("fieldset.side-entry").nth(1).locator("#s1-books-clean")).to_have_value(
            "1"
        )
    finally:
        page.context.close()
