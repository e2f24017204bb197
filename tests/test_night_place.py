"""Every phone tied to the night (issue 37), over HTTP: a table's game link alone scores its
game and opens none of the club's pages; a night's game names its night, round and table; once
it ends, its phones are told where each player goes next as soon as the next round is seated,
or how many tables still play, or that the night is over; no Play again on a night's game. The
club's page and the table link's page: tests/test_night_club_pages.py.
"""

from __future__ import annotations

import pytest
from night_tables import (
    board_secret,
    day,
    expected_place,
    finish,
    holder,
    live,
    next_section,
    night_url,
    open_tonight,
    seat,
    sitting_out,
    tables,
)
from sqlalchemy import event, select
from test_clubs import SLUG

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.services import games

pytestmark = pytest.mark.usefixtures("quick_hashing")

DEAL = {"went_out": "", "s0-books-clean": "1"}


# ------------------------------------------------------------------ the game's link is enough


def test_the_game_link_alone_scores_a_club_game_and_opens_no_club_page(app, olga):
    night_id = open_tonight(app)
    seat(olga, night_id)
    first, second, _ = tables(app, night_id, 1)
    phone = app.test_client()  # has never opened the club: it scanned its table's code
    link = first.link
    assert phone.get(link).status_code == 200
    assert phone.get(f"{link}/deals/new").status_code == 200
    assert phone.post(f"{link}/deals/new", data=DEAL).status_code == 302
    assert phone.get(f"{link}/deals/next/0").status_code == 200
    assert phone.get(f"{link}/live").status_code == 200
    assert phone.get(f"{link}/scorer").status_code == 200
    key = {"X-Game-Key": first.secret}
    saved = phone.post(
        f"/api/v1/games/{first.game_id}/deals", json={"scores": [{}, {}]}, headers=key
    )
    assert saved.status_code == 201
    with app.app_context():
        assert len(db.session.get(Game, first.game_id).deals) == 2
    # Its own game only: another table's game is not opened by this game's key.
    other = {"X-Game-Key": first.secret}
    assert phone.get(f"/api/v1/games/{second.game_id}", headers=other).status_code == 404
    # None of the club's pages, nor a new club game: the club is private, so 404.
    for path in (
        f"/clubs/{SLUG}",
        night_url(night_id),
        f"{night_url(night_id)}/board",
        f"/clubs/{SLUG}/games/new",
        f"/clubs/{SLUG}/standings",
        f"/clubs/{SLUG}/members",
    ):
        assert phone.get(path).status_code == 404, path
    start = {"ruleset": "classic", "side0_name": "Ann", "side1_name": "Bob"}
    assert phone.post(f"/clubs/{SLUG}/games/new?ruleset=classic", data=start).status_code == 404
    sides = [{"name": "X"}, {"name": "Y"}]
    made = phone.post("/api/v1/games", json={"ruleset": "classic", "club": SLUG, "sides": sides})
    assert made.status_code == 404
    # What only organisers do to a club's game: refused, though the game is open to it (403).
    assert phone.post(f"{link}/delete").status_code == 403
    # The scoreboard says what its link does, and names the club without linking its pages.
    page = phone.get(link).text
    assert "any phone with its link can score it" in page
    assert "also need" not in page
    assert f'href="/clubs/{SLUG}"' not in page


# ------------------------------------------------------------------ night, round and table named


def test_a_night_game_names_its_night_round_and_table_on_every_page(app, olga):
    night_id = open_tonight(app)
    seat(olga, night_id)
    phone = app.test_client()
    secret = board_secret(app, night_id)
    for table in tables(app, night_id, 1):
        title = f"Club night of {day(app, night_id)} · Round 1 · Table {table.number}"
        board = phone.get(table.link).text
        if secret:
            assert f'<a href="/n/{secret}">{title}</a>' in board
        else:
            assert title in board
        for page in (f"{table.link}/deals/new", f"{table.link}/deals/next/1"):
            assert title in phone.get(page).text, page
    # A club game of no night names none.
    casual = phone.post("/games/new?ruleset=club", data={"side0_name": "A", "side1_name": "B"})
    assert "Club night of" not in phone.get(casual.headers["Location"]).text


# ------------------------------------------------------------------ no Play again


def test_a_finished_night_game_offers_no_play_again_on_its_page_or_in_the_service(app, olga):
    night_id = open_tonight(app)
    seat(olga, night_id)
    first = tables(app, night_id, 1)[0]
    finish(app, first)
    table_phone = holder(app)  # holds the table link: any other club game would offer it
    page = table_phone.get(first.link).text
    assert "Game over" in page
    assert "Play again" not in page and "data-play-again" not in page
    refused = table_phone.post(f"{first.link}/play-again", data={"started_by": "Ann"})
    assert refused.status_code == 409
    assert f"This game is table 1 of round 1 at the club night of {day(app, night_id)}" in (
        refused.text
    )
    with app.app_context():
        game = db.session.get(Game, first.game_id)
        with pytest.raises(games.GameRefused) as told:
            games.play_again(game, "Ann")
        words = told.value.refusals[0].message
        assert "it would be a game outside the night" in words
        assert game.next_game_id is None
        assert db.session.execute(select(Game.id)).all().__len__() == 3


# ------------------------------------------------------------------ how many tables still play


