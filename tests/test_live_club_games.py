"""A club game's live answer and "who is entering": a game's link is enough, club game or not
(issue 37), and a wrong link finds none; an unchanged poll of a club game also reads its club.
"""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace

import pytest
from game_links import statements_asked
from live_table import PHONE_A, Table, entering_rows, live_of, say
from werkzeug.security import generate_password_hash

from scorekeeper.services import accounts, clubs, games

# ------------------------------------------------------------------------- clubs


@pytest.fixture
def club_games(app, monkeypatch):
    """A private and a public club run by Olga, one game each in progress, and three phones:
    Olga signed in, one that opened both table links, and a stranger."""
    monkeypatch.setattr(
        accounts,
        "generate_password_hash",
        partial(generate_password_hash, method="pbkdf2:sha256:1"),
    )
    olga, table, stranger = app.test_client(), app.test_client(), app.test_client()
    signup = olga.post("/signup", data={"username": "olga", "password": "table-for-four"})
    assert signup.status_code == 302
    started, codes = {}, {}
    with app.app_context():
        organiser = accounts.organiser_named("olga")
        for slug, public in (("priv", False), ("pub", True)):
            club = clubs.create_club(f"Club {slug}", slug, organiser, public=public)
            sides = [games.SideSetup("Ann", ["Ann"]), games.SideSetup("Cat", ["Cat"])]
            made = games.start_game("club", sides, club=club)
            started[slug] = Table(made.id, made.secret)
            codes[slug] = club.table_code
    for slug, code in codes.items():
        assert table.post(f"/clubs/{slug}/table/{code}").status_code == 302
    return SimpleNamespace(games=started, olga=olga, table=table, stranger=stranger)


@pytest.mark.parametrize("who", ["stranger", "table", "olga"])
@pytest.mark.parametrize("slug", ["priv", "pub"])
def test_live_of_a_club_game_opens_to_its_link(club_games, slug, who):
    """Holding a game's link is enough, club game or not (issue 37); a wrong link finds none."""
    game = club_games.games[slug]
    answer = live_of(getattr(club_games, who), game)
    assert answer.status_code == 200
    assert answer.get_json()["game"] == game.id
    flipped = ("A" if game.secret[0] != "A" else "B") + game.secret[1:]
    assert live_of(getattr(club_games, who), Table(game.id, flipped)).status_code == 404


@pytest.mark.parametrize("who", ["stranger", "table", "olga"])
@pytest.mark.parametrize("slug", ["priv", "pub"])
def test_entering_a_club_game_takes_its_link(app, club_games, slug, who):
    """The game's link is enough to score it (issue 37), so a phone holding it may say it is
    entering; without the link, nothing is there (404) and nothing is kept."""
    game = club_games.games[slug]
    flipped = ("A" if game.secret[0] != "A" else "B") + game.secret[1:]
    assert say(getattr(club_games, who), Table(game.id, flipped)).status_code == 404
    assert entering_rows(app) == []
    assert say(getattr(club_games, who), game).status_code == 204
    assert entering_rows(app) == [(game.id, PHONE_A, "Ann", 1)]


def test_an_unchanged_poll_of_a_club_game_also_reads_its_club(app, club_games):
    game, table = club_games.games["priv"], club_games.table
    etag = live_of(table, game).headers["ETag"]
    status, asked = statements_asked(app, table, f"{game.link}/live", {"If-None-Match": etag})
    selects = [s for s in asked if s.lstrip().upper().startswith("SELECT")]
    assert status == 304 and len(selects) == 2, asked  # the link, then the club
    # The game's link is enough to watch it (issue 37): a phone holding it alone is told "same"
    # too; one without it finds nothing (404), whatever ETag it sends.
    same = club_games.stranger.get(f"{game.link}/live", headers={"If-None-Match": etag})
    assert same.status_code == 304
    flipped = ("A" if game.secret[0] != "A" else "B") + game.secret[1:]
    guessed = club_games.stranger.get(f"/t/{flipped}/live", headers={"If-None-Match": etag})
    assert guessed.status_code == 404
