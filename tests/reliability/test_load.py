"""50 clients for LOAD_SECONDS (30) against gunicorn -w 4 on one SQLite file: no errors, and
every acknowledged deal stored exactly once with consistent totals."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from ._server import DEAL, POSTGRES_URL, Gunicorn, call, every_deal, new_game, read_db, run_load

LOAD_SECONDS = float(os.environ.get("LOAD_SECONDS", "30"))
WRITERS = 25  # one game each, so every deal must be a 201
READERS = 25


@pytest.fixture
def server(tmp_path):
    gunicorn = Gunicorn(tmp_path, workers=4)
    try:
        gunicorn.init_db()
        gunicorn.start()
        yield gunicorn
    finally:
        gunicorn.stop()


def test_fifty_clients_no_errors_and_every_acknowledged_deal_once(server):
    games = [new_game(server.port) for _ in range(WRITERS)]

    load = run_load(server.port, games, writers=WRITERS, readers=READERS, seconds=LOAD_SECONDS)
    print()
    database = "PostgreSQL" if POSTGRES_URL else "SQLite"
    print(load.report(f"load: {WRITERS} writers + {READERS} readers, gunicorn -w 4, {database}"))

    problems = load.problems()
    assert problems == [], f"{len(problems)} failed requests, e.g. {problems[:10]}"
    log = server.log()
    for trouble in ("database is locked", "Traceback", "Unhandled error", "WORKER TIMEOUT"):
        assert trouble not in log, f"{trouble!r} in the server log:\n{log[-3000:]}"

    acked = load.acknowledged()
    keys = [s.key for s in acked]
    assert len(keys) == len(set(keys))
    per_game = Counter(s.game for s in acked)
    assert all(per_game[g] > 0 for g in games), "a writer never got a deal in"

    # Through the API: each game holds exactly its acknowledged deals, totals consistent.
    for game in games:
        state = call(server.port, "GET", game.api, headers=game.headers).json()
        n = per_game[game]
        deals = every_deal(server.port, game)
        assert [d["number"] for d in deals] == list(range(1, n + 1))
        assert all(d["version"] == 1 for d in deals)
        assert [side["total"] for side in state["sides"]] == [50 * n, 50 * n]

    # Straight from the file: each acknowledged key is exactly one deal of its game.
    stored = read_db(server.db_path)
    assert stored["integrity"] == ["ok"]
    for game in games:
        stored_keys = Counter(key for _, _, key in stored["deals"][game.id])
        assert stored_keys == Counter(s.key for s in acked if s.game == game)
        assert stored["scores"][game.id] == (2 * per_game[game], 100 * per_game[game])
    played = {game.id: per_game[game] for game in games}
    for game_id, _, final_total, deals_played in stored["sides"]:
        assert (final_total, deals_played) == (50 * played[game_id], played[game_id])

    # A few keys sent again: replayed, and not one deal more.
    for game in games[:5]:
        mine = [s for s in acked if s.game == game]
        for sample in (mine[0], mine[-1]):
            reply = call(
                server.port,
                "POST",
                f"{game.api}/deals",
                json_body=DEAL,
                headers={**game.headers, "Idempotency-Key": sample.key},
            )
            assert reply.status == 201, reply.text
            assert reply.headers.get("idempotent-replayed") == "true"
            assert reply.json()["deals_total"] == per_game[game]
