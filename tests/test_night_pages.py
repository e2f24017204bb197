"""A club night over HTTP (issue 29): a new night opened (PRG, refusals 422 with reasons), its
page with each table's card and game, Seat round N, players come and gone, and the night board
(ETag, 304 when nothing changed); who may see each.
"""

from __future__ import annotations

import re

import pytest
from night_club import TWELVE
from sqlalchemy import event
from test_clubs import SLUG, add_members, new_club, signup

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.services import clubs, deals
from scorekeeper.services.access import Level

pytestmark = pytest.mark.usefixtures("quick_hashing")

NEW = f"/clubs/{SLUG}/nights/new"
CARD = re.compile(r'<p class="night-card-title">Table (\d) · ([^<]+) · scan to score</p>')


def ids(app) -> dict[str, int]:
    with app.app_context():
        return {m.name: m.id for m in clubs.club_by_slug(SLUG).members}


def holder(app):
    """A phone that opened the club's table link."""
    with app.app_context():
        code = clubs.club_by_slug(SLUG).table_code
    phone = app.test_client()
    assert phone.post(f"/clubs/{SLUG}/table/{code}").status_code == 302
    return phone


def open_night(app, olga, names=TWELVE, **more) -> str:
    """Tonight's night opened through the form: its page's address."""
    data = {"members": [ids(app)[n] for n in names], "rules": "classic", "rounds": "2"}
    data.update({"partners": "rotating", "sit_out": "no game", "shape": ""}, **more)
    answer = olga.post(NEW, data=data)
    assert answer.status_code == 302, answer.text
    return answer.headers["Location"]


def finish_round(app, night_url: str, number: int) -> None:
    """Every table of the round plays its 4 deals, as its phones would."""
    night_id = int(night_url.rsplit("/", 1)[1])
    with app.app_context():
        night = db.session.get(Night, night_id)
        for table in night.rounds[number - 1].tables:
            for _ in range(4):
                deals.enter_deal(table.game, Level.TABLE, [{"books": {"clean": 1}}, {}])
        db.session.remove()


def test_the_form_then_the_night_then_its_page(app, olga):
    form = olga.get(NEW)
    assert form.status_code == 200 and form.headers["Cache-Control"].startswith("no-store")
    assert len(re.findall(r'<input type="checkbox" name="members"', form.text)) == 12
    assert 'value="classic" id="rules-' in form.text
    url = open_night(app, olga)
    page = olga.get(url)
    assert page.status_code == 200
    assert "Seat round 1</button>" in page.text
    assert page.headers["Cache-Control"].startswith("no-store")
    # Found again from the form's page, and the form from the club's Nights (issue 37).
    assert f'href="{url}"' in olga.get(NEW).text
    assert f'href="/clubs/{SLUG}/nights"' in olga.get(f"/clubs/{SLUG}/members").text
    assert f'href="{NEW}"' in olga.get(f"/clubs/{SLUG}/nights").text


def test_refusals_come_back_with_their_reasons(app, olga):
    data = {"members": [ids(app)["Ann"]], "rules": "classic", "rounds": "13"}
    data.update(partners="rotating", sit_out="no game")
    answer = olga.post(NEW, data=data)
    assert answer.status_code == 422
    assert "A night has 1 to 12 rounds; 13 cannot be." in answer.text
    data["rounds"] = "2"
    answer = olga.post(NEW, data=data)
    assert answer.status_code == 422
    assert "A partnership table needs 4 players; 1 are present." in answer.text
    with app.app_context():
        assert db.session.execute(db.select(Night)).first() is None


def test_seat_round_one_shows_three_table_cards_with_their_games(app, olga):
    url = open_night(app, olga)
    seated = olga.post(f"{url}/seat")
    assert seated.status_code == 302 and seated.headers["Location"].endswith("#round-1")
    page = olga.get(url).text
    cards = CARD.findall(page)
    assert [n for n, _ in cards] == ["1", "2", "3"]
    assert all(re.fullmatch(r"\w+ &amp; \w+ v \w+ &amp; \w+", title) for _, title in cards)
    secrets = re.findall(r'<img class="night-qr" src="/t/([\w-]+)/invite.svg', page)
    assert len(secrets) == 3
    for secret in secrets:
        assert f'href="/t/{secret}"' in page
        assert olga.get(f"/t/{secret}/invite.svg").status_code == 200
    # Not over yet: no second round, said in words (422).
    again = olga.post(f"{url}/seat")
    assert again.status_code == 422
    assert "Round 1 is still playing at table 1, 2, 3." in again.text


def test_a_double_tap_of_seat_round_is_refused_as_seated_already(app, olga):
    url = open_night(app, olga)
    assert '<input type="hidden" name="round" value="1">' in olga.get(url).text
    assert olga.post(f"{url}/seat", data={"round": "1"}).status_code == 302
    # The second tap's page asked for round 1 too: told so, not that round 1 still plays.
    again = olga.post(f"{url}/seat", data={"round": "1"})
    assert again.status_code == 422
    assert "Round 1 is seated already." in again.text
    with app.app_context():
        assert len(db.session.execute(db.select(Night)).scalar_one().rounds) == 1


