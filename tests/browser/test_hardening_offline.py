"""Issue 14: an organiser's pages do not outlive the session on the phone. Real Chromium.

The settings page shows the club's live table link: the worker never keeps it (it comes
no-store), so with no signal the phone shows its offline page instead; and signing in as
someone else forgets every page the phone kept.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper import accounts
from scorekeeper.db import db

from .test_live import kept_on_phone, no_signal, serve_worker, signal_back

PASSWORD = "quiet-harbour-7341-lantern"
SLUG = "tuesday"

KEPT_ADDRESSES = "async () => (await (await caches.open('pages-v1')).keys()).map(r => r.url)"


pytestmark = pytest.mark.usefixtures("quick_hashing")


def kept(page) -> list[str]:
    """The paths of every page the worker keeps on this phone."""
    return [url.removeprefix(page.base) for url in page.evaluate(KEPT_ADDRESSES)]


def sign_in(page, username: str) -> None:
    """Sign in through the form, as a person would."""
    page.goto(page.base + "/login")
    page.fill("#username", username)
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text(f"Signed in as {username}")).to_be_visible()


def test_an_organisers_pages_do_not_outlive_the_session(phone, app):
    page = phone
    with app.app_context():
        accounts.register("vera", PASSWORD)  # another organiser, who uses this phone later
        db.session.commit()

    # Olga signs up and starts a private club; the worker takes charge of the phone.
    page.goto(page.base + "/signup")
    page.fill("#username", "olga")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.fill("#name", "Tuesday club")
    page.fill("#slug", SLUG)
    page.get_by_role("button", name="Create the club").click()
    serve_worker(page)

    # With signal and the worker in charge: the settings page, with its table link, opens...
    settings = f"/clubs/{SLUG}/settings"
    page.goto(page.base + settings)
    assert f"/clubs/{SLUG}/table/" in page.get_by_label("Table link").input_value()
    assert page.evaluate("!!navigator.serviceWorker.controller")
    # ... as do pages any visitor may keep, which the phone does keep.
    page.goto(page.base + "/rules")
    kept_on_phone(page, "/rules")
    # The worker kept the page before the browser had it: a page it kept would be there now.
    assert settings not in kept(page)
    assert not any(path.startswith("/clubs") for path in kept(page)), kept(page)

    # No signal: the settings page does not open from the phone; the offline page shows.
    no_signal(page.context)
    page.goto(page.base + settings)
    expect(page.get_by_role("heading", name="No signal")).to_be_visible()
    expect(page.get_by_label("Table link")).to_have_count(0)
    assert page.evaluate("document.documentElement.hasAttribute('data-from-phone')")
    assert settings not in kept(page)

    # Back in signal, Vera signs in on the same phone: what Olga's session kept is gone.
    signal_back(page.context)
    page.goto(page.base + "/")
    kept_on_phone(page, "/")
    before = kept(page)
    assert "/rules" in before and "/" in before, before
    sign_in(page, "vera")
    left = kept(page)
    assert "/rules" not in left, left
    assert not any(path.startswith("/clubs") for path in left), left
    # Vera's own pages are kept afresh from here on, as before.
    page.goto(page.base + "/rules")
    kept_on_phone(page, "/rules")
