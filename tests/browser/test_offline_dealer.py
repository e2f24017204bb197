"""Who deals, on a phone with no signal: worked out from what the server stated, not a copy.

The deal form kept on the phone is the one for the deal it was opened for; a deal waiting to
send moves it on (static/offline.js), and the dealer it names then is scorer.js's, from the
seats and first dealer in the scorer's answer (services/scorer.py), the engine's rule
(rules/seating.py) on the phone. The page itself carries no seats to work it out from.
"""

from __future__ import annotations

from playwright.sync_api import expect

from .test_live import enter_deal, game_opened_with_signal, no_signal, signal_back


def test_a_form_moved_on_by_a_deal_waiting_names_the_next_dealer(phone):
    page = phone
    game = game_opened_with_signal(page)

    no_signal(page.context)
    page.reload()
    page.get_by_role("link", name="Enter deal 1").tap()
    expect(page.locator("p.dealer")).to_have_text("Deal 1: Ann deals")
    enter_deal(page, ("480", "130"))
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("[data-outbox]")).to_contain_text("waiting to send")

    # The kept form, moved on to deal 2 by the deal waiting: Ann dealt deal 1, so Cat deals.
    page.get_by_role("link", name="Enter deal 2").tap()
    expect(page.get_by_role("heading", name="Enter deal 2")).to_be_visible()
    expect(page.locator("p.dealer")).to_have_text("Deal 2: Cat deals")
    assert page.locator("[data-table], [data-first]").count() == 0

    # A second deal waiting: the form moves on again, to the next seat on the left.
    enter_deal(page, ("300", "300"), went_out=1)
    page.get_by_role("button", name="Save deal 2").tap()
    page.get_by_role("link", name="Enter deal 3").tap()
    expect(page.get_by_role("heading", name="Enter deal 3")).to_be_visible()
    expect(page.locator("p.dealer")).to_have_text("Deal 3: Bob deals")

    # With signal back and both deals sent, the server's form names the same dealer.
    signal_back(page.context)
    expect(page.locator("[data-outbox]")).to_be_hidden(timeout=10_000)
    page.goto(f"{page.base}{game}/deals/new")
    expect(page.get_by_role("heading", name="Enter deal 3")).to_be_visible()
    expect(page.locator("p.dealer")).to_have_text("Deal 3: Bob deals")
