"""Issue 26: who may keep an answer. Keyed and signed-in answers stay out of shared caches,
and what an organiser's sign-in alone shows is never kept on a phone.

A shared cache (Varnish, a CDN) keeps an answer by its address unless the answer says it is
`private`, and tells apart only the request headers its `Vary` names: the headers are the
contract. The API's answers are `private, no-store`. A game's pages, its live answer, scorer
and QR code are `private` only: the phone's worker keeps them for play with no signal, and it
drops whatever comes `no-store` (static/sw.js), as it must an organiser's pages.
"""

from __future__ import annotations

import pytest

from scorekeeper.services import clubs

PASSWORD = "quiet-harbour-7341-lantern"
SIDES = [{"name": "Us"}, {"name": "Them"}]
PRIVATE, PUBLIC = "priv", "pub"


pytestmark = pytest.mark.usefixtures("quick_hashing")


def directives(response) -> set[str]:
    """The Cache-Control directives, names only, lower case."""
    value = response.headers.get("Cache-Control", "")
    return {d.split("=")[0].strip().lower() for d in value.split(",") if d.strip()}


def varies_on(response) -> set[str]:
    """The request headers the answer's Vary names, lower case."""
    return {v.strip().lower() for v in response.headers.get("Vary", "").split(",") if v.strip()}


def casual_game(client) -> tuple[int, str]:
    """A casual game started through the API: its id and its secret."""
    started = client.post("/api/v1/games", json={"ruleset": "club", "sides": SIDES})
    assert started.status_code == 201, started.get_json()
    return started.get_json()["id"], started.get_json()["key"]


@pytest.fixture
def olga(app):
    """A signed-in organiser running a private club and a public one, each with a game."""
    client = app.test_client()
    assert (
        client.post("/signup", data={"username": "olga", "password": PASSWORD}).status_code == 302
    )
    for slug, public in ((PRIVATE, False), (PUBLIC, True)):
        data = {"name": f"Club {slug}", "slug": slug, **({"public": "y"} if public else {})}
        assert client.post("/clubs/new", data=data).status_code == 302
    return client


def code_of(app, slug: str) -> str:
    with app.app_context():
        return clubs.club_by_slug(slug).table_code


def club_game(app, slug: str) -> tuple[int, str]:
    """A game of the club, started through the API with its table code: id and secret."""
    started = app.test_client().post(
        "/api/v1/games",
        json={"ruleset": "club", "club": slug, "sides": SIDES},
        headers={"X-Table-Code": code_of(app, slug)},
    )
    assert started.status_code == 201, started.get_json()
    return started.get_json()["id"], started.get_json()["key"]


def game_pages(secret: str) -> list[str]:
    """What the phone's worker keeps of a game: its pages, the scorer's state, the live answer."""
    board = f"/t/{secret}"
    return [board, f"{board}/deals/new", f"{board}/rules", f"{board}/scorer", f"{board}/live"]


# ------------------------------------------------------ (1) nothing keyed in a shared cache


def test_the_apis_game_answers_are_private_no_store_and_vary_on_the_key(app, client):
    """The finding: a stranger with no key got a game's state, its secret link among it."""
    game_id, secret = casual_game(client)
    keyed = {"X-Game-Key": secret}
    for path in (f"/api/v1/games/{game_id}", f"/api/v1/games/{game_id}/deals/next/parts"):
        answer = client.get(path, headers=keyed)
        assert answer.status_code == 200, path
        assert {"private", "no-store"} <= directives(answer), (path, answer.headers)
        assert {"x-game-key", "x-table-code", "cookie"} <= varies_on(answer), path
    # A wrong key's 404 says as little to a cache as to the person.
    wrong = client.get(f"/api/v1/games/{game_id}", headers={"X-Game-Key": "x" * 22})
    assert wrong.status_code == 404
    assert {"private", "no-store"} <= directives(wrong)


def test_a_new_games_answer_holding_its_secret_is_no_store(client):
    started = client.post("/api/v1/games", json={"ruleset": "club", "sides": SIDES})
    assert started.status_code == 201
    assert "key" in started.get_json()
    assert {"private", "no-store"} <= directives(started)


