"""Issue 26: games, organiser sign-ups and clubs have an allowance per address.

747 games were made in 20 s from one address. Now an address (IPv4 as is, an IPv6 /64 as one)
makes at most `creations.ALLOWANCES[kind].most` of each within its window; past it the answer is
429 with Retry-After and the refusal in words, and nothing is made. The count is in the database,
so it holds across processes. These tests run at the shipped numbers.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from conftest import close, make_app
from game_links import key, link
from page_reader import read_page
from sqlalchemy import func, select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Creation, Game, Organiser
from scorekeeper.rules import DealEntry
from scorekeeper.services import creations, games
from scorekeeper.services.games import SideSetup, record_game

pytestmark = pytest.mark.usefixtures("quick_hashing")

GAMES = creations.ALLOWANCES[creations.GAME].most
SIGNUPS = creations.ALLOWANCES[creations.SIGNUP].most
CLUBS = creations.ALLOWANCES[creations.CLUB].most
NEW_GAME = {"ruleset": "classic", "sides": [{"name": "Us"}, {"name": "Them"}]}
HERE = "203.0.113.9"
ELSEWHERE = "198.51.100.7"


def start(client, address: str = HERE):
    """POST /api/v1/games from `address`."""
    return client.post("/api/v1/games", json=NEW_GAME, environ_base={"REMOTE_ADDR": address})


def count(app, model) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def said(response) -> str:
    """A page's visible text, or a JSON refusal's first message."""
    if response.is_json:
        return response.get_json()["errors"][0]["message"]
    return " ".join(" ".join(read_page(response.get_data(as_text=True)).words).split())


def use_up_games(client, address: str = HERE) -> None:
    for n in range(GAMES):
        answer = start(client, address)
        assert answer.status_code == 201, (n, answer.get_json())


def assert_too_many(answer, what: str, window: str) -> None:
    """429, a Retry-After in whole seconds, and words naming what and when."""
    assert answer.status_code == 429
    assert answer.headers["Retry-After"].isdigit() and int(answer.headers["Retry-After"]) > 0
    words = said(answer)
    assert f"This address has made {what} in the last {window}" in words, words
    assert "Nothing was saved: try again in " in words, words


# ------------------------------------------------------------------------------- the numbers


def test_the_allowances_fit_a_club_night():
    """12 tables on one wifi, each starting a game every quarter of an hour, fit; the attack's
    747 in 20 s does not."""
    assert 12 * 4 <= GAMES < 747
    assert creations.ALLOWANCES[creations.GAME].window == timedelta(hours=1)
    assert (SIGNUPS, CLUBS) == (10, 10)


# --------------------------------------------------------------------------------- games


def test_past_the_allowance_a_game_is_refused_and_nothing_started(app, client):
    """The 61st game from one address in an hour: 429 naming games and when; no game."""
    use_up_games(client)
    answer = start(client)
    assert_too_many(answer, f"{GAMES} games", "hour")
    assert "try again in 60 minutes" in said(answer)
    assert 3590 <= int(answer.headers["Retry-After"]) <= 3601
    assert count(app, Game) == GAMES


def test_the_forms_share_the_allowance_and_say_so(app, client):
    """The new-game form at the limit: a 429 page in words, no game; the club's form too."""
    from test_clubs import new_club, signup

    signup(client)
    new_club(client)
    use_up_games(client, "127.0.0.1")
    form = read_page(client.get("/games/new?ruleset=classic").get_data(as_text=True)).values
    form.update(side0_name="Ann", side1_name="Bob")
    page = client.post("/games/new?ruleset=classic", data=form)
    assert_too_many(page, f"{GAMES} games", "hour")
    club_form = client.get("/clubs/tuesday/games/new?ruleset=classic")
    data = read_page(club_form.get_data(as_text=True)).values
    data.update(side0_players="Ann", side1_players="Bob")
    club_page = client.post("/clubs/tuesday/games/new?ruleset=classic", data=data)
    assert_too_many(club_page, f"{GAMES} games", "hour")
    assert count(app, Game) == GAMES


