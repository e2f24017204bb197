"""The night board on any wall (issue 37), opened through the night's read-only board link: a
night of thirteen with round 1 played and round 2 under way, on a 1080p TV, a 720p TV and a
tablet on its stand. The page never needs scrolling, and every one of the thirteen players'
standings rows comes into view within 15 s (pages turning by themselves where they do not all
fit; on the tablet with reduced motion, which turns them without animating)."""

from __future__ import annotations

import os
import re

from playwright.sync_api import expect

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.services import accounts, clubs, deals
from scorekeeper.services.access import Level
from scorekeeper.services.nights import play as night_play

from . import test_every_page as every
from .conftest import ARTIFACTS, check_axe, open_phone
from .test_dark_and_print import NOT_ON_PAPER, SHOWN
from .test_night_print import PDF_PAGE

SLUG = "tuesday"
THIRTEEN = [
    "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit", "Lou", "Mia",
]  # fmt: skip
# Every standings row seen within this many ms (the 15 s), and the board never taller
# than its screen meanwhile.
SEEN_WITHIN_MS = 15000
WALLS = {
    "tv-1080p": ({"width": 1920, "height": 1080}, "no-preference"),
    "tv-720p": ({"width": 1280, "height": 720}, "no-preference"),
    "tablet-portrait": ({"width": 800, "height": 1280}, "reduce"),
}
# Collects, each time it is asked, the standings rows wholly on the screen and shown; notes
# whether the page was ever taller than the screen; true once every name was seen.
EVERY_ROW_SEEN = """(names) => {
  const seen = (window.boardSeen = window.boardSeen || new Set());
  const page = document.scrollingElement;
  if (page.scrollHeight > innerHeight) window.boardScrolled = page.scrollHeight;
  for (const row of document.querySelectorAll(".board-standings tbody tr")) {
    const r = row.getBoundingClientRect();
    const onScreen = r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 0.5
      && r.left >= 0 && r.right <= innerWidth + 0.5;
    if (onScreen && row.checkVisibility({ visibilityProperty: true })) {
      seen.add(row.querySelector("th").textContent.trim());
    }
  }
  // A row's heading is its player's name, and may say more after it ("Not ranked: ...").
  const texts = [...seen];
  return names.every((name) => texts.some((t) => t === name || t.startsWith(name + " ")));
}"""


def thirteen_tonight(app) -> tuple[int, str]:
    """Thirteen members' night of three rounds: round 1 played out, round 2 seated with a
    deal at its first table; the night's id and its board link (a path)."""
    with app.app_context():
        olga = accounts.register("olga", "table-for-four")
        club = clubs.create_club("Tuesday Club", SLUG, olga)
        ids = [clubs.add_member(club, name).id for name in THIRTEEN]
        night = night_play.open_night(club, ids, "", "classic", 3, "rotating", "no game")
        night_id = night.id
        night_play.seat_round(night)
        for table in db.session.get(Night, night_id).rounds[0].tables:
            while table.game.finished_at is None:
                deals.enter_deal(table.game, Level.TABLE, [{"books": {"clean": 1}}, {}])
        night_play.seat_round(db.session.get(Night, night_id))
        first = db.session.get(Night, night_id).rounds[1].tables[0].game
        deals.enter_deal(first, Level.TABLE, [{"books": {"clean": 1}}, {}])
        link = "/n/" + db.session.get(Night, night_id).board_secret
        db.session.remove()
        return night_id, link


def test_the_board_link_fits_every_wall_and_shows_every_player(browser, live_server, app):
    _, link = thirteen_tonight(app)
    turned = []
    for name, (viewport, motion) in WALLS.items():
        context = browser.new_context(viewport=viewport, reduced_motion=motion)
        page = context.new_page()
        try:
            page.goto(live_server + link)
            expect(page.locator(".board-standings tbody tr")).to_have_count(len(THIRTEEN))
            page.wait_for_function(EVERY_ROW_SEEN, arg=THIRTEEN, timeout=SEEN_WITHIN_MS)
            scrolled = page.evaluate("window.boardScrolled || 0")
            assert not scrolled, f"{name}: the board was {scrolled} px tall on a {viewport} screen"
            assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth"), name
            # Nothing cut off: every table and line shown lies within the screen.
            cut = page.evaluate(
                """() => [...document.querySelectorAll("#board :is(h2, h3, li, tr, p)")]
                .filter((e) => e.checkVisibility({ visibilityProperty: true }))
                .filter((e) => e.getBoundingClientRect().bottom > innerHeight + 0.5)
                .map((e) => e.textContent.trim().slice(0, 40))"""
            )
            assert cut == [], f"{name}: cut off at the bottom: {cut}"
            # A table's card turns whole: never some of its sides on one page, some on the next.
            split = page.evaluate(
                """() => [...document.querySelectorAll(".board-table")]
                .filter((c) => c.checkVisibility())
                .filter((c) => [...c.querySelectorAll("tr")].some((r) => !r.checkVisibility()))
                .map((c) => c.textContent.trim().slice(0, 40))"""
            )
            assert split == [], f"{name}: tables split between pages: {split}"
            if page.locator("[data-page-of]:not([hidden])").count():
                turned.append(name)
                said = page.locator("[data-page-of]:not([hidden])").first
                expect(said).to_have_text(re.compile(r"Page \d+ of [2-9]\d*"))
            check_axe(page)
            page.screenshot(path=os.path.join(ARTIFACTS, f"board-wall-{name}.png"))
        finally:
            context.close()
    # Thirteen players and two rounds' tables fill no 720p screen: there the pages turn.
    assert "tv-720p" in turned, turned


def test_the_links_results_print_on_one_a4_sheet_with_its_code(browser, live_server, app):
    """Twelve players, three rounds of three tables, the winners and the link's QR code: one
    A4 portrait sheet, with no button or share line on it."""
    page = open_phone(browser, "small-375x667", live_server)
    try:
        every.seed(app)
        every.NIGHT_LINK_RESULTS(page, None, app)
        expect(page.locator("table.night-standings tbody tr")).to_have_count(every.NIGHT_PLAYERS)
        expect(page.locator(".board-winners")).to_contain_text("Winner")
        expect(page.get_by_role("button", name=re.compile("Share .+'s line"))).to_have_count(
            every.NIGHT_PLAYERS
        )
        page.emulate_media(media="print")
        expect(page.locator(".night-link img.qr")).to_be_visible()
        expect(page.locator(".night-totals li")).to_have_count(3 * 3)
        shown = page.evaluate(SHOWN, NOT_ON_PAPER + ", .night-lines")
        assert shown == [], f"printed with controls or share lines: {shown}"
        pdf = page.pdf(format="A4", landscape=False, print_background=False)
        sheets = len(PDF_PAGE.findall(pdf))
        assert sheets == 1, f"the night's results print on {sheets} A4 sheets"
    finally:
        page.context.close()
