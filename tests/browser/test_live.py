"""Phones at one table in step, and a phone with no signal: real Chromium, real service worker.

Two contexts are two phones (their own cookies, caches and service worker). "No signal" is
every request refused at the phone's context, the page's and its service worker's alike
(PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS routes the worker's). Playwright's offline mode
is not used: what it does to navigator.onLine differs between Chromium builds, and the app must
not lean on navigator.onLine anyway. With requests refused it stays true, as on a club's wifi
with no internet behind it.
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, Game

from .conftest import ARTIFACTS, check_axe, game_link, open_phone, start_game

# Within 2 seconds of the save, every other phone shows it (the promise).
IN_STEP_MS = 2000

os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")


def no_signal(context) -> None:
    """Take a phone offline: every request fails, the page's and its service worker's."""
    context.route("**/*", _refuse)


def signal_back(context) -> None:
    """Bring it back: requests go through again. Nothing tells the page so."""
    context.unroute("**/*", _refuse)


def _refuse(route) -> None:
    route.abort("internetdisconnected")


def online_events(page) -> None:
    """Count the 'online' events this page gets from now on (`window.onlineEvents`)."""
    page.evaluate("window.onlineEvents = 0; addEventListener('online', () => onlineEvents++)")


def second_phone(browser, page):
    """Another phone at the same table, opening the same server."""
    return open_phone(browser, page.device, page.base)


def deals_saved(app, link: str) -> int:
    """How many deals the game at this link (`/t/<secret>`) has saved."""
    with app.app_context():
        query = (
            select(func.count(Deal.id))
            .join(Game, Game.id == Deal.game_id)
            .where(Game.secret == link.removeprefix("/t/"))
        )
        return db.session.execute(query).scalar_one()


def game_id(app, link: str) -> int:
    """The id of the game at this link (`/t/<secret>`)."""
    with app.app_context():
        query = select(Game.id).where(Game.secret == link.removeprefix("/t/"))
        return db.session.execute(query).scalar_one()


def enter_deal(page, melded: tuple[str, str], went_out: int = 0) -> None:
    """The side going out has 2 clean, 2 dirty and 1 wild book; both sides' melded points."""
    for kind, count in (("clean", "2"), ("dirty", "2"), ("wild", "1")):
        page.fill(f"#s{went_out}-books-{kind}", count)
    page.fill("#s0-melded_points", melded[0])
    page.fill("#s1-melded_points", melded[1])
    page.get_by_label(("Ann & Bob", "Cat & Dan")[went_out], exact=True).check()


def serve_worker(page) -> None:
    """Wait until the service worker looks after this page (it keeps pages from then on)."""
    page.evaluate("navigator.serviceWorker.ready")
    if page.evaluate("!navigator.serviceWorker.controller"):
        page.reload()
    expect(page.locator("main")).to_be_visible()


def game_opened_with_signal(page) -> str:
    """Start a game and open its scoreboard with the worker in charge; returns its link."""
    # From then on the phone keeps the scoreboard, and the worker fetches its deal form and
    # rule card.
    start_game(page)
    game = game_link(page)
    serve_worker(page)
    page.goto(f"{page.base}{game}")
    serve_worker(page)
    for path in (game, f"{game}/deals/new", f"{game}/rules", f"{game}/scorer"):
        kept_on_phone(page, path)
    return game


KEPT = """async path => {
    for (const until = Date.now() + 5000; Date.now() < until; ) {
        if (await (await caches.open("pages-v1")).match(location.origin + path)) return true;
        await new Promise(resolve => setTimeout(resolve, 50));
    }
    return false;
}"""


def kept_on_phone(page, path: str) -> None:
    """Wait (up to 5 seconds) until the worker has kept this page in the phone's cache."""
    assert page.evaluate(KEPT, path), f"{path} was not kept on the phone"


