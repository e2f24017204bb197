"""What a game's page would weigh on a first visit if it carried nothing it does not use.

    .venv/bin/python bench/page_floor.py

Issue 18 asks that a first visit to every main page transfer at most 10 KiB. The pages of a
game (the scoreboard and the deal form) do not. This script shows how close any rework of their
CSS and scripts could bring them, keeping what they do today. Each page is opened as
tests/browser/test_page_weight.py opens it (a phone that never saw the app, counted until the
network is idle and the first live answer is in), on the same data, and each part of its
weight is printed twice:

- **measured:** what the page transferred, headers included (as Chromium reports it);
- **floor:** the same page if
  - its stylesheet held only the rules the page uses (in light, night and print, with every
    `<details>` open), gzipped at level 9, in one response;
  - all its scripts (every byte of them counted: each is used) came in a single response;
  - and the document, icon, live answer and "entering" stayed as they are.

A floor over 10 KiB means 10 KiB cannot be met without taking something off the page. The
floor errs low: a rule inside `@media` is counted without its `@media` wrapper.
"""

from __future__ import annotations

import gzip
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from playwright.sync_api import sync_playwright  # noqa: E402 -- repository on the path
from werkzeug.serving import make_server  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.plumbing.db import db  # noqa: E402
from tests.browser.conftest import CHROME_ARGS, CHROMIUM  # noqa: E402
from tests.browser.test_page_weight import LIMIT, MAIN_PAGES, seed  # noqa: E402

PAGES = ("scoreboard", "deal-entry")
MEDIA = ("light", "dark", "print")


def gz(text: str) -> int:
    """Bytes of `text` gzipped at level 9, as scorekeeper/plumbing/compress.py sends the app's
    files."""
    return len(gzip.compress(text.encode(), 9))


def serve(folder: str):
    """The app on a fresh SQLite database with test_page_weight.py's data, on a free port."""
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/floor.sqlite"}
    )
    with app.app_context():
        db.create_all()
    seeded = seed(app)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}", seeded


def kind(url: str) -> str:
    if url.endswith(".css") or ".css?" in url:
        return "css"
    if url.endswith(".js") or ".js?" in url:
        return "scripts"
    if "/live?" in url:
        return "live answer"
    if url.endswith("/entering"):
        return "entering"
    if "/static/" in url:
        return "icon"
    return "document"


def first_visit(browser, device, url: str):
    """(parts measured, headers of the smallest static response, used CSS, script bodies)."""
    context = browser.new_context(**device)
    page = context.new_page()
    taken: list[tuple[str, int, int]] = []

    def finished(request) -> None:
        sizes = request.sizes()
        taken.append((request.url, sizes["responseHeadersSize"], max(sizes["responseBodySize"], 0)))

    page.on("requestfinished", finished)
    cdp = context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    sheets: dict[str, str] = {}
    cdp.on("CSS.styleSheetAdded", lambda e: sheets.setdefault(e["header"]["styleSheetId"], ""))
    cdp.send("CSS.startRuleUsageTracking")
    with page.expect_response(lambda r: "/live?" in r.url, timeout=10_000):
        page.goto(url)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    measured = [t for t in taken]
    polls = [i for i, (u, _, _) in enumerate(measured) if "/live?" in u]
    measured = [t for i, t in enumerate(measured) if i not in polls[1:]]
    used: set[tuple[str, int, int]] = set()
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    for media in MEDIA:
        if media == "print":
            page.emulate_media(media="print", color_scheme="light")
        else:
            page.emulate_media(media="screen", color_scheme=media)
        page.wait_for_timeout(200)
        for rule in cdp.send("CSS.takeCoverageDelta")["coverage"]:
            if rule["used"]:
                used.add((rule["styleSheetId"], int(rule["startOffset"]), int(rule["endOffset"])))
    cdp.send("CSS.stopRuleUsageTracking")
    for sheet in sheets:
        sheets[sheet] = cdp.send("CSS.getStyleSheetText", {"styleSheetId": sheet})["text"]
    css = "".join(sheets[s][a:b] for s, a, b in sorted(used) if s in sheets)
    scripts = "".join(
        page.evaluate("(u) => fetch(u).then(r => r.text())", u)
        for u, _, _ in measured
        if kind(u) == "scripts"
    )
    context.close()
    return measured, css, scripts


def main() -> None:
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        base, seeded = serve(folder)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        device = dict(playwright.devices["Pixel 7"])
        device.pop("default_browser_type", None)
        print(f"Limit: {LIMIT:,} bytes. Pixel 7, first visit, headers included.\n")
        for name in PAGES:
            measured, css, scripts = first_visit(
                browser, device, base + MAIN_PAGES[name].format(s=seeded)
            )
            parts: dict[str, list[int]] = {}
            for url, headers, body in measured:
                parts.setdefault(kind(url), []).append(headers + body)
            header = min(h for u, h, _ in measured if kind(u) in ("css", "scripts"))
            floor = {key: sum(sizes) for key, sizes in parts.items()}
            floor["css"] = header + gz(css)
            floor["scripts"] = header + gz(scripts)
            print(f"{name}:")
            print(f"  {'part':12} {'measured':>9} {'floor':>9}")
            for key in ("document", "css", "scripts", "icon", "live answer", "entering"):
                if key in parts:
                    count = len(parts[key])
                    label = f"{key} ({count})" if count > 1 else key
                    print(f"  {label:12} {sum(parts[key]):9,} {floor[key]:9,}")
            total, least = sum(sum(s) for s in parts.values()), sum(floor.values())
            verdict = "under" if least <= LIMIT else "over"
            print(f"  {'total':12} {total:9,} {least:9,}  (floor {verdict} the limit)")
            print(f"  CSS the page uses: {len(css):,} bytes of rules; headers {header} a file\n")
        browser.close()


if __name__ == "__main__":
    main()
