"""Issue 14 hardening: organiser pages never kept, HSTS in production, private files, no demo.

Organiser-only pages (anything that needs Level.ORGANISER, and every page of a private club)
and every CSV export go out with `Cache-Control: no-store`, which the service worker honours:
so no phone keeps them past a session. A public club's pages, as anyone sees them, may be kept.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

import flask
import pytest

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.services import clubs

PASSWORD = "quiet-harbour-7341-lantern"
PRIVATE, PUBLIC = "priv", "pub"
HSTS = "max-age=31536000; includeSubDomains"


pytestmark = pytest.mark.usefixtures("quick_hashing")


@pytest.fixture
def olga(app):
    """A signed-in organiser running a private club and a public one, each with a member."""
    client = app.test_client()
    assert (
        client.post("/signup", data={"username": "olga", "password": PASSWORD}).status_code == 302
    )
    for slug, public in ((PRIVATE, False), (PUBLIC, True)):
        data = {"name": f"Club {slug}", "slug": slug, **({"public": "y"} if public else {})}
        assert client.post("/clubs/new", data=data).status_code == 302
        assert client.post(f"/clubs/{slug}/members", data={"name": "Ann"}).status_code == 302
    return client


def member_id(app, slug: str) -> int:
    """The id of the club's one member."""
    with app.app_context():
        return clubs.club_by_slug(slug).members[0].id


def table_phone(app, slug: str):
    """A client that opened the club's table link (Level.TABLE, no account)."""
    with app.app_context():
        code = clubs.club_by_slug(slug).table_code
    phone = app.test_client()
    assert phone.post(f"/clubs/{slug}/table/{code}").status_code == 302
    return phone


def club_pages(app, slug: str) -> list[str]:
    """Every page a club shows to readers."""
    return [
        f"/clubs/{slug}",
        f"/clubs/{slug}/standings",
        f"/clubs/{slug}/games",
        f"/clubs/{slug}/members",
        f"/clubs/{slug}/members/{member_id(app, slug)}",
        f"/clubs/{slug}/seasons",
    ]


def no_store(response) -> bool:
    """Whether the response forbids any cache (the phone's worker included) to keep it."""
    directives = {d.strip() for d in response.headers.get("Cache-Control", "").split(",")}
    return "no-store" in directives


# ------------------------------------------------------------------ (1) pages never kept


@pytest.mark.parametrize("slug", [PRIVATE, PUBLIC])
@pytest.mark.parametrize("page", ["settings", "import"])
def test_organiser_only_pages_are_no_store(app, olga, slug, page):
    """Settings (with the live table link) and import are never kept, public club or not."""
    answer = olga.get(f"/clubs/{slug}/{page}")
    assert answer.status_code == 200
    assert no_store(answer), answer.headers


def test_the_clubs_you_run_and_a_new_club_are_no_store(app, olga):
    """The list of an organiser's clubs and the new-club form are theirs alone."""
    for path in ("/clubs", "/clubs/new"):
        answer = olga.get(path)
        assert answer.status_code == 200
        assert no_store(answer), path


def test_a_private_clubs_pages_are_no_store_for_everyone_who_sees_them(app, olga):
    """Members, standings, history of a private club: not for the next person on the phone."""
    phone = table_phone(app, PRIVATE)
    for who in (olga, phone):
        for path in club_pages(app, PRIVATE):
            answer = who.get(path)
            assert answer.status_code == 200, path
            assert no_store(answer), path


def test_an_organiser_sees_even_a_public_club_no_store(app, olga):
    """An organiser's view carries organiser forms (merge, delete, add): not kept."""
    for path in club_pages(app, PUBLIC):
        answer = olga.get(path)
        assert answer.status_code == 200, path
        assert no_store(answer), path


def test_a_public_clubs_pages_as_anyone_sees_them_may_be_kept(app, olga):
    """Public standings stay on the phone for reading with no signal."""
    for who in (app.test_client(), table_phone(app, PUBLIC)):
        for path in club_pages(app, PUBLIC):
            answer = who.get(path)
            assert answer.status_code == 200, path
            assert not no_store(answer), path


@pytest.mark.parametrize("kind", ["games", "deals", "standings"])
def test_every_csv_export_is_no_store(app, olga, kind):
    """Even a public club's CSV, even to a stranger."""
    for who in (olga, app.test_client()):
        answer = who.get(f"/clubs/{PUBLIC}/export/{kind}.csv")
        assert answer.status_code == 200
        assert answer.mimetype == "text/csv"
        assert no_store(answer), kind
    assert no_store(olga.get(f"/clubs/{PRIVATE}/export/{kind}.csv"))


def test_the_table_link_and_sign_in_pages_are_no_store(app, olga):
    """The table link's own address carries its code; sign-in forms carry a CSRF token."""
    with app.app_context():
        code = clubs.club_by_slug(PUBLIC).table_code
    assert no_store(app.test_client().get(f"/clubs/{PUBLIC}/table/{code}"))
    for path in ("/login", "/signup"):
        assert no_store(app.test_client().get(path)), path


