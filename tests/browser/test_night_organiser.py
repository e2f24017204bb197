"""The organiser's phone at a club night (issue 37), in Chromium at 375x667 and 320x568: the
club's navigation in two lines at most on the 375 px phone (readable, never sideways, at
320 px), check-in's rows a thumb wide and tall with a live count and "Everyone on the list", and
a night of thirteen opened and its round 1 seated in at most 5 taps from the club's page."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scorekeeper.services import accounts, clubs

from .conftest import check_axe
from .test_taps import Counted

SLUG = "tuesday"
PASSWORD = "table-for-four"
# The olga fixture's twelve (tests/night_club.py) and a thirteenth: three tables and one out.
THIRTEEN = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit", "Lou"]
THIRTEEN.append("Max")
MOST_TAPS = 5
SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"
# The navigation's lines: its links' distinct tops, and its height against one link's.
NAV_LINES = """() => {
  const nav = document.querySelector("nav.subnav");
  const links = [...nav.querySelectorAll("a")];
  const tops = new Set(links.map(a => Math.round(a.getBoundingClientRect().top)));
  const line = Math.max(...links.map(a => a.getBoundingClientRect().height));
  return {tops: tops.size, height: nav.getBoundingClientRect().height, line: line,
          outside: links.filter(a => a.getBoundingClientRect().right > window.innerWidth + 0.5)
                        .map(a => a.textContent)};
}"""
# Every member's row on the check-in list: its label's width and height (px).
ROWS = """() => [...document.querySelectorAll("[data-checkin] label")]
  .map(l => [l.textContent.trim(), l.getBoundingClientRect().width,
             l.getBoundingClientRect().height])"""


def signed_in_club(page, app, members=THIRTEEN) -> None:
    """Olga's Tuesday Club of `members`, and Olga signed in on the phone."""
    with app.app_context():
        olga = accounts.register("olga", PASSWORD)
        club = clubs.create_club("Tuesday Club", SLUG, olga)
        for name in members:
            clubs.add_member(club, name)
    page.goto(page.base + "/login")
    page.fill("#username", "olga")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def test_the_club_navigation_takes_two_lines_at_most(organiser_phone, app):
    page = organiser_phone
    signed_in_club(page, app)
    for path in ("", "/members", "/nights", "/nights/new", "/settings"):
        page.goto(f"{page.base}/clubs/{SLUG}{path}")
        nav = page.evaluate(NAV_LINES)
        assert nav["outside"] == [] and page.evaluate(SIDEWAYS) <= 0, (path, nav)
        if page.device == "small-375x667":
            assert nav["tops"] <= 2, (path, nav)
            assert nav["height"] <= 2 * nav["line"] + 1, (path, nav)
    check_axe(page)


def test_check_in_rows_are_thumb_sized_and_the_count_is_live(organiser_phone, app):
    page = organiser_phone
    signed_in_club(page, app)
    page.goto(f"{page.base}/clubs/{SLUG}/nights/new")
    count = page.locator(".checkin-count")
    expect(count).to_have_text("Nobody ticked yet")
    rows = page.evaluate(ROWS)
    assert len(rows) == len(THIRTEEN)
    small = [r for r in rows if r[1] < 44 or r[2] < 44]
    assert not small, small
    # A tap anywhere on the row ticks the member: here its right-hand end, past the name.
    ann = page.locator("[data-checkin] label", has_text="Ann")
    ann.scroll_into_view_if_needed()
    box = ann.bounding_box()
    page.mouse.click(box["x"] + box["width"] - 4, box["y"] + box["height"] / 2)
    expect(page.get_by_label("Ann", exact=True)).to_be_checked()
    expect(count).to_have_text("1 here")
    page.get_by_label("Bob", exact=True).check()
    expect(count).to_have_text("2 here")
    page.get_by_role("button", name="Everyone on the list").click()
    expect(count).to_have_text(f"{len(THIRTEEN)} here")
    for name in THIRTEEN:
        expect(page.get_by_label(name, exact=True)).to_be_checked()
    page.get_by_label("Cat", exact=True).uncheck()
    expect(count).to_have_text(f"{len(THIRTEEN) - 1} here")
    check_axe(page)
    page.get_by_role("button", name="Nobody").click()
    expect(count).to_have_text("Nobody ticked yet")
    assert page.locator("[data-checkin] input:checked").count() == 0


def test_the_form_still_opens_a_night_without_its_script(browser, live_server, app):
    from .conftest import open_phone

    page = open_phone(browser, "small-375x667", live_server, java_script_enabled=False)
    signed_in_club(page, app, THIRTEEN[:8])
    page.goto(f"{page.base}/clubs/{SLUG}/nights/new")
    expect(page.get_by_role("button", name="Everyone on the list")).to_be_hidden()
    for name in THIRTEEN[:8]:
        page.get_by_label(name, exact=True).check()
    page.get_by_role("button", name="Open the night").click()
    expect(page.get_by_text("Tonight's night is open: 8 players. Seat round 1.")).to_be_visible()
    page.context.close()


def test_thirteen_present_and_round_one_seated_in_five_taps(organiser_phone, app):
    page = organiser_phone
    signed_in_club(page, app)
    page.goto(f"{page.base}/clubs/{SLUG}")
    user = Counted(page)
    nav = page.get_by_role("navigation", name="Tuesday Club")
    user.tap(nav.get_by_role("link", name="Nights"), "Nights")
    user.tap(page.get_by_role("link", name="Open a night"), "Open a night")
    # Olga taps the page once it has opened (the tap returns as the new page is asked for).
    expect(page).to_have_url(re.compile(r"/nights/new$"))
    page.wait_for_load_state("load")
    user.tap(page.get_by_role("button", name="Everyone on the list"), "everyone")
    expect(page.locator(".checkin-count")).to_have_text(f"{len(THIRTEEN)} here")
    user.tap(page.get_by_role("button", name="Open the night"), "open it")
    expect(page.get_by_text(f"Tonight's night is open: {len(THIRTEEN)} players.")).to_be_visible()
    user.tap(page.get_by_role("button", name="Seat round 1"), "seat round 1")
    expect(page.get_by_text(re.compile(r"Round 1 seated: 3 tables' games started"))).to_be_visible()
    expect(page.locator(".night-card-title")).to_have_count(3)
    assert user.count <= MOST_TAPS, user.log
    # And the hub now leads to it first.
    page.goto(f"{page.base}/clubs/{SLUG}/nights")
    expect(page.locator("#going-h + p a")).to_have_text(re.compile(r"^Tonight · Round 1 of \d+$"))
