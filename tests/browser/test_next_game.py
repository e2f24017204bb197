"""Play again is one game for the table, in real Chromium: three phones on a finished game.

Two phones tap Play again at the same moment and land on one next game; the third, still on
the finished game's scoreboard well past its first seconds, is told within 2 seconds, with a
link to it.
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game

from ._live_waits import ANSWERS, quiet
from .conftest import check_axe, game_link, open_phone

IN_STEP_MS = 2000
PHONE = "small-375x667"
SINGLES = [{"name": "Ann", "players": ["Ann"]}, {"name": "Cat", "players": ["Cat"]}]
TAP = "document.querySelector('form[data-play-again] button').click()"


def finished_game(app) -> str:
    """A casual game of Ann v Cat played to its end (club rules: four deals); its link."""
    client = app.test_client()
    made = client.post("/api/v1/games", json={"ruleset": "club", "sides": SINGLES}).get_json()
    for _ in range(4):
        saved = client.post(
            f"/api/v1/games/{made['id']}/deals",
            json={"scores": [{"books": {"clean": 1}}, {}]},
            headers={"X-Game-Key": made["key"]},
        )
        assert saved.status_code == 201, saved.get_json()
    return made["url"]


def test_play_again_on_two_phones_at_once_is_one_game_and_the_third_is_told(
    browser, live_server, app
):
    link = finished_game(app)
    phones = {name: open_phone(browser, PHONE, live_server) for name in ("Ann", "Bob", "Cat")}
    try:
        for name, page in phones.items():
            # Each phone's name, as "Other phones see you as" keeps it; Cat's page is past its
            # first quick seconds sooner (hf.quickFor), so the finished game's own pace shows.
            page.context.add_init_script(
                f"localStorage.setItem('hf-name', '{name}'); window.hf = {{ quickFor: 1000 }};"
            )
            page.context.add_init_script(ANSWERS)
            page.goto(f"{live_server}{link}")
            expect(page.get_by_role("button", name="Play again")).to_be_visible()
        ann, bob, cat = phones.values()
        quiet(cat, 1000)

        ann.evaluate(TAP)
        bob.evaluate(TAP)
        tapped = time.monotonic()
        status = cat.locator("[data-live-status]")
        told = re.compile(r"(Ann|Bob) started the next game: Open it")
        expect(status).to_contain_text(told, timeout=IN_STEP_MS)
        assert time.monotonic() - tapped < IN_STEP_MS / 1000

        for page in (ann, bob):
            page.wait_for_url(lambda url: link not in url)
        assert game_link(ann) == game_link(bob)
        next_link = game_link(ann)
        starter = told.search(status.inner_text()).group(1)
        first, second = (ann, bob) if starter == "Ann" else (bob, ann)
        expect(first.get_by_text("New game started: Ann v Cat.")).to_be_visible()
        expect(second.get_by_text(f"Opening the next game {starter} started")).to_be_visible()
        with app.app_context():
            assert db.session.execute(select(func.count()).select_from(Game)).scalar_one() == 2

        # The scoreboard itself now shows the next game in place of Play again.
        expect(cat.locator("[data-next-game]")).to_contain_text(
            f"{starter} started the next game: Open it"
        )
        expect(cat.get_by_role("button", name="Play again")).to_have_count(0)
        check_axe(cat)
        status.get_by_role("link", name="Open it").click()
        cat.wait_for_url(f"{live_server}{next_link}")
    finally:
        for page in phones.values():
            page.context.close()
