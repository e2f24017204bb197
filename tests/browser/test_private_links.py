"""A game is its table's own: phone A starts it, phone B joins by the shared link and plays (with
signal and without), phone C, which never had the link, finds nothing. Real Chromium."""

from __future__ import annotations

import os
import secrets
from urllib.parse import urlsplit

from playwright.sync_api import expect
from sqlalchemy import func, select

from scorekeeper.db import db
from scorekeeper.models import Deal, Game

from .conftest import ARTIFACTS, check_axe, open_phone, start_game
from .test_live import IN_STEP_MS, enter_deal, kept_on_phone, no_signal, serve_worker, signal_back


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
