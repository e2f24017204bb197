"""Upgrading the schema keeps every game: SQLite's table copies must not cascade deletes."""

from __future__ import annotations

import importlib.util
import re
import sqlite3
from pathlib import Path

from flask_migrate import downgrade, upgrade
from sqlalchemy import delete, select, update

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import (
    Member,
    Night,
    NightPlayer,
    Player,
    Rating,
    RatingMark,
    Side,
)
from scorekeeper.rules import DealEntry
from scorekeeper.services import accounts, clubs, games, names
from scorekeeper.services.games import SideSetup
from scorekeeper.services.ratings import refold

VERSIONS = Path(__file__).resolve().parents[1] / "scorekeeper/migrations/versions"


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


def test_migration_0026_squeezes_as_the_code_does():
    """0026 keeps its own copy of `names.squeezed` (a migration must not move with the code)."""
    path = VERSIONS / "0026_names_squeezed.py"
    spec = importlib.util.spec_from_file_location("migration_0026", path)
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    for name in ("Ann", "  Ann   Smith ", "Ann\u00a0 Lee", "Ann\u3000Lee", "", "   ", "A  b  c"):
        assert migration._squeezed(name) == names.squeezed(name), name


def test_migration_0026_squeezes_the_names_kept_before(databases, tmp_path, quick_hashing):
    """Players, sides, night guests and members kept with runs of spaces (as the code before
    issue 41 kept players and sides) are squeezed; a member whose squeezed name is another's
    keeps it; a club whose guests' names changed has its ratings marked to fold again whole.
    On SQLite, and on PostgreSQL with TEST_DATABASE_URL."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": databases.empty(tmp_path)})
    try:
        with app.app_context():
            upgrade()
            olga = accounts.register("olga", "violet-harbour-lantern")
            club = clubs.create_club("Tuesday Club", "tuesday", olga)
            for name in ("Ann Smith", "Bob Ray", "Cat Lee", "cat lee 2"):
                clubs.add_member(club, name)
            sides = [SideSetup("Us", ["Ann Smith", "Zed Q"]), SideSetup("Them", ["Bob Ray"])]
            game = games.start_game("classic", sides, club=club)
            night = Night(
                club_id=club.id,
                ruleset="classic",
                shape="fours",
                partners="rotating",
                rounds_planned=3,
                sit_out="no game",
            )
            night.players.append(NightPlayer(name="Dee  Fox"))
            db.session.add(night)
            db.session.commit()
            # As the code before issue 41 could keep them (or an older host, members too).
            typed = {"Zed Q": "Zed  Q ", "Bob Ray": " Bob   Ray", "Ann Smith": "Ann Smith"}
            for player in game.sides[0].players + game.sides[1].players:
                player.name = typed[player.name]
            game.sides[0].name = "Us  two"
            by_name = {m.name: m for m in club.members}
            by_name["Bob Ray"].name = "Bob  Ray"
            by_name["cat lee 2"].name = "cat  lee"  # squeezed, it would be member Cat Lee
            db.session.execute(delete(RatingMark))
            db.session.commit()
            club_id, game_id = club.id, game.id
            downgrade(revision="0025")
            upgrade()
            db.session.remove()
            players = select(Player.name).join(Player.side).where(Side.game_id == game_id)
            assert db.session.scalars(players.order_by(Side.position, Player.position)).all() == [
                "Ann Smith",
                "Zed Q",
                "Bob Ray",
            ]
            sides_kept = select(Side.name).where(Side.game_id == game_id).order_by(Side.position)
            assert db.session.scalars(sides_kept).all() == ["Us two", "Them"]
            assert db.session.scalars(select(NightPlayer.name)).all() == ["Dee Fox"]
            members = db.session.scalars(select(Member.name).order_by(Member.id)).all()
            assert members == ["Ann Smith", "Bob Ray", "Cat Lee", "cat  lee"]
            marks = select(RatingMark.club_id, RatingMark.whole)
            assert db.session.execute(marks).all() == [(club_id, True)]
            # Squeezed, a player typed with spaces is the member again at the next game.
            db.session.execute(update(Member).where(Member.name == "cat  lee").values(name="Cy"))
            db.session.commit()
            again = games.start_game("classic", [SideSetup("A", ["Bob  Ray"]), SideSetup("B", [])])
            assert again.sides[0].players[0].name == "Bob Ray"
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_migration_0027_marks_each_club_that_rated_a_guest(databases, tmp_path, quick_hashing):
    """Guests are rated by their name's key since 0027: a club with a guest's rating is marked
    to fold again whole (its guests keyed anew); a club with none is left alone."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": databases.empty(tmp_path)})
    try:
        with app.app_context():
            upgrade()
            olga = accounts.register("olga", "violet-harbour-lantern")
            clubs_made = [clubs.create_club(n, n.lower(), olga) for n in ("Tuesday", "Friday")]
            for club, guest in zip(clubs_made, ("Zed", "Bob"), strict=True):
                clubs.add_member(club, "Ann")
                if club.slug == "friday":
                    clubs.add_member(club, "Bob")  # a member: no guest's rating there
                sides = [SideSetup("A", ["Ann"]), SideSetup("B", [guest])]
                deal = [DealEntry.from_dict({"books": {"clean": 1}}, 0), DealEntry.from_dict({}, 1)]
                games.record_game("club", sides, [deal] * 4, club=club)
            db.session.execute(delete(RatingMark))
            db.session.commit()
            tuesday = clubs_made[0].id
            downgrade(revision="0026")
            upgrade(revision="0027")
            db.session.remove()
            marks = select(RatingMark.club_id, RatingMark.whole)
            assert db.session.execute(marks).all() == [(tuesday, True)]
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def test_migration_0029_keeps_partners_and_folds_every_rated_club(databases, tmp_path):
    """Whom each player always partnered is kept since 0029: not known (null) for the ratings
    kept before, each club with ratings marked to fold again whole, which fills it in."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": databases.empty(tmp_path)})
    try:
        with app.app_context():
            upgrade()
            olga = accounts.register("olga", "violet-harbour-lantern")
            club = clubs.create_club("Tuesday", "tuesday", olga)
            clubs.create_club("Idle", "idle", olga)  # no ratings: left alone
            for name in ("Ann", "Bob", "Cat", "Dan"):
                clubs.add_member(club, name)
            sides = [SideSetup("A", ["Ann", "Bob"]), SideSetup("B", ["Cat", "Dan"])]
            deal = [DealEntry.from_dict({"books": {"clean": 1}}, 0), DealEntry.from_dict({}, 1)]
            games.record_game("classic", sides, [deal] * 4, club=club)
            db.session.execute(delete(RatingMark))
            db.session.commit()
            downgrade(revision="0028")
            upgrade()
            db.session.remove()
            kept = select(Rating.partners).where(Rating.scope == "all")
            assert set(db.session.execute(kept).scalars()) == {None}
            marks = select(RatingMark.club_id, RatingMark.whole)
            assert db.session.execute(marks).all() == [(club.id, True)]
            assert refold.fold_club(club.id)
            found = dict(
                db.session.execute(
                    select(Member.name, Rating.partners)
                    .join(Member, Member.id == Rating.member_id)
                    .where(Rating.scope == "all")
                ).all()
            )
            # Each always with one partner: a digest of them (one game; none told apart yet).
            assert sorted(found) == ["Ann", "Bob", "Cat", "Dan"]
            assert all(re.fullmatch(r"[0-9a-f]{16}", key) for key in found.values()), found
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
