"""CSRF protects every form; the JSON API, which only takes application/json, needs no token."""

import re

import pytest

from scorekeeper import create_app
from scorekeeper.plumbing.models import Game


@pytest.fixture
def guarded(app):
    """The same database, with CSRF checks on as in production."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app.test_client()


def count_games(app) -> int:
    with app.app_context():
        from scorekeeper.plumbing.db import db

        return db.session.query(Game).count()


def test_form_post_without_token_is_refused(app, guarded):
    """A forged form post starts no game; the form comes back filled in, not a bare 400."""
    response = guarded.post(
        "/games/new?ruleset=club",
        data={"ruleset": "club", "side0_name": "Ann", "side1_name": "Bob"},
    )
    assert response.status_code == 422
    assert b"This form had expired" in response.data
    assert b'value="Ann"' in response.data
    assert b"Traceback" not in response.data
    assert count_games(app) == 0


def test_form_post_with_token_starts_the_game(app, guarded):
    """The token the page hands out is accepted."""
    page = guarded.get("/games/new?ruleset=club").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    response = guarded.post(
        "/games/new?ruleset=club",
        data={"csrf_token": token, "ruleset": "club", "side0_name": "Ann", "side1_name": "Bob"},
    )
    assert response.status_code == 302
    assert count_games(app) == 1


def test_a_post_without_a_form_to_refill_is_a_plain_400(app, guarded):
    """Sign-out and other buttons without a token are refused with a page, nothing done."""
    response = guarded.post("/logout")
    assert response.status_code == 400
    assert b"This form has expired" in response.data


def test_json_api_needs_no_token_but_refuses_form_posts(app, guarded):
    """A cross-site form cannot send JSON, so the API takes JSON only."""
    sides = [{"name": "Ann"}, {"name": "Bob"}]
    assert (
        guarded.post("/api/v1/games", json={"ruleset": "club", "sides": sides}).status_code == 201
    )
    assert guarded.post("/api/v1/games", data={"ruleset": "club"}).status_code == 415
    assert count_games(app) == 1


def test_create_app_without_test_config_reads_the_instance_folder(monkeypatch, tmp_path):
    """The factory works with no test config (as `flask run` calls it)."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'x.sqlite'}")
    app = create_app()
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("x.sqlite")
    assert app.config["WTF_CSRF_ENABLED"] is not False
