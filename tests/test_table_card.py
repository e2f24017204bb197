"""The club's table link shared as a game's is (issue 28): its QR code, its table card, and a new
link only once confirmed.

Who may see what (every visitor against every club route is in test_club_access.py too): the
QR code, the card and the confirmation are the organisers' alone, as the settings that show the
link. A table-link holder is refused (403), a stranger finds nothing (404, as a club that does
not exist), and an organiser asking for the picture of a code that is not the club's (a wrong
one, or the one replaced) gets a 404, as the old table link does.
"""

from __future__ import annotations

import re

import pytest
from qr_reader import matrix_of, read_qr
from test_clubs import SLUG, new_club, signup

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.logs import redact
from scorekeeper.plumbing.models import Game
from scorekeeper.services import clubs
from scorekeeper.web.clubs.table_card import EXPIRED
from scorekeeper.web.sharing import QUIET_ZONE, SIZE, TABLE_LABEL

pytestmark = pytest.mark.usefixtures("quick_hashing")

SVG = "image/svg+xml"
QUESTION = "<h1>Make a new table link for Tuesday Club?</h1>"
WHAT_STOPS = (
    "The link on every phone and printed table card stops working: phones that kept it can no "
    "longer start games or enter deals for the club until they open the new one. Games already "
    "started keep their own links."
)


