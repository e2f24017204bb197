"""At the table: who deals, and playing again, at a casual table and at a club.

Seating (scorekeeper/rules/seating.py): each side's first player, then each side's second, so
partners alternate; North (Ann, Bob) v South (Cat, Dan) sit Ann, Cat, Bob, Dan. The deal passes
to the left, the next seat, each deal. Expected figures are worked out by hand in the comments.
The helpers are in _table_support.py.
"""

from __future__ import annotations

import re
from datetime import date

import pytest
from _pages_support import TEAMS, api_deal, api_game, game_id_from, start_by_form, text
from _table_support import (
    CLEAN,
    THREE,
    deal_form_line,
    deal_line,
    finish,
    first_dealer,
    game_count,
)
from game_links import link
from sqlalchemy import func, select
from werkzeug.security import generate_password_hash

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Organiser
from scorekeeper.services import clubs, games

# ------------------------------------------------------------------------- who deals


def test_the_deal_passes_left_round_a_partnership_table(client):
    """Ann, Cat, Bob, Dan: partners apart, each deal the next seat."""
    game_id = api_game(client, "classic", TEAMS)
    assert deal_line(client, game_id) == "Deal 1: Ann deals"
    assert deal_form_line(client, game_id) == "Deal 1: Ann deals"
    assert "Ann, Cat, Bob, Dan" in text(client.get(link(client, game_id)))
    expected = ["Cat", "Bob", "Dan"]
    for number, dealer in enumerate(expected, start=2):
        api_deal(client, game_id, CLEAN, {})
        assert deal_line(client, game_id) == f"Deal {number}: {dealer} deals"
        assert deal_form_line(client, game_id) == f"Deal {number}: {dealer} deals"
    board = text(client.get(link(client, game_id)))
    for number, dealer in enumerate(["Ann", "Cat", "Bob"], start=1):
        assert f"Deal {number} · {dealer} dealt" in board
    # Correcting deal 2 names who dealt it.
    assert deal_form_line(client, game_id, "/deals/2/edit") == "Deal 2: Cat dealt"


def test_the_deal_passes_left_round_an_individual_table(client):
    """Three players: Ann, Bob, Cat, then Ann again for deal 4."""
    game_id = api_game(client, "club", THREE)
    for number, dealer in enumerate(["Ann", "Bob", "Cat", "Ann"], start=1):
        assert deal_line(client, game_id) == f"Deal {number}: {dealer} deals"
        assert deal_form_line(client, game_id) == f"Deal {number}: {dealer} deals"
        if number < 4:
            api_deal(client, game_id, CLEAN, {}, {})
    api_deal(client, game_id, CLEAN, {}, {})
    board = text(client.get(link(client, game_id)))
    assert "Deal 4 · Ann dealt" in board
    assert deal_line(client, game_id) == ""  # the game is over: nobody deals next


def test_the_table_chooses_who_deals_first(client):
    game_id = api_game(client, "classic", TEAMS)
    html = client.get(link(client, game_id)).get_data(as_text=True)
    # The seated players in seating order, the first player chosen until the table says.
    options = re.findall(r'<option (selected )?value="(\d)">(\w+)</option>', html)
    assert options == [
        ("selected ", "0", "Ann"),
        ("", "1", "Cat"),
        ("", "2", "Bob"),
        ("", "3", "Dan"),
    ]
    chosen = client.post(f"{link(client, game_id)}/first-dealer", data={"seat": "2"})
    assert chosen.status_code == 302
    assert game_id_from(client, chosen.headers["Location"]) == game_id
    board = text(client.get(link(client, game_id)))
    assert "Bob deals first." in board  # seat 2 of Ann, Cat, Bob, Dan
    assert deal_line(client, game_id) == "Deal 1: Bob deals"
    api_deal(client, game_id, CLEAN, {})
    assert deal_line(client, game_id) == "Deal 2: Dan deals"
    assert deal_form_line(client, game_id) == "Deal 2: Dan deals"


