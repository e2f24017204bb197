"""A game is its table's own: phone A starts it, phone B joins by the shared link and plays (with
signal and without), phone C, which never had the link, finds nothing. Real Chromium."""

from __future__ import annotations

import os
import re
import secrets
import threading
from urllib.parse import urlsplit

from playwright.sync_api import expect
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, Game

from .conftest import ARTIFACTS, QR_PIXELS, check_axe, open_phone, settled, start_game
from .test_live import IN_STEP_MS, enter_deal, kept_on_phone, no_signal, serve_worker, signal_back

# The QR code is a picture of its own (issue 18), asked for only while Invite the table is open.
QR = re.compile(r"/t/[\w-]{22}/invite\.svg$")
QR_SIZE = 240  # the <img>'s width and height, kept while it loads
# Whether an <img> has arrived and decoded (a broken or unfetched picture has no natural size).
LOADED = "img => img.complete && img.naturalWidth > 0"


def _game(app, secret: str) -> tuple[int, int]:
    """The game's id and how many deals it has saved."""
    with app.app_context():
        game_id = db.session.execute(select(Game.id).where(Game.secret == secret)).scalar_one()
        deals = select(func.count(Deal.id)).where(Deal.game_id == game_id)
        return game_id, db.session.execute(deals).scalar_one()


def test_b_joins_by_the_shared_link_and_c_finds_nothing(phone, browser, app):
    a = phone
    start_game(a)
    path = urlsplit(a.url).path
    secret = path.removeprefix("/t/")
    game_id, _ = _game(app, secret)

    # Phone A shows the table its invitation: the QR code, big enough to scan, and the link.
    invite = a.locator("#invite")
    expect(invite).to_have_attribute("open", "")
    qr = invite.get_by_role("img", name="QR code of this game's private link")
    expect(qr).to_be_visible()
    box = qr.bounding_box()
    assert box is not None and box["width"] >= 150 and box["width"] == box["height"]
    # Asked for with the page, it may still be on its way: waited for (5 s at most), not
    # assumed there the moment the image takes its place.
    a.wait_for_function(f"() => ({LOADED})(document.querySelector('#invite img.qr'))", timeout=5000)
    shared = a.locator("#invite-link").input_value()
    assert shared == a.base + path
    a.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=a.base)
    a.get_by_role("button", name="Copy the link").tap()
    expect(invite.get_by_role("status")).to_have_text("Copied.")
    assert a.evaluate("navigator.clipboard.readText()") == shared
    a.screenshot(path=os.path.join(ARTIFACTS, f"{a.device}-invite-the-table.png"))
    check_axe(a)

    b = open_phone(browser, a.device, a.base)
    c = open_phone(browser, a.device, a.base)
    try:
        # B opens the shared link: the game, and B's home page lists it from now on.
        b.goto(shared)
        expect(b.locator("#totals")).to_contain_text("Ann & Bob")
        serve_worker(b)
        b.get_by_role("link", name="Enter deal 1").tap()
        enter_deal(b, ("480", "130"))
        b.get_by_role("button", name="Save deal 1").tap()
        expect(b.get_by_text("Deal 1 saved.")).to_be_visible()
        # Books 3,000 + going out 200 + 480 melded: A sees it within the table's 2 seconds.
        expect(a.locator("#totals")).to_contain_text("3,680", timeout=IN_STEP_MS)
        b.goto(a.base + "/")
        expect(b.locator("main")).to_contain_text("Ann & Bob")

        # C never had the link: its home page lists nothing, the old address and a guess find
        # nothing, and neither says whose game it was.
        c.goto(a.base + "/")
        expect(c.get_by_text("No game in progress on this phone.")).to_be_visible()
        expect(c.locator("main")).not_to_contain_text("Ann & Bob")
        old = c.goto(f"{a.base}/games/{game_id}")
        assert old is not None and old.status == 404
        heading = c.get_by_role("heading", name="Games now open with their private link")
        expect(heading).to_be_visible()
        expect(c.locator("main")).not_to_contain_text("Ann")
        check_axe(c)
        guessed = c.goto(f"{a.base}/t/{secrets.token_urlsafe(16)}")
        assert guessed is not None and guessed.status == 404
        expect(c.locator("main")).not_to_contain_text("Ann")

        # B loses signal and enters deal 2 on the phone; with signal back it is sent, once,
        # and A sees it.
        b.goto(shared)
        kept_on_phone(b, path)
        kept_on_phone(b, path + "/deals/new")
        no_signal(b.context)
        b.reload()
        expect(b.get_by_text("No signal.")).to_be_visible()
        b.get_by_role("link", name="Enter deal 2").tap()
        expect(b.get_by_role("heading", name="Enter deal 2")).to_be_visible()
        enter_deal(b, ("300", "300"), went_out=1)
        b.get_by_role("button", name="Save deal 2").tap()
        expect(b.locator("[data-outbox]")).to_contain_text("waiting to send")
        assert _game(app, secret)[1] == 1
        signal_back(b.context)
        expect(b.locator("[data-outbox]")).to_be_hidden(timeout=10_000)
        # 3,680 + 300 and 130 + 3,500 (Cat & Dan's books, going out and melded).
        expect(a.locator("#totals")).to_contain_text("3,980", timeout=IN_STEP_MS)
        expect(a.locator("#totals")).to_contain_text("3,630")
        assert _game(app, secret)[1] == 2
    finally:
        b.context.close()
        c.context.close()
    assert b.outside == [] and c.outside == []


