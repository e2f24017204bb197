"""Seat tonight's tables on the organiser's phone (issue 29): twelve members ticked, two rounds
of three tables, each member once a round; no sideways scroll, axe clean, printed as the plan
alone."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scorekeeper.services import accounts, clubs

from .conftest import check_axe

PASSWORD = "table-for-four"
SLUG = "tuesday"
TWELVE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
# The last member, not ticked: the plan must leave them out.
ABSENT = "Max"


def test_twelve_members_two_rounds_of_three_tables(organiser_phone, app):
    page = organiser_phone
    with app.app_context():
        olga = accounts.register("olga", PASSWORD)
        club = clubs.create_club("Tuesday Club", SLUG, olga)
        for name in [*TWELVE, ABSENT]:
            clubs.add_member(club, name)

    page.goto(page.base + "/login")
    page.fill("#username", "olga")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{page.base}/clubs/{SLUG}/members")
    # Reached from the club's Nights (issue 37), no longer a tab of its own.
    page.get_by_role("navigation", name="Tuesday Club").get_by_role("link", name="Nights").click()
    page.get_by_role("link", name="Tonight's tables").click()
    for name in TWELVE:
        page.get_by_label(name, exact=True).check()
    page.get_by_label("Rounds").fill("2")
    page.get_by_role("button", name="Seat the tables").click()

    expect(page.locator("#plan-title")).to_have_text("12 players, 2 rounds")
    rounds = page.locator(".round")
    expect(rounds).to_have_count(2)
    for r in range(2):
        tables = rounds.nth(r).locator(".tables li").all_inner_texts()
        assert len(tables) == 3, tables
        names = []
        for n, table in enumerate(tables, 1):
            heading = table.splitlines()[0]
            found = re.fullmatch(rf"Table {n} · (\w+) & (\w+) v (\w+) & (\w+)", heading)
            assert found, heading
            names += found.groups()
        assert sorted(names) == TWELVE
    expect(page.get_by_text("whist schedule for 12 players")).to_be_visible()
    # The same plan again on a reload; Draw again keeps the ticks.
    first = page.locator(".night").inner_text()
    page.reload()
    assert page.locator(".night").inner_text() == first

    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    check_axe(page)

    # Printed: the plan alone, without the form and the club's navigation.
    page.emulate_media(media="print")
    expect(page.locator("#night-form")).to_be_hidden()
    expect(page.locator("nav.subnav")).to_be_hidden()
    expect(page.get_by_role("button", name="Draw again")).to_be_hidden()
    expect(page.locator(".round").first).to_be_visible()
    page.emulate_media(media="screen")

    page.get_by_role("button", name="Draw again").click()
    expect(page.locator("#plan-title")).to_have_text("12 players, 2 rounds")
    expect(page.get_by_label("Lou", exact=True)).to_be_checked()
    expect(page.get_by_label(ABSENT, exact=True)).not_to_be_checked()
