"""Time one standings view in a process of its own (used by `standings_ratings.py`).

    python bench/_standings_timer.py DATABASE PATH MODE REQUESTS WARM_UP

It imports only `create_app` and `services.standings`, both as old as the standings, so it runs
the code of whichever checkout is first on PYTHONPATH: this one, or the standings as they were
before issue 30 (a worktree of that commit). MODE "without" times this checkout's page with
`standings.rating_scope` answering None (no rating joined, blank cells). Prints one JSON list of
milliseconds, one a timed request.
"""

from __future__ import annotations

import json
import sys
import time


def main() -> None:
    """Warm up, then time the view, printing milliseconds per request as JSON."""
    database, path, mode, requests, warm_up = sys.argv[1:6]
    from scorekeeper import create_app
    from scorekeeper.services import standings

    if mode == "without":
        standings.rating_scope = lambda _filters: None
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"}
    )
    client = app.test_client()
    times = []
    for n in range(int(warm_up) + int(requests)):
        started = time.perf_counter()
        answer = client.get(path)
        elapsed = (time.perf_counter() - started) * 1000
        assert answer.status_code == 200, (path, answer.status_code)
        if n >= int(warm_up):
            times.append(elapsed)
    print(json.dumps(times))


if __name__ == "__main__":
    main()
