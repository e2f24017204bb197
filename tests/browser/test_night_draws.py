"""A club night's seating drawn again on the organiser's phone (issue 29): the next round's
seating drawn again before it is seated, then round 1 seated and drawn again before any table
saves a deal; no sideways scroll, fields and buttons a thumb can use, axe clean."""

from __future__ import annotations

from playwright.sync_api import expect

from scorekeeper.services import accounts, clubs
from scorekeeper.services.nights import play as night_play

from .conftest import check_axe
from .test_night_board import FIELD_SIZES, SLUG, TWELVE


def ten_tonight(app) -> int:
    """Ten members' night opened (no whist schedule for 10: seated round by round): its id."""
    with app.app_context():
        olga = accounts.register("olga", "table-for-four")
        club = clubs.create_club("Tuesday Club", SLUG, olga)
        ids = [clubs.add_member(club, name).id for name in TWELVE[:10]]
        return night_play.open_night(club, ids, "", "classic", 2, "rotating", "no game").id


def fits_a_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    small = [f for f in page.evaluate(FIELD_SIZES) if f[1] < 16 or f[2] < 44]
    assert not small, small
    check_axe(page)


def test_the_organiser_draws_the_seating_again_before_and_after_seating(organiser_phone, app):
    page = organiser_phone
    night_id = ten_tonight(app)
    page.goto(page.base + "/login")
    page.fill("#username", "olga")
    page.fill("#password", "table-for-four")
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{page.base}/clubs/{SLUG}/nights/{night_id}")

    seating = page.locator("#next-round ~ ol li")
    shown = seating.all_inner_texts()
    assert len(shown) == 2
    fits_a_phone(page)
    page.get_by_role("button", name="Draw again").click()
    drawn = "Round 1 drawn again: check the new seating, then seat it."
    expect(page.get_by_text(drawn)).to_be_visible()
    assert seating.all_inner_texts() != shown

    page.get_by_role("button", name="Seat round 1").click()
    expect(page.get_by_text("Round 1 seated: 2 tables' games started.")).to_be_visible()
    cards = page.locator(".night-card-title").all_inner_texts()
    assert len(cards) == 2
    fits_a_phone(page)
    page.get_by_role("button", name="Draw round 1 again").click()
    expect(page.get_by_text("Round 1 drawn again: 2 tables' games started anew.")).to_be_visible()
    again = page.locator(".night-card-title").all_inner_texts()
    assert len(again) == 2 and again != cards
    fits_a_phone(page)
