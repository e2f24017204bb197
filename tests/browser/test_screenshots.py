"""Screenshots are kept of the tests that fail, and of no other (tests/browser/screenshots.py).

A run of its own (pytest in a subprocess, the plugin loaded with -p) of four tests that each save
a page's and a locator's screenshot in real Chromium: one passes, one fails, one fails in its
teardown, one is skipped after saving. Only the failing ones' files are left.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .conftest import CHROME_ARGS, CHROMIUM

INNER = """
import pytest
from playwright.sync_api import sync_playwright


@pytest.fixture(scope="module")
def page():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path={chromium!r}, args={args!r})
        yield browser.new_page()
        browser.close()


def shoot(page, name):
    page.set_content(f"<h1>{{name}}</h1>")
    page.screenshot(path=f"shots/{{name}}.png")
    page.locator("h1").screenshot(path=f"shots/{{name}}-heading.png")


@pytest.fixture
def breaks_after():
    yield
    raise RuntimeError("broke in teardown")


def test_passes(page):
    shoot(page, "passes")


def test_fails(page):
    shoot(page, "fails")
    assert False


def test_fails_in_teardown(page, breaks_after):
    shoot(page, "teardown")


def test_skipped(page):
    shoot(page, "skipped")
    pytest.skip("after saving")
"""
# The plugin alone: not the project's conftest, cache or workers.
INNER_OPTIONS = "-q -p screenshots -p no:cacheprovider -p no:xdist"


def test_only_the_failing_tests_keep_their_screenshots(browser, tmp_path):
    """Needs Chromium like every browser test: `browser` skips without it (fails in CI)."""
    (tmp_path / "test_inner.py").write_text(INNER.format(chromium=CHROMIUM, args=CHROME_ARGS))
    plugin_folder = str(Path(__file__).resolve().parent)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [plugin_folder, os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *INNER_OPTIONS.split(), "test_inner.py"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )
    summary = done.stdout.strip().splitlines()[-1]
    assert "1 failed, 2 passed, 1 skipped, 1 error in " in summary, done.stdout + done.stderr
    kept = sorted(path.name for path in (tmp_path / "shots").iterdir())
    assert kept == ["fails-heading.png", "fails.png", "teardown-heading.png", "teardown.png"]
