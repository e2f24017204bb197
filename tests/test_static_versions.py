"""The app's files by version (scorekeeper/plumbing/compress.py): every address of a file in
/static that
a page, a script, the manifest or the worker gives carries `?v=` and the file's version, the
first 8 hex digits of the SHA-256 of its bytes as served. That address is kept for a year; one
without a version a few minutes; one with any other version (a page from before a release) is
answered with the file as it is now, kept by nobody.

The browser's side (a page kept before a release finds its files with no signal) is in
tests/browser/test_static_versions.py.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest

from scorekeeper.plumbing.compress import IMMUTABLE, STALE, STATIC_MAX_AGE
from scorekeeper.services import demo

STATIC = Path(__file__).parent.parent / "static"
GZIP = {"Accept-Encoding": "gzip, deflate, br"}
DEMO_SLUG = "demo"
SIDES = [{"name": "Ann"}, {"name": "Bob"}]
# What a script loads by name (static/app.js), and what the worker keeps for no signal.
LOADED = ("form.js", "live.js", "offline.js")
SHELL = ("app.css", "app.js", "form.js", "live.js", "offline.js", "icon.svg")


class Addresses(HTMLParser):
    """Every address a page names in `href` or `src`, with the tag and rel naming it."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs) -> None:
        named = dict(attrs)
        for attribute in ("href", "src"):
            if named.get(attribute):
                self.found.append((tag, named.get("rel") or "", named[attribute]))


def addresses(html: str) -> list[tuple[str, str, str]]:
    parser = Addresses()
    parser.feed(html)
    return parser.found


def static_addresses(html: str) -> list[str]:
    return [url for _, _, url in addresses(html) if urlsplit(url).path.startswith("/static/")]


def current_version(client, name: str) -> str:
    """The file's version worked out here, from its bytes as served without gzip."""
    answer = client.get(f"/static/{name}")
    assert answer.status_code == 200, name
    return hashlib.sha256(answer.data).hexdigest()[:8]


def file_and_version(address: str) -> tuple[str, str | None]:
    """`/static/app.css?v=1a2b3c4d` as ("app.css", "1a2b3c4d"); the version None if it has none."""
    parts = urlsplit(address)
    versions = parse_qs(parts.query).get("v")
    return parts.path.removeprefix("/static/"), versions[0] if versions else None


@pytest.fixture
def pages(app, client) -> dict[str, str]:
    """Every main page's path: the demo club's and a casual game's with a deal."""
    with app.app_context():
        club = demo.fill_demo(DEMO_SLUG, games=2)
        member = club.members[0].id
    made = client.post("/api/v1/games", json={"ruleset": "classic", "sides": SIDES})
    game = f"/t/{made.json['key']}"
    deal = {"scores": [{"melded_points": 50}, {"melded_points": 75}]}
    key = {"X-Game-Key": made.json["key"]}
    assert client.post(f"/api/v1/games/{made.json['id']}/deals", json=deal, headers=key).status_code
    return {
        "home": "/",
        "new-game": "/games/new",
        "scoreboard": game,
        "deal-entry": f"{game}/deals/new",
        "line-entry": f"{game}/deals/next/1",
        "game-rules": f"{game}/rules",
        "rules": "/rules",
        "rule-card": "/rules/classic",
        "club": f"/clubs/{DEMO_SLUG}",
        "standings": f"/clubs/{DEMO_SLUG}/standings",
        "member": f"/clubs/{DEMO_SLUG}/members/{member}",
        "offline": "/offline",
        "login": "/login",
    }


def test_every_page_names_each_file_by_its_current_version(client, pages):
    for name, path in pages.items():
        page = client.get(path)
        assert page.status_code == 200, name
        named = static_addresses(page.get_data(as_text=True))
        files = {file_and_version(url)[0] for url in named}
        assert {"app.css", "app.js", "icon.svg", "manifest.webmanifest"} <= files, (name, named)
        for url in named:
            file, version = file_and_version(url)
            assert version == current_version(client, file), (name, url)
    # A game's pages name live.js themselves (templates/_live.html), by version too.
    board = static_addresses(client.get(pages["scoreboard"]).get_data(as_text=True))
    live = [url for url in board if file_and_version(url)[0] == "live.js"]
    assert live == [f"/static/live.js?v={current_version(client, 'live.js')}"], board


@pytest.mark.parametrize(
    "name",
    ["app.css", "app.js", "live.js", "icon.svg", "manifest.webmanifest", "icons/icon-192.png"],
)
def test_a_file_at_its_version_is_kept_for_a_year(client, name):
    address = f"/static/{name}?v={current_version(client, name)}"
    current = client.get(f"/static/{name}").data
    for headers in ({}, GZIP):
        answer = client.get(address, headers=headers)
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == IMMUTABLE == "public, max-age=31536000, immutable"
        gzipped = answer.headers.get("Content-Encoding") == "gzip"
        assert (gzip.decompress(answer.data) if gzipped else answer.data) == current