def test_a_deal_saved_on_one_phone_shows_on_the_other(phone, browser, app):
    scorer = phone
    start_game(scorer)
    game = game_link(scorer)
    watcher = second_phone(browser, scorer)
    try:
        watcher.goto(f"{scorer.base}{game}")
        expect(watcher.get_by_text("No deal entered yet.")).to_be_visible()

        # The scorer opens the deal form and says who they are: the table sees it.
        scorer.goto(f"{scorer.base}{game}/deals/new")
        scorer.get_by_text("Other phones see you as").click()
        scorer.get_by_label("Your name, shown to the table").fill("Ann")
        scorer.get_by_label("Your name, shown to the table").press("Enter")
        expect(watcher.get_by_text("Ann is entering deal 1.")).to_be_visible(timeout=IN_STEP_MS)

        # Books 3,000 + going out 200 + 480 melded = 3,680 (the engine agrees); Cat & Dan 130.
        enter_deal(scorer, ("480", "130"))
        scorer.get_by_role("button", name="Save deal 1").tap()
        expect(scorer.get_by_text("Deal 1 saved.")).to_be_visible()
        totals = watcher.locator("#totals")
        expect(totals).to_contain_text("3,680", timeout=IN_STEP_MS)
        expect(totals).to_contain_text("130")
        # Who saved it, told once (the status line names the phone that saved it).
        expect(watcher.get_by_role("status").filter(has_text="Ann saved deal 1.")).to_be_visible()
        expect(watcher.get_by_text("Ann is entering deal 1.")).to_be_hidden()
        expect(watcher.get_by_role("link", name="Enter deal 2")).to_be_visible()

        # A correction shows too: Cat & Dan had melded 230, not 130.
        scorer.goto(f"{scorer.base}{game}/deals/1/edit")
        scorer.fill("#s1-melded_points", "230")
        scorer.get_by_role("button", name="Save correction").tap()
        expect(scorer.get_by_text("Deal 1 corrected")).to_be_visible()
        expect(totals).to_contain_text("230", timeout=IN_STEP_MS)
        # Which deal, who, and each side's deal total that changed (a true minus, commas).
        said = "Ann corrected deal 1: Cat & Dan +130 → +230."
        news = watcher.get_by_role("status").filter(has_text=said)
        expect(news).to_be_visible()
        watcher.screenshot(path=os.path.join(ARTIFACTS, f"{scorer.device}-live-watcher.png"))
        assert deals_saved(app, game) == 1
    finally:
        watcher.context.close()
    assert watcher.outside == []


