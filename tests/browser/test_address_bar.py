"""The address bar shows the game on the screen (issue 40), so a link copied from it is right.

Starting a game and Play again are posts the server answers with a redirect to the new game's
link (Post/Redirect/Get), and a browser then shows that link. But a phone may be given the new
game's page as the answer to the post itself, when something between it and the server follows
the redirect on its behalf: the issue's own throttled link did (Playwright's `route.fetch()`
follows redirects, and the post is fulfilled with the page it ends at), and so may a proxy. The
page then sat at the post's address: the new-game form's, or the finished game's
`/play-again`. Each case is tried both ways: `direct`, and `followed` for the phone's link.
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game

from .conftest import open_phone
from .test_next_game import finished_game

# The worker's requests go through the route too (their redirects followed the same way).
os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")
WAYS = ["direct", "followed"]


def follow_redirects_for_the_phone(route) -> None:
    """What the issue's link did: the server's answer, its redirects followed, as the answer."""
    route.fulfill(response=route.fetch())


@pytest.fixture(params=WAYS)
def phone_on_a_link(request, browser, live_server):
    page = open_phone(browser, "small-375x667", live_server)
    if request.param == "followed":
        page.context.route("**/*", follow_redirects_for_the_phone)
    yield page
    # A poll still on its way as the phone is put away is let go.
    page.context.unroute_all(behavior="ignoreErrors")
    page.context.close()
    assert page.outside == [], page.outside


def newest_game(app) -> Game:
    with app.app_context():
        return db.session.execute(select(Game).order_by(Game.id.desc()).limit(1)).scalar_one()


def test_after_start_the_game_the_address_is_the_new_games(phone_on_a_link, app):
    page = phone_on_a_link
    page.goto(f"{page.base}/games/new?ruleset=classic")
    page.fill("#side0_players", "Ann, Bob")
    page.fill("#side1_players", "Cat, Dan")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("Game started: Ann & Bob v Cat & Dan.")).to_be_visible()
    link = f"{page.base}/t/{newest_game(app).secret}"
    expect(page).to_have_url(link)
    # Loaded again from the address bar: the same game, not the form posted once more.
    page.reload()
    expect(page).to_have_url(link)
    expect(page.locator("#totals")).to_be_visible()
    assert newest_game(app).secret == link.rsplit("/", 1)[1]


def test_after_play_again_the_address_is_the_new_games(phone_on_a_link, app):
    page = phone_on_a_link
    finished = finished_game(app)
    page.goto(f"{page.base}{finished}")
    page.get_by_role("button", name="Play again").click()
    expect(page.get_by_text("New game started: Ann v Cat.")).to_be_visible()
    again = newest_game(app)
    assert f"/t/{again.secret}" != finished
    expect(page).to_have_url(f"{page.base}/t/{again.secret}")
