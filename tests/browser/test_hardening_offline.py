"""Issue 14: an organiser's pages do not outlive the session on the phone. Real Chromium.

The settings page shows the club's live table link: the worker never keeps it (it comes
no-store), so with no signal the phone shows its offline page instead; and signing in as
someone else forgets every page the phone kept. Issue 26: nor does the home page signed in,
or a club's game seen thanks to the sign-in, once the organiser signed out on another phone.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper.plumbing.db import db
from scorekeeper.services import accounts, clubs

from .conftest import open_phone
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


def olga_starts_a_private_club(page) -> None:
    """Olga signs up on this phone and starts the private Tuesday club."""
    page.goto(page.base + "/signup")
    page.fill("#username", "olga")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Create account").click()
    page.fill("#name", "Tuesday club")
    page.fill("#slug", SLUG)
    page.get_by_role("button", name="Create the club").click()


def test_an_organisers_pages_do_not_outlive_the_session(phone, app):
    page = phone
    with app.app_context():
        accounts.register("vera", PASSWORD)  # another organiser, who uses this phone later
        db.session.commit()

    # Olga signs up and starts a private club; the worker takes charge of the phone.
    olga_starts_a_private_club(page)
    serve_worker(page)

    # With signal and the worker in charge: the settings page, with its table link, opens...
    settings = f"/clubs/{SLUG}/settings"
    page.goto(page.base + settings)
    assert f"/clubs/{SLUG}/table/" in page.get_by_label("The club's table link").input_value()
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
    expect(page.get_by_label("The club's table link")).to_have_count(0)
    assert page.evaluate("document.documentElement.hasAttribute('data-from-phone')")
    assert settings not in kept(page)

    # Back in signal, Vera signs in on the same phone: what Olga's session kept is gone.
    signal_back(page.context)
    page.goto(page.base + "/")
    page.goto(page.base + "/rules")
    kept_on_phone(page, "/rules")
    before = kept(page)
    # Her home page lists her clubs: signed in, it is never kept (issue 26).
    assert "/rules" in before and "/" not in before, before
    sign_in(page, "vera")
    left = kept(page)
    assert "/rules" not in left, left
    assert not any(path.startswith("/clubs") for path in left), left
    # Vera's own pages are kept afresh from here on, as before.
    page.goto(page.base + "/rules")
    kept_on_phone(page, "/rules")


def test_after_a_sign_out_elsewhere_the_phone_shows_none_of_the_organisers_pages(
    phone, app, browser, live_server
):
    page = phone
    # Olga signs up on this phone and starts a private club; a game of it is being played.
    olga_starts_a_private_club(page)
    with app.app_context():
        code = clubs.club_by_slug(SLUG).table_code
    started = app.test_client().post(
        "/api/v1/games",
        json={"ruleset": "club", "club": SLUG, "sides": [{"name": "Ann"}, {"name": "Bob"}]},
        headers={"X-Table-Code": code},
    )
    game = f"/t/{started.get_json()['key']}"
    serve_worker(page)

    # With signal, her home page lists the club and the game opens: the sign-in alone shows
    # them (this phone keeps no table link), so the worker keeps neither...
    page.goto(page.base + "/")
    expect(page.get_by_role("link", name="Tuesday club")).to_be_visible()
    page.goto(page.base + game)
    expect(page.get_by_text("Ann", exact=True).first).to_be_visible()
    # ... while it keeps what it may: once /rules is kept, anything kept before it would be.
    page.goto(page.base + "/rules")
    kept_on_phone(page, "/rules")
    assert "/" not in kept(page) and game not in kept(page), kept(page)

    # She signs out on another phone: every session of hers ends, this phone's too.
    other = open_phone(browser, page.device, live_server)
    try:
        sign_in(other, "olga")
        other.get_by_role("button", name="Sign out").click()
        expect(other.get_by_text("Signed out.")).to_be_visible()
    finally:
        other.context.close()

    # No signal on this phone: neither her home page nor the club's game opens from it.
    no_signal(page.context)
    for path in ("/", game):
        page.goto(page.base + path)
        expect(page.get_by_role("heading", name="No signal")).to_be_visible()
        expect(page.get_by_text("Tuesday club")).to_have_count(0)
        expect(page.get_by_text("Signed in as olga")).to_have_count(0)
