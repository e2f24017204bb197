"""A page kept on the phone before a release still finds its CSS and scripts with no signal.

Real Chromium, real service worker (tests/test_static_versions.py checks the server's side). The
kept page names the app's files by the versions of its day (`app.css?v=…`); after a release the
worker keeps only the new versions, and answers the old addresses with the same files under
their new ones. The release is the app's static folder changed under the running server (a copy
of it: the checkout's files stay as they are).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .test_live import game_opened_with_signal, no_signal

STATIC = Path(__file__).parent.parent.parent / "static"
SHELL = "shell-v4"

KEPT_PAGE = """async path => {
    const kept = await (await caches.open("pages-v1")).match(location.origin + path);
    return kept ? await kept.text() : "";
}"""
SHELL_KEPT = f"""async () => (await (await caches.open("{SHELL}")).keys())
    .map(r => r.url.slice(location.origin.length))"""
# Ask for the worker anew (as a navigation does, at most once a day on its own), and wait until
# the new one, if there is one, is in charge.
NEW_WORKER = """async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration.update();
    for (const until = Date.now() + 10000; Date.now() < until; ) {
        const settled = !registration.installing && !registration.waiting;
        if (settled && registration.active.state === "activated") return true;
        await new Promise(resolve => setTimeout(resolve, 50));
    }
    return false;
}"""


@pytest.fixture
def static_copy(app) -> Path:
    """The live server serving a copy of the app's static folder, for a release to change."""
    folder = Path(app.instance_path) / "static-copy"
    shutil.copytree(STATIC, folder)
    before = app.static_folder
    app.static_folder = str(folder)
    yield folder
    app.static_folder = before
    shutil.rmtree(folder, ignore_errors=True)


def named(html: str, name: str) -> str:
    """The address by which a page names one of the app's files (with its version)."""
    found = re.search(rf'"(/static/{re.escape(name)}\?v=[0-9a-f]+)"', html)
    assert found, f"{name} not named by version in the page"
    return found.group(1)


def release(folder: Path) -> None:
    """A new version of the CSS and of two scripts, each with a mark the test can see."""
    with (folder / "app.css").open("a") as css:
        css.write(':root { --release: "2"; }\n')
    with (folder / "app.js").open("a") as script:
        script.write("window.hfRelease = 2;\n")
    with (folder / "live.js").open("a") as script:
        script.write("window.hfLiveRelease = 2;\n")


def test_a_page_kept_before_a_release_finds_its_files_with_no_signal(phone, static_copy):
    page = phone
    game = game_opened_with_signal(page)  # kept on the phone, the worker in charge
    kept_html = page.evaluate(KEPT_PAGE, game)
    old = {name: named(kept_html, name) for name in ("app.css", "app.js", "live.js")}
    assert set(old.values()) <= set(page.evaluate(SHELL_KEPT))

    # A release: new CSS and scripts. The phone, with signal, opens another page; its worker
    # is a new one (the versions it keeps changed), which keeps the new files, not the old.
    release(static_copy)
    page.goto(page.base + "/rules")
    assert page.evaluate(NEW_WORKER), "the new worker did not take charge"
    new = {name: named(page.content(), name) for name in ("app.css", "app.js")}
    assert new["app.css"] != old["app.css"] and new["app.js"] != old["app.js"]
    shell = page.evaluate(SHELL_KEPT)
    assert new["app.css"] in shell and new["app.js"] in shell, shell
    assert not set(old.values()) & set(shell), shell  # only the files' new versions are kept
    assert page.evaluate(KEPT_PAGE, game) == kept_html  # the scoreboard kept is the old one

    # No signal: the scoreboard from before the release opens from the phone, with its CSS (the
    # new one, its mark applied) and its scripts (they show "No signal", their marks set).
    no_signal(page.context)
    page.goto(page.base + game)
    assert named(page.content(), "app.css") == old["app.css"]
    expect(page.get_by_text("No signal.")).to_be_visible()
    release_mark = "getComputedStyle(document.documentElement).getPropertyValue('--release')"
    assert page.evaluate(release_mark).strip() == '"2"'
    assert page.evaluate("[window.hfRelease, window.hfLiveRelease]") == [2, 2]
    # Laid out by the CSS: the skip link sits off screen, as app.css puts it.
    assert page.evaluate("document.querySelector('.skip').getBoundingClientRect().right <= 0")
