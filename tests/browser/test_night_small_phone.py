"""A club night's pages on the smallest phone still sold (issue 37): the night's page, its
board, the read-only link's board and results, the movement cards, the club's nights and a night
table's game, each at 320x568 in the light and at night: axe finds nothing (colour contrast
included) and nothing slides sideways off the screen."""

from __future__ import annotations

import pytest

from . import test_every_page as every
from .conftest import check_axe, open_phone

NIGHT_PAGES = [
    "club-nights",
    "club-night-round-1",
    "club-night-finished",
    "club-night-board",
    "club-night-cards",
    "night-link-board",
    "night-link-results",
    "night-game",
]
SIDEWAYS = "document.documentElement.scrollWidth - window.innerWidth"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", NIGHT_PAGES)
def test_a_nights_pages_on_a_320_px_phone(browser, live_server, app, name, scheme):
    page = open_phone(browser, "tiny-320x568", live_server, color_scheme=scheme)
    try:
        world = every.seed(app)
        visit = every.PAGES[name]
        if visit in every.NEEDS_APP:
            visit(page, world, app)
        else:
            visit(page, world)
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (
            scheme == "dark"
        )
        assert page.evaluate(SIDEWAYS) <= 0, f"{name} slides sideways at 320 px"
        page.evaluate(every.OPEN_ALL)
        check_axe(page)
    finally:
        page.context.close()
    assert page.outside == [], f"requests to other hosts: {page.outside}"
