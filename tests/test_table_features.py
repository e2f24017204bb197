"""At the table: who deals, playing again, sharing the result, a casual table's own rules.

Seating (scorekeeper/rules/seating.py): each side's first player, then each side's second, so
partners alternate; North (Ann, Bob) v South (Cat, Dan) sit Ann, Cat, Bob, Dan. The deal passes
to the left, the next seat, each deal. Expected figures are worked out by hand in the comments.
"""

from __future__ import annotations

import re
from datetime import date

import pytest
from game_links import link
from sqlalchemy import func, select
from test_pages import TEAMS, api_deal, api_game, game_id_from, start_by_form, text, values
from werkzeug.security import generate_password_hash

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Organiser
from scorekeeper.services import clubs, games

THREE = [("Ann", ["Ann"]), ("Bob", ["Bob"]), ("Cat", ["Cat"])]
# A clean book each deal for the first side, nothing for the others: four deals end the game.
CLEAN = {"books": {"clean": 1}}


def game_count(client) -> int:
    with client.application.app_context():
        return db.session.execute(select(func.count()).select_from(Game)).scalar_one()


def first_dealer(client, game_id: int) -> int:
    with client.application.app_context():
        return db.session.get(Game, game_id).first_dealer


def deal_line(client, game_id: int) -> str:
    """The "Deal N: X deals" line of the scoreboard."""
    found = re.search(r"Deal \d+: \w+ deals", text(client.get(link(client, game_id))))
    return found.group(0) if found else ""


def deal_form_line(client, game_id: int, path: str = "/deals/new") -> str:
    found = re.search(r"Deal \d+: \w+ deal(s|t)", text(client.get(link(client, game_id) + path)))
    return found.group(0) if found else ""


def finish(client, game_id: int, sides: int = 2) -> None:
    for _ in range(4):
        api_deal(client, game_id, CLEAN, *[{}] * (sides - 1))


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


# ------------------------------------------------------------------------- the result in words


def test_the_result_as_text(app, client):
    """A classic game, worked by hand (clean book 500, dirty 300, red three caught −100).

    Deal 1: North 1 clean + 120 melded = 620; South 1 red three caught = −100.
    Deal 2: North nothing = 0; South 1 dirty + 75 melded − 25 left = 350.
    Deal 3: a clean book each: 500 and 500.
    Deal 4: North 60 melded = 60; South 40 left = −40.
    North 620 + 0 + 500 + 60 = 1,180; South −100 + 350 + 500 − 40 = 710.
    """
    with app.app_context():
        game = games.start_game(
            "classic", [games.SideSetup(n, p) for n, p in TEAMS], played_on=date(2025, 3, 14)
        )
        game_id = game.id
    api_deal(
        client, game_id, {"books": {"clean": 1}, "melded_points": 120}, {"red_threes_caught": 1}
    )
    assert "Share the result" not in text(client.get(link(client, game_id)))
    api_deal(
        client, game_id, {}, {"books": {"dirty": 1}, "melded_points": 75, "leftover_points": 25}
    )
    api_deal(client, game_id, CLEAN, CLEAN)
    api_deal(client, game_id, {"melded_points": 60}, {"leftover_points": 40})
    expected = (
        "Hand and Foot: Classic partnership, 14 Mar 2025\n"
        "North: Ann, Bob\n"
        "South: Cat, Dan\n"
        "\n"
        "Deal 1: North +620, South −100\n"
        "Deal 2: North +0, South +350\n"
        "Deal 3: North +500, South +500\n"
        "Deal 4: North +60, South −40\n"
        "Final: North 1,180, South 710\n"
        "Winner: North, 1,180\n"
    )
    with app.app_context():
        assert games.summary_text(games.get_game(game_id)) == expected
    html = client.get(link(client, game_id)).get_data(as_text=True)
    shown = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', html, re.S)
    assert shown and shown.group(1) == expected
    # The button shows only where the script can share or copy.
    assert re.search(r"<button[^>]*data-share[^>]*hidden>Share the result</button>", html)


def test_the_result_names_the_saved_rules_and_each_player(app, club):
    with app.app_context():
        summary = games.summary_text(games.get_game(club["finished"]))
    assert summary.startswith("Hand and Foot: Thursday, 05 Jan 2024\nAnn\nBob\nZed\n\n")
    assert summary.endswith("Final: Ann 2,000, Bob 0, Zed 0\nWinner: Ann, 2,000\n")


# ------------------------------------------------------------------------- a table's own rules


def own_rules_game(client) -> int:
    return start_by_form(
        client,
        "classic",
        [("Owls", "Ann, Bob"), ("Larks", "Cat, Dan")],
        rule_red_three_caught="300",
        rule_book_bonuses__clean="600",
    )


def rules_link(client, game_id: int) -> str | None:
    html = client.get(link(client, game_id)).get_data(as_text=True)
    found = re.search(r'<a href="([^"]+)">New game with these rules</a>', html)
    return found.group(1).replace("&amp;", "&") if found else None


