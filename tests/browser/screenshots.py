"""Screenshots kept only of the tests that fail (a pytest plugin: tests/browser/conftest.py).

Browser tests save what a phone showed (`page.screenshot(path=...)`, in test-artifacts/) to look
at when something breaks. A green run left 353 of them, 115 MB. Now every file a test saves a
screenshot to is noted, and deleted once the test has passed its setup, its call and its
teardown; a test that fails in any of them keeps its own.

Noted at the call rather than found in the folder afterwards: two runs at once in one checkout
(or workers) each delete only what their own passing tests saved.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

SAVED = pytest.StashKey[list[Path]]()
FAILED = pytest.StashKey[bool]()


def _noting(screenshot: Callable[..., bytes], saved: list[Path]) -> Callable[..., bytes]:
    """`screenshot`, noting in `saved` the file it writes (its `path`, keyword-only) if any."""

    @functools.wraps(screenshot)
    def noted(self: Any, *args: Any, **kwargs: Any) -> bytes:
        if kwargs.get("path") is not None:
            # Absolute now: a test may change the working folder before it is deleted.
            saved.append(Path(kwargs["path"]).absolute())
        return screenshot(self, *args, **kwargs)

    return noted


@pytest.fixture(autouse=True)
def screenshots_of_failures_only(request: pytest.FixtureRequest, monkeypatch) -> Iterator[None]:
    """Note each screenshot file the test saves (a page's, a locator's or an element's)."""
    try:
        from playwright.sync_api import ElementHandle, Locator, Page
    except ImportError:  # no playwright: the browser fixture skips every test anyway
        yield
        return
    saved = request.node.stash.setdefault(SAVED, [])
    for kind in (Page, Locator, ElementHandle):
        monkeypatch.setattr(kind, "screenshot", _noting(kind.screenshot, saved))
    yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """After the teardown of a test that failed nowhere, delete the screenshots it saved."""
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    if report.when == "teardown" and not item.stash.get(FAILED, False):
        for path in item.stash.get(SAVED, []):
            path.unlink(missing_ok=True)
    return report