def test_a_deal_entered_with_no_signal_arrives_once(phone, app):
    page = phone
    game = game_opened_with_signal(page)

    no_signal(page.context)
    page.reload()  # the scoreboard opens from the phone
    note = page.get_by_text("No signal.")
    expect(note).to_be_visible()
    page.get_by_role("link", name="Enter deal 1").tap()
    expect(page.get_by_role("heading", name="Enter deal 1")).to_be_visible()
    enter_deal(page, ("480", "130"))
    page.get_by_role("button", name="Save deal 1").tap()

    waiting = page.locator("[data-outbox]")
    expect(waiting).to_contain_text("Deal 1, entered at")
    expect(waiting).to_contain_text("waiting to send")
    # The deal waiting counts (issue 25): its row, marked so, with provisional totals, the next
    # opening minimum, who deals next and the next deal's number, all worked out on the phone.
    row = page.locator(".deal.waiting")
    expect(row).to_contain_text("Deal 1 · waiting to send")
    expect(row).to_contain_text("Ann & Bob +3,680 → 3,680")
    expect(row).to_contain_text("Cat & Dan +130 → 130")
    totals = page.locator("#totals")
    expect(totals).to_contain_text("provisional")
    expect(totals.locator(".total").first).to_have_text("Total 3,680")
    expect(totals.locator(".minimum").first).to_have_text("needs 90 to open")
    expect(page.locator("p.dealer")).to_have_text("Deal 2: Cat deals")
    expect(page.get_by_role("link", name="Enter deal 2")).to_be_visible()
    page.screenshot(
        path=os.path.join(ARTIFACTS, f"{page.device}-waiting-to-send.png"), full_page=True
    )
    check_axe(page)
    assert deals_saved(app, game) == 0

    # A second deal entered on the kept form is deal 2, with its own key, and the phone scores it
    # on top of the first: deal 2's minimum is 90.
    page.get_by_role("link", name="Enter deal 2").tap()
    expect(page.locator("#breakdown")).to_be_attached()
    expect(page.get_by_role("heading", name="Enter deal 2")).to_be_visible()
    enter_deal(page, ("300", "300"), went_out=1)
    expect(page.locator("#breakdown")).to_contain_text("(needed 90 to open)")
    page.get_by_role("button", name="Save deal 2").tap()
    expect(waiting).to_contain_text("Deal 2, entered at")
    expect(page.locator(".deal.waiting")).to_have_count(2)
    expect(page.locator("p.dealer")).to_have_text("Deal 3: Bob deals")

    # With signal back, the page's next live poll gets through and sends what waits.
    signal_back(page.context)
    expect(waiting).to_be_hidden(timeout=10_000)
    expect(note).to_be_hidden()
    # 3,680 + 300 and 130 + 3,500 (Cat & Dan's books, going out and melded).
    expect(page.locator("#totals")).to_contain_text("3,980", timeout=IN_STEP_MS)
    expect(page.locator("#totals")).to_contain_text("3,630")
    # The server's figures in place of the phone's: nothing waits, nothing is provisional, and
    # they agreed, so nothing is said about a difference.
    expect(page.locator(".deal.waiting")).to_have_count(0)
    expect(page.locator("#totals")).not_to_contain_text("provisional")
    expect(page.get_by_text("differ from this phone's")).to_have_count(0)
    assert deals_saved(app, game) == 2

    # Sending again (another reload, another flush) records nothing more.
    page.reload()
    page.evaluate("navigator.serviceWorker.controller.postMessage({type: 'flush'})")
    expect(page.get_by_role("link", name="Enter deal 3")).to_be_visible()
    assert deals_saved(app, game) == 2


def test_a_deal_saved_meanwhile_is_shown_to_resolve(phone, browser, app):
    page = phone
    game = game_opened_with_signal(page)

    no_signal(page.context)
    page.get_by_role("link", name="Enter deal 1").tap()
    enter_deal(page, ("480", "130"))
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("[data-outbox]")).to_contain_text("waiting to send")

    # Meanwhile another phone, with signal, enters deal 1.
    other = second_phone(browser, page)
    try:
        other.goto(f"{page.base}{game}/deals/new")
        enter_deal(other, ("300", "300"), went_out=1)
        other.get_by_role("button", name="Save deal 1").tap()
        expect(other.get_by_text("Deal 1 saved.")).to_be_visible()
    finally:
        other.context.close()

    signal_back(page.context)
    waiting = page.locator("[data-outbox]")
    expect(waiting).to_contain_text("Another phone saved this deal meanwhile", timeout=10_000)
    assert deals_saved(app, game) == 1  # kept, not sent over the other, not dropped

    # Opened, the kept figures go back as they were entered, as deal 1: the answer shows the
    # deal saved meanwhile beside them, and the person decides.
    waiting.get_by_role("link", name="Open it").tap()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Deal 1 was saved on another phone meanwhile")
    expect(alert).to_contain_text("Cat & Dan +3,500")
    expect(page.locator("#s0-melded_points")).to_have_value("480")
    expect(page.locator("#s0-books-wild")).to_have_value("1")
    assert deals_saved(app, game) == 1
    page.screenshot(path=os.path.join(ARTIFACTS, f"{page.device}-saved-meanwhile.png"))
    check_axe(page)
    page.get_by_role("button", name="Save deal 2").tap()
    expect(page.get_by_text("Deal 2 saved.")).to_be_visible()
    expect(page.locator("[data-outbox]")).to_be_hidden()
    assert deals_saved(app, game) == 2