def test_another_address_is_not_held_up(app, client):
    use_up_games(client)
    assert start(client).status_code == 429
    assert start(client, ELSEWHERE).status_code == 201


def test_an_ipv6_64_is_one_address(app, client):
    """Addresses of one /64 share an allowance; the next /64 has its own."""
    for n in range(GAMES):
        assert start(client, f"2001:db8:0:7::{n + 1:x}").status_code == 201
    assert start(client, "2001:db8:0:7:ffff:ffff:ffff:fffe").status_code == 429
    assert start(client, "2001:db8:0:8::1").status_code == 201


def test_a_game_refused_for_its_figures_is_not_counted(app, client):
    """Only games made count: a 422 leaves the allowance as it was."""
    for _ in range(GAMES):
        answer = client.post(
            "/api/v1/games",
            json={"ruleset": "classic", "sides": []},
            environ_base={"REMOTE_ADDR": HERE},
        )
        assert answer.status_code == 422
    assert start(client).status_code == 201
    assert count(app, Creation) == 1


def test_the_window_passing_lets_the_address_start_again(app, client):
    """An hour after the first game there is room for one more; the old records are forgotten."""
    use_up_games(client)
    assert start(client).status_code == 429
    with app.app_context():
        first = db.session.scalar(select(func.min(Creation.id)))
        hour_ago = datetime.now(UTC) - timedelta(hours=1, seconds=1)
        db.session.execute(update(Creation).where(Creation.id == first).values(at=hour_ago))
        db.session.commit()
    assert start(client).status_code == 201
    assert start(client).status_code == 429
    with app.app_context():
        assert db.session.get(Creation, first) is None  # forgotten
    assert count(app, Creation) == GAMES


def test_two_app_processes_share_one_allowance(app, client):
    """The count is in the database: games started through another app on the same database
    (another worker or machine) count toward the same address's allowance."""
    other = make_app(app.config["SQLALCHEMY_DATABASE_URI"])
    try:
        for n in range(GAMES):
            which = client if n % 2 else other.test_client()
            assert start(which).status_code == 201
        assert start(other.test_client()).status_code == 429
        assert start(client).status_code == 429
    finally:
        close(other)


def test_games_started_at_once_never_pass_the_allowance(app):
    """Eight phones starting games at the same moment: exactly the allowance is made, the rest
    refused (on PostgreSQL a lock on the address keeps two counts from seeing the same rows)."""
    from concurrent.futures import ThreadPoolExecutor

    def one(_: int) -> int:
        return start(app.test_client()).status_code

    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(one, range(GAMES + 16)))
    assert statuses.count(201) == GAMES
    assert statuses.count(429) == 16
    assert count(app, Game) == GAMES


def test_play_again_counts_but_opening_the_next_game_does_not(app, client):
    """At the limit a finished game's Play again starts nothing (429, saying why); once the
    next game is started, opening it from another phone is no new game."""
    with app.app_context():
        sides = [SideSetup("Us", ["Ann", "Bob"]), SideSetup("Them", ["Cat", "Dan"])]
        zero = [DealEntry.from_dict({}), DealEntry.from_dict({})]
        finished = record_game("classic", sides, [zero] * 4).id
        now = datetime.now(UTC)
        db.session.add_all(
            Creation(kind=creations.GAME, address="127.0.0.1", at=now) for _ in range(GAMES)
        )
        db.session.commit()
    board = link(app, finished)
    client.get(board)
    refused = client.post(f"{board}/play-again", data={"started_by": "Ann"})
    assert_too_many(refused, f"{GAMES} games", "hour")
    assert "Game over" in said(refused)  # shown on the finished game's scoreboard
    with app.app_context():
        assert db.session.get(Game, finished).next_game_id is None
        db.session.execute(update(Creation).values(at=now - timedelta(hours=2)))
        db.session.commit()
    assert client.post(f"{board}/play-again", data={"started_by": "Ann"}).status_code == 302
    with app.app_context():
        db.session.execute(update(Creation).values(at=datetime.now(UTC)))
        db.session.add_all(
            Creation(kind=creations.GAME, address="127.0.0.1", at=now) for _ in range(GAMES)
        )
        db.session.commit()
    phone = app.test_client()
    phone.get(board)
    opened = phone.post(f"{board}/play-again", data={"started_by": "Cat"})
    assert opened.status_code == 302
    assert count(app, Game) == 2


