"""Upgrading the schema keeps every game: SQLite's table copies must not cascade deletes."""

from __future__ import annotations

import re
import sqlite3

from flask_migrate import upgrade

from scorekeeper import create_app


def test_upgrade_from_the_first_schema_keeps_games_and_deals(tmp_path):
    """A database made by the first migration, with a game in it, survives every later one."""
    path = tmp_path / "old.sqlite"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        upgrade(revision="0001")
    old = sqlite3.connect(path)
    old.executescript(
        """
        INSERT INTO game (id, ruleset, house_rules, decks, created_at, updated_at)
            VALUES (1, 'club', '{}', 3, '2026-03-05 20:00:00', '2026-03-05 21:00:00');
        INSERT INTO side (id, game_id, position, name) VALUES (1, 1, 0, 'Ann'), (2, 1, 1, 'Bob');
        INSERT INTO player (id, side_id, position, name) VALUES (1, 1, 0, 'Ann'), (2, 2, 0, 'Bob');
        INSERT INTO deal (id, game_id, number, version, created_at, updated_at)
            VALUES (1, 1, 1, 1, '2026-03-05 20:30:00', '2026-03-05 20:30:00');
        INSERT INTO deal_score (id, deal_id, side_id, side_position, entry, total)
            VALUES (1, 1, 1, 0, '{"melded_points": 50}', 50),
                   (2, 1, 2, 1, '{"melded_points": 60}', 60);
        """
    )
    old.commit()
    old.close()

    with app.app_context():
        upgrade()

    new = sqlite3.connect(path)
    counts = {
        table: new.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        for table in ("game", "side", "player", "deal", "deal_score")
    }
    assert counts == {"game": 1, "side": 2, "player": 2, "deal": 1, "deal_score": 2}
    # The game played before clubs existed keeps the day it was played.
    assert new.execute("SELECT played_on FROM game").fetchone()[0] == "2026-03-05"
    assert new.execute("PRAGMA foreign_key_check").fetchall() == []
    # The game made before private links has a secret of its own now: its link and API key.
    [(secret,)] = new.execute("SELECT secret FROM game").fetchall()
    new.close()
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", secret), secret
    client = app.test_client()
    assert client.get("/api/v1/games/1").status_code == 404  # not without its key
    answer = client.get("/api/v1/games/1", headers={"X-Game-Key": secret})
    assert answer.status_code == 200
    state = answer.get_json()
    assert state["url"] == f"/t/{secret}"
    assert [side["total"] for side in state["sides"]] == [50, 60]
