"""A database from before private links keeps every game, each opened by the link that
`flask --app scorekeeper game-links` prints (SQLite, and PostgreSQL with TEST_DATABASE_URL)."""

from __future__ import annotations

import re

from flask_migrate import upgrade
from sqlalchemy import text

from scorekeeper import create_app
from scorekeeper.plumbing.db import db

BEFORE_LINKS = "0006"
LINE = re.compile(r"^game (\d+)\t(\S+)\t([^\t]+)\t([^\t]+)\t(finished|in progress)\t(\S+)$")

OLD_ROWS = """
INSERT INTO organiser (id, username, password_hash, created_at)
    VALUES (1, 'olga', 'x', '2026-03-01 10:00:00');
INSERT INTO club (id, slug, name, table_code, standings_public, min_games_ranked, created_at)
    VALUES (1, 'thursday', 'Thursday Club', 'thursday-code-0123456789', false, 3,
            '2026-03-01 10:00:00');
INSERT INTO club_organiser (club_id, organiser_id) VALUES (1, 1);
INSERT INTO game (id, club_id, played_on, ruleset, house_rules, decks, created_at, updated_at,
                  finished_at)
    VALUES (1, NULL, '2026-03-05', 'classic', '{}', 4, '2026-03-05 20:00:00',
            '2026-03-05 21:00:00', NULL),
           (2, NULL, '2026-03-06', 'family', '{}', 5, '2026-03-06 20:00:00',
            '2026-03-06 21:00:00', NULL),
           (3, 1, '2026-03-07', 'classic', '{}', 4, '2026-03-07 20:00:00',
            '2026-03-07 21:00:00', NULL);
INSERT INTO side (id, game_id, position, name, final_total, won, deals_played, clean_books,
                  dirty_books, wild_books, special_books, went_out, red_threes_caught)
    VALUES (1, 1, 0, 'Ann', 50, false, 1, 0, 0, 0, 0, 0, 0),
           (2, 1, 1, 'Bob', 60, false, 1, 0, 0, 0, 0, 0, 0),
           (3, 2, 0, 'Cleo', 0, false, 0, 0, 0, 0, 0, 0, 0),
           (4, 2, 1, 'Dev', 0, false, 0, 0, 0, 0, 0, 0, 0),
           (5, 3, 0, 'Mo', 0, false, 0, 0, 0, 0, 0, 0, 0),
           (6, 3, 1, 'Guest', 0, false, 0, 0, 0, 0, 0, 0, 0);
INSERT INTO player (id, side_id, position, name)
    VALUES (1, 1, 0, 'Ann'), (2, 2, 0, 'Bob'), (3, 3, 0, 'Cleo'), (4, 4, 0, 'Dev'),
           (5, 5, 0, 'Mo'), (6, 6, 0, 'Guest');
INSERT INTO deal (id, game_id, number, version, created_at, updated_at)
    VALUES (1, 1, 1, 1, '2026-03-05 20:30:00', '2026-03-05 20:30:00');
INSERT INTO deal_score (id, deal_id, side_id, side_position, entry, total)
    VALUES (1, 1, 1, 0, '{"melded_points": 50}', 50),
           (2, 1, 2, 1, '{"melded_points": 60}', 60);
"""


def test_an_old_database_keeps_every_game_each_opened_by_its_printed_link(databases, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": databases.empty(tmp_path),
        }
    )
    try:
        with app.app_context():
            upgrade(revision=BEFORE_LINKS)
            with db.engine.begin() as connection:
                for statement in OLD_ROWS.split(";"):
                    if statement.strip():
                        connection.execute(text(statement))
                if connection.dialect.name == "postgresql":
                    for table in ("organiser", "club", "game", "side", "player", "deal"):
                        connection.execute(
                            text(f"SELECT setval('{table}_id_seq', (SELECT max(id) FROM {table}))")
                        )
            upgrade()

        printed = app.test_cli_runner().invoke(
            args=["game-links", "--base-url", "https://scores.example.org/"]
        )
        assert printed.exit_code == 0, printed.output
        lines = [LINE.match(line) for line in printed.stdout.splitlines()]
        assert all(lines), printed.stdout
        by_id = {int(m.group(1)): m for m in lines if m}
        assert sorted(by_id) == [1, 2, 3]
        assert "3 games" in printed.output
        assert by_id[3].group(3) == "Thursday Club" and by_id[1].group(3) == "casual"
        assert by_id[1].group(4) == "Ann v Bob"
        links = {game_id: m.group(6) for game_id, m in by_id.items()}
        assert len(set(links.values())) == 3
        for link in links.values():
            assert re.fullmatch(r"https://scores\.example\.org/t/[A-Za-z0-9_-]{22}", link)

        phone = app.test_client()
        # Every game is where its link says, deals and totals intact.
        board = phone.get(links[1].removeprefix("https://scores.example.org")).text
        assert "Ann" in board and "Bob" in board and "Deal 1" in board
        assert "Cleo" in phone.get(links[2].removeprefix("https://scores.example.org")).text
        secret = links[1].rsplit("/", 1)[1]
        state = phone.get("/api/v1/games/1", headers={"X-Game-Key": secret}).get_json()
        assert [side["total"] for side in state["sides"]] == [50, 60]
        # The old address no longer opens it.
        assert phone.get("/games/1").status_code == 404
        # A club game's printed link opens it too (issue 37: a game's link is enough), and
        # nothing of its club: the club's pages take its table link.
        club_path = links[3].removeprefix("https://scores.example.org")
        assert "Mo" in phone.get(club_path).text
        assert phone.get("/clubs/thursday").status_code == 404
        assert phone.post("/clubs/thursday/table/thursday-code-0123456789").status_code == 302
        assert phone.get("/clubs/thursday").status_code == 200
        # A game started after the upgrade gets a secret of its own.
        made = phone.post(
            "/api/v1/games", json={"ruleset": "classic", "sides": [{"name": "E"}, {"name": "F"}]}
        ).get_json()
        assert made["id"] == 4 and made["key"] not in {link[-22:] for link in links.values()}
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