def test_the_next_round_once_the_last_table_finishes(app, olga):
    url = open_night(app, olga)
    olga.post(f"{url}/seat")
    finish_round(app, url, 1)
    board = olga.get(f"{url}/board").text
    assert "Round 2: the next seating" in board
    assert "Seat round 2</button>" in olga.get(url).text
    assert olga.post(f"{url}/seat").status_code == 302
    assert "Round 2</h2>" in olga.get(url).text
    assert olga.post(f"{url}/finish").status_code == 422  # round 2 is playing
    finish_round(app, url, 2)
    # Every round planned played: the night is over, with nothing left to end.
    over = olga.get(url).text
    assert "The night is over.</strong>" in over
    assert "Seat round" not in over and "End the night" not in over
    ended = olga.post(f"{url}/finish")
    assert ended.status_code == 302
    page = olga.get(url).text
    assert "The night is over: ended by its organisers." in page
    assert "Seat round" not in page and "End the night" not in page


def test_who_may_see_the_night_and_its_board(app, olga):
    url = open_night(app, olga)
    phone = holder(app)
    for address in (url, f"{url}/board"):
        assert olga.get(address).status_code == 200
        assert phone.get(address).status_code == 200
        stranger = app.test_client().get(address)
        assert stranger.status_code == 404
    # The table link's phone sees the night, never its organisers' buttons.
    assert "Seat round 1" not in phone.get(url).text
    assert phone.post(f"{url}/seat").status_code == 403
    assert phone.get(NEW).status_code == 403
    assert phone.post(f"{url}/players", data={"guest": "Zoe"}).status_code == 403
    assert app.test_client().post(f"{url}/seat").status_code == 404
    # Another club's night, or none: 404.
    assert olga.get(f"/clubs/{SLUG}/nights/999").status_code == 404
    assert olga.get(f"/clubs/{SLUG}/nights/999/board").status_code == 404


def test_a_public_clubs_night_needs_the_table_link(app, client):
    signup(client)
    new_club(client, public=True)
    add_members(client, SLUG, *TWELVE)
    url = open_night(app, client)
    assert app.test_client().get(url).status_code == 403
    assert app.test_client().get(f"{url}/board").status_code == 403
    answer = holder(app).get(f"{url}/board")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"].startswith("no-store")


def test_the_board_answers_304_until_a_deal_is_saved(app, olga):
    url = open_night(app, olga)
    olga.post(f"{url}/seat")
    board = olga.get(f"{url}/board")
    etag = board.headers["ETag"]
    assert f'data-version="{etag.strip(chr(34))}"' in board.text
    unchanged = olga.get(f"{url}/board", headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b""
    night_id = int(url.rsplit("/", 1)[1])
    with app.app_context():
        game = db.session.get(Night, night_id).rounds[0].tables[1].game
        deals.enter_deal(game, Level.TABLE, [{"books": {"clean": 1}}, {}])
        db.session.remove()
    changed = olga.get(f"{url}/board", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert "Table 2 · deal 1 saved" in changed.text


def test_a_late_arrival_and_a_leaver(app, olga):
    url = open_night(app, olga, names=TWELVE[:8])
    came = olga.post(f"{url}/players", data={"member": ids(app)["Ivy"]})
    assert came.status_code == 302 and came.headers["Location"].endswith("#players")
    page = olga.get(url).text
    assert "Ivy is here: seated from round 1." in page
    with app.app_context():
        ann = next(p for p in db.session.get(Night, 1).players if p.name == "Ann")
        ann_id = ann.id
    assert olga.post(f"{url}/players", data={"leave": ann_id}).status_code == 302
    assert "Gone: Ann." in olga.get(url).text
    refused = olga.post(f"{url}/players", data={"guest": "ivy"})
    assert refused.status_code == 422
    assert "ivy is a member: choose Ivy from the members instead." in refused.text


def test_an_unchanged_board_costs_two_queries_and_a_changed_one_six(app, olga):
    """The club (with the table link's check), then the board's version: 304. Changed: the
    night, its players and every table's game in one more (three tables here, one query), and
    every table's queries standing in one more (issue 40)."""
    url = open_night(app, olga)
    olga.post(f"{url}/seat")
    phone = holder(app)
    etag = phone.get(f"{url}/board").headers["ETag"]
    with app.app_context():
        engine = db.engine
    asked: list[str] = []

    def count(_connection, _cursor, statement, *_):
        if statement.lstrip().upper().startswith("SELECT"):
            asked.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        assert phone.get(f"{url}/board", headers={"If-None-Match": etag}).status_code == 304
        assert len(asked) == 2, asked
        asked.clear()
        assert phone.get(f"{url}/board").status_code == 200
        assert len(asked) == 6, asked
    finally:
        event.remove(engine, "before_cursor_execute", count)
