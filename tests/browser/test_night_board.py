"""A club night of twelve on three tables (issue 29): each table's deals entered from its own
phone, the night board on a fourth phone showing each saved deal within 2 s and the next
round's seating when the last table finishes; the night's standings a hand count of the deals;
axe clean; every word of the board at least 32 px on a 1920x1080 screen."""

from __future__ import annotations

import os
import re

from playwright.sync_api import expect
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealScore, Night, Player, Side
from scorekeeper.services import accounts, clubs
from scorekeeper.services.nights import play as night_play

from .conftest import ARTIFACTS, check_axe, open_phone

SLUG = "tuesday"
TWELVE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
IN_STEP_MS = 2000
# Every element with text of its own on the board, and the size of that text (px).
TEXT_SIZES = """() => [...document.querySelectorAll("body *")]
  .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden")
  .filter(e => !e.closest(".visually-hidden, .skip"))
  .map(e => [e.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(e).fontSize)])"""


def tonight(app) -> tuple[int, str, list[tuple[str, list[str]]]]:
    """Twelve members' night opened and round 1 seated: its id, the table code, and each
    table's game (link, its sides' names)."""
    with app.app_context():
        olga = accounts.register("olga", "table-for-four")
        club = clubs.create_club("Tuesday Club", SLUG, olga)
        ids = [clubs.add_member(club, name).id for name in TWELVE]
        night = night_play.open_night(club, ids, "", "classic", 2, "rotating", "no game")
        night_play.seat_round(night)
        tables = [
            (f"/t/{t.game.secret}", [s.name for s in t.game.sides])
            for t in db.session.get(Night, night.id).rounds[0].tables
        ]
        return night.id, club.table_code, tables


def keep_table_link(page, code: str) -> None:
    page.goto(f"{page.base}/clubs/{SLUG}/table/{code}")
    page.get_by_role("button", name="Keep the table link on this phone").first.click()


def enter_deal(page, link: str, number: int, went_out: str) -> None:
    """The side going out has 2 clean, 2 dirty and 1 wild book; 480 and 130 melded."""
    page.goto(f"{page.base}{link}/deals/new")
    for kind, count in (("clean", "2"), ("dirty", "2"), ("wild", "1")):
        page.fill(f"#s0-books-{kind}", count)
    page.fill("#s0-melded_points", "480")
    page.fill("#s1-melded_points", "130")
    page.get_by_label(went_out, exact=True).check()
    page.get_by_role("button", name=f"Save deal {number}").click()
    expect(page.get_by_text(f"Deal {number} saved.")).to_be_visible()


def hand_count(app) -> dict[str, int]:
    """Each player's points: their side's total of every deal saved, added up here."""
    with app.app_context():
        rows = db.session.execute(
            select(Player.name, DealScore.total)
            .join(Side, Side.id == Player.side_id)
            .join(DealScore, DealScore.side_id == Side.id)
            .join(Deal, Deal.id == DealScore.deal_id)
        ).all()
    counted = dict.fromkeys(TWELVE, 0)
    for name, total in rows:
        counted[name] += total
    return counted