def test_new_game_with_these_rules_round_trip(client):
    """The link opens the new-game form with the table's numbers; the game has those rules."""
    game_id = own_rules_game(client)
    href = rules_link(client, game_id)
    assert href and href.startswith("/games/new?")
    form = client.get(href)
    assert form.status_code == 200
    data = values(form)
    assert data["rule_red_three_caught"] == "300"
    assert data["rule_book_bonuses__clean"] == "600"
    assert data["rule_book_bonuses__dirty"] == "300"  # the preset's own
    data.update(side0_name="Hawks", side0_players="Eve, Fay", side1_name="Doves")
    data["side1_players"] = "Gil, Hal"
    started = client.post("/games/new", data=data)
    assert started.status_code == 302
    new_id = game_id_from(client, started.headers["Location"])
    with client.application.app_context():
        old, new = db.session.get(Game, game_id), db.session.get(Game, new_id)
        assert new.ruleset == old.ruleset and new.house_rules == old.house_rules
        assert games.rules_of(new) == games.rules_of(old)
    # Still running or finished alike, the link is there; a preset's own rules have none.
    finish(client, game_id)
    assert rules_link(client, game_id) == href
    assert rules_link(client, api_game(client, "classic", TEAMS)) is None


def home_rules(client) -> list[tuple[str, str]]:
    html = client.get("/").get_data(as_text=True)
    section = re.search(r'<section aria-labelledby="rules-h">(.*?)</section>', html, re.S)
    if not section:
        return []
    found = re.findall(r'<a href="([^"]+)">([^<]+)</a>', section.group(1))
    return [(name, href.replace("&amp;", "&")) for href, name in found]


def test_remember_and_forget_rules_on_the_home_page(app, client):
    game_id = own_rules_game(client)
    href = rules_link(client, game_id)
    assert home_rules(client) == []
    kept = client.post(f"{link(client, game_id)}/remember-rules")
    assert kept.status_code == 302
    name = "Classic partnership, clean book bonus 600, red three caught 300"
    assert "This phone remembers" in text(client.get(kept.headers["Location"]))
    assert home_rules(client) == [(name, href)]
    # Remembered twice, listed once; another phone has none.
    client.post(f"{link(client, game_id)}/remember-rules")
    assert home_rules(client) == [(name, href)]
    assert home_rules(app.test_client()) == []
    # Newest first.
    other = start_by_form(client, "family", [("A", "Ann, Bob"), ("B", "Cat, Dan")], decks="6")
    assert rules_link(client, other) is None
    refused = client.post(f"{link(client, other)}/remember-rules")
    assert refused.status_code == 409
    second = start_by_form(
        client, "casual", [("A", "Ann, Bob"), ("B", "Cat, Dan")], rule_going_out_bonus="200"
    )
    client.post(f"{link(client, second)}/remember-rules")
    listed = home_rules(client)
    assert [n for n, _ in listed] == ["Casual, going-out bonus 200", name]
    # Forget one, then the whole list with this phone's games.
    forgot = client.post("/my-rules/forget", data={"link": href})
    assert forgot.status_code == 302
    assert home_rules(client) == listed[:1]
    assert client.post("/my-rules/forget", data={"link": "/games/new?nothing"}).status_code == 302
    client.post("/my-games/forget")
    assert home_rules(client) == []


def test_a_phone_keeps_only_its_newest_rules(client):
    for points in range(105, 105 + 5 * 12, 5):
        game_id = start_by_form(
            client,
            "classic",
            [("A", "Ann, Bob"), ("B", "Cat, Dan")],
            rule_red_three_caught=str(points),
        )
        client.post(f"{link(client, game_id)}/remember-rules")
    names = [n for n, _ in home_rules(client)]
    assert len(names) == 10
    assert names[0].endswith("caught 160") and names[-1].endswith("caught 115")


def test_each_new_form_needs_its_token(app, client):
    """With CSRF on: the scoreboard's forms carry a token; without one nothing changes."""
    game_id = own_rules_game(client)
    finish(client, game_id)
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        html = client.get(link(client, game_id)).get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
        for action in ("play-again", "remember-rules"):
            assert client.post(f"{link(client, game_id)}/{action}").status_code == 400
        assert client.post("/my-rules/forget", data={"link": "x"}).status_code == 400
        assert game_count(client) == 1 and home_rules(client) == []
        kept = client.post(f"{link(client, game_id)}/remember-rules", data={"csrf_token": token})
        assert kept.status_code == 302 and len(home_rules(client)) == 1
        again = client.post(f"{link(client, game_id)}/play-again", data={"csrf_token": token})
        assert again.status_code == 302 and game_count(client) == 2
        fresh = game_id_from(client, again.headers["Location"])
        chosen = f"{link(client, fresh)}/first-dealer"
        assert client.post(chosen, data={"seat": "1"}).status_code == 400
        assert first_dealer(client, fresh) == 0
        assert client.post(chosen, data={"seat": "1", "csrf_token": token}).status_code == 302
        assert first_dealer(client, fresh) == 1
    finally:
        app.config["WTF_CSRF_ENABLED"] = False


def test_the_api_says_who_sits_where_and_who_deals(client):
    """Seats alternate partners; next_dealer moves one seat left after each deal."""
    answer = client.post(
        "/api/v1/games",
        json={
            "ruleset": "classic",
            "sides": [
                {"name": "North", "players": ["Ann", "Bob"]},
                {"name": "South", "players": ["Cat", "Dan"]},
            ],
        },
    )
    state = answer.get_json()
    assert [s["player"] for s in state["seats"]] == ["Ann", "Cat", "Bob", "Dan"]
    assert state["first_dealer"] == 0
    assert state["next_dealer"] == {"seat": 0, "side": 0, "player": "Ann"}
    dealt = client.post(
        f"/api/v1/games/{state['id']}/deals",
        json={"scores": [{"melded_points": 50}, {"melded_points": 60}]},
        headers={"X-Game-Key": state["key"]},
    ).get_json()
    assert dealt["deals"][0]["dealer"] == {"seat": 0, "side": 0, "player": "Ann"}
    assert dealt["next_dealer"] == {"seat": 1, "side": 1, "player": "Cat"}
