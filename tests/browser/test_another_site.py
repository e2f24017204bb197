"""Issue 26: another site's page cannot lock this phone's address out of its games. Real Chromium.

A page on another origin (http://localhost:<port>, cross-site to the app on 127.0.0.1) holds
21 `<img>` of made-up `/t/<secret>/invite.svg` links: one more than an address may miss in ten
minutes. Chromium sends them from the visitor's address, marked as another site's images
(Sec-Fetch-Site cross-site, Dest image), so the app looks none up and counts none; the game's
right link, tapped on that same page, opens the game.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from conftest import serving
from sqlalchemy import func, select
from werkzeug.wrappers import Response

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import LinkMiss
from scorekeeper.services import links

from .conftest import phone_context

IMAGES = links.MISSES_ALLOWED + 1


@pytest.fixture
def another_site() -> Iterator[tuple[str, dict[str, str]]]:
    """A server of its own, opened as http://localhost:<port>: another site to Chromium (the
    app is 127.0.0.1), and on this machine, so Chromium lets its page ask the app for pictures.
    Its one page is whatever the test puts in the dict's "page"."""
    shown = {"page": ""}

    def page(environ, reply):
        return Response(shown["page"], mimetype="text/html")(environ, reply)

    with serving(page, threaded=False) as server:
        yield f"http://localhost:{server.server_port}/a-page-about-cards.html", shown


def _misses(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(LinkMiss)).scalar_one()


def test_another_sites_images_do_not_lock_out_the_right_link(
    browser, live_server, app, another_site
):
    made = app.test_client().post(
        "/api/v1/games", json={"ruleset": "classic", "sides": [{"name": "Ann"}, {"name": "Cat"}]}
    )
    assert made.status_code == 201
    right = live_server + made.get_json()["url"]
    elsewhere, shown = another_site
    images = "".join(
        f'<img alt="" src="{live_server}/t/{secrets.token_urlsafe(16)}/invite.svg">'
        for _ in range(IMAGES)
    )
    shown["page"] = f'<!doctype html><title>Cards</title>{images}<a href="{right}">Our game</a>'

    context = phone_context(browser, "small-375x667")
    page = context.new_page()
    sent: list[dict[str, str]] = []
    page.on(
        "request",
        lambda request: sent.append(request.headers) if "/invite.svg" in request.url else None,
    )
    # The app's answers never reach the other site's page: Cross-Origin-Resource-Policy.
    blocked: list[str] = []
    page.on(
        "requestfailed",
        lambda request: (
            blocked.append(request.failure or "") if "/invite.svg" in request.url else None
        ),
    )
    try:
        page.goto(elsewhere, wait_until="load")  # every <img> asked for and answered
        assert len(sent) == IMAGES
        # Tapping the shared link on that page opens the game from the same address.
        with page.expect_navigation() as opened:
            page.get_by_role("link", name="Our game").click()
        assert opened.value is not None and opened.value.status == 200
        assert page.url == right
        assert "Ann" in page.content() and "Cat" in page.content()
        assert _misses(app) == 0
        # Each picture was answered, and its answer kept from the other site's page.
        assert blocked == ["net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin"] * IMAGES
    finally:
        context.close()
