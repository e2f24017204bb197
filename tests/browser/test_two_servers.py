"""Two app processes on one database, as on two hosts behind one proxy (docs/DEPLOY.md).

Two gunicorn servers, each started as the deployment guide starts one (this folder's
gunicorn.conf.py, SCOREKEEPER_ENV=production, one SECRET_KEY shared by both), on two ports
against ONE database: the PostgreSQL test database under scripts/with-postgres, else one SQLite
file. A phone at the table opens the game on server A, another on server B; a deal entered on
either appears on the other within 2 seconds, and so does a correction. Nothing links the two
processes but the database.

Timing is taken the way a table works: the watching phone sees the other phone entering (its
deal form open, "Ann is entering deal 1") before the deal is saved, or has just loaded its page.
Either way it is polling at its quickest then, whatever its schedule when nobody is entering.
"""

from __future__ import annotations

import os
import secrets

import pytest
from playwright.sync_api import expect
from reliability._server import Gunicorn
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, Game, Side

from .conftest import ARTIFACTS, game_link, open_phone, start_game
from .test_live import enter_deal

# Within 2 seconds of the save, the phone on the other server shows it (the promise).
IN_STEP_MS = 2000
# Seeing that someone has opened a deal form may wait for the watching phone's slower polling
# (every 5 s when nobody is entering) and the entering phone's first word: longer than a save.
SEES_ENTERING_MS = 12_000


@pytest.fixture
def servers(app, tmp_path):
    """Servers A and B: gunicorn -w 2 with gunicorn.conf.py, one database, one SECRET_KEY.

    In production the session cookie is Secure; Chromium keeps it from http://127.0.0.1 all
    the same (a loopback address counts as secure), so the forms' CSRF token works here.
    """
    secret_key = secrets.token_hex(32)
    started: list[Gunicorn] = []
    try:
        for name in ("a", "b"):
            folder = tmp_path / name
            folder.mkdir()
            server = Gunicorn(folder, workers=2)
            server.env.update(
                DATABASE_URL=app.config["SQLALCHEMY_DATABASE_URI"],
                SECRET_KEY=secret_key,
                SCOREKEEPER_ENV="production",
            )
            for setting in ("SCOREKEEPER_PROXIES", "SCOREKEEPER_PROXY_FROM", "SCOREKEEPER_URL"):
                server.env.pop(setting, None)
            started.append(server)
            server.start()  # from the repository folder: gunicorn reads gunicorn.conf.py
        yield [f"http://127.0.0.1:{server.port}" for server in started]
    finally:
        for server in started:
            server.stop()


def saved_deals(app, link: str) -> list[tuple[int, int]]:
    """The game's deals as the database holds them: (number, version) each."""
    with app.app_context():
        query = (
            select(Deal.number, Deal.version)
            .join(Game, Game.id == Deal.game_id)
            .where(Game.secret == link.removeprefix("/t/"))
            .order_by(Deal.number)
        )
        rows = [tuple(row) for row in db.session.execute(query)]
        db.session.remove()
    return rows


def stored_totals(app, link: str) -> list[int]:
    """Each side's running total as stored, in seat order."""
    with app.app_context():
        query = (
            select(Side.final_total)
            .join(Game, Game.id == Side.game_id)
            .where(Game.secret == link.removeprefix("/t/"))
            .order_by(Side.position)
        )
        totals = list(db.session.execute(query).scalars())
        db.session.remove()
    return totals


def say_who(page, name: str) -> None:
    """On a deal form: the name the other phones see this one as."""
    page.get_by_text("Other phones see you as").click()
    page.get_by_label("Your name, shown to the table").fill(name)
    page.get_by_label("Your name, shown to the table").press("Enter")


