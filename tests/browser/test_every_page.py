"""Every page on both phones: axe, labels, page weight, no sideways scroll; at night; at 200% text.

Each page is seeded with realistic data (a demo club, casual games before, during and after
play), loaded with the browser cache off, and checked:

- axe-core finds no violation (any rule, best practices included);
- every visible control (input, select, textarea, button) has an accessible name;
- the page with all its CSS, JS, icons and fonts weighs under 50 KB transferred;
- nothing is fetched from another host (the `phone` fixture fails on any such request);
- a page that finds nothing (an old `/games/<id>` address, a wrong game link) answers 404;
- the page is no wider than the phone (no sideways scrolling);
- a screenshot is kept in test-artifacts/;
- on the small phone, then set dark (night mode): a dark background, light text, and axe
  (colour contrast included) finds nothing.

The pages at 200% text are in test_large_text.py; the seeding, the visits, the list of pages
and the checks in _every_page_world.py, _every_page_visits.py and _every_page_checks.py.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from ._colours import COLOURS, contrast, luminance

# Some are named here only for the tests that import them from test_every_page (their homes
# are _every_page_world.py, _every_page_visits.py and _every_page_checks.py).
from ._every_page_checks import (  # noqa: F401
    LARGE_ROOT_PX,
    LARGE_TEXT,
    LAYOUT_PROBLEMS,
    NEEDS_APP,
    OPEN_ALL,
    PAGES,
    UNNAMED_CONTROLS,
    no_cache,
    page_weight,
    shot,
    too_wide,
)
from ._every_page_visits import (  # noqa: F401
    NIGHT_CARDS,
    NIGHT_FINISHED,
    NIGHT_LINK_RESULTS,
)
from ._every_page_world import (  # noqa: F401
    NIGHT_PLAYERS,
    NIGHT_ROUNDS,
    seed,
)
from .conftest import check_axe

MAX_PAGE_BYTES = 50 * 1024


@pytest.fixture
def phone_options() -> dict:
    """No service worker on these phones: what a page weighs is what comes over the network.

    A page the worker fetches for the phone is counted by its headers alone (its body size is
    not known to the page), so a page opened after another (signed in, or after opening games
    from their links) would seem to weigh almost nothing.
    """
    return {"service_workers": "block"}


pytestmark = pytest.mark.usefixtures("quick_hashing")


@pytest.mark.parametrize("name", list(PAGES))
def test_every_page(phone, app, name):
    """One page on one phone: axe, labels, weight under 50 KB, no other host, fits the width."""
    page = phone
    world = seed(app)
    no_cache(page)
    visit = PAGES[name]
    if visit in NEEDS_APP:
        visit(page, world, app)
    else:
        visit(page, world)
    wide = too_wide(page)
    shot(page, name)
    assert wide is None, wide

    weight, transfers = page_weight(page)
    kinds = {urlsplit(url).path.rsplit(".", 1)[-1] for url, _ in transfers if "/static/" in url}
    assert {"css", "js", "svg"} <= kinds, f"stylesheet, script or icon not counted: {transfers}"
    assert weight < MAX_PAGE_BYTES, f"{name} weighs {weight:,} bytes: {transfers}"
    print(f"{page.device} {name}: {weight:,} bytes in {len(transfers)} requests")

    # What folds away (house rules, card counts, each deal's lines) is checked unfolded too.
    page.evaluate(OPEN_ALL)
    wide = too_wide(page)
    assert wide is None, f"details open: {wide}"
    unnamed = page.evaluate(UNNAMED_CONTROLS)
    assert unnamed == [], f"controls with no accessible name: {unnamed}"
    check_axe(page)
    if page.device == AT_NIGHT:
        the_page_at_night(page, name)


# The phone every page is also checked on set dark (night mode): the small one.
AT_NIGHT = "small-375x667"


def the_page_at_night(page, name: str) -> None:
    """The page, its folds open, with the phone set dark: dark background, light text, and axe
    (colour contrast included) finds nothing. The stylesheet's dark colours are media queries
    alone (no script reads the setting), so the page is set dark where it is, not loaded again."""
    page.emulate_media(color_scheme="dark")
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    body = page.evaluate(COLOURS, "body")[0]
    assert luminance(body["background"]) < 0.05, f"{name}: not dark: {body}"
    assert contrast(body["color"], body["background"]) >= 7, f"{name}: {body}"
    shot(page, f"dark-{name}")
    check_axe(page)