def test_wifi_with_no_internet_is_no_signal(phone, app):
    """The phone says it is online, and every request fails: the page goes by the requests."""
    page = phone
    game = game_opened_with_signal(page)
    note = page.get_by_text("No signal.")
    expect(note).to_be_hidden()

    # Signal lost while the scoreboard is on screen: its next live poll fails, and it says so.
    no_signal(page.context)
    assert page.evaluate("navigator.onLine") is True
    expect(note).to_be_visible(timeout=IN_STEP_MS)

    page.get_by_role("link", name="Enter deal 1").tap()
    expect(page.get_by_role("heading", name="Enter deal 1")).to_be_visible()
    expect(note).to_be_visible()
    enter_deal(page, ("480", "130"))
    page.get_by_role("button", name="Save deal 1").tap()
    waiting = page.locator("[data-outbox]")
    expect(waiting).to_contain_text("Deal 1, entered at")
    expect(waiting).to_contain_text("waiting to send")
    expect(note).to_be_visible()
    assert page.evaluate("navigator.onLine") is True
    assert deals_saved(app, game) == 0

    # Requests get through again, and nothing tells the page: no 'online' event. Its next live
    # poll (a second away) is answered, the note goes, and the deal is sent then, not at the
    # next 5-second retry.
    online_events(page)
    signal_back(page.context)
    expect(note).to_be_hidden(timeout=IN_STEP_MS)
    expect(waiting).to_be_hidden(timeout=IN_STEP_MS)
    expect(page.locator("#totals")).to_contain_text("3,680", timeout=IN_STEP_MS)
    assert page.evaluate("onlineEvents") == 0
    assert deals_saved(app, game) == 1

    page.reload()
    page.evaluate("navigator.serviceWorker.controller.postMessage({type: 'flush'})")
    expect(page.get_by_role("link", name="Enter deal 2")).to_be_visible()
    assert deals_saved(app, game) == 1


def test_a_page_shown_from_the_phone_says_no_signal_at_once(phone):
    """Requests that hang, neither failing nor answered: only the worker knows, and says so."""
    page = phone
    game = game_opened_with_signal(page)
    held = []

    def hold(route) -> None:
        held.append(route)

    page.context.route("**/*", hold)
    try:
        # After the worker's 4 seconds of patience, the phone's copy. The page's own live poll
        # hangs too, so the note can only come from the worker marking what it served.
        page.goto(f"{page.base}{game}", timeout=15_000)
        note = page.get_by_text("No signal.")
        expect(note).to_be_visible()
        expect(page.get_by_role("link", name="Enter deal 1")).to_be_visible()
    finally:
        # The signal picks up: what hung goes through (unrouting may already have let it go).
        page.context.unroute("**/*", hold)
        for route in held:
            try:
                route.continue_()
            except PlaywrightError:
                pass

    # The hung poll, or the next, gets an answer: the note goes by itself.
    expect(note).to_be_hidden(timeout=IN_STEP_MS + 1000)


def test_kept_pages_open_with_no_signal(phone, app):
    page = phone
    # The worker keeps the game's rule card and deal form without anyone opening them.
    game = game_opened_with_signal(page)

    no_signal(page.context)
    page.goto(f"{page.base}{game}/rules")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Classic")
    page.goto(f"{page.base}/rules")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.goto(f"{page.base}/clubs/new")  # never opened here
    expect(page.get_by_role("heading", name="No signal")).to_be_visible()
    # The kept game is named by its scoreboard's title (its address is only its secret).
    name = f"Game {game_id(app, game)}: Ann & Bob v Cat & Dan"
    expect(page.get_by_role("link", name=name, exact=True)).to_have_attribute("href", game)


@pytest.fixture(autouse=True)
def _artifacts():
    os.makedirs(ARTIFACTS, exist_ok=True)
