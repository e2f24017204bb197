"""A member's rating on the organiser's phones, 375x667 and 320x568 (issue 30): the figure now,
the chart drawn within the screen, its table opened a tap away and scrolled in its own box (the
page never sideways), axe clean with the table open; a member not yet rated says so.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from scorekeeper.plumbing.db import db
from scorekeeper.services import clubs, demo
from scorekeeper.services.ratings import kept

from .conftest import check_axe

SLUG = "demo"
FITS = "document.documentElement.scrollWidth <= window.innerWidth"


def rated(app) -> tuple[int, int, int]:
    """The demo club with thirty games: its member with most games, how many, and a member
    added since, who has played none."""
    with app.app_context():
        club = demo.fill_demo(SLUG, games=30)
        ratings = kept.ratings_of(club)
        most = max(ratings, key=lambda m: ratings[m].games)
        found = (most, ratings[most].games, clubs.add_member(club, "Newcomer").id)
        db.session.commit()
        db.session.remove()
        return found


def test_a_members_rating_chart_and_table_on_a_phone(organiser_phone, app):
    member, games, newcomer = rated(app)
    page = organiser_phone
    page.goto(page.base + f"/clubs/{SLUG}/members/{member}?season=all")
    expect(page.locator(".rating-now")).to_contain_text(f"after {games} games")
    chart = page.locator('svg[aria-labelledby="rating-title"]')
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"], box
    page.get_by_text("The rating as a table").click()
    rows = page.locator("table.rating-table tbody tr")
    expect(rows).to_have_count(games)
    expect(rows.last.get_by_role("link")).to_have_attribute(
        "aria-label", re.compile(f"^Game {games}, ")
    )
    assert page.evaluate(FITS)
    check_axe(page)

    page.goto(page.base + f"/clubs/{SLUG}/members/{newcomer}?season=all")
    expect(page.locator("#rating")).to_contain_text("Newcomer is not yet rated")
    assert page.evaluate(FITS)
    check_axe(page)
