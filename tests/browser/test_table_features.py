"""At the table on a phone: who deals, sharing the result, and playing again.

Ann & Bob v Cat & Dan sit Ann, Cat, Bob, Dan (partners apart); the deal passes to the left.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import GAME_LINK, check_axe, game_link, start_game
from .test_journeys import enter_side, shot

# A stand-in for the phone's share sheet: what the page asked to share, kept for the test.
SHARE_SHEET = """
navigator.share = (data) => { window.shared = data; return Promise.resolve(); };
"""


def test_the_dealer_rotates_and_the_table_plays_again(phone):
    page = phone
    start_game(page)
    expect(page.locator("p.dealer")).to_have_text("Deal 1: Ann deals")

    # The table chooses Bob to deal first.
    page.get_by_label("Who deals first").select_option(label="Bob")
    page.get_by_role("button", name="Choose").click()
    expect(page.get_by_text("Bob deals first.")).to_be_visible()
    expect(page.locator("p.dealer")).to_have_text("Deal 1: Bob deals")
    first = game_link(page)

    # Four deals, a clean book to Ann & Bob each time: Bob, Dan, Ann, Cat deal.
    for number, dealer in enumerate(["Bob", "Dan", "Ann", "Cat"], start=1):
        page.get_by_role("link", name=f"Enter deal {number}").click()
        expect(page.locator("p.dealer")).to_have_text(f"Deal {number}: {dealer} deals")
        enter_side(page, 0, clean=1)
        page.get_by_role("button", name=f"Save deal {number}").click()
        expect(page.get_by_text(f"Deal {number} saved.")).to_be_visible()
        if number < 4:
            after = ["Dan", "Ann", "Cat"][number - 1]
            expect(page.locator("p.dealer")).to_have_text(f"Deal {number + 1}: {after} deals")
    expect(page.locator(".result")).to_contain_text("Winner: Ann & Bob, 2,000")
    expect(page.locator("details.deal summary").first).to_contain_text("Deal 1 · Bob dealt")
    shot(page, "table-finished")
    check_axe(page)

    # Play again: the same sides, and the deal passes on from Cat to Bob.
    page.get_by_role("button", name="Play again").click()
    expect(
        page.get_by_text("New game started: Ann & Bob v Cat & Dan. Bob deals first.")
    ).to_be_visible()
    assert re.fullmatch(GAME_LINK, game_link(page)) and game_link(page) != first
    expect(page.locator(".side h3")).to_have_text(["Ann & Bob", "Cat & Dan"])
    expect(page.locator(".side .players")).to_have_text(["Ann, Bob", "Cat, Dan"])
    expect(page.locator("p.dealer")).to_have_text("Deal 1: Bob deals")
    shot(page, "table-play-again")


def finished_game(page) -> None:
    """A game of four deals to its end, entered on this phone."""
    start_game(page)
    for number in range(1, 5):
        page.get_by_role("link", name=f"Enter deal {number}").click()
        enter_side(page, 1, clean=1)
        page.get_by_role("button", name=f"Save deal {number}").click()
        expect(page.get_by_text(f"Deal {number} saved.")).to_be_visible()
    expect(page.locator(".result")).to_contain_text("Winner: Cat & Dan, 2,000")


def test_share_copies_the_result_where_the_phone_cannot_share(phone):
    page = phone
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=page.base)
    finished_game(page)
    summary = page.locator("#share-text").input_value()
    assert summary.startswith("Hand and Foot: Classic partnership, ")
    assert "Deal 4: Ann & Bob +0, Cat & Dan +500\nFinal: Ann & Bob 0, Cat & Dan 2,000\n" in summary
    assert summary.endswith("Winner: Cat & Dan, 2,000\n")
    page.get_by_role("button", name="Share the result").click()
    expect(page.get_by_text("Copied.")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == summary


def test_share_opens_the_phones_share_sheet(phone):
    page = phone
    page.context.add_init_script(SHARE_SHEET)
    finished_game(page)
    summary = page.locator("#share-text").input_value()
    page.get_by_role("button", name="Share the result").click()
    expect(page.get_by_text("Shared.")).to_be_visible()
    assert page.evaluate("window.shared") == {"text": summary}


def test_a_casual_tables_rules_remembered_on_the_phone(phone):
    page = phone
    page.goto(page.base + "/games/new?ruleset=classic")
    page.fill("#side0_players", "Ann, Bob")
    page.fill("#side1_players", "Cat, Dan")
    page.locator("details", has=page.locator("#rule_red_three_caught")).locator("summary").click()
    page.fill("#rule_red_three_caught", "300")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("button", name="Remember these rules on this phone").click()
    expect(page.get_by_text("This phone remembers")).to_be_visible()
    page.goto(page.base + "/")
    rules = page.get_by_role("link", name="Classic partnership, red three caught 300")
    expect(rules).to_be_visible()
    shot(page, "table-home-rules")
    check_axe(page)
    rules.click()
    assert page.input_value("#rule_red_three_caught") == "300"
    page.goto(page.base + "/")
    page.get_by_role("button", name="Forget Classic partnership, red three caught 300").click()
    expect(page.get_by_text("This phone has forgotten those rules.")).to_be_visible()
    expect(page.get_by_role("heading", name="Your rules")).to_have_count(0)
