"""Where a deal's save and the page after it spend their time, against the stripped-down floor.

`deal_floor.py --phases` runs this: in one process, without gunicorn or HTTP, it enters the
same classic deals through Flask's test client on the real deal page and on the floor's route,
taking turns, and times each part of each request in CPU time (`time.process_time`: the machine
is shared, and CPU time is what other processes cannot add to). The parts are timed by wrapping
the functions that do them; an inner part's time is inside its outer part's (shown indented).
SQL is the time spent in the database driver (SQLAlchemy's before/after_cursor_execute), and
the statements are counted the same way.
"""

from __future__ import annotations

import functools
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]

# (label, module, attribute, depth): the attribute is replaced where it is called from, so a name
# imported into a module is wrapped in that module. Depth only indents the printout.
FLASK, DEALS = "flask.app:Flask", "scorekeeper.services.deals"
ENTERING, BOARD = "scorekeeper.web.games.entering", "scorekeeper.web.games.scoreboard"
LOADED = "game loaded (ORM: game, sides, players, deals, scores)"
PARTS: list[tuple[str, str, str, int]] = [
    (
        "hooks before the view (link, writer's turn)",
        FLASK,
        "preprocess_request",
        0,
    ),
    ("the view", FLASK, "dispatch_request", 0),
    (
        "game loaded (ORM: game, sides, players, deals, scores)",
        ENTERING,
        "game_or_404",
        1,
    ),
    (
        "game loaded (ORM: game, sides, players, deals, scores)",
        BOARD,
        "game_or_404",
        1,
    ),
    ("deal form built (WTForms)", ENTERING, "_form", 1),
    ("deal form checked (WTForms, CSRF)", "flask_wtf.form:FlaskForm", "validate_on_submit", 1),
    ("write allowance counted (writes.py)", ENTERING, "refused_write", 1),
    ("deal entered (services/deals.enter_deal)", DEALS, "enter_deal", 1),
    (
        "key looked up (before and under the lock)",
        DEALS,
        "deal_with_key",
        2,
    ),
    ("game replayed (engine)", "scorekeeper.services.games", "progress_of", 2),
    ("game locked, history checked", DEALS, "lock", 2),
    ("deal inserted, figures kept, committed", DEALS, "_insert_deal", 2),
    ("each side's figures (engine sums)", "scorekeeper.services.figures", "side_figures", 3),
    ("members' results kept", "scorekeeper.services.figures", "keep_member_results", 3),
    ("flash and redirect", ENTERING, "_entered", 1),
    ("scoreboard's read model (game_view)", BOARD, "game_view", 1),
    ("running totals chart (SVG)", BOARD, "running_totals_chart", 1),
    ("template rendered (Jinja)", BOARD, "render_template", 1),
    ("template rendered (Jinja)", "bench.deal_floor", "render_template", 1),
    ("chances before deal 1 (ratings)", BOARD, "game_chances", 1),
    (
        "hooks after the view (session, headers, gzip)",
        FLASK,
        "finalize_request",
        0,
    ),
    ("commit (SQLite)", "sqlalchemy.orm.session:Session", "commit", 0),
]
SQL = "SQL: in the database driver"


