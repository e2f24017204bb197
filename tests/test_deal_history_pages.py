"""Each deal's history through the pages and the API (issue 40), and a club's locked game: a
table's phone is refused with the reason (403), an organiser corrects it giving a reason.

Every way a deal is entered or changed (whole by the form, whole by the API, the sides' own
lines, a correction by the form and by the API) leaves one entry, with who, how and the figures;
the deal's details on the scoreboard say it in words.
"""

from __future__ import annotations

from typing import Any

from _club_support import new_club, signup
from _pages_support import SINGLES, api_game, deal_by_form, text, values
from game_links import key, link
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import DealEvent, Game
from scorekeeper.plumbing.models.history import AGREED, CORRECTION, LINES, WHOLE
from scorekeeper.services import clubs, games, side_lines
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup

CLEAN = {"books": {"clean": 1}}
DIRTY = {"books": {"dirty": 1}}
ONLY = "Only an organiser may correct it now, giving a reason."


def events(app, game_id: int) -> list[tuple]:
    """Every event of the game: (deal, version, kind, side, by, before totals, after totals,
    reason)."""
    with app.app_context():
        rows = db.session.execute(
            select(DealEvent).where(DealEvent.game_id == game_id).order_by(DealEvent.id)
        ).scalars()
        return [
            (
                e.deal_number,
                e.deal_version,
                e.kind,
                e.side_position,
                e.by,
                None if e.before is None else [s["total"] for s in e.before],
                None if e.after is None else [s["total"] for s in e.after],
                e.reason,
            )
            for e in rows
        ]


def api(client, method: str, game_id: int, path: str, **body: Any):
    return client.open(
        f"/api/v1/games/{game_id}{path}", method=method, json=body, headers=key(client, game_id)
    )


def test_a_whole_deal_by_the_form_is_kept_with_its_senders_name(client, app):
    game_id = api_game(client, "club", SINGLES)
    form = client.get(f"{link(client, game_id)}/deals/new")
    # The phone's name, as its script adds it to the form (static/form.js).
    data = {**values(form), "s0-books-clean": "1", "went_out": "", "sent_by": "Ann"}
    page = client.post(f"{link(client, game_id)}/deals/new", data=data)
    assert page.status_code == 302, text(page)
    assert events(app, game_id) == [(1, 1, WHOLE, None, "Ann", None, [500, 0], None)]


def test_a_whole_deal_by_the_form_from_a_phone_on_a_side_brings_its_agreement(client, app):
    game_id = api_game(client, "club", SINGLES)
    page = deal_by_form(client, game_id, {"s0-books-clean": "1", "side": "1"})
    assert page.status_code == 302, text(page)
    assert [row[2:5] for row in events(app, game_id)] == [
        (WHOLE, None, "Someone"),
        (AGREED, 1, "Someone"),
    ]


def test_a_whole_deal_by_the_api_names_its_sender_and_brings_its_sides_agreement(client, app):
    game_id = api_game(client, "club", SINGLES)
    answer = api(client, "POST", game_id, "/deals", scores=[CLEAN, {}], sent_by="Cat", side=1)
    assert answer.status_code == 201, answer.get_json()
    assert events(app, game_id) == [
        (1, 1, WHOLE, None, "Cat", None, [500, 0], None),
        (1, 1, AGREED, 1, "Cat", None, None, None),
    ]


def test_the_api_refuses_a_sender_or_side_not_as_documented(client, app):
    game_id = api_game(client, "club", SINGLES)
    for body in ({"sent_by": 7}, {"side": "one"}, {"side": 5}):
        answer = api(client, "POST", game_id, "/deals", scores=[CLEAN, {}], **body)
        assert answer.status_code == 422, answer.get_json()
        assert answer.get_json()["errors"][0]["field"] in ("sent_by", "side")
    assert events(app, game_id) == []


def test_the_sides_own_lines_are_one_entry_and_each_sides_agreement(client, app):
    game_id = api_game(client, "club", SINGLES)
    first = api(client, "PUT", game_id, "/deals/next/parts/0", entry=CLEAN, deal=1, sent_by="Ann")
    assert first.status_code == 200
    last = api(client, "PUT", game_id, "/deals/next/parts/1", entry=DIRTY, deal=1, sent_by="Cat")
    assert last.status_code == 201, last.get_json()
    assert events(app, game_id) == [
        (1, 1, LINES, None, "Cat", None, [500, 300], None),
        (1, 1, AGREED, 0, "Ann", None, None, None),
        (1, 1, AGREED, 1, "Cat", None, None, None),
    ]


