"""The club's table link shared as a game's is, on the organiser's phones (issue 28, part B).

Signed in, the organiser opens the club's settings: the table link with its QR code (a picture
that decodes to the link), Copy (the link on the clipboard) and Share where the phone has a
share sheet; the table card to print ("Scan to score for Tuesday Club", the big code, the link
written out; printed, one sheet with no buttons or navigation); and a new link only after a
confirmation that says what stops working. After it, the old link is a 404 and the settings
show the new one. On 375x667 and 320x568: nothing scrolls sideways, axe finds nothing, and the
page's buttons are at least 44 px tall with 16 px text.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect
from qr_reader import matrix_of, read_qr

from scorekeeper.services import accounts, clubs

from .conftest import check_axe

PASSWORD = "table-for-four"
SLUG = "tuesday"
SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"
# Every button and field of this part (checkboxes aside: they sit in a row of their own):
# [text px, height px, its words] of those too small to read or tap.
TOO_SMALL = """(part) => [...document.querySelector(part)
    .querySelectorAll(".button, button, input:not([type=checkbox]):not([type=radio])")]
  .filter((el) => el.offsetParent !== null)
  .map((el) => [parseFloat(getComputedStyle(el).fontSize), el.getBoundingClientRect().height,
    el.textContent.trim() || el.id])
  .filter(([size, height]) => size < 16 || height < 44)"""
# An <img> drawn (once loaded: decode() fails on a broken picture): its width, as tall as wide.
DRAWN = """async (img) => { await img.decode();
  return img.naturalWidth > 0 && img.width === img.height && img.width; }"""


def settled(page, part: str = "main") -> None:
    """What every page here must be on the organiser's phone (its controls: those of `part`)."""
    assert page.evaluate(SIDEWAYS) <= 0, f"{page.url} scrolls sideways"
    assert page.evaluate(TOO_SMALL, part) == [], page.url
    check_axe(page)


def code_in(page, src: str) -> list[list[bool]]:
    """The modules of the QR picture the page names, fetched with the page's own sign-in."""
    answer = page.request.get(page.base + src)
    assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml")
    return read_qr(answer.body())[0]


def test_the_table_link_shared_copied_printed_and_replaced(organiser_phone, app):
    page = organiser_phone
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=page.base)
    with app.app_context():
        olga = accounts.register("olga", PASSWORD)
        old = clubs.create_club("Tuesday Club", SLUG, olga).table_code
    link = f"{page.base}/clubs/{SLUG}/table/{old}"
    page.goto(page.base + "/login")
    page.fill("#username", "olga")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()

    # The settings: the link, its code, Copy.
    page.goto(f"{page.base}/clubs/{SLUG}/settings")
    card = page.locator("#table-link-card")
    expect(card.get_by_label("The club's table link")).to_have_value(link)
    qr = card.get_by_role("img", name="QR code of the club's table link")
    expect(qr).to_be_visible()
    assert qr.evaluate(DRAWN) >= 200  # big enough to scan from across a table
    assert code_in(page, qr.get_attribute("src")) == matrix_of(link)
    card.get_by_role("button", name="Copy the link").click()
    expect(card.get_by_role("status")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == link
    share = card.get_by_role("button", name="Share the link")
    if page.evaluate("!!navigator.share"):
        expect(share).to_be_visible()
    else:  # a phone with no share sheet: Copy alone
        expect(share).to_be_hidden()
    settled(page, "#table-link-card")

    # The table card: on the phone a page, printed one sheet of the code and the link.
    card.get_by_role("link", name="Table card to print").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scan to score for Tuesday Club")
    big = page.get_by_role("img", name="QR code of the club's table link")
    assert big.evaluate(DRAWN) >= 240
    assert code_in(page, big.get_attribute("src")) == matrix_of(link)
    expect(page.locator(".table-card-link")).to_have_text(link)
    settled(page)
    page.emulate_media(media="print")
    for chrome in (page.locator("header.top"), page.locator("footer")):
        expect(chrome).to_be_hidden()
    expect(page.get_by_role("link", name="Back to settings")).to_be_hidden()
    expect(page.get_by_text("Print this page from your browser's menu")).to_be_hidden()
    expect(big).to_be_visible()
    sheets = re.findall(rb"/Type\s*/Page\b(?!s)", page.pdf(format="A4"))
    assert len(sheets) == 1, f"the card prints on {len(sheets)} sheets"
    page.emulate_media(media="screen")

    # A new link, only once confirmed; the old one stops working.
    page.get_by_role("link", name="Back to settings").click()
    page.get_by_role("link", name="Make a new link…").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Make a new table link for Tuesday Club?"
    )
    expect(page.locator("main")).to_contain_text(
        "The link on every phone and printed table card stops working: phones that kept it can "
        "no longer start games or enter deals for the club until they open the new one. Games "
        "already started keep their own links."
    )
    settled(page)
    assert page.request.get(link).status == 200, "asking replaced the link"
    page.get_by_role("button", name="Make a new link").click()
    expect(page.locator(".flash")).to_contain_text("New table link made")
    new = card.get_by_label("The club's table link").input_value()
    assert new != link and new.startswith(f"{page.base}/clubs/{SLUG}/table/")
    assert page.request.get(link).status == 404
    assert page.request.get(new).status == 200
    assert code_in(page, qr.get_attribute("src")) == matrix_of(new)
    settled(page, "#table-link-card")