class Clock:
    """CPU time per part of the request being timed, and the SQL statements it sent."""

    def __init__(self) -> None:
        self.now: dict[str, float] = defaultdict(float)
        self.statements = 0

    def wrap(self, label: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """`function`, its time added to `label` (a call inside another of the same label not)."""
        inside = [0]

        @functools.wraps(function)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if inside[0]:
                return function(*args, **kwargs)
            inside[0] += 1
            began = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.now[label] += time.process_time() - began
                inside[0] -= 1

        return timed


def _install(clock: Clock) -> None:
    import importlib

    for label, where, name, _depth in PARTS:
        module_name, _, class_name = where.partition(":")
        owner: Any = importlib.import_module(module_name)
        if class_name:
            owner = getattr(owner, class_name)
        setattr(owner, name, clock.wrap(label, getattr(owner, name)))


def run(games: int) -> None:
    """Enter 4 classic deals in each of `games` games on both routes, in turn; print the parts."""
    folder = tempfile.mkdtemp(prefix="bench-phases-")
    url = f"sqlite:///{folder}/bench.sqlite"
    from _serve import BENCH_GAMES_PER_HOUR, BENCH_WRITES, init_db, warm_ups

    os.environ.update(
        DATABASE_URL=url,
        SECRET_KEY=uuid.uuid4().hex * 2,
        SCOREKEEPER_GAMES_PER_HOUR=str(BENCH_GAMES_PER_HOUR),
        **BENCH_WRITES,
    )
    init_db(url)
    clock = Clock()
    _install(clock)
    from deal_entry import CLASSIC_DEAL, CSRF
    from sqlalchemy import event

    import bench.deal_floor as floor_module
    from scorekeeper.plumbing.db import db

    app = floor_module.app_with_floor_routes()
    sql_began = [0.0]

    def before(*_args: Any) -> None:
        sql_began[0] = time.process_time()
        clock.statements += 1

    def after(*_args: Any) -> None:
        clock.now[SQL] += time.process_time() - sql_began[0]

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", before)
        event.listen(db.engine, "after_cursor_execute", after)
    client = app.test_client()
    sides = [{"name": "North", "players": ["Ann", "Bob"]}, {"name": "South"}]

    def new_game() -> str:
        answer = client.post("/api/v1/games", json={"ruleset": "classic", "sides": sides})
        return answer.get_json()["key"]

    token = CSRF.search(client.get(f"/t/{new_game()}/deals/new").data).group(1).decode()
    gzip = {"Accept-Encoding": "gzip, deflate, br"}
    found: dict[str, list[tuple[dict[str, float], int, float]]] = defaultdict(list)

    def timed(name: str, method: str, path: str, **kwargs: Any) -> str:
        clock.now.clear()
        clock.statements = 0
        began = time.process_time()
        answer = client.open(path, method=method, headers=gzip, **kwargs)
        took = time.process_time() - began
        assert answer.status_code in (200, 302), (path, answer.status_code)
        found[name].append((dict(clock.now), clock.statements, took))
        return answer.headers.get("location", "").split("#")[0]

    def pair(name: str, path: str) -> None:
        form = {"csrf_token": token, "idempotency_key": uuid.uuid4().hex, **CLASSIC_DEAL}
        board = timed(f"{name} POST", "POST", path, data=form)
        timed(f"{name} GET", "GET", board)

    for _turn in range(warm_ups(10)):  # warm: imports, templates, statement caches
        pair("warm", f"/t/{new_game()}/deals/new")
        pair("warm", f"/floor/t/{new_game()}/deals")
    for _ in range(games):
        real, floor = new_game(), new_game()
        for _deal in range(4):
            pair("real", f"/t/{real}/deals/new")
            pair("floor", f"/floor/t/{floor}/deals")
    _print(found)


def _print(found: dict[str, list[tuple[dict[str, float], int, float]]]) -> None:
    def median(name: str, label: str | None = None) -> float:
        rows = found[name]
        values = [took if label is None else parts.get(label, 0.0) for parts, _, took in rows]
        return statistics.median(values) * 1000

    print("in process (Flask's test client, no HTTP), CPU time, medians in ms:")
    print(f"{'':60} {'real':>7} {'floor':>7} {'gap':>7}")
    gaps = 0.0
    for verb in ("POST", "GET"):
        real, floor = f"real {verb}", f"floor {verb}"
        whole = (median(real), median(floor))
        gaps += whole[0] - whole[1]
        count = (found[real][-1][1], found[floor][-1][1])
        print(f"{verb}: whole request ({count[0]} and {count[1]} SQL statements)".ljust(60), end="")
        print(f" {whole[0]:7.2f} {whole[1]:7.2f} {whole[0] - whole[1]:7.2f}")
        shown = set()
        for label, _where, _name, depth in [*PARTS, (SQL, "", "", 0)]:
            if label in shown:
                continue
            shown.add(label)
            values = (median(real, label), median(floor, label))
            if max(values) < 0.005:
                continue
            print(f"{'  ' * (depth + 1)}{label}"[:60].ljust(60), end="")
            print(f" {values[0]:7.2f} {values[1]:7.2f} {values[0] - values[1]:7.2f}")
    real = median("real POST") + median("real GET")
    floor = median("floor POST") + median("floor GET")
    print(f"POST + GET: real {real:.2f} ms, floor {floor:.2f} ms, ratio {real / floor:.2f}")