@pytest.mark.parametrize("name", ["app.css", "app.js", "icon.svg", "icons/icon-192.png"])
def test_without_a_version_or_with_an_old_one_the_file_now_is_sent_for_a_short_while(client, name):
    current = client.get(f"/static/{name}?v={current_version(client, name)}").data
    plain = client.get(f"/static/{name}")
    assert plain.data == current
    assert plain.headers["Cache-Control"] == f"max-age={STATIC_MAX_AGE}"
    for old in ("0123abcd", "", "not-a-version"):
        stale = client.get(f"/static/{name}?v={old}")
        assert stale.status_code == 200, old  # never a 404: a page from before a release
        assert stale.data == current
        assert stale.headers["Cache-Control"] == STALE
        assert "immutable" not in stale.headers["Cache-Control"]


def test_a_files_tag_is_its_version(client):
    version = current_version(client, "app.css")
    first = client.get(f"/static/app.css?v={version}", headers=GZIP)
    assert first.headers["ETag"] == f'W/"{version}"'
    again = client.get("/static/app.css", headers={**GZIP, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    # A tag from before versions (Flask's: the file's time and size) gets the file.
    older = client.get("/static/app.css", headers={"If-None-Match": '"1700000000.0-15668-1"'})
    assert older.status_code == 200 and older.data


def test_a_file_is_kept_whatever_the_visitors_cookie(client):
    """A page renews the session's cookie; the files it names do not vary by it."""
    form = {"ruleset": "classic", "side0_players": "Ann, Bob", "side1_players": "Cat, Dan"}
    assert client.post("/games/new", data=form).status_code == 302
    assert "Cookie" in client.get("/").headers["Vary"]  # a page does
    for address in (f"/static/app.css?v={current_version(client, 'app.css')}", "/sw.js"):
        answer = client.get(address, headers=GZIP)
        assert answer.headers["Vary"] == "Accept-Encoding", address
        assert "Set-Cookie" not in answer.headers, address


def test_app_js_loads_the_other_scripts_by_their_versions(client):
    served = client.get("/static/app.js").get_data(as_text=True)
    loads = re.findall(r'hf\.load\("([^"]*)"\)', served)
    assert loads == [f"{name}?v={current_version(client, name)}" for name in LOADED], loads
    # Its own version follows from theirs: it is the hash of these very bytes.
    assert current_version(client, "app.js") == hashlib.sha256(served.encode()).hexdigest()[:8]


def test_the_manifests_icon_is_the_pages_icon(client):
    page = client.get("/").get_data(as_text=True)
    [manifest] = [url for tag, rel, url in addresses(page) if rel == "manifest"]
    [icon] = [url for tag, rel, url in addresses(page) if rel == "icon"]
    answer = client.get(manifest)
    assert answer.headers["Cache-Control"] == IMMUTABLE
    icons = json.loads(answer.get_data(as_text=True))["icons"]
    svg = [urljoin(manifest, i["src"]) for i in icons if i["type"] == "image/svg+xml"]
    assert svg == [icon], (svg, icon)  # one address: the browser fetches the icon once
    for each in icons:
        file, version = file_and_version(urljoin(manifest, each["src"]))
        assert version == current_version(client, file), each


def test_the_worker_keeps_the_files_the_pages_name(client):
    worker = client.get("/sw.js")
    assert worker.headers["Cache-Control"] == "no-cache"
    text = worker.get_data(as_text=True)
    shell = re.findall(r'"([^"]*)"', text.split("const SHELL_FILES = [", 1)[1].split("];", 1)[0])
    for name in (*SHELL, "manifest.webmanifest"):
        assert f"/static/{name}?v={current_version(client, name)}" in shell, (name, shell)
    assert not [f for f in shell if f.startswith("/static/") and not file_and_version(f)[1]]
    # The very addresses a page names: the worker's install takes them from the browser's cache.
    page = static_addresses(client.get("/").get_data(as_text=True))
    assert {u for u in page if not u.startswith(("/static/nojs", "/static/icons"))} <= set(shell)
    assert '"shell-v3"' not in text  # a new cache: the old one, addresses without versions, goes


@pytest.fixture
def static_copy(app, tmp_path, monkeypatch) -> Path:
    """The app serving a copy of its static folder, which a test may change."""
    folder = tmp_path / "static"
    shutil.copytree(STATIC, folder)
    monkeypatch.setattr(app, "static_folder", str(folder))
    return folder


def test_a_file_changed_on_disk_has_a_new_version_and_so_do_those_naming_it(client, static_copy):
    before = {name: current_version(client, name) for name in ("form.js", "app.js", "app.css")}
    worker = client.get("/sw.js").data
    old_page = client.get("/").get_data(as_text=True)
    with (static_copy / "form.js").open("a") as script:
        script.write("window.hfRelease = 2;\n")
    after = {name: current_version(client, name) for name in before}
    assert after["form.js"] != before["form.js"]
    # app.js names form.js by version: its bytes as served changed, so its version did.
    assert after["app.js"] != before["app.js"]
    assert after["app.css"] == before["app.css"]
    assert client.get("/sw.js").data != worker  # a new worker, which keeps the new files
    page = client.get("/").get_data(as_text=True)
    assert f"/static/app.js?v={after['app.js']}" in page
    assert f"/static/app.css?v={before['app.css']}" in page
    # The page from before asks for its app.js: it gets the file as it is now, kept by nobody.
    [old_app] = [u for u in static_addresses(old_page) if u.startswith("/static/app.js")]
    answer = client.get(old_app)
    assert answer.headers["Cache-Control"] == STALE
    assert f"form.js?v={after['form.js']}" in answer.get_data(as_text=True)