def test_game_pages_and_the_rule_cards_are_still_kept(app, client):
    """What a table needs with no signal is not caught up in it."""
    started = client.post(
        "/api/v1/games", json={"ruleset": "club", "sides": [{"name": "A"}, {"name": "B"}]}
    )
    board = f"/t/{started.get_json()['key']}"
    for path in ("/", "/rules", "/offline", board, f"{board}/deals/new", f"{board}/rules"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert not no_store(answer), path


def test_the_worker_honours_no_store_and_forgets_on_sign_in():
    """sw.js: never keeps a no-store page, and sign-in and sign-out clear what it kept.

    The browser test (tests/browser/test_hardening_offline.py) proves the behaviour; this
    guards the rules where they are written, for machines without Chromium.
    """
    source = (Path(__file__).parent.parent / "static" / "sw.js").read_text()
    forgetting = source.split("const FORGETTING = [", 1)[1].split("]", 1)[0]
    for path in ("/login", "/signup", "/logout", "/my-games/forget"):
        assert f'"{path}"' in forgetting, path
    assert "no-store" in source


# ------------------------------------------------------------------ (11) HSTS in production


def production_app(monkeypatch, tmp_path) -> flask.Flask:
    """The app as production starts it (a real secret, its own database file)."""
    monkeypatch.setenv("SCOREKEEPER_ENV", "production")
    monkeypatch.setenv("SECRET_KEY", "x" * 32)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'prod.sqlite'}")
    return create_app()


def test_hsts_in_production(monkeypatch, tmp_path):
    """Browsers are told to come back over HTTPS only, for a year, subdomains too."""
    app = production_app(monkeypatch, tmp_path)
    for path in ("/offline", "/no-such-page"):
        answer = app.test_client().get(path)
        assert answer.headers["Strict-Transport-Security"] == HSTS, path


def test_no_hsts_outside_production(client):
    """On a laptop over plain HTTP, HSTS would lock localhost out of HTTP for a year."""
    assert "Strict-Transport-Security" not in client.get("/offline").headers


# --------------------------------------------------------- (11) files only the owner reads


def mode(path: Path) -> int:
    """The file's permission bits."""
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_sqlite_database_and_its_logs_are_owner_only(monkeypatch, tmp_path):
    """Created 0600 however open the umask, and the WAL and shared-memory files with it."""
    monkeypatch.delenv("SCOREKEEPER_ENV", raising=False)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'new.sqlite'}")
    old = os.umask(0o002)
    try:
        app = create_app()
        with app.app_context():
            with db.engine.begin() as connection:
                connection.exec_driver_sql("CREATE TABLE t (x INTEGER)")
                connection.exec_driver_sql("INSERT INTO t VALUES (1)")
            for name in ("new.sqlite", "new.sqlite-wal", "new.sqlite-shm"):
                assert (tmp_path / name).exists(), name
                assert mode(tmp_path / name) == 0o600, name
            db.engine.dispose()
    finally:
        os.umask(old)


def test_an_existing_world_readable_database_is_made_owner_only(monkeypatch, tmp_path):
    """A database made before the fix is closed to others when the app next starts."""
    path = tmp_path / "old.sqlite"
    sqlite3.connect(path).close()
    os.chmod(path, 0o644)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    app = create_app()
    assert mode(path) == 0o600
    with app.app_context():
        db.engine.dispose()


def test_the_instance_folder_is_owner_only(monkeypatch, tmp_path):
    """The folder holding the database (and any config.py) opens to its owner alone."""
    folder = tmp_path / "instance"
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setattr(flask.Flask, "auto_find_instance_path", lambda self: str(folder))
    old = os.umask(0o002)
    try:
        app = create_app()
    finally:
        os.umask(old)
    assert mode(folder) == 0o700
    assert mode(folder / "scorekeeper.sqlite") == 0o600
    with app.app_context():
        db.engine.dispose()


def test_a_backup_is_owner_only(app, runner, tmp_path):
    """`flask backup` writes its copy 0600, even over a world-readable file already there."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("PostgreSQL backups are pg_dump's")
    old = os.umask(0o002)
    try:
        fresh = tmp_path / "fresh.sqlite"
        result = runner.invoke(args=["backup", str(fresh)])
        assert result.exit_code == 0, result.output
        assert mode(fresh) == 0o600
        there = tmp_path / "there.sqlite"
        there.write_bytes(b"")
        os.chmod(there, 0o666)
        result = runner.invoke(args=["backup", str(there)])
        assert result.exit_code == 0, result.output
        assert mode(there) == 0o600
    finally:
        os.umask(old)
    copy = sqlite3.connect(fresh)
    assert copy.execute("SELECT count(*) FROM alembic_version").fetchone()[0] == 1
    copy.close()


# ----------------------------------------------------------------- (11) no demo in production


def test_demo_is_refused_in_production(app, runner, monkeypatch):
    """Its published password would open a real server: refused, nothing made."""
    monkeypatch.setenv("SCOREKEEPER_ENV", "production")
    result = runner.invoke(args=["demo", "--games", "0"])
    assert result.exit_code != 0
    assert "production" in result.output and "demo" in result.output
    with app.app_context():
        assert clubs.club_by_slug("demo") is None
    monkeypatch.delenv("SCOREKEEPER_ENV")
    made = runner.invoke(args=["demo", "--games", "0"])
    assert made.exit_code == 0, made.output
