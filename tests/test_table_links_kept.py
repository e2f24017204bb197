"""Issue 26: opening a club's table link writes nothing; the phone keeps it only when asked (a
POST with its CSRF token), and keeps a few clubs' links at most, the newest, in a cookie that
stays under the 4 KB a browser keeps however much else the phone remembers.

The finding: a GET kept the link, so another site's `<img>` tags could grow a visitor's cookie
past 4 KB and list 80 clubs on their home page.
"""

from __future__ import annotations

import re
import secrets

import pytest

from scorekeeper.plumbing.db import db
from scorekeeper.rules.terms import MAX_DEVICE_NAME
from scorekeeper.services import accounts, clubs
from scorekeeper.web.access import (
    GAMES,
    MY_GAMES_KEPT,
    MY_RULES_CHARACTERS,
    MY_RULES_KEPT,
    MY_TABLES_KEPT,
    RULES,
    SIDES,
    TABLES,
)
from scorekeeper.web.phone_name import NAME

PASSWORD = "quiet-harbour-7341-lantern"
# What a browser keeps of one cookie: its name, value and attributes (RFC 6265, section 6.1).
COOKIE_LIMIT = 4096


pytestmark = pytest.mark.usefixtures("quick_hashing")


def make_clubs(app, count: int, slug_length: int = 12) -> list[tuple[str, str]]:
    """`count` clubs run by one organiser: each one's slug and table code, oldest first."""
    made = []
    with app.app_context():
        owner = accounts.register("owner", PASSWORD)
        db.session.commit()
        for number in range(count):
            slug = f"c{number:02d}-".ljust(slug_length, "x")
            club = clubs.create_club(f"Club {number}", slug, owner)
            made.append((club.slug, club.table_code))
        db.session.commit()
    return made


def link(slug: str, code: str) -> str:
    return f"/clubs/{slug}/table/{code}"


def may_start(phone, slug: str) -> bool:
    """Whether the phone may start a game of this (private) club."""
    return phone.get(f"/clubs/{slug}/games/new?ruleset=club").status_code == 200


def kept(phone) -> list:
    with phone.session_transaction() as session:
        return list(session.get(TABLES, []))


# -------------------------------------------------------------------- a GET writes nothing


def test_opening_the_link_keeps_nothing_until_the_button(app):
    ((slug, code),) = make_clubs(app, 1)
    phone = app.test_client()
    page = phone.get(link(slug, code))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Keep the table link on this phone" in html
    assert re.search(r'<form method="post"', html)
    assert kept(phone) == []
    assert not may_start(phone, slug)
    assert phone.get("/").get_data(as_text=True).count("Club 0") == 0

    answer = phone.post(link(slug, code))
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith(f"/clubs/{slug}")
    assert kept(phone) == [[slug, code]]
    assert may_start(phone, slug)
    assert "Club 0" in phone.get("/").get_data(as_text=True)


def test_another_sites_requests_cannot_grow_the_cookie(app):
    """80 links opened by GET (an <img> each): no club kept, the cookie no larger after 80
    than after one (it holds the CSRF token the page's button needs, once)."""
    app.config["WTF_CSRF_ENABLED"] = True
    made = make_clubs(app, 80)
    phone = app.test_client()
    assert phone.get(link(*made[0])).status_code == 200
    cookie = phone.get_cookie("session")
    first = len(cookie.value) if cookie else 0
    for slug, code in made[1:]:
        assert phone.get(link(slug, code)).status_code == 200
    cookie = phone.get_cookie("session")
    assert (len(cookie.value) if cookie else 0) == first
    assert kept(phone) == []
    home = phone.get("/").get_data(as_text=True)
    assert not any(f">Club {n}<" in home for n in range(80))


def test_the_button_needs_its_csrf_token(app):
    """Another site cannot post it either: no token, nothing kept."""
    app.config["WTF_CSRF_ENABLED"] = True
    ((slug, code),) = make_clubs(app, 1)
    phone = app.test_client()
    assert phone.post(link(slug, code)).status_code == 400
    assert kept(phone) == []
    page = phone.get(link(slug, code)).get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page).group(1)
    assert phone.post(link(slug, code), data={"csrf_token": token}).status_code == 302
    assert kept(phone) == [[slug, code]]


