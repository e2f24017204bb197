"""A club's saved rule set on a phone: saved by the organiser, made the default, a game started
from the table link without typing a rule, its rule card, and the standings by rule set.

"club" rules (individuals): clean book 500, dirty 300, red three laid +100, caught -500, going
out +100 (needs 2 clean + 2 dirty), four deals. "Thursday rules": a red three caught costs 300.
A deal scores books + red threes + going out + melded - leftover card points.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scorekeeper.services import accounts, clubs

from .conftest import GAME_LINK, check_axe, open_phone

PASSWORD = "table-for-four"
SLUG = "tuesday"
SCOREBOARD = re.compile(GAME_LINK + r"(#(totals|deal-\d+))?$")


def test_thursday_rules_saved_made_default_played_from_the_table_link(
    phone, app, browser, live_server
):
    page = phone
    with app.app_context():
        olga = accounts.register("olga", PASSWORD)
        club = clubs.create_club("Tuesday Club", SLUG, olga)
        for name in ("Ann", "Bob"):
            clubs.add_member(club, name)
        table_code = club.table_code

    # The organiser signs in and saves Thursday rules: club individual, red three caught -300.
    page.goto(page.base + "/login")
    page.fill("#username", "olga")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{page.base}/clubs/{SLUG}")
    page.get_by_role("navigation", name="Tuesday Club").get_by_role(
        "link", name="Rule sets"
    ).click()
    expect(page.get_by_role("link", name="Save a new rule set")).to_be_visible()
    check_axe(page)
    page.get_by_role("link", name="Save a new rule set").click()
    expect(page.get_by_role("link", name="Start from Club individual")).to_be_visible()
    check_axe(page)
    page.get_by_role("link", name="Start from Club individual").click()
    page.get_by_label("Name of the rule set").fill("Thursday rules")
    caught = page.get_by_label("Red three caught (points lost)")
    expect(caught).to_have_value("500")
    # A typo off the fives is refused beside its number, the rest kept.
    caught.fill("303")
    page.get_by_role("button", name="Save the rule set").click()
    expect(page.locator("#problems")).to_contain_text("must be a multiple of 5")
    expect(page.get_by_label("Name of the rule set")).to_have_value("Thursday rules")
    check_axe(page)
    page.get_by_label("Red three caught (points lost)").fill("300")
    page.get_by_role("button", name="Save the rule set").click()
    expect(page.locator(".flash")).to_contain_text("Thursday rules saved")
    expect(page.locator(".cards")).to_contain_text(
        "Red three caught (points lost): 300 (Club individual: 500)"
    )
    page.get_by_role("button", name="Make Thursday rules the default").click()
    expect(page.locator(".cards h2")).to_have_text(["Thursday rules · the default"])
    check_axe(page)
    page.get_by_role("link", name="Edit Thursday rules").click()
    expect(page.get_by_label("Name of the rule set")).to_have_value("Thursday rules")
    check_axe(page)
    page.go_back()
    page.get_by_role("link", name="Delete Thursday rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Delete Thursday rules?")
    check_axe(page)
    page.get_by_role("link", name="Keep it").click()

    # Another phone at the table opens the table link and starts a game: no rule typed.
    table = open_phone(browser, page.device, live_server)
    table.goto(f"{page.base}/clubs/{SLUG}/table/{table_code}")
    table.get_by_role("button", name="Keep the table link on this phone").click()
    table.get_by_role("link", name="Start a game with Thursday rules").click()
    expect(table.locator(".lead").first).to_contain_text("Thursday rules: Tuesday Club's own rules")
    table.select_option("#side0_member0", "Ann")
    table.select_option("#side1_member0", "Bob")
    table.get_by_role("button", name="Start the game").click()
    expect(table).to_have_url(SCOREBOARD)
    game = re.match(r"https?://[^/]+(" + GAME_LINK + ")", table.url).group(1)

    # Four deals. Deal 1: Ann 2 clean + 2 dirty, out, 400 melded = 1000+600+100+400 = 2,100;
    # Bob 1 clean, 1 red three caught, 200 melded = 500 - 300 + 200 = 400 (not 200: Thursday).
    for number in range(1, 5):
        table.goto(f"{page.base}{game}/deals/new")
        if number == 1:
            ann = table.locator("fieldset.side-entry").nth(0)
            bob = table.locator("fieldset.side-entry").nth(1)
            for _ in range(2):
                ann.get_by_role("button", name="One more: clean books").click()
                ann.get_by_role("button", name="One more: dirty books").click()
            bob.get_by_role("button", name="One more: clean books").click()
            bob.get_by_role("button", name="One more: red threes caught").click()
            table.fill("#s0-melded_points", "400")
            table.fill("#s1-melded_points", "200")
            table.get_by_label("Ann", exact=True).check()
        table.get_by_role("button", name=f"Save deal {number}").click()
        expect(table).to_have_url(SCOREBOARD)
    totals = [t.split()[-1] for t in table.locator(".side .total").all_inner_texts()]
    assert totals == ["2,100", "400"]

    # The game's rule card names Thursday rules and what differs from club individual.
    table.goto(f"{page.base}{game}/rules")
    expect(table.get_by_role("heading", level=1)).to_contain_text("Thursday rules")
    expect(table.locator(".lead")).to_have_text(
        "Thursday rules, Tuesday Club's own rules, based on Club individual."
    )
    expect(table.get_by_text("Red three caught (points lost): 300")).to_be_visible()
    check_axe(table)
    table.context.close()

    # The standings by Thursday rules show the game; club games started otherwise would not.
    page.goto(f"{page.base}/clubs/{SLUG}/standings?season=all")
    page.locator("details.filters summary").click()
    page.get_by_label("Rule set").select_option(label="Thursday rules (Club individual)")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"ruleset=saved%3A\d+"))
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(2)
    assert rows.nth(0).locator("th").inner_text() == "Ann"
    assert rows.nth(1).locator("td").nth(6).inner_text() == "400"
    expect(page.locator("details.filters summary")).to_contain_text("Thursday rules")
    check_axe(page)
    page.goto(f"{page.base}/clubs/{SLUG}/rules/1")
    check_axe(page)
