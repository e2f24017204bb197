"""Browser tests wait for what they mean, never for a fixed time (issue 41).

A sleep that only hopes the page has caught up passes on a quiet machine and fails on a busy
one. A browser test waits for the thing itself (expect(...), wait_for_function,
wait_for_event, expect_request...). A sleep is allowed only where the time is what is tested
or simulated (a window whose questions are counted, a slow link's latency), and says so on
its line: `# not a wait: <why>`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BROWSER_TESTS = Path(__file__).parent / "browser"
ALLOWED = "# not a wait:"
# Calls that pause for a fixed time: page.wait_for_timeout, time.sleep, asyncio.sleep, sleep.
PAUSES = {"wait_for_timeout", "sleep"}


def fixed_waits(source: str) -> list[int]:
    """The line numbers of fixed pauses in `source` whose lines give no reason."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        called = node.func
        name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
        if name not in PAUSES:
            continue
        spanned = lines[node.lineno - 1 : (node.end_lineno or node.lineno)]
        if not any(ALLOWED in line for line in spanned):
            found.append(node.lineno)
    return found


def test_no_browser_test_sleeps_to_synchronise():
    files = sorted(BROWSER_TESTS.rglob("*.py"))
    assert files, "no browser tests found"
    found = {
        str(path.relative_to(BROWSER_TESTS.parent)): lines
        for path in files
        if (lines := fixed_waits(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"fixed sleeps with no `{ALLOWED} <why>`: {found}"


@pytest.mark.parametrize(
    "planted",
    [
        "page.wait_for_timeout(500)\n",
        "import time\ntime.sleep(0.5)  # the page has loaded by now\n",
        "from time import sleep\nsleep(1)\n",
        "import asyncio\nasync def f():\n    await asyncio.sleep(1)\n",
        "page.wait_for_timeout(\n    1000,\n)\n",
    ],
)
def test_a_planted_sleep_is_found(planted):
    assert fixed_waits(planted), planted


def test_a_sleep_that_says_why_is_allowed():
    source = "page.wait_for_timeout(7000)  # not a wait: seven quiet seconds are measured\n"
    assert fixed_waits(source) == []
    assert fixed_waits("expect(page.locator('h1')).to_be_visible()\n") == []