def test_a_finished_table_is_told_how_many_still_play_and_each_finish_tells_it(app, olga):
    night_id = open_tonight(app)
    seat(olga, night_id)
    first, second, third = tables(app, night_id, 1)
    phone = app.test_client()
    playing = phone.get(first.link).text
    assert "data-night-next" not in playing  # nothing of the next round while it plays
    finish(app, first)
    assert next_section(phone.get(first.link).text) == (
        "2 tables still playing; the next round is seated when they finish."
    )
    answer = live(phone, first)
    assert answer.get_json()["waiting"] is True
    etag, token = answer.headers["ETag"], answer.get_json()["night"]
    # Another table finishing moves this one's live version on: its phones hear it.
    finish(app, second)
    moved = live(phone, first, etag)
    assert moved.status_code == 200 and moved.get_json()["night"] != token
    assert next_section(phone.get(first.link).text) == (
        "1 table still playing; the next round is seated when they finish."
    )
    # The page says the token the live answer does: it fetches itself again only on a change.
    assert f'data-night="{moved.get_json()["night"]}"' in phone.get(first.link).text
    finish(app, third)
    assert next_section(phone.get(first.link).text) == (
        "Every table has finished round 1: round 2 is being seated."
    )
    assert live(phone, first).get_json()["waiting"] is True


# ------------------------------------------------------------------ where each player goes next


def test_once_the_next_round_is_seated_each_player_is_told_their_place(app, olga):
    """13 players: three tables and one sitting out each round."""
    night_id = open_tonight(app, rounds=3, guests="Zoe")
    seat(olga, night_id)
    round_one = tables(app, night_id, 1)
    assert len(round_one) == 3
    for table in round_one:
        finish(app, table)
    phone = app.test_client()
    before = {t.number: live(phone, t) for t in round_one}
    seat(olga, night_id)
    round_two, out = tables(app, night_id, 2), sitting_out(app, night_id, 2)
    assert len(out) == 1
    told_out = False
    for table in round_one:
        # Every phone of round 1 is told: its live version moved on, its token changed.
        answer = live(phone, table, before[table.number].headers["ETag"])
        assert answer.status_code == 200
        assert answer.get_json()["night"] != before[table.number].get_json()["night"]
        assert answer.get_json()["waiting"] is False
        page = phone.get(table.link).text
        words = next_section(page)
        assert words.startswith("Round 2 is seated: go to your tables.")
        # The phone stays at its table: it opens the table's game of round 2 from here.
        same_table = next(t for t in round_two if t.number == table.number)
        assert f'href="{same_table.link}"' in page
        assert f"Table {table.number}'s round 2 game" in words
        for name in (p for side in table.sides for p in side):
            expected = expected_place(2, round_two, out, name)
            assert expected in words, (expected, words)
            told_out = told_out or expected.endswith("sits out round 2")
    assert told_out == any(out[0] in side for t in round_one for side in t.sides)


def test_seating_a_round_tells_the_last_rounds_phones_in_one_update(app, olga):
    night_id = open_tonight(app)
    seat(olga, night_id)
    round_one = tables(app, night_id, 1)
    for table in round_one:
        finish(app, table)
    with app.app_context():
        engine = db.engine
    touched: list[str] = []

    def count(_connection, _cursor, statement, *_):
        flat = " ".join(statement.split()).upper()
        if flat.startswith("UPDATE GAME SET") and "LIVE_VERSION" in flat:
            touched.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        seat(olga, night_id)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(touched) == 1, touched
    with app.app_context():
        versions = dict(
            db.session.execute(
                select(Game.id, Game.live_version).where(
                    Game.id.in_([t.game_id for t in round_one])
                )
            ).all()
        )
    # Four deals each, then the round seated: one more (the other tables finishing moved the
    # first two finished tables on too: 2 and 1 more).
    assert sorted(versions.values()) == [5, 6, 7]


def test_the_scoreboard_reads_the_night_in_one_query_two_once_the_next_is_seated(app, olga):
    night_id = open_tonight(app)
    seat(olga, night_id)
    round_one = tables(app, night_id, 1)
    phone = app.test_client()
    with app.app_context():
        engine = db.engine
    asked: list[str] = []

    def count(_connection, _cursor, statement, *_):
        if "night_table" in statement:
            asked.append(statement)

    def night_queries(link: str) -> int:
        asked.clear()
        event.listen(engine, "before_cursor_execute", count)
        try:
            assert phone.get(link).status_code == 200
        finally:
            event.remove(engine, "before_cursor_execute", count)
        return len(asked)

    assert night_queries(round_one[0].link) == 1
    for table in round_one:
        finish(app, table)
    assert night_queries(round_one[0].link) == 1
    seat(olga, night_id)
    assert night_queries(round_one[0].link) == 2


# ------------------------------------------------------------------ the night over


def test_the_night_over_is_said_when_its_last_round_ends_or_it_is_ended(app, olga):
    night_id = open_tonight(app, rounds=1)
    seat(olga, night_id)
    first, second, third = tables(app, night_id, 1)
    phone = app.test_client()
    for table in (first, second):
        finish(app, table)
    assert next_section(phone.get(first.link).text).startswith("1 table still playing")
    finish(app, third)
    words = next_section(phone.get(first.link).text)
    assert words.startswith("The night is over.")
    if board_secret(app, night_id) and "nights.link_results" in app.view_functions:
        assert f'href="/n/{board_secret(app, night_id)}/results"' in phone.get(first.link).text
    assert live(phone, first).get_json()["waiting"] is False


def test_a_night_ended_early_tells_its_last_rounds_phones(app, olga):
    night_id = open_tonight(app, rounds=3)
    seat(olga, night_id)
    round_one = tables(app, night_id, 1)
    for table in round_one:
        finish(app, table)
    phone = app.test_client()
    before = live(phone, round_one[0])
    assert olga.post(f"{night_url(night_id)}/finish").status_code == 302
    after = live(phone, round_one[0], before.headers["ETag"])
    assert after.status_code == 200 and after.get_json()["waiting"] is False
    assert next_section(phone.get(round_one[0].link).text).startswith("The night is over.")
