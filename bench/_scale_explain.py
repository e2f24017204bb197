"""bench/scale.py's search for the slow queries: each page's statements, timed and explained."""

from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _scale_db import BIG, SMALL, TARGET, log  # noqa: E402
from _scale_pages import Page, Site, TestBrowser, median, visitors  # noqa: E402
from sqlalchemy import event  # noqa: E402

from scorekeeper import create_app, with_driver  # noqa: E402

# --- finding the slow queries ------------------------------------------------------------------


@dataclass
class Statement:
    text: str
    params: object
    seconds: float


class Capture:
    """Every statement a request sends, with its time (SQLAlchemy cursor events)."""

    def __init__(self, engine) -> None:
        self.engine, self.on, self.statements = engine, False, []
        event.listen(engine, "before_cursor_execute", self._before)
        event.listen(engine, "after_cursor_execute", self._after)

    def _before(self, conn, cursor, statement, parameters, context, executemany) -> None:
        conn.info["scale_started"] = time.perf_counter()

    def _after(self, conn, cursor, statement, parameters, context, executemany) -> None:
        started = conn.info.pop("scale_started", None)
        if self.on and started is not None:
            took = time.perf_counter() - started
            # executemany: the first row's parameters (an INSERT of many VALUES has one dict).
            many = executemany and isinstance(parameters, list | tuple) and parameters
            params = parameters[0] if many else parameters
            self.statements.append(Statement(statement, params, took))


def diagnose(sites: list[Site], pages: list[Page], every_plan: set[str], runs: int = 11) -> None:
    """Run each page in process on both databases; print the statements slower on the big one.

    The five statements that grew most are printed, with their plans on both databases if they
    grew by more than 0.2 ms and 1.2 times (or whatever they did, for pages in `every_plan`).
    """
    from scorekeeper.plumbing.db import db

    apps = {}
    for site in sites:
        # No folding thread: its sweeps would be captured as if the page had asked them.
        config = {"SQLALCHEMY_DATABASE_URI": with_driver(site.url), "SECRET_KEY": "x"}
        app = create_app({**config, "RATINGS_FOLD": "off"})
        with app.app_context():
            capture = Capture(db.engine)
        apps[site.name] = (app, capture, visitors(site, lambda app=app: TestBrowser(app)))
    for page in pages:
        log(f"\n### {page.name}: in process, {runs} runs on each database\n")
        per_text: dict[str, dict[str, list[float]]] = {}
        whole: dict[str, list[float]] = {}
        example: dict[tuple[str, str], Statement] = {}
        for run in range(runs + 2):
            for site in sites if run % 2 == 0 else reversed(sites):  # taking turns
                app, capture, seen = apps[site.name]
                page.prepare(seen)
                capture.statements, capture.on = [], True
                began = time.perf_counter()
                page.run(seen)
                took = time.perf_counter() - began
                capture.on = False
                if run < 2:
                    continue  # warm-up
                whole.setdefault(site.name, []).append(took)
                sums: dict[str, float] = {}
                for statement in capture.statements:
                    sums[statement.text] = sums.get(statement.text, 0.0) + statement.seconds
                    example.setdefault((site.name, statement.text), statement)
                for text, seconds in sums.items():
                    per_text.setdefault(text, {}).setdefault(site.name, []).append(seconds)
        sql = {s.name: sum(median(v.get(s.name, [0.0])) for v in per_text.values()) for s in sites}
        log(
            f"whole request: {SMALL} {median(whole[SMALL]) * 1000:.2f} ms "
            f"(SQL {sql[SMALL] * 1000:.2f} ms), {BIG} {median(whole[BIG]) * 1000:.2f} ms "
            f"(SQL {sql[BIG] * 1000:.2f} ms), {len(per_text)} distinct statements"
        )
        slower = []
        for text, by_site in per_text.items():
            small = median(by_site.get(SMALL, [0.0]))
            big = median(by_site.get(BIG, [0.0]))
            slower.append((big - small, small, big, text))
        slower.sort(reverse=True)
        for difference, small, big, text in slower[:5]:
            log(
                f"\n{small * 1000:.2f} ms on {SMALL}, {big * 1000:.2f} ms on {BIG} "
                f"({difference * 1000:+.2f} ms):\n    {squeeze(text)}"
            )
            grew = difference >= 0.0002 and big >= small * TARGET
            if not grew and page.name not in every_plan:
                continue
            for site in sites:
                app, _, _ = apps[site.name]
                log(f"\nEXPLAIN (ANALYZE, BUFFERS) on {site.name}:")
                if (site.name, text) not in example:
                    log("    (not asked there)")
                    continue
                for line in explain(app, example[site.name, text]):
                    log(f"    {line}")
    for app, _, _ in apps.values():
        with app.app_context():
            db.engine.dispose()


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def explain(app, statement: Statement) -> list[str]:
    """The plan of one captured statement, run for real in a transaction rolled back."""
    from scorekeeper.plumbing.db import db

    with app.app_context(), db.engine.connect() as conn:
        rows = conn.exec_driver_sql(
            "EXPLAIN (ANALYZE, BUFFERS) " + statement.text, statement.params
        ).all()
        conn.rollback()
    return [row[0] for row in rows]