def test_the_server_may_allow_more(app, client, monkeypatch):
    """GAMES_PER_HOUR (app config, or SCOREKEEPER_GAMES_PER_HOUR) sets the number, e.g. for a
    tournament behind one address; a setting that is no number leaves the shipped one."""
    app.config["GAMES_PER_HOUR"] = 2
    assert [start(client).status_code for _ in range(3)] == [201, 201, 429]
    assert "made 2 games" in said(start(client))
    del app.config["GAMES_PER_HOUR"]
    monkeypatch.setenv("SCOREKEEPER_GAMES_PER_HOUR", "3")
    assert start(client).status_code == 201
    assert start(client).status_code == 429
    monkeypatch.setenv("SCOREKEEPER_GAMES_PER_HOUR", "lots")
    with app.test_request_context():
        assert creations.most_of(creations.GAME) == GAMES


def test_openapi_documents_the_429(client):
    document = client.get("/api/v1/openapi.json").get_json()
    answer = document["paths"]["/api/v1/games"]["post"]["responses"]["429"]
    assert "Retry-After" in answer["headers"]
    assert "most games" in answer["description"]


# ----------------------------------------------------------------------- sign-ups and clubs


def sign_up(client, n: int, address: str = HERE):
    return client.post(
        "/signup",
        data={"username": f"organiser{n}", "password": "table-for-four"},
        environ_base={"REMOTE_ADDR": address},
    )


def test_past_the_allowance_a_sign_up_is_refused_and_no_account_made(app):
    for n in range(SIGNUPS):
        assert sign_up(app.test_client(), n).status_code == 302, n
    refused = sign_up(app.test_client(), SIGNUPS)
    assert_too_many(refused, f"{SIGNUPS} organiser sign-ups", "day")
    assert count(app, Organiser) == SIGNUPS
    assert sign_up(app.test_client(), SIGNUPS, ELSEWHERE).status_code == 302


def test_past_the_allowance_a_club_is_refused_and_none_made(app, client):
    assert sign_up(client, 0).status_code == 302
    for n in range(CLUBS):
        made = client.post(
            "/clubs/new",
            data={"name": f"Club {n}", "slug": f"club-{n}"},
            environ_base={"REMOTE_ADDR": HERE},
        )
        assert made.status_code == 302, n
    refused = client.post(
        "/clubs/new",
        data={"name": "One more", "slug": "one-more"},
        environ_base={"REMOTE_ADDR": HERE},
    )
    assert_too_many(refused, f"{CLUBS} clubs", "day")
    assert count(app, Club) == CLUBS


def test_a_wait_is_said_as_people_say_it():
    assert creations._wait_words(1) == "1 second"
    assert creations._wait_words(59) == "59 seconds"
    assert creations._wait_words(61) == "2 minutes"
    assert creations._wait_words(3600) == "60 minutes"
    assert creations._wait_words(20 * 3600) == "20 hours"


def test_the_api_start_still_answers_a_game(app, client):
    """Under the allowance nothing changes: 201 and the game's key."""
    answer = start(client)
    assert answer.status_code == 201
    game_id = answer.get_json()["id"]
    assert key(app, game_id)["X-Game-Key"] == answer.get_json()["key"]
    with app.app_context():
        assert games.get_game(game_id) is not None
