"""What a scorer does on a phone: start a game, enter a deal with steppers and card counts."""

from __future__ import annotations

import os

from playwright.sync_api import expect

from .conftest import ARTIFACTS


def shot(page, name: str) -> None:
    """Keep a screenshot of what the player saw, as a test artifact."""
    page.screenshot(path=os.path.join(ARTIFACTS, f"{page.device}-{name}.png"), full_page=True)


def test_start_a_game_and_enter_a_deal(phone):
    """Steppers, the live breakdown and the card-count helper, then the scoreboard."""
    page = phone
    page.goto(page.base + "/games/new")
    page.get_by_role("link", name="Play Classic partnership rules").click()
    page.fill("#side0_players", "Ann, Bob")
    page.fill("#side1_players", "Cat, Dan")
    shot(page, "new-game")
    page.get_by_role("button", name="Start the game").click()
    assert page.locator(".minimum").first.inner_text() == "needs 50 to open"
    page.get_by_role("link", name="Enter deal 1").click()

    # Ann & Bob: 2 clean, 2 dirty, 1 wild by the + buttons, one red three, went out.
    for label, taps in (("clean books", 2), ("dirty books", 2), ("wild books", 1)):
        for _ in range(taps):
            page.get_by_role("button", name=f"One more: {label}").first.click()
    page.get_by_role("button", name="One more: red threes laid down").first.click()
    page.fill("#s0-melded_points", "480")
    page.get_by_label("Ann & Bob", exact=True).check()
    # Cat & Dan count their cards instead: 1 joker + 4 aces melded, 3 eights left.
    page.locator("details.counter summary").nth(1).click()
    page.fill("#s1-melded_cards-joker", "1")
    page.fill("#s1-melded_cards-ace", "4")
    page.fill("#s1-leftover_cards-eight_to_king", "3")

    # The server's breakdown follows the typing: 50 + 80 − 30 = 100 for Cat & Dan.
    breakdown = page.locator("#breakdown")
    breakdown.get_by_text("Deal total").first.wait_for()
    expect(breakdown).to_contain_text("130 melded − 30 left")
    # Measured before the screenshot: a full-page shot lays the page out again.
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, "deal-entry")

    page.get_by_role("button", name="Save deal 1").click()
    # 2×500 + 2×300 + 1,500 + 100 + 100 + 480 = 3,780; Cat & Dan 130 − 30 = 100.
    totals = page.locator(".side .total").all_inner_texts()
    assert [t.split()[-1] for t in totals] == ["3,780", "100"]
    assert page.locator(".minimum").first.inner_text() == "needs 90 to open"
    shot(page, "scoreboard")


def test_a_refused_entry_keeps_what_was_typed(phone):
    """A typo is explained beside its field; nothing typed is lost, nothing is saved."""
    page = phone
    page.goto(page.base + "/games/new?ruleset=club")
    page.fill("#side0_name", "Ann")
    page.fill("#side1_name", "Bob")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter deal 1").click()
    page.fill("#s0-melded_points", "233")
    page.fill("#s1-melded_points", "120")
    page.get_by_role("button", name="Save deal 1").click()
    # The phone refuses it as the server would (issue 40): said beside the breakdown, the
    # refused figure brought to hand, nothing sent.
    expect(page.locator("[data-refused-save]")).to_be_visible()
    expect(page.locator("#breakdown .preview-problems")).to_contain_text("not a multiple of 5")
    expect(page.locator("#s0-melded_points")).to_be_focused()
    assert page.input_value("#s0-melded_points") == "233"
    assert page.input_value("#s1-melded_points") == "120"
    shot(page, "refused-entry")
    page.get_by_role("link", name="Scoreboard").click()
    expect(page.get_by_text("No deal entered yet")).to_be_visible()
