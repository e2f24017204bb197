"""A club night's movement cards on the organiser's phones and on paper (issue 37).

On 375 and 320 px phones, light and dark: a card for each of the twelve players and each of the
three tables, axe clean, no sideways scrolling, the cards drawn in the theme's colours. On A4:
two cards side by side, each framed by a dashed cut line and kept whole (an inline block is
never split across sheets), several a sheet, the tables' cards from a new sheet, the table
numbers the largest figures, no navigation or buttons.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from . import test_every_page as every
from ._colours import luminance
from .conftest import ORGANISER_PHONES, check_axe, open_phone
from .test_dark_and_print import NOT_ON_PAPER, SHOWN

pytestmark = pytest.mark.usefixtures("quick_hashing")

# Chromium writes a PDF page object per sheet ("/Type /Page"; the tree of them is "/Pages").
PDF_PAGE = re.compile(rb"/Type\s*/Page(?!s)")
# An A4 sheet inside the cards' 10 mm margins (static/cards.css), at 96 px an inch.
A4_INSIDE = {"width": 718, "height": 1047}


@pytest.fixture(params=[(p, s) for p in sorted(ORGANISER_PHONES) for s in ("light", "dark")])
def card_phone(request, browser, live_server):
    """Each organiser's phone (375 and 320 px), set light, then dark."""
    name, scheme = request.param
    page = open_phone(browser, name, live_server, color_scheme=scheme, service_workers="block")
    page.scheme = scheme
    yield page
    page.context.close()
    assert page.outside == [], f"requests to other hosts: {page.outside}"


def open_cards(page, app) -> None:
    """The demo club's night of twelve, round 1 seated, its cards as the organiser sees them."""
    every.seed(app)
    every.NIGHT_CARDS(page, None, app)
    cards = page.locator("#players-cards ~ .move-cards > .move-card")
    expect(cards).to_have_count(every.NIGHT_PLAYERS)
    expect(page.locator("#tables-cards ~ .move-cards > .move-card")).to_have_count(3)
    expect(cards.first.locator("tbody tr")).to_have_count(every.NIGHT_ROUNDS)


def test_the_cards_on_a_phone_light_and_dark(card_phone, app):
    page = card_phone
    open_cards(page, app)
    wide = every.too_wide(page)
    every.shot(page, f"club-night-cards-{page.scheme}")
    assert wide is None, wide
    check_axe(page)
    ground = page.locator(".move-card").first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert (luminance(ground) < 0.2) == (page.scheme == "dark"), ground


def font_px(page, selector: str) -> float:
    return page.locator(selector).first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")


def test_the_cards_on_a4_several_a_sheet_cut_lines_none_split(browser, live_server, app):
    page = open_phone(browser, "small-375x667", live_server, service_workers="block")
    open_cards(page, app)
    page.emulate_media(media="print")
    page.set_viewport_size(A4_INSIDE)
    every.shot(page, "print-club-night-cards")
    shown = page.evaluate(SHOWN, NOT_ON_PAPER)
    assert shown == [], f"printed with controls or navigation: {shown}"
    cards = page.locator("#players-cards ~ .move-cards > .move-card")
    first, second = (cards.nth(i).bounding_box() for i in (0, 1))
    assert abs(first["y"] - second["y"]) < 1 and second["x"] >= first["x"] + first["width"] - 2
    look = cards.first.evaluate(
        "e => { const s = getComputedStyle(e); return [s.display, s.borderTopStyle]; }"
    )
    assert look == ["inline-block", "dashed"], look
    assert font_px(page, "td.move-number") > 1.4 * font_px(page, "td:not(.move-number)")
    # Several a sheet: at least eight players' cards within the first sheet's height.
    bottoms = cards.evaluate_all("cs => cs.map((c) => c.getBoundingClientRect().bottom)")
    assert sum(1 for b in bottoms if b <= A4_INSIDE["height"]) >= 8, bottoms
    pdf = page.pdf(format="A4", print_background=False)
    sheets = len(PDF_PAGE.findall(pdf))
    # Twelve players' cards on two sheets at most; the tables' cards start the next.
    assert 2 <= sheets <= 3, f"the cards print on {sheets} A4 sheets"
    page.context.close()