def test_forgetting_my_games_forgets_the_kept_pages_too(phone, app):
    """On a shared phone one tap clears the list, here and in what the phone kept offline."""
    page = phone
    start_game(page)
    path = urlsplit(page.url).path
    serve_worker(page)
    page.goto(page.base + path)
    kept_on_phone(page, path)
    page.goto(page.base + "/")
    expect(page.locator("main")).to_contain_text("Ann & Bob")
    page.get_by_role("button", name="Forget my games on this phone").tap()
    expect(page.get_by_text("This phone has forgotten its games.")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("Ann & Bob")
    kept = page.evaluate(
        "async () => (await (await caches.open('pages-v1')).keys()).map(r => r.url)"
    )
    assert not any(path in url for url in kept), kept
    # The game itself is untouched: its link still opens it.
    page.goto(page.base + path)
    expect(page.locator("#totals")).to_contain_text("Ann & Bob")


def test_a_page_fetched_while_forgetting_is_not_kept(phone, app):
    """A game's page the worker was fetching in the background when "Forget my games" was
    tapped is not kept once it arrives (it was asked for before the phone forgot)."""
    page = phone
    start_game(page)
    path = urlsplit(page.url).path
    serve_worker(page)
    held, release, inner = threading.Event(), threading.Event(), app.wsgi_app

    def hold_the_rule_card(environ, start_response):
        # The scoreboard's worker fetches the game's rule card in the background: held back.
        if environ.get("PATH_INFO") == f"{path}/rules" and not release.is_set():
            held.set()
            release.wait(10)
        return inner(environ, start_response)

    app.wsgi_app = hold_the_rule_card
    try:
        page.goto(page.base + path)  # shown again: the worker fetches its other pages anew
        assert held.wait(10), "the worker did not fetch the rule card"
        page.goto(page.base + "/")
        page.get_by_role("button", name="Forget my games on this phone").tap()
        expect(page.get_by_text("This phone has forgotten its games.")).to_be_visible()
        # The held rule card goes on, and is waited for until the worker has it in full.
        card = f"{path}/rules"
        with page.context.expect_event("requestfinished", lambda r: r.url.endswith(card)):
            release.set()
    finally:
        release.set()
        app.wsgi_app = inner
    kept = page.evaluate(
        "async () => (await (await caches.open('pages-v1')).keys()).map(r => r.url)"
    )
    assert not any(path in url for url in kept), kept


def test_my_games_open_with_no_signal(phone, app):
    """A phone that only ever opened a game's link finds it on its home page with no signal."""
    page = phone
    made = page.request.post(
        page.base + "/api/v1/games",
        data={"ruleset": "classic", "sides": [{"name": "Ann & Bob"}, {"name": "Cat & Dan"}]},
    ).json()
    page.goto(page.base + made["url"])
    serve_worker(page)
    page.goto(page.base + made["url"])  # shown again, now with the worker in charge
    kept_on_phone(page, "/")
    no_signal(page.context)
    page.goto(page.base + "/")
    assert page.evaluate("document.documentElement.hasAttribute('data-from-phone')")
    game = page.get_by_role("link", name="Ann & Bob")
    expect(game).to_be_visible()
    game.tap()
    expect(page.locator("#totals")).to_contain_text("Cat & Dan")


# ------------------------------------------------------------------ the QR code, when asked


def _qr_requests(page) -> list[str]:
    """Every request for a QR code from now on (the page's own, or a worker's for it)."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if QR.search(urlsplit(r.url).path) else None)
    return asked


def _game_with_a_deal(page) -> str:
    """A game one deal in, made through the API as another phone would; its link (a path)."""
    sides = [{"name": "Ann & Bob"}, {"name": "Cat & Dan"}]
    made = page.request.post(
        page.base + "/api/v1/games", data={"ruleset": "classic", "sides": sides}
    ).json()
    deal = {"scores": [{"melded_points": 325}, {"melded_points": 300}]}
    saved = page.request.post(
        page.base + f"/api/v1/games/{made['id']}/deals",
        data=deal,
        headers={"X-Game-Key": made["key"]},
    )
    assert saved.status == 201, saved.text()
    return urlsplit(made["url"]).path


# In the page: resolved once the browser has drawn two more frames (a lazy image in sight is
# asked for as the first is drawn).
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def test_the_qr_code_is_fetched_only_when_invite_the_table_is_opened(phone, app):
    """A game with deals: Invite the table starts closed and its QR code stays on the server,
    scrolled to or not; opened, the code is asked for once, its place kept while it comes."""
    page = phone
    path = _game_with_a_deal(page)
    # The code is held back at the server once asked for, until the test lets it go.
    served, release, inner = [], threading.Event(), app.wsgi_app
    asked_for_code = threading.Event()

    def hold_the_code(environ, start_response):
        if QR.search(environ.get("PATH_INFO", "")):
            served.append(environ["PATH_INFO"])
            asked_for_code.set()
            release.wait(10)
        return inner(environ, start_response)

    app.wsgi_app = hold_the_code
    try:
        _qr_held_until_opened(page, path, served, asked_for_code, release)
    finally:
        release.set()
        app.wsgi_app = inner


def _qr_held_until_opened(page, path, served, asked_for_code, release) -> None:
    """The QR code's journey: unasked while closed, then asked once and its place kept."""
    asked = _qr_requests(page)
    page.goto(page.base + path)
    settled(page)
    invite = page.locator("#invite")
    expect(invite).not_to_have_attribute("open", "")
    qr = invite.locator("img.qr")
    assert qr.get_attribute("loading") == "lazy"
    invite.scroll_into_view_if_needed()  # in sight, but closed: still not wanted
    page.evaluate(TWO_FRAMES)
    assert asked == [] and served == [], (asked, served)
    assert not qr.evaluate(LOADED)

    # Opened: asked for at once. Held on its way, it already takes its full place, so nothing
    # below it moves when it arrives (CLS stays 0).
    with page.expect_request(lambda r: QR.search(urlsplit(r.url).path)):
        invite.locator("summary").tap()
    expect(qr).to_be_visible()
    waiting = qr.bounding_box()
    below = page.locator("#invite-link").bounding_box()
    # Square, and at least its drawn size: app.css widens it to the column, up to 15rem.
    assert waiting is not None and waiting["width"] == waiting["height"] >= QR_SIZE, waiting
    assert asked_for_code.wait(10), "the server was never asked for the code"
    assert len(served) == 1, served
    assert not qr.evaluate(LOADED)
    release.set()
    page.wait_for_function(f"() => ({LOADED})(document.querySelector('#invite img.qr'))")
    assert qr.bounding_box() == waiting
    assert page.locator("#invite-link").bounding_box() == below
    settled(page)
    assert len(asked) == 1 and asked[0] == page.base + path + "/invite.svg", asked
    # What arrived is a QR code: dark modules on a white ground of its own.
    drawn = qr.evaluate(QR_PIXELS)
    assert drawn["opaque"] and drawn["corner"] == "rgb(255, 255, 255)", drawn
    assert 0.15 < drawn["darkShare"] < 0.6, drawn
    check_axe(page)


def test_a_new_game_shows_its_qr_code_at_once(phone, app):
    """A new game's scoreboard starts with Invite the table open: the code comes with it."""
    page = phone
    asked = _qr_requests(page)
    start_game(page)
    path = urlsplit(page.url).path
    qr = page.locator("#invite").get_by_role("img", name="QR code of this game's private link")
    expect(qr).to_be_visible()
    page.wait_for_function(f"() => ({LOADED})(document.querySelector('#invite img.qr'))")
    box = qr.bounding_box()
    assert box is not None and box["width"] == box["height"] >= QR_SIZE, box
    settled(page)
    assert asked == [page.base + path + "/invite.svg"], asked
    drawn = qr.evaluate(QR_PIXELS)
    assert drawn["opaque"] and drawn["corner"] == "rgb(255, 255, 255)", drawn
    assert 0.15 < drawn["darkShare"] < 0.6, drawn


def test_without_javascript_invite_the_table_still_shows_the_code(browser, live_server, app):
    """No script: the details opens by itself and the code is there (the browser may fetch it
    early, as lazy loading needs scripts on)."""
    page = open_phone(browser, "small-375x667", live_server, java_script_enabled=False)
    try:
        path = _game_with_a_deal(page)
        page.goto(page.base + path)
        invite = page.locator("#invite")
        invite.locator("summary").tap()
        qr = invite.get_by_role("img", name="QR code of this game's private link")
        expect(qr).to_be_visible()
        settled(page)
        assert qr.evaluate(LOADED)
    finally:
        page.context.close()
    assert page.outside == []


def test_a_stranger_cannot_fetch_the_qr_code(phone, browser, app):
    """The picture of a game's link is no way in: without the link, or the club's table link
    for a club game, the browser gets the same 404 as for the game."""
    page = phone
    path = _game_with_a_deal(page)
    ok = page.request.get(page.base + path + "/invite.svg")
    assert ok.status == 200 and ok.headers["content-type"].startswith("image/svg+xml")
    assert "private" in ok.headers["cache-control"]
    guessed = page.request.get(f"{page.base}/t/{secrets.token_urlsafe(16)}/invite.svg")
    assert guessed.status == 404
    assert not guessed.headers["content-type"].startswith("image/")
