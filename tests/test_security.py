"""Attack surface: headers, cookies, secrets, body limits, error pages, sign-in throttling,
expired forms and backups."""

from __future__ import annotations

import re
import sqlite3

import pytest

from scorekeeper import create_app
from scorekeeper.plumbing.security import MissingSecretKey

SIDES = [{"name": "Ann"}, {"name": "Bob"}]


def start(client, ruleset="club"):
    answer = client.post("/api/v1/games", json={"ruleset": ruleset, "sides": SIDES})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def board(game) -> str:
    """The game's private link (a path), from the API's answer that started it."""
    return f"/t/{game['key']}"


def game_key(game) -> dict[str, str]:
    """The header the API needs for the game, from the answer that started it."""
    return {"X-Game-Key": game["key"]}


def deals_of(client, game) -> list:
    answer = client.get(f"/api/v1/games/{game['id']}", headers=game_key(game))
    assert answer.status_code == 200
    return answer.get_json()["deals"]


@pytest.mark.parametrize(
    "method, path, status",
    [
        ("get", "/", 200),
        ("get", "/rules/classic", 200),
        ("get", "/games/999", 404),  # an address from before private links
        ("get", "/t/" + "A" * 22, 404),  # a link no game has
        ("get", "/clubs/new", 302),  # a redirect to sign in
        ("get", "/sw.js", 200),  # a worker's script: its CSP governs what the worker fetches
    ],
)
def test_security_headers_on_pages_redirects_and_errors(client, method, path, status):
    """Every document says: no framing, no sniffing, no inline script, a careful referrer."""
    response = getattr(client, method)(path)
    assert response.status_code == status
    csp = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "camera=()" in response.headers["Permissions-Policy"]


@pytest.mark.parametrize(
    "method, path, status",
    [("get", "/api/v1/games/999", 404), ("post", "/api/v1/games", 415)],
)
def test_api_answers_load_nothing_and_sit_in_no_frame(client, method, path, status):
    """An API answer opened in a tab is shown as a page: it may load nothing, in no frame."""
    response = getattr(client, method)(path)
    assert response.status_code == status and response.is_json
    assert (
        response.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"
    )
    assert response.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("path", ["/static/app.css", "/static/app.js", "/static/icon.svg"])
def test_files_carry_only_nosniff(client, path):
    """A page's own files carry nosniff, and none of the headers only a document acts on."""
    response = client.get(path)
    assert response.status_code == 200
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    for name in ("Content-Security-Policy", "Referrer-Policy", "X-Frame-Options"):
        assert name not in response.headers, name


def test_an_unchanged_page_or_poll_sends_no_document_headers(client):
    """A 304 keeps the headers the phone already holds: none are sent again."""
    game = start(client)
    first = client.get(f"{board(game)}/live")
    assert first.status_code == 200 and first.headers["ETag"]
    again = client.get(f"{board(game)}/live", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert "Content-Security-Policy" not in again.headers
    assert again.headers["X-Content-Type-Options"] == "nosniff"


def test_pages_use_no_inline_script_or_style(client):
    """The CSP forbids inline code, so no page may rely on it."""
    game = start(client, "cutthroat")
    for path, status in (
        ("/", 200),
        (board(game), 200),
        (f"{board(game)}/deals/new", 200),
        (f"{board(game)}/rules", 200),
        ("/rules/club", 200),
        (f"/games/{game['id']}", 404),  # the page for an address from before private links
    ):
        response = client.get(path)
        assert response.status_code == status, path
        page = response.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)", page), path
        assert " style=" not in page and "<style" not in page, path
        assert not re.search(r"\son[a-z]+=", page), path


def test_production_refuses_to_start_without_a_secret_key(monkeypatch):
    """A forgeable session is worse than no server."""
    monkeypatch.setenv("SCOREKEEPER_ENV", "production")
    monkeypatch.delenv("SECRET_KEY", raising=False)
    with pytest.raises(MissingSecretKey):
        create_app()
    monkeypatch.setenv("SECRET_KEY", "short")
    with pytest.raises(MissingSecretKey):
        create_app()


def test_production_cookies_are_secure_httponly_samesite(monkeypatch, tmp_path):
    """With a proper secret the app starts, and its cookies travel only over HTTPS."""
    monkeypatch.setenv("SCOREKEEPER_ENV", "production")
    monkeypatch.setenv("SECRET_KEY", "x" * 32)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'prod.sqlite'}")
    app = create_app()
    assert app.config["SECRET_KEY"] == "x" * 32
    assert app.config["SESSION_COOKIE_SECURE"] is True
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert app.config["REMEMBER_COOKIE_SECURE"] is True


