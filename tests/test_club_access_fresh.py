"""Who may do what in a club, each test on a fresh database: a replaced table code, the table
link on a public club, the CSRF token of organiser forms, stored and short passwords, and casual
games for everyone.

The tests that change nothing share one module-wide pair of clubs in tests/test_club_access.py.
"""

from __future__ import annotations

import pytest
from club_access_world import (
    PASSWORD,
    _club,
    _games,
    _quick_hashing,
    _signup,
    snapshot,
    started_game,
)
from game_links import key, link
from sqlalchemy import select
from werkzeug.security import check_password_hash

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Organiser
from scorekeeper.rules.terms import MIN_PASSWORD
from scorekeeper.services import clubs


@pytest.fixture
def quick(monkeypatch):
    _quick_hashing(monkeypatch)


def test_a_replaced_code_gives_no_access(app, client, quick):
    _signup(client, "olga")
    _club(client, "priv", public=False)
    with app.app_context():
        old = clubs.club_by_slug("priv").table_code
    phone = app.test_client()
    assert phone.post(f"/clubs/priv/table/{old}").status_code == 302
    assert phone.get("/clubs/priv/games/new").status_code == 200
    assert client.post("/clubs/priv/settings/table-link").status_code == 302
    with app.app_context():
        new = clubs.club_by_slug("priv").table_code
    assert new != old and len(new) >= 20
    assert phone.get("/clubs/priv/games/new").status_code == 404
    assert phone.get(f"/clubs/priv/table/{old}").status_code == 404
    stale = {"X-Table-Code": old}
    assert app.test_client().get("/clubs/priv", headers=stale).status_code == 404
    sides = [{"name": "X"}, {"name": "Y"}]
    refused = app.test_client().post(
        "/api/v1/games", json={"ruleset": "club", "club": "priv", "sides": sides}, headers=stale
    )
    assert refused.status_code == 404
    fresh = {"X-Table-Code": new}
    started = app.test_client().post(
        "/api/v1/games", json={"ruleset": "club", "club": "priv", "sides": sides}, headers=fresh
    )
    assert started.status_code == 201
    with app.app_context():
        assert db.session.query(Game).count() == 1


def test_the_table_link_lets_a_phone_play_a_public_club(app, client, quick):
    _signup(client, "olga")
    _club(client, "pub", public=True)
    with app.app_context():
        code = clubs.club_by_slug("pub").table_code
    start = {"ruleset": "club", "side0_member0": "Ann", "side1_member0": "Bob"}
    stranger = app.test_client()
    assert stranger.post("/clubs/pub/games/new?ruleset=club", data=start).status_code == 403
    phone = app.test_client()
    phone.post(f"/clubs/pub/table/{code}")
    game_link, game = started_game(app, phone.post("/clubs/pub/games/new?ruleset=club", data=start))
    deal = {"went_out": "", "s0-books-clean": "1"}
    # Holding the game's link is enough to score it (issue 37), but it is not the club's table
    # link: the stranger starts no club game with it.
    assert stranger.post(f"{game_link}/deals/new", data=deal).status_code == 302
    assert phone.post(f"{game_link}/deals/new", data=deal).status_code == 302
    assert stranger.post("/clubs/pub/games/new?ruleset=club", data=start).status_code == 403
    # Anyone with the link may watch the board of a club's game; two deals were saved.
    watched = stranger.get(f"/api/v1/games/{game}", headers=key(app, game))
    assert watched.get_json()["sides"][0]["total"] == 1000


def test_organiser_forms_need_the_csrf_token(app, client, quick):
    """A page on another site cannot make a signed-in organiser's browser change the club."""
    _signup(client, "olga")
    _club(client, "priv", public=False)
    with app.app_context():
        ids = _games("priv")
    before = snapshot(app)
    app.config["WTF_CSRF_ENABLED"] = True
    # A new table link without its token comes back to its confirmation, saying why.
    assert client.post("/clubs/priv/settings/table-link").status_code == 422
    for path in (
        f"{link(app, ids['game'])}/delete",
        f"/clubs/priv/members/{ids['spare']}/delete",
        f"/clubs/priv/members/{ids['member']}/archive",
    ):
        assert client.post(path).status_code == 400, path
    assert (
        client.post("/clubs/priv/settings/organisers", data={"organiser-name": "x"}).status_code
        == 400
    )
    assert snapshot(app) == before


def test_passwords_are_stored_hashed(app, client):
    """A fresh app with the real hashing."""
    _signup(client, "hashed")
    with app.app_context():
        stored = db.session.execute(select(Organiser.password_hash)).scalar_one()
    assert PASSWORD not in stored
    assert stored.split(":")[0] in ("scrypt", "pbkdf2")
    assert check_password_hash(stored, PASSWORD)
    assert client.post("/logout").status_code == 302
    again = client.post("/login", data={"username": "hashed", "password": PASSWORD})
    assert again.status_code == 302


def test_short_passwords_are_refused(app, client):
    response = client.post("/signup", data={"username": "shorty", "password": "1234567"})
    assert response.status_code == 422
    assert f"at least {MIN_PASSWORD} characters" in response.text
    with app.app_context():
        assert db.session.query(Organiser).count() == 0


# ------------------------------------------------------------------------- casual games


def test_casual_games_keep_working_for_everyone(app, client):
    """No club, no account: start, enter, correct, watch, as before clubs existed."""
    started = client.post(
        "/games/new?ruleset=club",
        data={"ruleset": "club", "side0_name": "Ann", "side1_name": "Bob"},
    )
    game_link, game = started_game(app, started)
    # Deal 1: Ann one clean book = 500. Deals 2-4: nothing scored. Ann wins with 500.
    for deal in ({"s0-books-clean": "1"}, {}, {}, {}):
        assert (
            client.post(f"{game_link}/deals/new", data={"went_out": "", **deal}).status_code == 302
        )
    stranger = app.test_client()
    board = stranger.get(game_link)
    assert board.status_code == 200 and "Game over" in board.text
    # A finished casual game may still be corrected by whoever holds its link: 2 clean = 1,000.
    corrected = stranger.post(
        f"{game_link}/deals/1/edit", data={"went_out": "", "s0-books-clean": "2", "version": "1"}
    )
    assert corrected.status_code == 302
    answer = stranger.get(f"/api/v1/games/{game}", headers=key(app, game))
    assert answer.get_json()["sides"][0]["total"] == 1000
    # Only club games can be deleted, by their organisers.
    assert stranger.post(f"{game_link}/delete").status_code == 404
    # The API too, with no code or account: the game's key comes with its start.
    created = stranger.post(
        "/api/v1/games", json={"ruleset": "club", "sides": [{"name": "Cy"}, {"name": "Di"}]}
    )
    assert created.status_code == 201
    deal = stranger.post(
        f"/api/v1/games/{created.get_json()['id']}/deals",
        json={"scores": [{"books": {"dirty": 1}}, {}]},
        headers={"X-Game-Key": created.get_json()["key"]},
    )
    assert deal.status_code == 201
    assert deal.get_json()["sides"][0]["total"] == 300  # one dirty book
    # The stranger opened the game through its link: it is on the stranger's home page.
    home = stranger.get("/")
    assert home.status_code == 200 and f'"{game_link}"' in home.text
