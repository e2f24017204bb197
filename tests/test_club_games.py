"""Club games through the pages: started from the member list, paged in the history, deleted."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from _club_support import (
    GAME_LINK,
    SLUG,
    E,
    add_members,
    figures,
    game_id_of,
    game_links,
    html,
    new_club,
    ranks,
    signup,
    text,
    tuesday,
)
from game_links import link

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Member
from scorekeeper.rules import DealEntry
from scorekeeper.services import clubs
from scorekeeper.services.games import SideSetup, record_game

pytestmark = pytest.mark.usefixtures("quick_hashing")


# ------------------------------------------------------------------------- club games


def test_club_game_from_the_member_list_with_a_guest(app, client):
    made = tuesday(app, client)
    form = client.get(f"/clubs/{SLUG}/games/new?ruleset=classic")
    assert form.status_code == 200
    assert html(form).options["side0_member0"] == ["", "Ann", "Bob", "Cat", "Dan", "Eve"]
    response = client.post(
        f"/clubs/{SLUG}/games/new?ruleset=classic",
        data={
            "ruleset": "classic",
            "side0_member0": "Ann",
            "side0_member1": "Cat",
            "side1_member0": "Dan",
            "side1_players": "Hugo",
        },
    )
    assert response.status_code == 302, text(response)
    started = re.fullmatch(GAME_LINK, response.location)
    assert started, response.location
    game_link, game_id = started.group(0), game_id_of(app, started.group(1))
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert [s.name for s in game.sides] == ["Ann & Cat", "Dan & Hugo"]
        linked = {p.name: p.member_id for s in game.sides for p in s.players}
    assert linked == {
        "Ann": made.members["Ann"],
        "Cat": made.members["Cat"],
        "Dan": made.members["Dan"],
        "Hugo": None,
    }
    # Deal 1: Ann & Cat 2 clean + 2 dirty + 1 wild, out, 500 = 3,700;
    #         Dan & Hugo 1 clean, 100 - 50 = 550. Deals 2-4: the stock ran out, nothing scored.
    first = {
        "s0-books-clean": "2",
        "s0-books-dirty": "2",
        "s0-books-wild": "1",
        "s0-melded_points": "500",
        "s1-books-clean": "1",
        "s1-melded_points": "100",
        "s1-leftover_points": "50",
        "went_out": "0",
    }
    for deal in (first, {}, {}, {}):
        saved = client.post(f"{game_link}/deals/new", data={"went_out": "", **deal})
        assert saved.status_code == 302, text(saved)
    board = text(client.get(game_link))
    assert "Game over" in board and "Winner: Ann & Cat, 3,700" in board
    # The players are the members: on Cat's page and in the standings; Hugo nowhere.
    cat = client.get(f"/clubs/{SLUG}/members/{made.members['Cat']}?season=all")
    assert game_id in game_links(app, cat)
    # Over g1..g6 and this game: Cat 3,000 + 3,700 = 6,700 in 4 games, 2 wins;
    # Dan -50 + 550 = 500 in 4 games, 0 wins.
    shown = figures(client, season="all")
    assert shown["Cat"] == ("4", "2", "6,700")
    assert shown["Dan"] == ("4", "0", "500")
    assert "Hugo" not in shown


def test_one_member_on_two_sides_is_refused(app, client):
    tuesday(app, client)
    response = client.post(
        f"/clubs/{SLUG}/games/new?ruleset=club",
        data={"ruleset": "club", "side0_member0": "Ann", "side1_member0": "Ann"},
    )
    assert response.status_code == 422
    assert "Ann cannot play on two sides" in text(response)
    # A member typed in as a guest on the other side is the same person.
    response = client.post(
        f"/clubs/{SLUG}/games/new?ruleset=club",
        data={"ruleset": "club", "side0_member0": "Bob", "side1_players": "bob"},
    )
    assert response.status_code == 422
    assert "cannot play on two sides" in text(response)
    with app.app_context():
        assert db.session.query(Game).count() == 7  # g1..g7 only


def test_archived_members_are_not_offered_for_new_games(app, client):
    made = tuesday(app, client)
    response = client.post(f"/clubs/{SLUG}/members/{made.members['Eve']}/archive")
    assert response.status_code == 302
    form = html(client.get(f"/clubs/{SLUG}/games/new?ruleset=club"))
    assert form.options["side0_member0"] == ["", "Ann", "Bob", "Cat", "Dan"]
    picked = client.post(
        f"/clubs/{SLUG}/games/new?ruleset=club",
        data={"ruleset": "club", "side0_member0": "Ann", "side1_member0": "Eve"},
    )
    assert picked.status_code == 422
    with app.app_context():
        assert db.session.query(Game).count() == 7
    # Eve's record stays: still in the standings with her one game.
    assert figures(client, season="all")["Eve"] == ("1", "0", "400")


# ------------------------------------------------------------------------- history


def test_history_pages_of_fifty_with_an_older_link(app, client):
    signup(client)
    new_club(client)
    add_members(client, SLUG, "Ann", "Bob")
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        quiet = [[DealEntry.from_dict({}), DealEntry.from_dict({})] for _ in range(3)]
        ids = []
        for n in range(51):
            game = record_game(
                "club",
                [SideSetup("Ann", ["Ann"]), SideSetup("Bob", ["Bob"])],
                [[DealEntry.from_dict(E(clean=1)), DealEntry.from_dict(E())], *quiet],
                club=club,
                played_on=date(2024, 1, 1) + timedelta(days=n),
                commit=False,
            )
            db.session.flush()
            ids.append(game.id)
        db.session.commit()
    first = client.get(f"/clubs/{SLUG}/games?season=all")
    assert game_links(app, first) == ids[::-1][:50]
    older = re.search(r'href="([^"]*page=2[^"]*)"[^>]*>Older<', first.text)
    assert older, "no Older link after 50 games"
    assert "season=all" in older.group(1)
    second = client.get(older.group(1).replace("&amp;", "&"))
    assert game_links(app, second) == [ids[0]]
    assert ">Older<" not in second.text and ">Newer<" in second.text


# ------------------------------------------------------------------------- deleting a game


def test_deleting_a_finished_game(app, client):
    made = tuesday(app, client)
    g1 = made.games["g1"]
    g1_link = link(app, g1)
    response = client.post(f"{g1_link}/delete")
    assert response.status_code == 302
    assert f"Game {g1} deleted" in text(client.get(response.location))
    assert client.get(g1_link).status_code == 404
    history = client.get(f"/clubs/{SLUG}/games?season=all")
    assert g1_link not in history.text
    assert g1 not in game_links(app, history)
    # Without g1: Ann g2 2,000 + g4 2,200 = 4,200 in 2 games (now unranked, below 3);
    # Bob g3 700 + g5 1,800 = 2,500 in 2 games. Cat and Dan unchanged.
    shown = figures(client, season="all")
    assert shown["Ann"] == ("2", "2", "4,200")
    assert shown["Bob"] == ("2", "1", "2,500")
    assert shown["Cat"] == ("3", "1", "3,000")
    assert ranks(client, season="all") == [
        ("1", "Cat"),
        ("2", "Dan"),
        ("–", "Ann"),
        ("–", "Bob"),
        ("–", "Eve"),
    ]
    with app.app_context():
        assert db.session.get(Game, g1) is None
        assert db.session.query(Member).count() == 5
