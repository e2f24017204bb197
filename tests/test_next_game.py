"""Play again is one game for the table: the first tap starts it, every later tap opens it.

Two phones tapping at once make one game (the finished game's row is locked, and the next game
is claimed by a conditional UPDATE); every phone on the finished game is told through its live
answer, its scoreboard and the API; and the next game's link goes only to those who may read
the finished game.
"""

from __future__ import annotations

import threading
from datetime import date

import pytest
from live_table import QUIET, Table, api_deal, live_of, start, text
from sqlalchemy import func, select
from werkzeug.security import generate_password_hash

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Organiser
from scorekeeper.rules.terms import MAX_DEVICE_NAME
from scorekeeper.services import clubs, games


def finished(client) -> Table:
    """A casual game of Ann v Cat (club rules: four deals end it), played to its end."""
    game = start(client)
    for _ in range(4):
        api_deal(client, game, *QUIET)
    return game


def play_again(client, game: Table, name: str | None = None):
    data = {} if name is None else {"started_by": name}
    return client.post(f"{game.link}/play-again", data=data)


def game_count(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(Game)).scalar_one()


def test_the_second_tap_opens_the_game_the_first_started(app, client):
    game = finished(client)
    other = app.test_client()
    first = play_again(client, game, "Ann")
    assert first.status_code == 302
    new_link = first.headers["Location"]
    assert "New game started: Ann v Cat." in text(client.get(new_link))

    second = play_again(other, game, "Bob")
    assert second.status_code == 302
    assert second.headers["Location"] == new_link
    assert "Opening the next game Ann started: Ann v Cat." in text(other.get(new_link))
    # Both phones list it among their games; the table has two games, not three.
    assert new_link in other.get("/").get_data(as_text=True)
    assert game_count(app) == 2
    # A tap from the first phone again opens it too.
    assert play_again(client, game, "Ann").headers["Location"] == new_link
    assert game_count(app) == 2


def test_the_finished_scoreboard_shows_the_next_game_instead_of_play_again(client):
    game = finished(client)
    board = text(client.get(game.link))
    assert "Play again" in board and "started the next game" not in board
    new_link = play_again(client, game, "Ann").headers["Location"]
    page = client.get(game.link).get_data(as_text=True)
    board = text(client.get(game.link))
    assert "Ann started the next game: Open it" in board
    assert "Play again" not in board
    assert f'href="{new_link}"' in page


def test_a_next_game_kept_without_its_starter_reads_as_someone_on_every_answer(app, client):
    """The column is nullable: the scoreboard says what the API says (the read model's
    names.SOMEONE), never "None started the next game"."""
    game = finished(client)
    play_again(client, game, "Ann")
    with app.app_context():
        first = db.session.execute(select(Game).order_by(Game.id)).scalars().first()
        first.next_started_by = None
        db.session.commit()
    assert "Someone started the next game: Open it" in text(client.get(game.link))


def test_the_live_answer_names_the_next_game_at_once(client):
    """The finished game's live version moves: a phone holding the last ETag is told."""
    game = finished(client)
    before = live_of(client, game)
    assert before.get_json()["next_game"] is None
    etag = before.headers["ETag"]
    assert live_of(client, game, **{"If-None-Match": etag}).status_code == 304

    new_link = play_again(client, game, "Ann").headers["Location"]
    after = live_of(client, game, **{"If-None-Match": etag})
    assert after.status_code == 200
    assert after.get_json()["next_game"] == {"url": new_link, "started_by": "Ann"}
    # Said once: the same ETag again is a 304.
    again = live_of(client, game, **{"If-None-Match": after.headers["ETag"]})
    assert again.status_code == 304


def test_the_api_game_state_names_the_next_game(client):
    game = finished(client)
    state = client.get(f"/api/v1/games/{game.id}", headers=game.key).get_json()
    assert state["next_game"] is None
    new_link = play_again(client, game, "Ann").headers["Location"]
    state = client.get(f"/api/v1/games/{game.id}", headers=game.key).get_json()
    secret = new_link.rsplit("/", 1)[1]
    assert state["next_game"] == {"id": game.id + 1, "url": new_link, "started_by": "Ann"}
    # The link it names opens the next game in the API too.
    assert client.get(f"/api/v1/games/{game.id + 1}", headers={"X-Game-Key": secret}).is_json