def words(html: str) -> str:
    """A page's text, tags out and whitespace collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def tokenless(html: str) -> str:
    """A page without its sign-out form's CSRF token, which is signed with the second it was
    made: two pages a second apart differ there alone (this test once failed so)."""
    return re.sub(r'name="csrf_token" value="[^"]*"', 'name="csrf_token"', html)


def code_of(app) -> str:
    with app.app_context():
        return clubs.club_by_slug(SLUG).table_code


def picture_of(code: str) -> str:
    return f"/clubs/{SLUG}/table/{code}/qr.svg"


@pytest.fixture
def olga(app, client):
    """Olga, signed in, runs the private Tuesday Club."""
    signup(client)
    new_club(client)
    return client


def test_the_settings_show_the_link_its_code_copy_share_and_the_card(app, olga):
    code = code_of(app)
    page = olga.get(f"/clubs/{SLUG}/settings").text
    link = f"http://localhost/clubs/{SLUG}/table/{code}"
    assert re.search(rf'<input id="table-link" class="invite-link" value="{link}" readonly>', page)
    img = re.search(r'<img class="qr" [^>]*>', page).group(0)
    assert dict(re.findall(r'(\w[\w-]*)="([^"]*)"', img)) == {
        "class": "qr",
        "src": picture_of(code),
        "alt": TABLE_LABEL.replace("'", "&#39;"),
        "width": str(SIZE),
        "height": str(SIZE),
    }
    # Copy, and Share where the phone has a share sheet: both read the field (app.js).
    buttons = re.findall(r"<button [^>]*data-copy=\"table-link\"[^>]*>([^<]+)</button>", page)
    assert buttons == ["Copy the link", "Share the link"]
    assert re.search(r'<button [^>]*class="button share-only"[^>]*data-share', page)
    assert f'href="/clubs/{SLUG}/settings/table-card"' in page
    # Making a new link is a link to its confirmation now, never a form that acts at once.
    assert f'href="/clubs/{SLUG}/settings/table-link"' in page
    assert f'action="/clubs/{SLUG}/settings/table-link"' not in page


def test_the_organisers_picture_is_the_code_of_the_full_table_link(app, olga):
    code = code_of(app)
    answer = olga.get(picture_of(code))
    assert answer.status_code == 200 and answer.mimetype == SVG
    modules, border = read_qr(answer.data)
    assert modules == matrix_of(f"http://localhost/clubs/{SLUG}/table/{code}")
    assert border >= QUIET_ZONE
    assert f"<title>{TABLE_LABEL}</title>" in answer.text
    # A picture that may run nothing, for this site's pages alone, kept by no cache: an answer
    # the sign-in alone opened (and its address names the code).
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert answer.headers["Cross-Origin-Resource-Policy"] == "same-origin"
    cache = answer.cache_control
    assert cache.no_store and cache.private and not cache.public
    assert "Set-Cookie" not in answer.headers
    # Drawn by the same code as a game's (web/sharing.qr_svg): the same picture for the link.
    from scorekeeper.web.sharing import qr_svg

    assert answer.data == qr_svg(f"http://localhost/clubs/{SLUG}/table/{code}", TABLE_LABEL)


def test_the_picture_and_card_name_the_public_url_when_the_operator_set_one(app, olga):
    app.config["PUBLIC_URL"] = "https://scores.example.org"
    code = code_of(app)
    link = f"https://scores.example.org/clubs/{SLUG}/table/{code}"
    modules, _ = read_qr(olga.get(picture_of(code)).data)
    assert modules == matrix_of(link)
    assert f'value="{link}"' in olga.get(f"/clubs/{SLUG}/settings").text
    assert link in olga.get(f"/clubs/{SLUG}/settings/table-card").text


def test_a_wrong_code_is_a_404_even_for_the_organiser(app, olga):
    code = code_of(app)
    flipped = ("A" if code[0] != "A" else "B") + code[1:]
    for wrong in (flipped, code[:-1], code + "x", "a" * len(code), "caf%C3%A9"):
        answer = olga.get(picture_of(wrong))
        assert answer.status_code == 404 and answer.mimetype != SVG, wrong
    # Another club's code is no key to this club's picture either.
    new_club(olga, slug="friday", name="Friday Club")
    with app.app_context():
        friday = clubs.club_by_slug("friday").table_code
    assert olga.get(picture_of(friday)).status_code == 404
    assert olga.get(f"/clubs/friday/table/{friday}/qr.svg").status_code == 200


def test_only_the_organisers_see_the_picture_and_the_card(app, olga):
    code = code_of(app)
    paths = (picture_of(code), f"/clubs/{SLUG}/settings/table-card")
    # A phone that kept the table link plays with it; it does not hand it on from here.
    holder = app.test_client()
    assert holder.post(f"/clubs/{SLUG}/table/{code}").status_code == 302
    header = app.test_client()
    # A stranger, and another club's organiser, are answered as for a club that does not exist.
    stranger = app.test_client()
    vera = app.test_client()
    signup(vera, "vera")
    vera.get("/")  # its welcome shown: each answer below is the page alone
    for path in paths:
        assert olga.get(path).status_code == 200, path
        assert holder.get(path).status_code == 403, path
        assert header.get(path, headers={"X-Table-Code": code}).status_code == 403, path
        nowhere = path.replace(f"/clubs/{SLUG}/", "/clubs/no-such-club/")
        for visitor in (stranger, vera):
            answer, missing = visitor.get(path), visitor.get(nowhere)
            assert answer.status_code == missing.status_code == 404, path
            assert tokenless(answer.text) == tokenless(missing.text), path
    # Signed out, Olga's phone is a stranger's again.
    assert olga.post("/logout").status_code == 302
    assert all(olga.get(path).status_code == 404 for path in paths)


def test_the_table_card_is_the_code_and_the_link_to_print(app, olga):
    code = code_of(app)
    answer = olga.get(f"/clubs/{SLUG}/settings/table-card")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"].startswith("no-store")
    card = re.search(r'<article class="table-card">.*?</article>', answer.text, re.S).group(0)
    assert "<h1>Scan to score for Tuesday Club</h1>" in card
    assert f'<img class="qr" src="{picture_of(code)}"' in card
    assert f'<p class="table-card-link">http://localhost/clubs/{SLUG}/table/{code}</p>' in card
    assert "Scan the code with your phone's camera" in words(card)
    # What only the phone uses goes when printed (app.css hides .no-print, buttons, nav); its
    # own styles (static/card.css) come with this page alone.
    after = answer.text.split("</article>", 1)[1]
    assert re.search(r'<div class="no-print">\s*<p>Print this page', after)
    assert re.search(r'<link rel="stylesheet" href="/static/card.css\?v=\w{8}">', answer.text)
    assert "card.css" not in olga.get(f"/clubs/{SLUG}/settings").text


def test_a_get_only_asks_and_the_post_replaces_the_link(app, olga):
    old = code_of(app)
    # A game started with the old link.
    phone = app.test_client()
    assert phone.post(f"/clubs/{SLUG}/table/{old}").status_code == 302
    start = {"ruleset": "classic", "decks": "4", "side0_name": "Ann", "side1_name": "Bob"}
    started = phone.post(f"/clubs/{SLUG}/games/new", data=start)
    assert started.status_code == 302, started.text
    asked = olga.get(f"/clubs/{SLUG}/settings/table-link")
    assert asked.status_code == 200
    assert asked.headers["Cache-Control"].startswith("no-store")
    assert QUESTION in asked.text and WHAT_STOPS in words(asked.text)
    assert re.search(r'<form method="post" class="actions">\s*<button', asked.text)
    assert f'href="/clubs/{SLUG}/settings"' in asked.text  # the way back
    assert code_of(app) == old, "asking changed the link"
    # Confirmed: a new code, the organiser told so (Post/Redirect/Get).
    made = olga.post(f"/clubs/{SLUG}/settings/table-link")
    assert made.status_code == 302 and made.location.endswith(f"/clubs/{SLUG}/settings")
    new = code_of(app)
    assert new != old
    settings = olga.get(f"/clubs/{SLUG}/settings").text
    assert "New table link made: the old one no longer works." in settings
    assert f"/clubs/{SLUG}/table/{new}" in settings and old not in settings
    # The old link, and its picture, are gone; the phone that kept it plays no more.
    assert app.test_client().get(f"/clubs/{SLUG}/table/{old}").status_code == 404
    assert olga.get(picture_of(old)).status_code == 404
    assert olga.get(picture_of(new)).status_code == 200
    assert phone.get(f"/clubs/{SLUG}/games/new").status_code == 404
    # The game keeps its own link: the new table link opens it.
    with app.app_context():
        (game,) = db.session.query(Game).all()
        secret = game.secret
    assert phone.post(f"/clubs/{SLUG}/table/{new}").status_code == 302
    assert phone.get(f"/t/{secret}").status_code == 200


def test_an_expired_confirmation_comes_back_saying_why(app, olga):
    old = code_of(app)
    app.config["WTF_CSRF_ENABLED"] = True
    expired = olga.post(f"/clubs/{SLUG}/settings/table-link", data={"csrf_token": "stale"})
    assert expired.status_code == 422
    assert EXPIRED in words(expired.text)
    assert QUESTION in expired.text and WHAT_STOPS in words(expired.text)
    assert code_of(app) == old
    # Its fresh token goes through.
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', expired.text)
    token = token or re.search(r'name="csrf_token" value="([^"]+)"', expired.text)
    made = olga.post(f"/clubs/{SLUG}/settings/table-link", data={"csrf_token": token.group(1)})
    assert made.status_code == 302
    assert code_of(app) != old


def test_the_pictures_address_is_blanked_in_access_logs_as_the_link_is(app, olga):
    """The address names the code: it is under the table link's own path, which gunicorn's log
    (and the shipped nginx site) blank."""
    code = code_of(app)
    src = re.search(r'<img class="qr" src="([^"]+)"', olga.get(f"/clubs/{SLUG}/settings").text)
    assert src.group(1) == picture_of(code)
    assert code not in redact(f"GET {src.group(1)} HTTP/1.1")
    assert code not in redact(f"GET /clubs/{SLUG}/table/{code} HTTP/1.1")
