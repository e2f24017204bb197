"""At the table: sharing the result in words, a casual table's own rules, the API's seats.

Seating (scorekeeper/rules/seating.py): each side's first player, then each side's second, so
partners alternate; North (Ann, Bob) v South (Cat, Dan) sit Ann, Cat, Bob, Dan. The deal passes
to the left, the next seat, each deal. Expected figures are worked out by hand in the comments.
The helpers are in _table_support.py.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

from _pages_support import TEAMS, api_deal, api_game, game_id_from, start_by_form, text, values
from _table_support import (
    CLEAN,
    finish,
    first_dealer,
    game_count,
)
from game_links import link

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.plumbing.security import KEPT_PAGE_HEADER
from scorekeeper.services import games

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


def test_a_page_kept_in_the_background_leaves_the_message_to_the_page_opened(app, client):
    """The phone's worker fetches a game's pages to keep for no signal while the person taps.
    One fetched between a post and the page it redirects to takes no message from that page
    (it did: "This phone remembers" went missing), nor keeps one to show with no signal."""
    game_id = own_rules_game(client)
    board = link(client, game_id)
    kept = client.post(f"{board}/remember-rules")
    for path in (f"{board}/rules", f"{board}/deals/new", "/", board):
        page = text(client.get(path, headers={KEPT_PAGE_HEADER: "1"}))
        assert "This phone remembers" not in page, path
    assert "This phone remembers" in text(client.get(kept.headers["Location"]))


def test_a_page_kept_in_the_background_writes_no_cookie(app, client):
    """Sent with the cookie as it was before the person's post, a kept page's answer must not
    put that cookie back. It did: after Play again, the finished game's deal form, kept in the
    background, wrote the old cookie with its own "This game is over", and "New game started"
    was lost."""
    game_id = own_rules_game(client)
    finish(client, game_id)
    board = link(client, game_id)
    client.get(board)
    before = client.get_cookie("session").value
    client.post(f"{board}/remember-rules")
    late = app.test_client()
    late.set_cookie("session", before)
    kept = late.get(f"{board}/deals/new", headers={KEPT_PAGE_HEADER: "1"})
    assert kept.status_code == 302 and "Set-Cookie" not in kept.headers
    # On the person's own cookie, the same fetch leaves no message of its own either.
    client.get(f"{board}/deals/new", headers={KEPT_PAGE_HEADER: "1"})
    page = text(client.get(board))
    assert "This phone remembers" in page and "This game is over" not in page


def test_a_phones_first_page_kept_in_the_background_keeps_its_form_token(app, client):
    """A page kept before the phone had a session: its forms' token is the session's."""
    game_id = own_rules_game(client)
    finish(client, game_id)
    board = link(client, game_id)
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        phone = app.test_client()
        html = phone.get(board, headers={KEPT_PAGE_HEADER: "1"}).get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
        kept = phone.post(f"{board}/remember-rules", data={"csrf_token": token})
        assert kept.status_code == 302 and len(home_rules(phone)) == 1
    finally:
        app.config["WTF_CSRF_ENABLED"] = False


def test_the_workers_background_fetches_say_so(app):
    """keepPages in static/sw.js sends the header the server reads (one name, two languages)."""
    script = (Path(app.static_folder) / "sw.js").read_text()
    keep = script[script.index("async function keepPages") :]
    keep = keep[: keep.index("\n}\n")]
    assert f'"{KEPT_PAGE_HEADER}": "1"' in keep
    assert "headers: headers" in keep


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
