"""The table's comfort (issue 40, items 5-7) in real Chromium: who holds each phone, asked once
and then named in the table's news; the sides where the table expects them; larger text that
survives a reload; the screen kept awake, or the page saying it may dim.

The wake lock: headless Chromium has the Screen Wake Lock API, and the test grants it through
the DevTools protocol (Browser.setPermission) rather than leaning on the browser's default. The
page's own request is watched, not replaced: an init script wraps `navigator.wakeLock.request`
to count the calls and keep the locks it returns, and still calls the real one. The page marks
<html data-awake> while it holds a lock (static/comfort.js), which the test reads. A phone with
no wake lock is Chromium with `wakeLock` deleted from Navigator before the page's scripts run.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .conftest import check_axe, game_link, open_phone, settled, start_game
from .test_live import IN_STEP_MS, enter_deal

ASKED = "Who is holding this phone?"
DIMS = "This phone may dim its screen"
# Counts the page's wake lock requests and keeps the locks, calling the real API.
WATCH_LOCKS = """window.__locks = []; window.__asked = 0;
if (navigator.wakeLock) {
  const real = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => {
    window.__asked++;
    return real(type).then((lock) => { window.__locks.push(lock); return lock; });
  };
}"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
# Every layout shift from the start (as test_page_weight.py counts them): text made larger
# after the first paint would move everything below the title.
SHIFTS = """window.__cls = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__cls += entry.value;
}).observe({ type: "layout-shift", buffered: true });"""


def phone_of(browser, live_server, **extra):
    """A small phone, the wake lock granted to the app's pages."""
    page = open_phone(browser, "small-375x667", live_server, **extra)
    cdp = page.context.new_cdp_session(page)
    cdp.send(
        "Browser.setPermission",
        {"permission": {"name": "screen-wake-lock"}, "setting": "granted", "origin": live_server},
    )
    return page


def skip_name(page) -> None:
    page.get_by_role("button", name="Skip", exact=True).tap()
    expect(page.get_by_label(ASKED)).to_have_count(0)


def test_the_name_is_asked_once_then_the_table_is_told_who_saved(browser, live_server):
    ann = phone_of(browser, live_server)
    cat = phone_of(browser, live_server)
    try:
        start_game(ann)
        game = game_link(ann)
        ann.get_by_label(ASKED).fill("Ann")
        ann.get_by_role("button", name="OK", exact=True).tap()
        expect(ann.get_by_label(ASKED)).to_have_count(0)
        # Never asked again: not on a reload, not on the deal form, which names the phone.
        ann.reload()
        expect(ann.locator("h1")).to_contain_text("game")
        expect(ann.get_by_label(ASKED)).to_have_count(0)
        ann.goto(f"{ann.base}{game}/deals/new")
        expect(ann.locator("[data-me-name]")).to_have_text("Ann")
        expect(ann.get_by_label(ASKED)).to_have_count(0)

        # Cat's phone skips it, and is not asked again either.
        cat.goto(f"{cat.base}{game}")
        skip_name(cat)
        cat.reload()
        expect(cat.get_by_text("No deal entered yet.")).to_be_visible()
        expect(cat.get_by_label(ASKED)).to_have_count(0)

        enter_deal(ann, ("480", "130"))
        ann.get_by_role("button", name="Save deal 1").tap()
        expect(ann.get_by_text("Deal 1 saved.")).to_be_visible()
        news = cat.get_by_role("status").filter(has_text="Ann saved deal 1.")
        expect(news).to_be_visible(timeout=IN_STEP_MS)
        expect(cat.get_by_text("Someone")).to_have_count(0)
    finally:
        ann.context.close()
        cat.context.close()
    assert ann.outside == [] and cat.outside == []


def test_with_no_script_the_name_is_a_form_post_asked_once(browser, live_server):
    page = phone_of(browser, live_server)
    bare = open_phone(browser, "small-375x667", live_server, java_script_enabled=False)
    try:
        start_game(page)
        game = game_link(page)
        bare.goto(f"{bare.base}{game}/deals/new")
        bare.get_by_label(ASKED).fill("Bob")
        bare.get_by_role("button", name="OK", exact=True).click()
        expect(bare).to_have_url(re.compile(re.escape(game) + "/deals/new$"))
        expect(bare.get_by_label(ASKED)).to_have_count(0)
        bare.goto(f"{bare.base}{game}")
        expect(bare.get_by_label(ASKED)).to_have_count(0)
    finally:
        page.context.close()
        bare.context.close()


