"""A finished club night on paper (issue 29): twelve players, three rounds of three tables, on
one A4 portrait sheet; the standings and every table's totals printed, black on white; no form,
button, QR code or navigation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from . import test_every_page as every
from .test_dark_and_print import NOT_ON_PAPER, SHOWN, open_dark

pytestmark = pytest.mark.usefixtures("quick_hashing")

# Chromium writes a PDF page object per sheet ("/Type /Page"; the tree of them is "/Pages").
PDF_PAGE = re.compile(rb"/Type\s*/Page(?!s)")


@pytest.fixture(params=["light", "dark"])
def printing_phone(request, browser, live_server):
    """The small phone set light, then dark: paper is light either way."""
    page = open_dark(browser, live_server, request.param)
    yield page
    page.context.close()
    assert page.outside == [], f"requests to other hosts: {page.outside}"


def test_a_finished_night_prints_on_one_a4_sheet(printing_phone, app):
    page = printing_phone
    every.seed(app)
    every.NIGHT_FINISHED(page, None, app)
    results = page.locator("#results")
    rows = results.locator("table.night-standings tbody tr")
    expect(rows).to_have_count(every.NIGHT_PLAYERS)
    expect(results.locator(".night-totals li")).to_have_count(3 * 3)

    page.emulate_media(media="print")
    every.shot(page, "print-club-night-finished")
    shown = page.evaluate(SHOWN, NOT_ON_PAPER + ", img, .night-qr, .night-card")
    assert shown == [], f"printed with controls, QR codes or table cards: {shown}"
    # The standings and each round's tables with their totals, every one on paper.
    expect(rows.first).to_be_visible()
    expect(rows.last).to_be_visible()
    for r in (1, 2, 3):
        expect(results.get_by_role("heading", name=f"Round {r}")).to_be_visible()
    totals = results.locator(".night-totals li")
    for i in range(totals.count()):
        expect(totals.nth(i)).to_be_visible()
        expect(totals.nth(i)).to_contain_text(re.compile(r"Table \d · .+ \d.* · .+ \d"))
    expect(results).to_contain_text("(won)")

    pdf = page.pdf(format="A4", landscape=False, print_background=False)
    sheets = len(PDF_PAGE.findall(pdf))
    assert sheets == 1, f"the finished night prints on {sheets} A4 sheets"
    page.emulate_media(media="screen")