def test_a_night_of_three_tables_on_the_board(browser, live_server, app):
    night_id, code, tables = tonight(app)
    board_url = f"{live_server}/clubs/{SLUG}/nights/{night_id}/board"
    phones = [open_phone(browser, "small-375x667", live_server) for _ in range(4)]
    *at_tables, watcher = phones
    try:
        for page in phones:
            keep_table_link(page, code)
        watcher.goto(board_url)
        boards = watcher.locator(".board-table")
        expect(boards).to_have_count(3)
        expect(watcher.get_by_text("Round 2: the next seating")).to_have_count(0)
        for number in range(1, 5):
            for table, (page, (link, sides)) in enumerate(zip(at_tables, tables, strict=True)):
                enter_deal(page, link, number, sides[0])
                heading = f"Table {table + 1} · " + (
                    "finished" if number == 4 else f"deal {number} saved"
                )
                expect(boards.nth(table).locator("h3")).to_have_text(heading, timeout=IN_STEP_MS)
        next_round = watcher.get_by_role("heading", name="Round 2: the next seating")
        expect(next_round).to_be_visible(timeout=IN_STEP_MS)
        seating = watcher.locator(".board-seating li").all_inner_texts()
        assert len(seating) == 3
        seated = [n for line in seating for n in re.findall(r"\b([A-Z]\w+)\b", line.split("·")[1])]
        assert sorted(seated) == TWELVE

        # The standings: each player's points, a hand count of the deals saved; the average,
        # which ranks them, beside the name.
        head = watcher.locator(".board-standings thead th").all_inner_texts()
        assert head[:3] == ["#", "Player", "Avg."], head
        points = head.index("Points") - 1  # among the row's cells: its name is a th
        rows = watcher.locator(".board-standings tbody tr").all()
        shown = {
            row.locator("th").inner_text(): int(
                row.locator("td").nth(points).inner_text().replace(",", "")
            )
            for row in rows
        }
        assert shown == hand_count(app)
        assert watcher.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        check_axe(watcher)

        # Across the hall: a 1080p screen, every word at least 32 px.
        watcher.set_viewport_size({"width": 1920, "height": 1080})
        sizes = watcher.evaluate(TEXT_SIZES)
        small = [(text, size) for text, size in sizes if size < 32]
        assert sizes and not small, small
        check_axe(watcher)
        watcher.screenshot(path=os.path.join(ARTIFACTS, "night-board-1080p.png"))
    finally:
        for page in phones:
            page.context.close()
    assert all(page.outside == [] for page in phones)


# Every field and button of a page: its text size (px) and height (px).
FIELD_SIZES = """() => [...document.querySelectorAll("main :is(input, select, textarea, button)")]
  .filter(e => e.getClientRects().length && e.type !== "checkbox" && e.type !== "radio")
  .map(e => [e.name || e.textContent.trim(), parseFloat(getComputedStyle(e).fontSize),
             e.getBoundingClientRect().height])"""


def test_the_organiser_opens_a_night_and_seats_round_one(organiser_phone, app):
    page = organiser_phone
    with app.app_context():
        olga = accounts.register("olga", "table-for-four")
        club = clubs.create_club("Tuesday Club", SLUG, olga)
        for name in TWELVE[:9]:
            clubs.add_member(club, name)
    page.goto(page.base + "/login")
    page.fill("#username", "olga")
    page.fill("#password", "table-for-four")
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{page.base}/clubs/{SLUG}/members")
    page.get_by_role("navigation", name="Tuesday Club").get_by_role("link", name="Nights").click()
    page.get_by_role("link", name="Open a night").click()
    for name in TWELVE[:9]:
        page.get_by_label(name, exact=True).check()
    page.get_by_label("Guests").fill("Zoe, Max, Sue")
    page.get_by_label("Rounds", exact=True).fill("2")
    page.get_by_label("A round sat out counts as a game of 0 points").check()
    check_axe(page)
    small = [f for f in page.evaluate(FIELD_SIZES) if f[1] < 16 or f[2] < 44]
    assert not small, small
    page.get_by_role("button", name="Open the night").click()
    expect(page.get_by_text("Tonight's night is open: 12 players. Seat round 1.")).to_be_visible()
    page.get_by_role("button", name="Seat round 1").click()
    expect(page.get_by_text("Round 1 seated: 3 tables' games started.")).to_be_visible()
    cards = page.locator(".night-card-title").all_inner_texts()
    assert len(cards) == 3
    for n, card in enumerate(cards, 1):
        assert re.fullmatch(rf"Table {n} · \w+ & \w+ v \w+ & \w+ · scan to score", card), card
    expect(page.locator("img.night-qr").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    small = [f for f in page.evaluate(FIELD_SIZES) if f[1] < 16 or f[2] < 44]
    assert not small, small
    check_axe(page)
