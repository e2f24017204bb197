"""A club game started from the table link in at most 6 taps (issue 28), counted in Chromium at
375x667 and 320x568: the club's default saved rule set, and the players this phone's last game
of the club had, filled in. Scanning the link with the camera is not a tap in the app.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scorekeeper.services import accounts, clubs

from .conftest import GAME_LINK, check_axe
from .test_taps import Counted

MOST_TAPS = 6
# Ann & Bob v Cat & Dan, each picked from the members.
TABLE = (
    ("side0_member0", "Ann"),
    ("side0_member1", "Bob"),
    ("side1_member0", "Cat"),
    ("side1_member1", "Dan"),
)
SLUG = "tuesday"
SCOREBOARD = re.compile(GAME_LINK + r"(#.*)?$")
# The page never scrolls sideways, and every field a phone types or picks in is big enough not
# to be zoomed into (16 px text) and to be tapped (44 px tall).
SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"
SMALL_FIELDS = """() => [...document.querySelectorAll("main input:not([type=hidden]), main select")]
  .filter(e => e.offsetParent !== null)
  .filter(e => parseFloat(getComputedStyle(e).fontSize) < 16
    || e.getBoundingClientRect().height < 44)
  .map(e => e.id || e.name)"""


def test_a_returning_table_starts_a_club_game_in_six_taps_or_fewer(organiser_phone, app):
    page = organiser_phone
    with app.app_context():
        olga = accounts.register("olga", "table-for-four")
        club = clubs.create_club("Tuesday Club", SLUG, olga)
        for name in ("Ann", "Bob", "Cat", "Dan", "Eve"):
            clubs.add_member(club, name)
        thursday = clubs.create_saved_rules(club, "Thursday rules", "classic", {})
        clubs.make_default(club, thursday)
        link = f"{page.base}/clubs/{SLUG}/table/{club.table_code}"

    # Last week: the link scanned, kept and a game started in one tap, the players picked.
    page.goto(link)
    check_axe(page)
    first = Counted(page)
    first.tap(
        page.get_by_role("button", name="Keep it and start a game with Thursday rules"),
        "keep and start",
    )
    expect(page.get_by_role("heading", level=1)).to_contain_text("New Thursday rules game")
    assert page.evaluate(SIDEWAYS) <= 0
    assert page.evaluate(SMALL_FIELDS) == []
    check_axe(page)
    for field, member in TABLE:
        page.select_option(f"#{field}", member)
    first.tap(page.get_by_role("button", name="Start the game"), "start")
    expect(page).to_have_url(SCOREBOARD)
    expect(page.locator("#totals")).to_contain_text("Ann & Bob")

    # This week: the same link scanned again, and the same table plays.
    page.goto(link)
    again = Counted(page)
    again.tap(page.get_by_role("link", name="Start a game with Thursday rules"), "start a game")
    expect(page.get_by_text("Filled in with the players of this phone's last game")).to_be_visible()
    for field, member in TABLE:
        expect(page.locator(f"#{field}")).to_have_value(member)
    check_axe(page)
    again.tap(page.get_by_role("button", name="Start the game"), "start")
    expect(page).to_have_url(SCOREBOARD)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Thursday rules")
    expect(page.locator("#totals")).to_contain_text("Ann & Bob")
    expect(page.locator("#totals")).to_contain_text("Cat & Dan")
    assert again.count <= MOST_TAPS, again.log
    # As it stands: "Start a game with Thursday rules", then "Start the game".
    assert again.count == 2, again.log
