"""A club's nights in its records on the organiser's phones, 375x667 and 320x568 (issue 29):
the standings with their Night wins column, read on a phone and on paper (each heading on one
line, the table within a portrait A4 page), and the history and a member's page listing the
night: no sideways scroll, axe clean.
"""

from __future__ import annotations

from playwright.sync_api import expect

from scorekeeper.plumbing.db import db
from scorekeeper.services import clubs, deals, demo
from scorekeeper.services.access import Level
from scorekeeper.services.nights import play as night_play

from .conftest import check_axe
from .test_standings_phone import A4_PRINTED_WIDTH, HEADINGS

SLUG = "demo"
STANDINGS = f"/clubs/{SLUG}/standings?season=all"


def night_played(app) -> tuple[int, int]:
    """The demo club with ten games and a night of eight members over 2 rounds, played out:
    the night's id and a member of it."""
    with app.app_context():
        club = demo.fill_demo(SLUG, games=10)
        eight = [m.id for m in club.members if not m.archived][:8]
        night = night_play.open_night(club, eight, "", "classic", 2, "rotating", "no game")
        for _ in range(2):
            night_play.seat_round(night)
            db.session.refresh(night)
            for table in night.rounds[-1].tables:
                for _ in range(4):
                    deals.enter_deal(table.game, Level.TABLE, [{"books": {"clean": 1}}, {}])
        member = clubs.member(club, eight[0])
        found = (night.id, member.id)
        db.session.remove()
        return found


def test_the_standings_with_night_wins_on_a_phone_and_on_paper(organiser_phone, app):
    night_played(app)
    page = organiser_phone
    page.goto(page.base + STANDINGS)
    expect(page.locator("table.standings thead th").last).to_have_text("Night wins")
    expect(page.locator(".swipe")).to_have_text("Swipe for all 14 columns")
    expect(page.locator("#night-wins-rule")).to_contain_text("a win for each who shares it")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.get_by_role("link", name="Night wins", exact=True).click()
    expect(page.locator("table.standings th[aria-sort=descending]")).to_have_text("Night wins")
    check_axe(page)
    page.emulate_media(media="print")
    page.set_viewport_size({"width": A4_PRINTED_WIDTH, "height": 1000})
    for label, height, line in page.evaluate(HEADINGS):
        assert height < 1.5 * line, f"{label!r} printed on more than one line: {height} px"
    table = page.locator("table.standings").bounding_box()
    assert table["x"] >= 0 and table["x"] + table["width"] <= A4_PRINTED_WIDTH, table


def test_the_history_and_a_members_page_list_the_night(organiser_phone, app):
    night_id, member_id = night_played(app)
    page = organiser_phone
    for address in (f"/clubs/{SLUG}/games?season=all", f"/clubs/{SLUG}/members/{member_id}"):
        page.goto(page.base + address)
        # A stranger to the demo club (public): the night is listed, not linked.
        night = page.locator(".nights .game-line")
        expect(night).to_be_visible()
        expect(page.locator(f'a[href="/clubs/{SLUG}/nights/{night_id}"]')).to_have_count(0)
        box = night.bounding_box()
        assert box["height"] >= 44, address
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), address
        check_axe(page)
