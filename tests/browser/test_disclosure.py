"""What opens on a tap looks tappable (issue 25): a chevron on every summary, turned when open.

Every <details> of the app's pages is found in the page itself, so a new one is checked too:
its summary draws the mark (app.css, `summary::before`, or after a deal row's last words: ▸
in the page's own font, no icon font, nothing fetched), pointing right while closed and down
(▾) once open. A scoreboard's deal
rows say what they open on: *Details · Correct*, or *Details* where the visitor may not
correct (a club's finished game seen without the club's table link).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.rules import DealEntry
from scorekeeper.services import clubs, demo, games
from scorekeeper.services.games import SideSetup
from scorekeeper.services.links import path_of

from .conftest import ARTIFACTS, check_axe
from .seeded import kept

SLUG = "demo"
# The marks as computed: pointing right while closed, down once open.
RIGHT, DOWN = '"\u25b8"', '"\u25be"'
OUT = {"clean": 2, "dirty": 2}
# Each summary's mark as drawn: closed and open.
MARKS = """() => Array.from(document.querySelectorAll("details > summary")).map(s => {
  const details = s.parentElement, was = details.open;
  // A deal row's mark follows its last words (Details · Correct); any other leads its summary.
  const more = s.querySelector(".deal-more");
  const look = () => {
    const m = more ? getComputedStyle(more, "::after") : getComputedStyle(s, "::before");
    return {content: m.content, width: m.getPropertyValue("width"), shown: m.display};
  };
  details.open = false;
  const closed = look();
  details.open = true;
  const open = look();
  details.open = was;
  return {text: s.textContent.trim().replace(/\\s+/g, " ").slice(0, 40), closed, open};
})"""


@dataclass
class World:
    finished: str  # a casual game, over: deal rows, the result as text, invite, the chart
    playing: str  # a casual game one deal in
    club_finished: str  # a club's finished game
    member: int


def won(melded: int) -> DealEntry:
    return DealEntry(books=OUT, went_out=True, melded_points=melded)


def caught(melded: int, leftover: int) -> DealEntry:
    return DealEntry(books={"clean": 1}, melded_points=melded, leftover_points=leftover)


@kept
def seed(app) -> World:
    with app.app_context():
        club = demo.fill_demo(SLUG, games=3)
        member = max(club.members, key=clubs.games_of_member).id
        club_finished = db.session.execute(
            db.select(Game).where(Game.club_id == club.id).order_by(Game.id)
        ).scalar()
        sides = [SideSetup(n, [n]) for n in ("Ann", "Bob", "Cat")]
        finished = games.record_game(
            "club",
            sides,
            [
                [won(400), caught(150, 60), caught(90, 100)],
                [caught(200, 20), won(350), caught(120, 45)],
                [won(420), caught(180, 35), caught(130, 80)],
                [caught(210, 15), caught(160, 70), won(380)],
            ],
        )
        playing = games.record_game("club", sides, [[won(400), caught(150, 60), caught(90, 100)]])
        return World(path_of(finished), path_of(playing), path_of(club_finished), member)


PAGES = {
    "scoreboard-finished": "{w.finished}",
    "deal-form": "{w.playing}/deals/new",
    "new-game": "/games/new?ruleset=classic",
    "club-scoreboard": "{w.club_finished}",
    "club-member": f"/clubs/{SLUG}/members/{{w.member}}",
    "club-standings": f"/clubs/{SLUG}/standings",
}
# What each page opens, at the least (a page may hold more).
OPENS = {
    "scoreboard-finished": {"Deal 1", "The result as text", "Invite the table", "Running totals"},
    "deal-form": {"Other phones see you as", "Count cards instead of points"},
    "new-game": {"House rules"},
    "club-scoreboard": {"Deal 1", "Invite the table"},
    "club-member": {"The figures as a table"},
    "club-standings": {"Which games"},
}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_summary_shows_a_mark_that_turns_when_open(phone, app, name):
    page = phone
    page.goto(page.base + PAGES[name].format(w=seed(app)))
    marks = page.evaluate(MARKS)
    for wanted in OPENS[name]:
        assert any(m["text"].startswith(wanted) for m in marks), (wanted, marks)
    for mark in marks:
        closed, open_ = mark["closed"], mark["open"]
        assert closed["content"] in (RIGHT, f'"\u00a0{RIGHT[1]}"'), mark
        assert open_["content"] == closed["content"].replace(RIGHT[1], DOWN[1]), mark
        assert closed["shown"] != "none", mark


def test_deal_rows_say_what_they_open_on(phone, app):
    page = phone
    world = seed(app)
    page.goto(page.base + world.finished)
    rows = page.locator("details.deal summary")
    expect(rows).to_have_count(4)
    expect(rows.locator(".deal-more")).to_have_text(["Details · Correct"] * 4)
    rows.first.tap()
    expect(page.get_by_role("link", name="Correct deal 1")).to_be_visible()
    page.screenshot(path=os.path.join(ARTIFACTS, f"{page.device}-deal-row-open.png"))
    check_axe(page)

    # A club's finished game, seen without the club's table link: read, not corrected.
    page.goto(page.base + world.club_finished)
    first = page.locator("details.deal summary").first
    expect(first.locator(".deal-more")).to_have_text("Details")
    first.tap()
    expect(page.locator("details.deal[open]")).to_have_count(1)
    expect(page.get_by_role("link", name="Correct deal 1")).to_have_count(0)
    check_axe(page)


def test_the_game_over_card_stands_apart_from_the_totals(phone, app):
    """Its words read with any side name (Winner: Ann, 5,595); a clear gap before the totals."""
    page = phone
    page.goto(page.base + seed(app).finished)
    expect(page.locator(".result p")).to_have_text(re.compile(r"^Winner: Ann, \d{1,3}(,\d{3})*$"))
    gap = page.evaluate(
        """() => document.querySelector("#totals .side").getBoundingClientRect().top -
                 document.querySelector(".result").getBoundingClientRect().bottom"""
    )
    assert gap >= 16, gap