def test_the_first_dealer_is_not_chosen_after_deal_1(client):
    game_id = api_game(client, "classic", TEAMS)
    api_deal(client, game_id, CLEAN, {})
    assert 'name="seat"' not in client.get(link(client, game_id)).get_data(as_text=True)
    refused = client.post(f"{link(client, game_id)}/first-dealer", data={"seat": "3"})
    assert refused.status_code == 409
    assert "deal 1 is already saved" in text(refused)
    assert first_dealer(client, game_id) == 0
    assert deal_line(client, game_id) == "Deal 2: Cat deals"


@pytest.mark.parametrize("seat", ["4", "99", "-1", "Ann", ""])
def test_a_seat_not_at_the_table_is_refused(client, seat):
    game_id = api_game(client, "classic", TEAMS)
    refused = client.post(f"{link(client, game_id)}/first-dealer", data={"seat": seat})
    assert refused.status_code == 422
    assert "The first dealer is a seat from 1 to 4, one for each player." in text(refused)
    assert first_dealer(client, game_id) == 0


def test_only_the_table_chooses_the_first_dealer_of_a_club_game(app, client, club):
    """The table: a phone holding the game's link (issue 37: enough to score a club game) or
    the club's table link; a wrong link finds nothing."""
    game_id = club["playing"]
    stranger = app.test_client()
    wrong = link(app, game_id)[:-1] + ("A" if not link(app, game_id).endswith("A") else "B")
    assert stranger.post(f"{wrong}/first-dealer", data={"seat": "1"}).status_code == 404
    assert first_dealer(client, game_id) == 0
    table = club["table"]
    assert table.post(f"{link(app, game_id)}/first-dealer", data={"seat": "1"}).status_code == 302
    assert first_dealer(client, game_id) == 1
    chosen = stranger.post(f"{link(app, game_id)}/first-dealer", data={"seat": "2"})
    assert chosen.status_code == 302
    assert first_dealer(client, game_id) == 2


# ------------------------------------------------------------------------- play again


def test_play_again_after_a_casual_game(client):
    """Same sides, players, house rules and decks; the deal passes on from the last dealer."""
    game_id = start_by_form(
        client,
        "classic",
        [("Owls", "Ann, Bob"), ("Larks", "Cat, Dan")],
        decks="6",
        rule_red_three_caught="300",
    )
    client.post(f"{link(client, game_id)}/first-dealer", data={"seat": "1"})  # Cat
    # Four deals: Cat, Bob, Dan, Ann. The next game's first dealer is Cat again.
    finish(client, game_id)
    assert "Play again" in text(client.get(link(client, game_id)))
    again = client.post(f"{link(client, game_id)}/play-again")
    assert again.status_code == 302
    new_id = game_id_from(client, again.headers["Location"])
    assert new_id != game_id
    board = text(client.get(again.headers["Location"]))
    assert "New game started: Owls v Larks. Cat deals first." in board
    assert deal_line(client, new_id) == "Deal 1: Cat deals"
    with client.application.app_context():
        old, new = db.session.get(Game, game_id), db.session.get(Game, new_id)
        assert [(s.name, [p.name for p in s.players]) for s in new.sides] == [
            ("Owls", ["Ann", "Bob"]),
            ("Larks", ["Cat", "Dan"]),
        ]
        assert (new.ruleset, new.house_rules, new.decks) == (old.ruleset, old.house_rules, 6)
        assert new.house_rules == {"red_three_caught": 300}
        assert new.club is None and new.deals == [] and new.finished_at is None
        assert new.first_dealer == 1
    # This phone remembers the new game.
    assert link(client, new_id) in client.get("/").get_data(as_text=True)


def test_play_again_is_refused_before_the_end(client):
    game_id = api_game(client, "classic", TEAMS)
    api_deal(client, game_id, CLEAN, {})
    assert "Play again" not in text(client.get(link(client, game_id)))
    refused = client.post(f"{link(client, game_id)}/play-again")
    assert refused.status_code == 409
    assert "This game is not over yet" in text(refused)
    assert game_count(client) == 1


