"""A whole club night as one evening (issue 37), in real Chromium: thirteen members on three
tables for two rounds. The organiser opens the night and seats each round from her phone; each
table has one phone that never opened the club (it only scans its table's code); two TVs show
the night's read-only board link.

Every table scores its game from its own phone; each phone is told its next table within 2 s of
the next round being seated, and opens that table's next game from there; no phone can start a
game outside the night; both TVs show every player's standings within 15 s, never scrolling;
the board link gets 403 or 404 for every write it tries.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.services import accounts, clubs

from .conftest import open_phone
from .test_board_wall import EVERY_ROW_SEEN, SEEN_WITHIN_MS
from .test_night_organiser import PASSWORD, THIRTEEN

SLUG = "tuesday"
TABLES = 3
IN_STEP_S = 2.0
TVS = {"tv-1080p": {"width": 1920, "height": 1080}, "tv-720p": {"width": 1280, "height": 720}}


def tuesday_club(app) -> None:
    """Olga's club of thirteen, with a quick rule set of one deal a game (a night's games end
    fast), as its organiser has it before the evening."""
    with app.app_context():
        olga = accounts.register("olga", PASSWORD)
        club = clubs.create_club("Tuesday Club", SLUG, olga)
        for name in THIRTEEN:
            clubs.add_member(club, name)
        clubs.create_saved_rules(club, "One deal", "classic", {"end_after_deals": 1})


def sign_in(page) -> None:
    page.goto(page.base + "/login")
    page.fill("#username", "olga")
    page.fill("#password", PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def open_the_night(organiser) -> None:
    """From the club's page: Nights, Open a night, everyone, one-deal rules, two rounds."""
    organiser.goto(f"{organiser.base}/clubs/{SLUG}")
    nav = organiser.get_by_role("navigation", name="Tuesday Club")
    nav.get_by_role("link", name="Nights").click()
    organiser.get_by_role("link", name="Open a night").click()
    organiser.get_by_role("button", name="Everyone on the list").click()
    organiser.get_by_label("One deal", exact=True).check()
    organiser.get_by_label("Rounds", exact=True).fill("2")
    organiser.get_by_role("button", name="Open the night").click()
    expect(
        organiser.get_by_text(f"Tonight's night is open: {len(THIRTEEN)} players.")
    ).to_be_visible()


def seat(organiser, number: int) -> float:
    """Seat round `number` from the night's page; the moment it was seated (the server's answer
    to the tap, sent once the round and its games are committed)."""
    seat_post = re.compile(r"/nights/\d+/seat$")
    with organiser.expect_response(lambda r: bool(seat_post.search(r.url))):
        organiser.get_by_role("button", name=f"Seat round {number}").click()
    seated_at = time.monotonic()
    seated = f"Round {number} seated: {TABLES} tables' games started."
    expect(organiser.get_by_text(seated)).to_be_visible()
    return seated_at


def table_links(organiser, number: int) -> list[str]:
    """Each table's game link in round `number`, as its card on the night's page gives it (the
    card's code is that same link, drawn)."""
    cards = organiser.locator(f"#round-{number}-tables .night-card")
    expect(cards).to_have_count(TABLES)
    links = []
    for i in range(TABLES):
        link = cards.nth(i).get_by_role("link", name=re.compile(rf"^Table {i + 1}'s game"))
        links.append(link.get_attribute("href"))
        assert cards.nth(i).locator("img.night-qr").count() == 1
    return links


def score_the_table(phone, number: int, table: int) -> None:
    """This table's one deal, entered on its phone; the game over and the phone told so."""
    expect(phone.locator("[data-night-place]")).to_contain_text(f"Round {number} · Table {table}")
    phone.get_by_role("link", name="Enter deal 1").click()
    expect(phone.locator("[data-night-place]")).to_contain_text(f"Table {table}")
    phone.fill("#s0-books-clean", "1")
    phone.fill("#s0-melded_points", "480")
    phone.fill("#s1-melded_points", "130")
    phone.get_by_role("button", name="Save deal 1").click()
    expect(phone.get_by_text("Deal 1 saved.")).to_be_visible()
    expect(phone.get_by_role("heading", name="Game over")).to_be_visible()


