"""The phones agree within 2 s of the signal coming back (issue 40 measured 2.64 s).

Two phones at a table: Ann's loses its signal, a deal is entered on it and waits to send, and
the signal comes back, either as Playwright's offline mode ends (the browser says `online`) or
as a club's wifi gets its internet back (requests go through again, and nothing says so). From
that moment both phones show the server's figures within 2 seconds: Ann's sent the deal, and its
row is no longer marked waiting; Cat's shows it.

Ann's page is past its first quick seconds (`hf.quickFor`), as a phone that lost its signal a
while ago is: before issue 40 it asked every 5 seconds then, signal or none, so noticing the
signal alone could take 5 seconds; now it asks twice a second while it has none, takes the
`online` hint, and asks again as soon as the deals waiting on it are sent.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from .test_live import (
    deals_saved,
    enter_deal,
    game_opened_with_signal,
    no_signal,
    second_phone,
    signal_back,
)

AGREE_WITHIN_S = 2.0


@pytest.mark.parametrize("lost", ["offline", "wifi"])
def test_the_phones_agree_within_2_s_of_the_signal_coming_back(phone, browser, app, lost):
    ann = phone
    ann.context.add_init_script("window.hf = { quickFor: 1000 };")
    game = game_opened_with_signal(ann)
    cat = second_phone(browser, ann)
    try:
        cat.goto(f"{ann.base}{game}")
        expect(cat.get_by_text("No deal entered yet.")).to_be_visible()

        if lost == "offline":
            ann.context.set_offline(True)
        else:
            no_signal(ann.context)
        ann.get_by_role("link", name="Enter deal 1").tap()
        expect(ann.get_by_role("heading", name="Enter deal 1")).to_be_visible()
        enter_deal(ann, ("480", "130"))
        ann.get_by_role("button", name="Save deal 1").tap()
        expect(ann.locator(".deal.waiting")).to_contain_text("Deal 1 · waiting to send")
        expect(ann.get_by_text("No signal.")).to_be_visible()
        # Past the page's first quick second: the pace of a phone that lost its signal a while ago.
        ann.wait_for_function("() => performance.now() > window.hf.quickFor + 500")
        assert deals_saved(app, game) == 0

        if lost == "offline":
            ann.context.set_offline(False)
        else:
            signal_back(ann.context)
        back = time.monotonic()
        # Ann's phone: the server's row in place of the waiting one; Cat's: the deal.
        expect(ann.locator(".deal.waiting")).to_have_count(0, timeout=5_000)
        expect(ann.locator("#totals")).to_contain_text("3,680", timeout=5_000)
        expect(ann.locator("#totals")).not_to_contain_text("provisional")
        ann_at = time.monotonic() - back
        expect(cat.locator("#totals")).to_contain_text("3,680", timeout=5_000)
        cat_at = time.monotonic() - back
        print(f"\n{ann.device} {lost}: Ann's phone in {ann_at:.2f} s, Cat's in {cat_at:.2f} s")
        assert max(ann_at, cat_at) <= AGREE_WITHIN_S, (ann_at, cat_at)
        assert deals_saved(app, game) == 1
    finally:
        cat.context.close()
