"""SIGKILL gunicorn (master and every worker) mid-load: the SQLite file is intact and every
deal acknowledged with a 201 before the kill is in it; the app restarts on it."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter

from ._server import (
    DEAL,
    Gunicorn,
    call,
    new_game,
    problem,
    proc_alive,
    read_db,
    run_load,
)

CRASH_SECONDS = float(os.environ.get("CRASH_SECONDS", "10"))
WRITERS = 25
READERS = 25


def test_sigkill_mid_load_loses_no_acknowledged_deal(tmp_path):
    first = Gunicorn(tmp_path, workers=4)
    again = Gunicorn(tmp_path, workers=4, db_path=first.db_path)
    try:
        first.init_db()
        first.start()
        games = [new_game(first.port) for _ in range(WRITERS)]
        stop, started, box = threading.Event(), threading.Event(), {}

        def load() -> None:
            box["load"] = run_load(
                first.port,
                games,
                writers=WRITERS,
                readers=READERS,
                seconds=CRASH_SECONDS,
                stop=stop,
                on_started=started,
            )

        loader = threading.Thread(target=load, daemon=True)
        loader.start()
        assert started.wait(timeout=60)
        time.sleep(CRASH_SECONDS / 2)
        stop.set()  # no new requests; the ones in flight meet the kill
        killed_at = time.monotonic()
        killed = first.sigkill_all()
        loader.join(timeout=60)
        assert not loader.is_alive()
        result = box["load"]

        assert len(killed) == 5, f"expected master + 4 workers, killed {killed}"
        assert not any(proc_alive(pid) for pid in killed), "a gunicorn process survived SIGKILL"
        print()
        print(result.report(f"crash: load, then SIGKILL of pids {killed}"))
        failed = [(s, problem(s)) for s in result.samples if problem(s)]
        early = [p for s, p in failed if s.started + s.seconds < killed_at]
        print(f"  in flight at the kill and failed (not acknowledged): {len(failed)}")
        assert early == [], f"failures before the kill: {early[:10]}"

        acked = result.acknowledged()
        assert acked, "nothing was acknowledged before the kill"
        attempted = {s.key for s in result.of("write")}
        stored = read_db(first.db_path)
        assert stored["integrity"] == ["ok"]
        counts = {}
        for game in games:
            rows = stored["deals"].get(game.id, [])
            keys = Counter(key for _, _, key in rows)
            mine = {s.key for s in acked if s.game == game}
            assert mine <= set(keys), f"game {game.id} lost acknowledged deals: {mine - set(keys)}"
            assert set(keys) <= attempted and max(keys.values(), default=1) == 1
            assert [number for number, _, _ in rows] == list(range(1, len(rows) + 1))
            n = counts[game.id] = len(rows)
            assert stored["scores"].get(game.id, (0, 0)) == (2 * n, 100 * n)
        for game_id, _, final_total, deals_played in stored["sides"]:
            assert (final_total, deals_played) == (50 * counts[game_id], counts[game_id])
        print(
            f"  acknowledged {len(acked)} deals, stored {sum(counts.values())} "
            f"(in-flight writes may land too); integrity_check ok"
        )

        # The app starts again on the same file and carries on.
        again.start()
        for game in games:
            state = call(again.port, "GET", game.api, headers=game.headers).json()
            assert state["deals_total"] == counts[game.id]
            assert [side["total"] for side in state["sides"]] == [50 * counts[game.id]] * 2
        # The writes lost at the kill, sent again with their keys: each lands once at most.
        lost = [s for s in result.of("write") if s.status != 201]
        replays = 0
        for sample in lost:
            assert sample.game is not None and sample.key is not None
            reply = call(
                again.port,
                "POST",
                sample.path,
                json_body=DEAL,
                headers={**sample.game.headers, "Idempotency-Key": sample.key},
            )
            assert reply.status == 201, reply.text
            replays += reply.headers.get("idempotent-replayed") == "true"
        # Those that had landed before the kill are replayed, not saved twice.
        assert replays == sum(counts.values()) - len(acked)
        for game in games:
            state = call(again.port, "GET", game.api, headers=game.headers).json()
            tried = {s.key for s in result.of("write") if s.game == game}
            assert state["deals_total"] == len(tried)  # each key tried is one deal, no more
            assert [side["total"] for side in state["sides"]] == [50 * len(tried)] * 2
        print(
            f"  {len(lost)} lost writes resent with their keys after a restart: "
            f"{replays} replayed (had landed), the rest stored once"
        )
    finally:
        first.stop()
        again.stop()
