"""The organiser's phone (issue 28, part A) at 375x667 and 320x568: a club made by typing its
name alone (static/slug.js suggests the address as services/clubs.slugify makes it), eight
members added in one submission with a name alike confirmed, and one of them renamed: the new
name in the standings, the history and the CSV. Every field 16 px text and 44 px to tap, no
page wider than the phone, axe on each page.

"club" rules (individuals): a clean book is 500; four deals make a game.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scorekeeper.rules import DealEntry
from scorekeeper.services import accounts, clubs, games
from scorekeeper.services.games import SideSetup

from .conftest import check_axe

PASSWORD = "table-for-four"
NAME = "Café Ørsted Tuesdays"
SLUG = "cafe-orsted-tuesdays"
EIGHT = "Ann, Bob, Cat\nDan\nEve, Fay\nJon\nJohn"
# Names whose addresses the phone must make as the server does: letters NFKD does not part,
# capitals that lower to two characters, a cut between words, one too short to make any.
OTHER_NAMES = (
    " Straße & Æsir — Łódź! ",
    "İstanbul Ünited",
    "The very very very very very very very very long club",
    "Supercalifragilisticexpialidociouslyspeaking club",
    "Ä",
)

# Every field of the page that takes typing: its font size and height, and the page's width.
FIELDS = """() => ({
  fields: [...document.querySelectorAll("main input:not([type=hidden]):not([type=checkbox]),"
    + " main textarea")].map(f => {
      const box = f.getBoundingClientRect();
      return [f.name, parseFloat(getComputedStyle(f).fontSize), box.height];
    }),
  wide: document.documentElement.scrollWidth,
  shown: window.innerWidth,
})"""


def fits_the_phone(page, *named: str, axe: bool = True) -> None:
    """The named fields are there, 16 px text and 44 px tall; nothing scrolls sideways; axe
    (once a page: not again for the same page after a change the test made)."""
    found = page.evaluate(FIELDS)
    assert found["wide"] <= found["shown"], f"{page.url} scrolls sideways: {found}"
    sizes = {name: (font, height) for name, font, height in found["fields"]}
    assert set(named) <= set(sizes), sizes
    for name, (font, height) in sizes.items():
        assert font >= 16 and height >= 44, f"{page.url}: {name} is {font}px, {height}px tall"
    if axe:
        check_axe(page)


def test_a_club_from_its_name_eight_members_at_once_and_one_renamed(organiser_phone, app):
    page = organiser_phone
    with app.app_context():
        accounts.register("olga", PASSWORD)
        assert clubs.slugify(NAME) == SLUG  # the server's suggestion, as the phone's below
        served = {name: clubs.slugify(name) for name in OTHER_NAMES}
    page.goto(page.base + "/login")
    page.fill("#username", "olga")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()

    # A new club: the address made from the name as the server makes it, as it is typed.
    page.goto(page.base + "/clubs/new")
    for name, slug in served.items():
        page.get_by_label("Club name").fill(name)
        expect(page.get_by_label("Web address")).to_have_value(slug)
    page.get_by_label("Club name").fill("")
    page.get_by_label("Club name").press_sequentially(NAME)
    expect(page.get_by_label("Web address")).to_have_value(SLUG)
    fits_the_phone(page, "name", "slug")
    page.get_by_role("button", name="Create the club").click()
    expect(page).to_have_url(re.compile(f"/clubs/{SLUG}/members$"))

    # Eight names in one go: Jon and John look alike, so the list is asked about first.
    fits_the_phone(page, "names", axe=False)
    page.get_by_label("New members").fill(EIGHT)
    page.get_by_role("button", name="Add members").click()
    question = page.locator("#alike")
    expect(question.get_by_role("heading")).to_have_text("Add 8 anyway?")
    expect(question).to_contain_text("John looks like Jon, also in this list.")
    expect(page.get_by_label("New members")).to_have_value(EIGHT)
    expect(page.locator(".member-list")).to_have_text("No members yet.")
    fits_the_phone(page, "names")
    question.get_by_role("button", name="Add all 8").click()
    expect(page).to_have_url(re.compile(f"/clubs/{SLUG}/members#member-list$"))
    expect(page.locator(".flash")).to_have_text(
        "8 members added: Ann, Bob, Cat, Dan, Eve, Fay, Jon, John."
    )
    expect(page.locator(".member-list li")).to_have_count(8)

    # Ann wins a game of four deals, a clean book each, 2,000 to 0.
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        clean = [DealEntry.from_dict({"books": {"clean": 1}}, 0), DealEntry.from_dict({}, 1)]
        solo = [SideSetup("Ann", ["Ann"]), SideSetup("Bob", ["Bob"])]
        games.record_game("club", solo, [clean] * 4, club=club)

    # Ann is renamed on her page.
    page.locator(".member-list").get_by_role("link", name="Ann", exact=True).click()
    fits_the_phone(page, "new_name")
    page.get_by_label("New name").fill("Annabel")
    page.get_by_role("button", name="Rename Ann").click()
    expect(page.locator(".flash")).to_have_text(
        "Ann is now called Annabel, in every game they played."
    )
    expect(page.get_by_role("heading", level=1)).to_have_text("Annabel")
    fits_the_phone(page, "new_name", axe=False)

    # The standings, the history and the CSV say Annabel; Ann is gone.
    page.goto(f"{page.base}/clubs/{SLUG}/standings?season=all")
    expect(page.locator(".standings")).to_contain_text("Annabel")
    fits_the_phone(page)
    page.goto(f"{page.base}/clubs/{SLUG}/games?season=all")
    expect(page.locator(".games")).to_contain_text("Annabel 2,000")
    fits_the_phone(page)
    for shown in page.locator(".standings, .games").all_inner_texts():
        assert not re.search(r"\bAnn\b", shown)
    exported = page.request.get(f"{page.base}/clubs/{SLUG}/export/games.csv?season=all").text()
    assert ",Annabel,Annabel,2000," in exported and not re.search(r"\bAnn\b", exported)
