"""The init-db command creates the schema, and is safe to run twice."""

from sqlalchemy import inspect

from scorekeeper.plumbing.db import db


def test_init_db_twice_keeps_games(app, runner, client):
    """Running init-db again upgrades nothing and loses nothing."""
    created = client.post(
        "/api/v1/games",
        json={"ruleset": "club", "sides": [{"name": "Ann"}, {"name": "Bob"}]},
    )
    assert created.status_code == 201
    for _ in range(2):
        result = runner.invoke(args=["init-db"])
        assert result.exit_code == 0, result.output
        assert "Database ready" in result.output
    with app.app_context():
        tables = set(inspect(db.engine).get_table_names())
    assert {"game", "side", "player", "deal", "deal_score"} <= tables
    game = created.get_json()
    kept = client.get(f"/api/v1/games/{game['id']}", headers={"X-Game-Key": game["key"]})
    assert kept.status_code == 200
    assert client.get(f"/t/{game['key']}").status_code == 200  # its link still opens it