@pytest.mark.parametrize(
    ("sent", "shown"),
    [
        (None, "Someone"),
        ("", "Someone"),
        ("   ", "Someone"),
        ("Ann\u200b\u202e", "Ann"),
        ("An\x00n", "Ann"),
        ("Z" * 100, "Z" * MAX_DEVICE_NAME),
    ],
)
def test_the_starters_name_is_cleaned_and_short(client, sent, shown):
    game = finished(client)
    play_again(client, game, sent)
    assert live_of(client, game).get_json()["next_game"]["started_by"] == shown


def test_a_deleted_next_game_leaves_the_table_free_to_play_again(app, client):
    game = finished(client)
    first = play_again(client, game, "Ann").headers["Location"]
    with app.app_context():
        games.delete_game(db.session.get(Game, game.id + 1))
    assert live_of(client, game).get_json()["next_game"] is None
    second = play_again(client, game, "Bob").headers["Location"]
    assert second != first
    assert live_of(client, game).get_json()["next_game"]["started_by"] == "Bob"


def test_a_club_games_next_game_takes_its_table_link(app):
    """A phone holding only the game's link scores it and follows the table (issue 37), but
    starts no next game: a new club game takes the club's table link (403 without)."""
    with app.app_context():
        olga = Organiser(username="olga", password_hash=generate_password_hash("x" * 12))
        db.session.add(olga)
        db.session.commit()
        club = clubs.create_club("Thursday Club", "thursday", olga)
        sides = [games.SideSetup(n, [n]) for n in ("Ann", "Cat")]
        made = games.start_game("club", sides, None, None, club, date(2024, 1, 5))
        game, code = Table(made.id, made.secret), club.table_code
    table, stranger = app.test_client(), app.test_client()
    assert table.post(f"/clubs/thursday/table/{code}").status_code == 302
    for _ in range(4):
        assert table.post(f"{game.link}/deals/new", data={"s0-books-clean": "1"}).status_code == 302
    assert play_again(stranger, game, "Eve").status_code == 403
    assert live_of(stranger, game).status_code == 200
    assert "Play again" not in stranger.get(game.link).text
    assert game_count(app) == 1
    new_link = play_again(table, game, "Ann").headers["Location"]
    assert live_of(table, game).get_json()["next_game"]["url"] == new_link
    # The table's next game, once started, is told to every phone holding this game's link,
    # and its link opens it as every game's does.
    assert live_of(stranger, game).get_json()["next_game"]["url"] == new_link
    assert stranger.get(new_link).status_code == 200
    assert table.get(new_link).status_code == 200
    assert stranger.get("/clubs/thursday").status_code == 404  # the club's pages: still closed


# ------------------------------------------------------------------------- the race


def test_two_taps_at_the_same_moment_make_one_game(app, client):
    """Two requests at once, each in its own session and transaction: one game, both see it."""
    game = finished(client)
    ready = threading.Barrier(2, timeout=20)
    found: dict[str, tuple[int, str, bool]] = {}

    def tap(name: str) -> None:
        with app.app_context():
            loaded = games.get_game(game.id)
            db.session.commit()  # loaded, and no transaction held while waiting for the other
            ready.wait()
            outcome = games.play_again(loaded, name)
            found[name] = (outcome.game.id, outcome.started_by, outcome.started_here)
            db.session.remove()

    threads = [threading.Thread(target=tap, args=(name,)) for name in ("Ann", "Bob")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(found) == 2, found
    (ann_game, ann_by, ann_here), (bob_game, bob_by, bob_here) = found["Ann"], found["Bob"]
    assert ann_game == bob_game
    assert ann_by == bob_by and ann_by in ("Ann", "Bob")
    assert sorted([ann_here, bob_here]) == [False, True]
    assert game_count(app) == 2


def test_a_tap_that_read_no_next_game_and_lost_the_claim_opens_the_winners(
    app, client, monkeypatch
):
    """The conditional UPDATE is the last guard: a claim that finds one made opens it."""
    game = finished(client)
    winner = play_again(client, game, "Ann").headers["Location"]
    read = games.next_game_of
    # As if this request had read the finished game before the other one's claim.
    monkeypatch.setattr(
        games.again, "next_game_of", lambda g, lock=False: None if lock else read(g)
    )
    with app.app_context():
        outcome = games.play_again(games.get_game(game.id), "Bob")
        assert not outcome.started_here
        assert (outcome.game.secret, outcome.started_by) == (winner.rsplit("/", 1)[1], "Ann")
    assert game_count(app) == 2