def test_a_clubs_api_answers_are_private_no_store_and_vary_on_the_table_code(app, olga):
    """A private club's standings opened with X-Table-Code, or with the session."""
    code = {"X-Table-Code": code_of(app, PRIVATE)}
    for path in (f"/api/v1/clubs/{PRIVATE}/standings", f"/api/v1/clubs/{PRIVATE}/rule-sets"):
        for answer in (app.test_client().get(path, headers=code), olga.get(path)):
            assert answer.status_code == 200, path
            assert {"private", "no-store"} <= directives(answer), path
            assert {"x-table-code", "cookie"} <= varies_on(answer), path


def test_what_is_the_same_for_everyone_may_be_shared(client):
    """The presets and the API's description: no key, no session, nothing private."""
    for path in ("/api/v1/rulesets", "/api/v1/rulesets/club", "/api/v1/openapi.json"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert not {"private", "no-store"} & directives(answer), path


def test_a_games_pages_are_private_and_still_kept_on_the_phone(app, client):
    """Private (no shared cache), never no-store: the worker keeps them for no signal. The
    session decides them (the side this phone sent, who is signed in); no table code does."""
    _, secret = casual_game(client)
    for path in [*game_pages(secret), f"/t/{secret}/invite.svg"]:
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert "private" in directives(answer), (path, answer.headers)
        assert "no-store" not in directives(answer), path
        assert "cookie" in varies_on(answer), path


def test_a_club_games_pages_vary_on_the_table_code(app, olga):
    """The table code decides who sees a club's game: a cache must keep each apart by it."""
    _, secret = club_game(app, PUBLIC)
    code = {"X-Table-Code": code_of(app, PUBLIC)}
    for path in [*game_pages(secret), f"/t/{secret}/invite.svg"]:
        answer = app.test_client().get(path, headers=code)
        assert answer.status_code == 200, path
        assert "private" in directives(answer), (path, answer.headers)
        assert "no-store" not in directives(answer), path
        assert {"x-table-code", "cookie"} <= varies_on(answer), path


def test_a_club_page_opened_with_the_table_code_is_private(app, olga):
    """A public club's overview lists its games in progress (their links) to a table."""
    club_game(app, PUBLIC)
    answer = app.test_client().get(
        f"/clubs/{PUBLIC}", headers={"X-Table-Code": code_of(app, PUBLIC)}
    )
    assert answer.status_code == 200
    assert "/t/" in answer.get_data(as_text=True)
    assert "private" in directives(answer)
    assert {"x-table-code", "cookie"} <= varies_on(answer)


# ----------------------------------------------- (2) what the sign-in alone shows, not kept


def test_the_home_page_signed_in_is_no_store(app, olga):
    """It lists the clubs the organiser runs: after a sign-out elsewhere, not on the phone."""
    answer = olga.get("/")
    assert answer.status_code == 200
    assert "Club priv" in answer.get_data(as_text=True)
    assert "no-store" in directives(answer)


def test_the_home_page_of_a_phone_with_no_sign_in_is_kept(app, client):
    casual_game(client)
    answer = client.get("/")
    assert answer.status_code == 200
    assert "no-store" not in directives(answer)


@pytest.mark.parametrize("slug", [PRIVATE, PUBLIC])
def test_a_club_game_seen_thanks_to_the_sign_in_is_no_store(app, olga, slug):
    """The organiser holds no table link on this phone: the sign-in alone opens the game."""
    _, secret = club_game(app, slug)
    for path in [*game_pages(secret), f"/clubs/{slug}/games/new?ruleset=club"]:
        answer = olga.get(path)
        assert answer.status_code == 200, path
        assert "no-store" in directives(answer), (path, answer.headers)


def test_a_club_game_seen_thanks_to_the_table_link_is_kept(app, olga):
    """A table's phone, or the organiser's once it keeps the table link: play with no signal."""
    _, secret = club_game(app, PRIVATE)
    link = f"/clubs/{PRIVATE}/table/{code_of(app, PRIVATE)}"
    table = app.test_client()
    for phone in (table, olga):
        assert phone.post(link).status_code == 302
        for path in game_pages(secret):
            answer = phone.get(path)
            assert answer.status_code == 200, path
            assert "no-store" not in directives(answer), path
            assert "private" in directives(answer), path


def test_a_casual_game_signed_in_is_kept(app, olga):
    """An organiser playing a casual game: nothing in it comes from the sign-in."""
    _, secret = casual_game(olga)
    for path in game_pages(secret):
        answer = olga.get(path)
        assert answer.status_code == 200, path
        assert "no-store" not in directives(answer), path