def nothing_outside_the_night(phone) -> None:
    """No Play again, no start of another game, and the club's new-game page closed."""
    expect(phone.get_by_role("button", name="Play again")).to_have_count(0)
    expect(phone.get_by_role("link", name=re.compile("Start"))).to_have_count(0)
    answer = phone.request.get(f"{phone.base}/clubs/{SLUG}/games/new", max_redirects=0)
    assert answer.status == 404, answer.status


def writes_refused(tv, night_id: int) -> None:
    """Every write the board link's screen tries is refused (403 or 404): the browser tests'
    app checks no form token (tests/browser/conftest.py), so each is refused for who sent it."""
    night = f"{tv.base}/clubs/{SLUG}/nights/{night_id}"
    tries = [
        f"{night}/seat",
        f"{night}/draw",
        f"{night}/finish",
        f"{night}/players",
        f"{night}/board-link",
        f"{tv.base}/clubs/{SLUG}/nights/new",
        f"{tv.base}/clubs/{SLUG}/games/new",
        f"{night}/rounds/2/draw",
    ]
    for url in tries:
        answer = tv.request.post(url, form={"round": "3", "guest": "Zoe"}, max_redirects=0)
        assert answer.status in (403, 404), (url, answer.status)


def test_a_night_of_thirteen_from_phones_that_never_opened_the_club(browser, live_server, app):
    tuesday_club(app)
    organiser = open_phone(browser, "small-375x667", live_server)
    phones = [open_phone(browser, "small-375x667", live_server) for _ in range(TABLES)]
    tvs = {}
    try:
        sign_in(organiser)
        open_the_night(organiser)
        night_id = int(re.search(r"/nights/(\d+)", organiser.url).group(1))
        seat(organiser, 1)
        links = table_links(organiser, 1)
        board_link = organiser.locator("#board-link-url").input_value()
        assert "/n/" in board_link
        for name, viewport in TVS.items():
            context = browser.new_context(viewport=viewport)
            tvs[name] = context.new_page()
            tvs[name].base = live_server
            tvs[name].goto(board_link)
            expect(tvs[name].get_by_text("Round 1 is seated: go to your tables.")).to_be_visible()

        # Round 1: each table's phone scans its code (the game's link), and scores its game.
        for table, (phone, link) in enumerate(zip(phones, links, strict=True), 1):
            phone.goto(live_server + link)
            score_the_table(phone, 1, table)
            nothing_outside_the_night(phone)
        organiser.reload()
        seated_at = seat(organiser, 2)
        # Every phone is told where its players go, and its table's next game, within 2 s.
        for phone in phones:
            expect(phone.locator("[data-night-next]")).to_contain_text(
                "Round 2 is seated: go to your tables.", timeout=IN_STEP_S * 1000
            )
        told = time.monotonic() - seated_at
        assert told < IN_STEP_S, f"phones told of round 2 after {told:.2f} s"
        for phone in phones:
            expect(phone.locator("[data-night-next] li").first).to_contain_text(
                re.compile(r"^Round 2: Table \d, \w+ with \w+ against|sits out round 2")
            )

        # Round 2: each phone opens its table's next game from there, and scores it.
        second = table_links(organiser, 2)
        for table, phone in enumerate(phones, 1):
            phone.get_by_role("link", name=f"Table {table}'s round 2 game").click()
            expect(phone).to_have_url(live_server + second[table - 1])
            score_the_table(phone, 2, table)
        for phone in phones:
            expect(phone.locator("[data-night-next]")).to_contain_text("The night is over.")
            nothing_outside_the_night(phone)

        # Both TVs: every player's standings within 15 s, the page never taller than the screen.
        for name, tv in tvs.items():
            expect(
                tv.get_by_text(re.compile(r"^The night is over: every round played"))
            ).to_be_visible()
            tv.wait_for_function(EVERY_ROW_SEEN, arg=THIRTEEN, timeout=SEEN_WITHIN_MS)
            assert not tv.evaluate("window.boardScrolled || 0"), name
            expect(tv.locator("#board a[href*='/t/']")).to_have_count(0)
        writes_refused(tvs["tv-1080p"], night_id)
        # Nothing was changed by them: two rounds, the same thirteen, the night not ended.
        with app.app_context():
            night = db.session.get(Night, night_id)
            assert len(night.rounds) == 2 and night.finished_at is None
            assert sorted(p.name for p in night.players) == sorted(THIRTEEN)
            db.session.remove()
    finally:
        for page in [organiser, *phones, *tvs.values()]:
            page.context.close()
    for page in [organiser, *phones]:
        assert page.outside == [], page.outside
