"""Invite the table's QR code, a picture of its own (issue 18, lighter on the wire).

The scoreboard no longer carries the code inline: it names `/t/<secret>/invite.svg` in a lazy
`<img>`, fetched only when *Invite the table* is open (tests/browser/test_private_links.py
proves that in Chromium). The picture encodes the game's full private link, is kept by no shared
cache, and opens for exactly those the scoreboard opens for: a wrong secret is a 404, and a
club's game opens to its link as its scoreboard does (issue 37: a game's link is enough).
"""

from __future__ import annotations

import gzip
import re

import pytest
from private_games import _enter, _start, _start_club, _wrong_secret
from qr_reader import matrix_of, read_qr

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Organiser
from scorekeeper.services import clubs
from scorekeeper.web.sharing import QUIET_ZONE, SIZE

SVG = "image/svg+xml"


def _picture(path: str) -> str:
    return f"{path}/invite.svg"


def test_the_link_holder_gets_the_code_of_the_games_full_link(app, client):
    path = _start(client, "Ann", "Bob")
    answer = client.get(_picture(path))
    assert answer.status_code == 200
    assert answer.mimetype == SVG
    modules, border = read_qr(answer.data)
    assert modules == matrix_of(f"http://localhost{path}")
    assert modules != matrix_of(f"http://localhost{path}x")  # the reading tells links apart
    # Scannable on any page, night mode included: black modules on a white ground of its own,
    # with the standard's quiet zone of four modules.
    assert border >= QUIET_ZONE == 4
    assert re.search(r'<path fill="#fff" d="M0 0h(\d+)v\1h-\1z"/>', answer.text)
    # No class, script, style or link of anything: a picture, nothing the page could style.
    assert not re.search(r"<(script|style|a|image|foreignObject)\b|class=|href=", answer.text)
    # Fetching the picture is not opening the game: the phone's session is left as it was.
    assert "Set-Cookie" not in answer.headers


def test_the_code_names_the_public_url_when_the_operator_set_one(app, client):
    app.config["PUBLIC_URL"] = "https://scores.example.org"
    path = _start(client, "Ann", "Bob")
    modules, _ = read_qr(client.get(_picture(path)).data)
    assert modules == matrix_of(f"https://scores.example.org{path}")


