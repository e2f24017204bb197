"""The game's end on the pages: the scoreboard, the home list, 404 pages, escaping.

Forms are filled the way a browser does: the page is fetched, its inputs read back, the
figures typed in, and the whole form posted. Expected figures are worked out by hand from
/work/shared/rules/VARIANTS.md in the comments. The helpers are in _pages_support.py.
"""

from __future__ import annotations

import re

import pytest
from _pages_support import (
    FIRST_DEAL,
    SINGLES,
    TEAMS,
    api_deal,
    api_game,
    api_state,
    deal_by_form,
    game_id_from,
    near,
    start_by_form,
    text,
)
from game_links import link, secret_of

# ------------------------------------------------------------------------- the game's end


def finish_club(client) -> int:
    game_id = api_game(client, "club", SINGLES)
    for _ in range(3):
        api_deal(client, game_id, {"books": {"clean": 1}}, {})
    api_deal(client, game_id, {}, {"books": {"dirty": 1}})  # Ann 1,500, Cat 300
    return game_id


def test_finished_game_refuses_a_new_deal_with_a_message(client):
    game_id = finish_club(client)
    before = api_state(client, game_id)
    assert before["finished"] is True
    answer = client.get(f"{link(client, game_id)}/deals/new")
    assert answer.status_code == 302
    assert game_id_from(client, answer.headers["Location"]) == game_id
    assert "game is over" in text(client.get(answer.headers["Location"])).lower()
    posted = client.post(
        f"{link(client, game_id)}/deals/new", data={"s0-books-clean": "1", "went_out": ""}
    )
    assert posted.status_code == 302
    assert api_state(client, game_id) == before


def test_scoreboard_shows_the_winner(client):
    game_id = finish_club(client)
    board = text(client.get(link(client, game_id)))
    assert "Game over" in board
    assert re.search(r"Winner: Ann ?, 1,500", board), board  # 3 × 500 against 300
    assert "Enter deal" not in board


def test_scoreboard_shows_a_shared_win(client):
    game_id = api_game(client, "classic", TEAMS)
    for _ in range(4):
        api_deal(client, game_id, {"books": {"clean": 1}}, {"books": {"clean": 1}})
    board = text(client.get(link(client, game_id)))
    assert re.search(r"Shared win: North and South ?, 2,000 each", board), board


def test_scoreboard_lists_deals_as_details(client):
    game_id = api_game(client, "classic", TEAMS)
    api_deal(client, game_id, *FIRST_DEAL)
    html = client.get(link(client, game_id)).get_data(as_text=True)
    assert "<details" in html
    words = text(client.get(link(client, game_id)))
    assert near(words, "Deal total", 3700, gap=5)  # 3100 + 100 + 500
    assert f"{link(client, game_id)}/deals/1/edit" in html


def home_words_and_html(client) -> tuple[str, str, str]:
    """The home page's text before and after "recently finished", and its HTML."""
    page = client.get("/")
    assert page.status_code == 200
    words = text(page)
    split = re.search(r"recently finished", words, re.IGNORECASE)
    assert split, words
    return words[: split.start()], words[split.end() :], page.get_data(as_text=True)


def test_home_lists_games_in_progress_and_finished(app, client):
    """This phone's games: one it started, one it opened through its link; no other phone's."""
    playing = start_by_form(client, "classic", [("Owls", "Ann, Bob"), ("Larks", "Cat, Dan")])
    finished = finish_club(client)  # started through the API: this phone opens its link
    assert client.get(link(client, finished)).status_code == 200
    in_progress, done, html = home_words_and_html(client)
    assert "Owls" in in_progress and "Owls" not in done
    assert "Ann" in done and "1,500" in done
    assert link(client, playing) in html and link(client, finished) in html

    # Another phone, which neither started nor opened them, is shown neither game.
    other = app.test_client()
    in_progress, done, html = home_words_and_html(other)
    assert "No game in progress on this phone" in in_progress
    assert "No finished game on this phone" in done
    for name in ("Owls", "Larks", "Ann", "Cat"):
        assert not re.search(rf"\b{name}\b", in_progress + done), name
    assert "1,500" not in done
    assert secret_of(app, playing) not in html and secret_of(app, finished) not in html
    # Knowing a game's id is not enough either: its old address opens nothing.
    assert other.get(f"/games/{playing}").status_code == 404
    assert "Owls" not in home_words_and_html(other)[0]