def test_the_sides_keep_the_tables_order_after_a_line_and_this_phones_is_labelled(
    browser, live_server
):
    page = phone_of(browser, live_server)
    try:
        start_game(page)
        skip_name(page)
        game = game_link(page)
        page.goto(page.base + game + "/deals/next/1")
        page.get_by_role("button", name="One more: clean books").tap()
        page.get_by_role("button", name="Send this line").tap()
        expect(page).to_have_url(re.compile(re.escape(game) + "#lines$"))
        expect(page.locator("#totals h3")).to_have_text(["Ann & Bob", "Your side: Cat & Dan"])

        page.goto(page.base + game + "/deals/new")
        sides = page.locator("fieldset.side-entry").evaluate_all("s => s.map(f => f.dataset.side)")
        assert sides == ["0", "1"], sides
        expect(page.locator("#went_out label")).to_have_text(
            ["Nobody (stock ran out)", "Ann & Bob", "Cat & Dan"]
        )
        legends = page.locator("fieldset.side-entry > legend")
        expect(legends.nth(0)).not_to_contain_text("Your side")
        expect(legends.nth(1)).to_contain_text("Your side: Cat & Dan")
        # The line sent fills in its side's figures, where that side always is.
        expect(page.locator("fieldset.side-entry").nth(1).locator("#s1-books-clean")).to_have_value(
            "1"
        )
    finally:
        page.context.close()


def test_larger_text_survives_a_reload_from_the_first_frame(browser, live_server):
    page = phone_of(browser, live_server)
    try:
        page.add_init_script(SHIFTS)
        start_game(page)
        skip_name(page)
        html = page.locator("html")
        toggle = page.get_by_role("button", name="Larger text")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        before = page.locator("h1").evaluate("h => parseFloat(getComputedStyle(h).fontSize)")
        toggle.tap()
        expect(html).to_have_class(re.compile(r"\blarger\b"))
        expect(toggle).to_have_attribute("aria-pressed", "true")
        page.wait_for_function(
            "least => parseFloat(getComputedStyle(document.querySelector('h1')).fontSize) >= least",
            arg=before * 1.2,
        )

        page.reload()
        expect(html).to_have_class(re.compile(r"\blarger\b"))
        expect(toggle).to_have_attribute("aria-pressed", "true")
        settled(page)
        assert page.evaluate("window.__cls") == 0, "the text grew after the page was shown"
        check_axe(page)

        toggle.tap()
        page.reload()
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(html).not_to_have_class(re.compile(r"\blarger\b"))
    finally:
        page.context.close()


def test_the_screen_is_kept_awake_and_asked_again_when_the_page_shows_again(browser, live_server):
    page = phone_of(browser, live_server)
    try:
        page.add_init_script(WATCH_LOCKS)
        start_game(page)
        html = page.locator("html")
        expect(html).to_have_attribute("data-awake", "")
        assert page.evaluate("window.__asked") == 1
        # Hidden, the phone lets the lock go; shown again, the page asks for it again.
        page.evaluate("window.__locks.forEach((lock) => lock.release())")
        expect(html).not_to_have_attribute("data-awake", "")
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        expect(html).to_have_attribute("data-awake", "")
        assert page.evaluate("window.__asked") == 2
        expect(page.get_by_text(DIMS)).to_have_count(0)
        # The deal form keeps the screen awake too.
        page.goto(page.base + game_link(page) + "/deals/new")
        expect(html).to_have_attribute("data-awake", "")
    finally:
        page.context.close()


def test_a_phone_with_no_wake_lock_says_once_that_its_screen_may_dim(browser, live_server):
    page = phone_of(browser, live_server)
    try:
        page.add_init_script(NO_WAKE_LOCK)
        start_game(page)
        note = page.get_by_text(DIMS)
        expect(note).to_have_count(1)
        expect(note).to_be_visible()
        expect(page.locator("footer").get_by_text(DIMS)).to_have_count(1)
        expect(page.locator("html")).not_to_have_attribute("data-awake", "")
        check_axe(page)
    finally:
        page.context.close()