def test_kept_by_the_phone_alone_and_gzipped(app, client):
    path = _start(client, "Ann", "Bob")
    plain = client.get(_picture(path))
    cache = plain.cache_control
    assert cache.private and not cache.public and not cache.no_store
    assert 0 < cache.max_age <= 3600, plain.headers["Cache-Control"]
    assert "s-maxage" not in plain.headers["Cache-Control"]
    # Opened on its own in a tab it may run nothing; and no browser takes it for anything else.
    assert plain.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert plain.headers["X-Content-Type-Options"] == "nosniff"
    packed = client.get(_picture(path), headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data) / 2
    # Once its few minutes are up, the phone asks with the tag and hears "unchanged".
    again = client.get(_picture(path), headers={"If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304 and not again.data
    assert again.headers["Cache-Control"] == plain.headers["Cache-Control"]


def test_a_wrong_secret_is_a_404_like_every_game_route(app, client):
    path = _start(client, "Ann", "Bob")
    assert client.get(path).status_code == 200  # shows "Game started", once
    etag = client.get(_picture(path)).headers["ETag"]
    wrong = f"/t/{_wrong_secret()}"
    for headers in ({}, {"If-None-Match": etag}):  # a tag proves nothing either
        answer = client.get(_picture(wrong), headers=headers)
        assert answer.status_code == 404 and answer.mimetype != SVG
        assert answer.data == client.get(wrong).data  # as the scoreboard answers
    # The old address by id, and the path without a secret, find nothing either.
    assert client.get("/games/1/invite.svg").status_code == 404
    assert client.get("/t/invite.svg").status_code == 404


def _scoreboard_and_picture(phone, path: str) -> tuple[int, int]:
    return phone.get(path).status_code, phone.get(_picture(path)).status_code


@pytest.fixture
def club_game(app) -> tuple[str, int, str]:
    """A private club's game (its link), the club's id and its table code."""
    from werkzeug.security import generate_password_hash

    with app.app_context():
        olga = Organiser(username="olga", password_hash=generate_password_hash("x" * 12))
        db.session.add(olga)
        db.session.commit()
        club = clubs.create_club("Private club", "hidden", olga)
        club_id, code = club.id, club.table_code
    table = app.test_client()
    assert table.post(f"/clubs/hidden/table/{code}").status_code == 302
    return _start_club(table), club_id, code


def test_a_club_game_opens_to_its_link_as_its_scoreboard_does(app, club_game):
    game, club_id, code = club_game
    # The game's link alone (issue 37): the scoreboard and its picture both open, so a table's
    # phones invite one another from any of them.
    stranger = app.test_client()
    assert _scoreboard_and_picture(stranger, game) == (200, 200)
    # With the club's table link: both open.
    phone = app.test_client()
    assert phone.post(f"/clubs/hidden/table/{code}").status_code == 302
    assert _scoreboard_and_picture(phone, game) == (200, 200)
    # A wrong link: both hide it, whoever asks.
    wrong = "/t/" + _wrong_secret()
    assert _scoreboard_and_picture(phone, wrong) == (404, 404)
    assert _scoreboard_and_picture(stranger, wrong) == (404, 404)


def test_the_scoreboard_names_the_picture_instead_of_drawing_it(app, client):
    path = _start(client, "Ann", "Bob")
    board = client.get(path).text
    invite = re.search(r'<details class="invite card" id="invite"[^>]*>.*?</details>', board, re.S)
    assert invite, "no Invite the table"
    assert " open" in invite.group(0).split(">", 1)[0]  # a new game shows it at once
    assert "<svg" not in invite.group(0) and 'class="qr"' in invite.group(0)
    assert not re.search(r"<svg[^>]*\bclass=\"qr\"", board)
    img = re.search(r"<img [^>]*>", invite.group(0)).group(0)
    attributes = dict(re.findall(r'(\w[\w-]*)="([^"]*)"', img))
    assert attributes == {
        "class": "qr",
        "src": _picture(path),
        "alt": "QR code of this game&#39;s private link",
        "width": str(SIZE),
        "height": str(SIZE),
        "loading": "lazy",
    }
    assert client.get(attributes["src"]).mimetype == SVG
    # Once the game has deals, Invite the table starts closed: the picture waits to be asked for.
    assert _enter(client, path).status_code == 302
    invite = re.search(
        r'<details class="invite card" id="invite">.*?</details>', client.get(path).text, re.S
    )
    assert invite, "Invite the table is not closed"
    assert f'src="{_picture(path)}"' in invite.group(0) and "<svg" not in invite.group(0)


@pytest.mark.parametrize("deals", [0, 1])
def test_the_scoreboard_got_lighter(app, client, deals):
    """The page no longer carries the code's path (about 2 KB, 0.9 KB gzipped)."""
    path = _start(client, "Ann", "Bob")
    for _ in range(deals):
        assert _enter(client, path).status_code == 302
    board = client.get(path).data
    drawn = client.get(_picture(path)).data
    stroke = re.search(rb' d="([^"]+)"/></svg>', drawn).group(1)
    assert stroke not in board
    assert b"qrline" not in board


def test_every_game_has_its_own_code(app, client):
    first, second = _start(client, "Ann", "Bob"), _start(client, "Cat", "Dan")
    a, b = client.get(_picture(first)), client.get(_picture(second))
    assert a.data != b.data and a.headers["ETag"] != b.headers["ETag"]
    # One game's tag opens nothing of the other's.
    other = client.get(_picture(second), headers={"If-None-Match": a.headers["ETag"]})
    assert other.status_code == 200 and other.data == b.data
