"""Real Chromium at a phone's size, driving the app served on a free local port."""

from __future__ import annotations

import os
import shutil
import threading

import pytest
from werkzeug.serving import make_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps trying to reach the internet.
CHROME_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = os.path.join(os.path.dirname(__file__), "..", "..", "test-artifacts")


@pytest.fixture(scope="session")
def browser():
    """The system Chromium; skipped where it is missing, unless CI demands it."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium")
        pytest.skip("Chromium not installed (apt-get install chromium) — browser tests skipped")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def live_server(app):
    """The app served on 127.0.0.1 for the length of one test."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture
def phone(browser, live_server):
    """A page on a small phone (360 px wide, touch), failing on any request to another host."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    outside: list[str] = []
    page.on(
        "request",
        lambda request: (
            outside.append(request.url)
            if not request.url.startswith(live_server) and not request.url.startswith("data:")
            else None
        ),
    )
    page.base = live_server
    yield page
    os.makedirs(ARTIFACTS, exist_ok=True)
    context.close()
    assert outside == [], f"requests to other hosts: {outside}"