def test_corrections_by_the_form_and_the_api_keep_before_and_after_and_show_in_words(client, app):
    game_id = api_game(client, "club", SINGLES)
    api(client, "POST", game_id, "/deals", scores=[CLEAN, {}], sent_by="Ann")
    form = client.get(f"{link(client, game_id)}/deals/1/edit")
    data = {**values(form), "s1-books-dirty": "1", "sent_by": "Bob"}
    page = client.post(f"{link(client, game_id)}/deals/1/edit", data=data)
    assert page.status_code == 302, text(page)
    answer = api(client, "PUT", game_id, "/deals/1", scores=[CLEAN, {}], version=2, sent_by="Dee")
    assert answer.status_code == 200, answer.get_json()
    assert events(app, game_id)[1:] == [
        (1, 2, CORRECTION, None, "Bob", [500, 0], [500, 300], None),
        (1, 3, CORRECTION, None, "Dee", [500, 300], [500, 0], None),
    ]
    board = text(client.get(link(client, game_id)))
    assert "Entered by Ann, " in board and " UTC, whole deal" in board
    assert "Corrected by Bob, " in board and ": Cat +0 \u2192 +300" in board
    assert "Corrected by Dee, " in board and ": Cat +300 \u2192 +0" in board


# --- a club's locked game ----------------------------------------------------------------------


def agreed_club_game(app, client) -> int:
    """Olga's club (the client signed in as her), and a game of it whose sides sent their own
    lines of every deal: finished, every deal agreed, so locked."""
    signup(client)
    new_club(client)
    with app.app_context():
        club = clubs.club_by_slug("tuesday")
        game = games.start_game(
            "club", [SideSetup("Ann", ["Ann"]), SideSetup("Cat", ["Cat"])], club=club
        )
        for number in range(1, 5):
            side_lines.send_line(game, Level.TABLE, 0, CLEAN, opened_for=number, sent_by="Ann")
            side_lines.send_line(game, Level.TABLE, 1, {}, opened_for=number, sent_by="Cat")
        assert game.finished_at is not None
        return game.id


def totals(app, game_id: int) -> list[int]:
    with app.app_context():
        return list(games.progress_of(db.session.get(Game, game_id)).totals)


def test_a_locked_game_refuses_a_table_phones_correction_with_the_reason(app, client):
    game_id = agreed_club_game(app, client)
    phone = app.test_client()  # holds the game's link, signed in as nobody
    path = link(client, game_id)
    before = events(app, game_id)
    answer = phone.put(
        f"/api/v1/games/{game_id}/deals/3",
        json={"scores": [CLEAN, DIRTY]},
        headers=key(client, game_id),
    )
    assert answer.status_code == 403
    [error] = answer.get_json()["errors"]
    assert error["message"].startswith(
        "Deal 3 of this club game is locked: both sides agreed it on "
    )
    assert error["message"].endswith(ONLY)
    # The form: the same reason, nothing changed (the edit page is refused too).
    for page in (
        phone.get(f"{path}/deals/3/edit"),
        phone.post(f"{path}/deals/3/edit", data={"s1-books-dirty": "1", "version": "1"}),
    ):
        assert page.status_code == 403
        assert "Deal 3 of this club game is locked: both sides agreed it on " in text(page)
        assert ONLY in text(page)
    assert events(app, game_id) == before
    assert totals(app, game_id) == [2000, 0]
    assert "Correct deal 3" not in text(phone.get(path))


def test_an_organiser_corrects_a_locked_game_giving_a_reason(app, client):
    game_id = agreed_club_game(app, client)
    path = link(client, game_id)
    board = text(client.get(path))
    assert "This club game is locked: both sides agreed every deal of it by " in board
    assert "As an organiser, you may correct it, giving a reason" in board
    # No reason: refused, naming it.
    answer = api(client, "PUT", game_id, "/deals/3", scores=[CLEAN, DIRTY])
    assert answer.status_code == 422
    [error] = answer.get_json()["errors"]
    assert error["field"] == "reason" and "Give a reason for the correction" in error["message"]
    # The form shows the lock and asks for the reason.
    form = client.get(f"{path}/deals/3/edit")
    assert form.status_code == 200
    assert 'name="reason"' in form.get_data(as_text=True)
    data = {**values(form), "s1-books-dirty": "1", "reason": ""}
    refused = client.post(f"{path}/deals/3/edit", data=data)
    assert refused.status_code == 422 and "Give a reason for the correction" in text(refused)
    data["reason"] = "Cat's dirty book was missed"
    saved = client.post(f"{path}/deals/3/edit", data=data)
    assert saved.status_code == 302, text(saved)
    assert events(app, game_id)[-1] == (
        3,
        2,
        CORRECTION,
        None,
        "olga",
        [500, 0],
        [500, 300],
        "Cat's dirty book was missed",
    )
    assert totals(app, game_id) == [2000, 300]
    board = text(client.get(path))
    assert "Corrected by olga (organiser), " in board
    assert "Reason: Cat's dirty book was missed" in board


def test_the_club_chooses_its_hours_on_the_settings_page(app, client):
    signup(client)
    new_club(client)
    page = client.get("/clubs/tuesday/settings")
    assert "24 hours after it ends, whichever comes first" in text(page)
    data = {**values(page), "lock_after_hours": "0"}
    assert client.post("/clubs/tuesday/settings", data=data).status_code == 302
    with app.app_context():
        assert clubs.club_by_slug("tuesday").lock_after_hours == 0
    data["lock_after_hours"] = "721"
    refused = client.post("/clubs/tuesday/settings", data=data)
    assert refused.status_code == 422 and "Between 0 and 720 hours." in text(refused)