@pytest.fixture
def club(app):
    """A private club with members Ann, Bob, Cat, saved rules "Thursday" and a table phone.

    Its finished game (played on 5 Jan 2024: Ann, Bob and the guest Zed, Thursday rules,
    first dealer Bob) and a game in progress.
    """
    with app.app_context():
        olga = Organiser(username="olga", password_hash=generate_password_hash("x" * 12))
        db.session.add(olga)
        db.session.commit()
        made = clubs.create_club("Thursday Club", "thursday", olga)
        members = {name: clubs.add_member(made, name).id for name in ("Ann", "Bob", "Cat")}
        saved = clubs.create_saved_rules(made, "Thursday", "club", {"red_three_caught": 300})
        sides = [games.SideSetup(n, [n]) for n in ("Ann", "Bob", "Zed")]
        done = games.start_game(
            "club",
            sides,
            None,
            {"red_three_caught": 300},
            made,
            date(2024, 1, 5),
            saved_rules=saved,
            first_dealer=1,
        )
        playing = games.start_game("club", sides, None, None, made)
        ids = {"finished": done.id, "playing": playing.id, "saved": saved.id, "members": members}
        code = made.table_code
    table = app.test_client()
    assert table.post(f"/clubs/thursday/table/{code}").status_code == 302
    # Bob deals 1, Zed 2, Ann 3, Bob 4.
    for _ in range(4):
        assert (
            table.post(
                f"{link(app, ids['finished'])}/deals/new",
                data={"s0-books-clean": "1", "went_out": ""},
            ).status_code
            == 302
        )
    return {**ids, "table": table}


def test_play_again_after_a_club_game(app, club):
    """The same members and guest, the club, its saved rules, played today; Zed deals first."""
    table = club["table"]
    again = table.post(f"{link(app, club['finished'])}/play-again")
    assert again.status_code == 302, text(again)
    new_id = game_id_from(table, again.headers["Location"])
    assert "Zed deals first." in text(table.get(again.headers["Location"]))
    with app.app_context():
        new = db.session.get(Game, new_id)
        players = [(p.name, p.member_id) for s in new.sides for p in s.players]
        members = club["members"]
        assert players == [("Ann", members["Ann"]), ("Bob", members["Bob"]), ("Zed", None)]
        assert new.club.slug == "thursday"
        assert new.saved_rules_id == club["saved"] and new.rules_name == "Thursday"
        assert new.house_rules == {"red_three_caught": 300}
        assert new.played_on == games.now().date()
        assert new.first_dealer == 2  # Bob dealt the last deal (seat 1): Zed, seat 2
        assert new.decks == db.session.get(Game, club["finished"]).decks


def test_play_again_in_a_club_takes_its_table_link(app, club):
    """A phone without the table link cannot start the club's next game: the game's link scores
    that game (issue 37), it starts no other (403), and its page offers none."""
    stranger = app.test_client()
    assert stranger.post(f"{link(app, club['finished'])}/play-again").status_code == 403
    board = stranger.get(link(app, club["finished"])).text
    assert "Play again" not in board and "starts from its table link" in board
    with app.app_context():
        assert db.session.execute(select(func.count()).select_from(Game)).scalar_one() == 2


def test_play_again_drops_saved_rules_changed_since(app, club):
    """Saved rules whose numbers changed since are no longer this game's: its numbers repeat."""
    with app.app_context():
        saved = clubs.saved_rules(clubs.club_by_slug("thursday"), club["saved"])
        clubs.update_saved_rules(saved, "Thursday", {"red_three_caught": 200})
    again = club["table"].post(f"{link(app, club['finished'])}/play-again")
    with app.app_context():
        new = db.session.get(Game, game_id_from(club["table"], again.headers["Location"]))
        assert new.saved_rules_id is None and new.rules_name is None
        assert new.house_rules == {"red_three_caught": 300}


def test_the_result_names_the_saved_rules_and_each_player(app, club):
    with app.app_context():
        summary = games.summary_text(games.get_game(club["finished"]))
    assert summary.startswith("Hand and Foot: Thursday, 05 Jan 2024\nAnn\nBob\nZed\n\n")
    assert summary.endswith("Final: Ann 2,000, Bob 0, Zed 0\nWinner: Ann, 2,000\n")
