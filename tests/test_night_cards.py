"""A club night's movement cards over HTTP (issue 37): seen as the night's page is (organisers
and the table link; 404 to anyone else in a private club), a card for every player with every
round, a card for every table, the night's page linking to them, and none where the seating is
drawn round by round.
"""

from __future__ import annotations

import html
import re

import pytest
from night_club import TWELVE
from test_clubs import SLUG
from test_night_pages import holder

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night
from scorekeeper.services import clubs
from scorekeeper.services.nights import cards as night_cards
from scorekeeper.services.nights import play as night_play

pytestmark = pytest.mark.usefixtures("quick_hashing")

PLAYER_CARD = re.compile(
    r'<li class="move-card">\s*<h3 class="move-name">([^<]+)</h3>(.*?)</li>', re.S
)
ROW = re.compile(r'<tr>\s*<th scope="row">(\d+)</th>\s*<td[^>]*>([^<]*)</td>', re.S)


def open_night(app, partners="rotating", rounds=3) -> tuple[str, night_cards.Cards]:
    """Twelve members' night opened by the service: its cards' address and the cards."""
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        ids = [m.id for m in club.members if m.name in TWELVE]
        night = night_play.open_night(club, ids, "", "classic", rounds, partners, "no game")
        cards = night_cards.movement_cards(night)
        address = f"/clubs/{SLUG}/nights/{night.id}"
        db.session.remove()
    return address, cards


def test_a_card_for_every_player_with_every_round_and_its_table(app, olga):
    night, cards = open_night(app)
    page = olga.get(f"{night}/cards")
    assert page.status_code == 200 and page.headers["Cache-Control"].startswith("no-store")
    assert re.search(r'<link rel="stylesheet" href="/static/cards.css\?v=\w{8}">', page.text)
    found = {html.unescape(name): body for name, body in PLAYER_CARD.findall(page.text)}
    assert sorted(found) == sorted(TWELVE)
    for card in cards.players:
        rows = ROW.findall(found[card.name])
        assert [int(number) for number, _ in rows] == [1, 2, 3]
        # Each round's table (or why none) as the service planned it.
        said = [p.away or str(p.table) for p in card.places]
        assert [cell.strip() for _, cell in rows] == said
    tables = re.findall(r'Table <span class="move-number">(\d+)</span>', page.text)
    assert tables == [str(t.number) for t in cards.tables] == ["1", "2", "3"]
    assert night_cards.HOLDS in html.unescape(page.text)


def test_the_cards_are_seen_as_the_night_is(app, olga):
    night, _ = open_night(app)
    assert holder(app).get(f"{night}/cards").status_code == 200
    assert app.test_client().get(f"{night}/cards").status_code == 404
    assert olga.get(f"/clubs/{SLUG}/nights/999/cards").status_code == 404


def test_the_nights_page_links_to_its_cards(app, olga):
    night, _ = open_night(app)
    assert f'href="{night}/cards"' in olga.get(night).text


def test_a_night_drawn_round_by_round_says_there_are_no_cards(app, olga):
    night, cards = open_night(app, partners="balanced")
    page = olga.get(f"{night}/cards")
    assert page.status_code == 200
    assert night_cards.ROUND_BY_ROUND in html.unescape(page.text)
    assert cards.none in html.unescape(page.text)
    assert 'class="move-card"' not in page.text


def test_the_cards_after_round_one_keep_it_as_seated(app, olga):
    night, before = open_night(app)
    with app.app_context():
        night_play.seat_round(db.session.get(Night, int(night.rsplit("/", 1)[1])))
        db.session.remove()
    page = olga.get(f"{night}/cards")
    assert "rounds 1 to 3: round 1 as seated, the rest as they will be seated." in page.text
    assert "as seated before round 2. " in page.text
    found = {html.unescape(name): body for name, body in PLAYER_CARD.findall(page.text)}
    for card in before.players:
        rows = ROW.findall(found[card.name])
        assert [cell.strip() for _, cell in rows] == [p.away or str(p.table) for p in card.places]