def test_a_wrong_code_is_a_404_either_way(app):
    ((slug, code),) = make_clubs(app, 1)
    phone = app.test_client()
    wrong = code[:-1] + ("A" if code[-1] != "A" else "B")
    assert phone.get(link(slug, wrong)).status_code == 404
    assert phone.post(link(slug, wrong)).status_code == 404
    assert kept(phone) == []


# ------------------------------------------------------------------------------ the cap


def test_the_newest_links_are_kept_the_oldest_dropped(app):
    made = make_clubs(app, MY_TABLES_KEPT + 3)
    phone = app.test_client()
    for slug, code in made:
        assert phone.post(link(slug, code)).status_code == 302
    newest = list(reversed(made))[:MY_TABLES_KEPT]
    assert kept(phone) == [[slug, code] for slug, code in newest]
    for slug, _ in made[:3]:
        assert not may_start(phone, slug), slug
    for slug, _ in newest:
        assert may_start(phone, slug), slug
    # Kept again, an old club comes back to the top; the oldest of the rest goes.
    assert phone.post(link(*made[0])).status_code == 302
    assert kept(phone)[0] == list(made[0])
    assert len(kept(phone)) == MY_TABLES_KEPT
    assert not may_start(phone, made[3][0])


def test_links_kept_before_the_cap_still_open_their_clubs(app):
    """A session from before issue 26 holds {slug: code}: read, and cut to the cap."""
    made = make_clubs(app, MY_TABLES_KEPT + 5)
    phone = app.test_client()
    with phone.session_transaction() as session:
        session[TABLES] = dict(made[:2])
    assert may_start(phone, made[0][0]) and may_start(phone, made[1][0])
    with phone.session_transaction() as session:
        session[TABLES] = dict(made)
    home = phone.get("/").get_data(as_text=True)
    assert sum(f">Club {n}<" in home for n in range(len(made))) == MY_TABLES_KEPT
    assert phone.post(link(*made[-1])).status_code == 302
    assert len(kept(phone)) == MY_TABLES_KEPT


def test_the_cookie_stays_under_4_kb_with_the_most_of_everything_kept(app):
    """An organiser signed in, the most games, sides and rules a phone keeps, and the most
    table links, of clubs with the longest slugs: one cookie a browser still keeps."""
    made = make_clubs(app, MY_TABLES_KEPT + 2, slug_length=40)
    phone = app.test_client()
    assert phone.post("/login", data={"username": "owner", "password": PASSWORD}).status_code
    rule_link = "/games/new?ruleset=club&r_deal_limit=300&r_min_meld_0=60&r_book_clean=600"
    share = MY_RULES_CHARACTERS // MY_RULES_KEPT
    with phone.session_transaction() as session:
        assert "_user_id" in session
        games = [secrets.token_urlsafe(16) for _ in range(MY_GAMES_KEPT)]
        session[GAMES] = games
        session[SIDES] = [[secret, 5] for secret in games]
        # The longest name a phone goes by (issue 40: asked once, kept in the session).
        session[NAME] = secrets.token_urlsafe(MAX_DEVICE_NAME)[:MAX_DEVICE_NAME]
        session[RULES] = [
            # Names as typed, not as repetitive as a padding would compress.
            {"name": secrets.token_urlsafe(share)[: share - len(rule_link)], "link": rule_link}
            for n in range(MY_RULES_KEPT)
        ]
    for slug, code in made:
        answer = phone.post(link(slug, code))
        assert answer.status_code == 302
    cookie = answer.headers["Set-Cookie"]
    assert len(kept(phone)) == MY_TABLES_KEPT
    print(f"session cookie with the most kept: {len(cookie)} bytes")
    assert len(cookie) < COOKIE_LIMIT, len(cookie)