def test_forgetting_my_games_empties_the_home_list(client):
    """The button to forget this phone's games empties its list; each game opens by its link."""
    game_id = start_by_form(client, "classic", [("Owls", "Ann, Bob"), ("Larks", "Cat, Dan")])
    assert "Owls" in home_words_and_html(client)[0]
    forgot = client.post("/my-games/forget")
    assert forgot.status_code == 302
    in_progress, done, html = home_words_and_html(client)
    assert "Owls" not in in_progress + done
    assert link(client, game_id) not in html
    assert "Owls" in text(client.get(link(client, game_id)))  # the game itself stays
    assert "Owls" in home_words_and_html(client)[0]  # and, opened again, is listed again


# ------------------------------------------------------------------------- 404s, escaping


# A link of the right shape that no game has, and one of the wrong shape.
NO_SUCH_LINK = "/t/" + "A" * 22


@pytest.mark.parametrize(
    "path",
    [
        NO_SUCH_LINK,
        f"{NO_SUCH_LINK}/deals/new",
        f"{NO_SUCH_LINK}/deals/1/edit",
        f"{NO_SUCH_LINK}/rules",
        "/t/not-a-link",
        "/rules/poker",
    ],
)
def test_unknown_pages_are_404_pages(client, path):
    api_game(client, "classic", TEAMS)  # a game exists; these paths still open nothing
    page = client.get(path)
    assert page.status_code == 404
    assert page.mimetype == "text/html"
    assert "Traceback" not in page.get_data(as_text=True)
    assert "Not found" in text(page)


@pytest.mark.parametrize("path", ["/games/{id}", "/games/{id}/deals/new", "/games/{id}/rules"])
@pytest.mark.parametrize("game", ["existing", "missing"])
def test_old_game_addresses_are_404_pages_that_point_to_the_links(client, path, game):
    """Addresses by id, from before private links: the same 404 whether or not the game exists."""
    game_id = api_game(client, "classic", [("Owls", ["Ann", "Bob"]), ("Larks", ["Cat", "Dan"])])
    page = client.get(path.format(id=game_id if game == "existing" else 999))
    assert page.status_code == 404
    assert page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "Traceback" not in html
    assert "Games now open with their private link" in text(page)
    assert "Owls" not in html and "Larks" not in html
    assert secret_of(client, game_id) not in html


def test_names_with_html_are_escaped(client):
    """A side's name is shown as typed, never run as markup."""
    evil = "<script>alert(1)</script>"
    game_id = start_by_form(client, "classic", [(evil, "Ann, Bob"), ("<b>South</b>", "Cat, Dan")])
    pages = {
        "scoreboard": client.get(link(client, game_id)),
        "deal form": client.get(f"{link(client, game_id)}/deals/new"),
        "home": client.get("/"),
        "refused deal": deal_by_form(client, game_id, {"s0-melded_points": "7"}),
    }
    for what, page in pages.items():
        html = page.get_data(as_text=True)
        assert evil not in html, what
        assert "<b>South</b>" not in html, what
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, what
        assert evil in text(page), what


def test_the_winner_reads_right_with_any_side_name(client):
    """A player, a team, or a side called "Us": "Winner: Us, 200", never "Us win"."""
    for ruleset, sides, said in (
        ("club", [{"name": "Ann"}, {"name": "Bob"}], "Winner: <b>Ann</b>, 200</p>"),
        (
            "classic",
            [{"name": "Ann & Bob", "players": ["Ann", "Bob"]}, {"name": "Cat & Dan"}],
            "Winner: <b>Ann &amp; Bob</b>, 200</p>",
        ),
        (
            "classic",
            [{"name": "Us", "players": ["Ann", "Bob"]}, {"name": "Them"}],
            "Winner: <b>Us</b>, 200</p>",
        ),
    ):
        game = client.post("/api/v1/games", json={"ruleset": ruleset, "sides": sides}).json
        deal = {"scores": [{"melded_points": 50}, {}]}
        header = {"X-Game-Key": game["key"]}
        for _ in range(4):
            answer = client.post(f"/api/v1/games/{game['id']}/deals", json=deal, headers=header)
            assert answer.status_code == 201
        board = " ".join(client.get(game["url"]).get_data(as_text=True).split())
        assert said in board, board