def test_a_deal_entered_on_one_server_shows_on_a_phone_served_by_the_other(browser, app, servers):
    server_a, server_b = servers
    ann = open_phone(browser, "pixel-7", server_a)  # served by A only
    cat = open_phone(browser, "small-375x667", server_b)  # served by B only
    try:
        start_game(ann)
        expect(ann.get_by_text("No deal entered yet.")).to_be_visible()
        game = game_link(ann)

        # One SECRET_KEY: the session A signed (this phone's games) reads the same on B.
        # Cookies go by host, not port, so the phone's cookie from A is sent to B.
        home_on_b = open_phone(browser, "pixel-7", server_b)
        try:
            home_on_b.context.add_cookies(ann.context.cookies())
            home_on_b.goto(server_b + "/")
            expect(home_on_b.locator(f'a[href="{game}"]')).to_be_visible()
        finally:
            home_on_b.context.close()

        cat.goto(server_b + game)
        totals_on_b = cat.locator("#totals")
        expect(cat.get_by_text("No deal entered yet.")).to_be_visible()

        # A to B: Ann opens deal 1 on A; Cat's phone on B sees her entering, then her deal.
        ann.goto(f"{server_a}{game}/deals/new")
        say_who(ann, "Ann")
        expect(cat.get_by_text("Ann is entering deal 1.")).to_be_visible(timeout=SEES_ENTERING_MS)
        enter_deal(ann, ("480", "130"))
        # Saved as a person saves: once the deal's breakdown shows the total (the breakdown
        # arriving moves what is below it, the Save button among it, as a tap could meet).
        expect(ann.get_by_role("region", name="This deal")).to_contain_text("+3,680")
        ann.get_by_role("button", name="Save deal 1").tap()
        expect(ann.get_by_text("Deal 1 saved.")).to_be_visible()
        # Books 3,000 + going out 200 + 480 melded = 3,680; Cat & Dan 130.
        expect(totals_on_b).to_contain_text("3,680", timeout=IN_STEP_MS)
        expect(totals_on_b).to_contain_text("130")
        expect(cat.get_by_role("link", name="Enter deal 2")).to_be_visible()
        assert saved_deals(app, game) == [(1, 1)]

        # B to A: Ann's phone is back on A's scoreboard; Cat enters deal 2 on B.
        totals_on_a = ann.locator("#totals")
        cat.goto(f"{server_b}{game}/deals/new")
        say_who(cat, "Cat")
        expect(ann.get_by_text("Cat is entering deal 2.")).to_be_visible(timeout=SEES_ENTERING_MS)
        enter_deal(cat, ("300", "300"), went_out=1)
        expect(cat.get_by_role("region", name="This deal")).to_contain_text("+3,500")
        cat.get_by_role("button", name="Save deal 2").tap()
        expect(cat.get_by_text("Deal 2 saved.")).to_be_visible()
        # 3,680 + 300 and 130 + 3,500 (Cat & Dan's books, going out and melded).
        expect(totals_on_a).to_contain_text("3,980", timeout=IN_STEP_MS)
        expect(totals_on_a).to_contain_text("3,630")
        expect(ann.get_by_role("link", name="Enter deal 3")).to_be_visible()
        assert saved_deals(app, game) == [(1, 1), (2, 1)]

        # A correction on B (Cat & Dan melded 230 in deal 1, not 130), watched from a freshly
        # loaded scoreboard on A: it moves every later total.
        ann.reload()
        expect(totals_on_a).to_contain_text("3,630")
        cat.goto(f"{server_b}{game}/deals/1/edit")
        cat.fill("#s1-melded_points", "230")
        cat.get_by_role("button", name="Save correction").tap()
        expect(cat.get_by_text("Deal 1 corrected")).to_be_visible()
        expect(totals_on_a).to_contain_text("3,730", timeout=IN_STEP_MS)
        expect(totals_on_a).to_contain_text("3,980")
        # Who corrected which deal, and the deal total it changed (issue 25's news).
        said = "Cat corrected deal 1: Cat & Dan +130 → +230."
        news = ann.get_by_role("status").filter(has_text=said)
        expect(news).to_be_visible()
        ann.screenshot(path=os.path.join(ARTIFACTS, "two-servers-a.png"))

        # And the other way: Ann corrects deal 2 on A, Cat's fresh scoreboard on B shows it.
        cat.goto(server_b + game)
        expect(totals_on_b).to_contain_text("3,730")
        ann.goto(f"{server_a}{game}/deals/2/edit")
        ann.fill("#s0-melded_points", "350")
        ann.get_by_role("button", name="Save correction").tap()
        expect(ann.get_by_text("Deal 2 corrected")).to_be_visible()
        expect(totals_on_b).to_contain_text("4,030", timeout=IN_STEP_MS)
        expect(totals_on_b).to_contain_text("3,730")
        cat.screenshot(path=os.path.join(ARTIFACTS, "two-servers-b.png"))

        # The database holds exactly the deals entered, each corrected once, and their totals.
        assert saved_deals(app, game) == [(1, 2), (2, 2)]
        assert stored_totals(app, game) == [4030, 3730]
    finally:
        ann.context.close()
        cat.context.close()
    assert ann.outside == [], ann.outside
    assert cat.outside == [], cat.outside


@pytest.fixture(autouse=True)
def _artifacts():
    os.makedirs(ARTIFACTS, exist_ok=True)