def test_session_cookie_is_httponly_and_samesite(app):
    """Even in development the session cookie is out of scripts' reach."""
    client = app.test_client()
    signed = client.post("/signup", data={"username": "organiser", "password": "long-club-pass"})
    assert signed.status_code == 302
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"


@pytest.mark.parametrize("path", ["/api/v1/games", "/games/new?ruleset=club"])
def test_oversized_body_is_413(client, path):
    """A body past the limit is refused before anything reads it."""
    big = b"x" * (7 * 1024 * 1024)
    response = client.post(path, data=big, content_type="application/json")
    assert response.status_code == 413
    assert b"Traceback" not in response.data


def test_a_crash_shows_a_plain_page_without_traceback_sql_or_path(app, monkeypatch):
    """Whatever breaks inside, the person sees an apology, not the internals."""
    from scorekeeper.web import home

    def broken(*args, **kwargs):
        raise RuntimeError("SELECT secret FROM /srv/app/instance/scorekeeper.sqlite")

    monkeypatch.setattr(home, "my_games", broken)  # what the home page lists this phone's games by
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = app.test_client().get("/")
    assert response.status_code == 500
    body = response.get_data(as_text=True)
    assert "Something went wrong" in body
    for leak in ("Traceback", "SELECT", "/srv/app", "RuntimeError"):
        assert leak not in body


@pytest.mark.parametrize("figure", ["melded_points", "leftover_points"])
def test_a_twenty_digit_number_is_refused_not_overflowed(client, figure):
    """A number no deal holds is a 422 naming the figure, in the API and on the form."""
    game = start(client)
    huge = 10**20
    answer = client.post(
        f"/api/v1/games/{game['id']}/deals",
        json={"scores": [{figure: huge}, {}]},
        headers=game_key(game),
    )
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["field"] == figure
    page = client.post(f"{board(game)}/deals/new", data={f"s0-{figure}": str(huge)})
    assert page.status_code == 422
    assert deals_of(client, game) == []


def test_sign_in_is_throttled_after_five_failures(client):
    """Guessing is slowed: after five wrong passwords even the right one waits."""
    client.post("/signup", data={"username": "organiser", "password": "right-password"})
    client.post("/logout")
    for _ in range(5):
        wrong = client.post("/login", data={"username": "organiser", "password": "guess"})
        assert wrong.status_code == 422
    blocked = client.post("/login", data={"username": "organiser", "password": "right-password"})
    assert blocked.status_code == 429
    assert b"Too many failed sign-ins" in blocked.data
    # The throttle lives in the database, so another worker or client sees it too.
    other = client.application.test_client()
    again = other.post("/login", data={"username": "ORGANISER", "password": "right-password"})
    assert again.status_code == 429


def test_an_expired_form_comes_back_filled_in_with_a_fresh_token(app):
    """A phone that slept through the token's life keeps every figure typed."""
    app.config["WTF_CSRF_ENABLED"] = True
    client = app.test_client()
    game = start(client)
    response = client.post(
        f"{board(game)}/deals/new",
        data={"csrf_token": "stale", "s0-melded_points": "235", "s1-melded_points": "120"},
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "This form had expired" in page
    assert 'value="235"' in page and 'value="120"' in page
    fresh = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    assert fresh != "stale"
    assert deals_of(client, game) == []
    # Saving again with the fresh token works.
    key = re.search(r'name="idempotency_key" type="hidden" value="([^"]+)"', page).group(1)
    saved = client.post(
        f"{board(game)}/deals/new",
        data={
            "csrf_token": fresh,
            "idempotency_key": key,
            "s0-melded_points": "235",
            "s1-melded_points": "120",
        },
    )
    assert saved.status_code == 302
    assert len(deals_of(client, game)) == 1


def test_backup_copies_the_live_database(app, runner, client, tmp_path):
    """The online backup API makes a consistent copy, checked, while the app runs."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # PostgreSQL has its own tools: the command says which, and copies nothing.
        refused = runner.invoke(args=["backup", str(tmp_path / "backup.sqlite")])
        assert refused.exit_code != 0 and "pg_dump" in refused.output
        assert not (tmp_path / "backup.sqlite").exists()
        return
    game = start(client)
    saved = client.post(
        f"/api/v1/games/{game['id']}/deals",
        json={"scores": [{"melded_points": 50}, {"melded_points": 60}]},
        headers=game_key(game),
    )
    assert saved.status_code == 201, saved.get_json()
    target = tmp_path / "backup.sqlite"
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert "integrity ok" in result.output
    copy = sqlite3.connect(target)
    assert copy.execute("SELECT count(*) FROM deal").fetchone()[0] == 1
    assert copy.execute("SELECT sum(total) FROM deal_score").fetchone()[0] == 110
    copy.close()
    refused = runner.invoke(args=["backup", app.config["SQLALCHEMY_DATABASE_URI"][10:]])
    assert refused.exit_code != 0
