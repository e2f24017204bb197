"""Bodies through nginx (issues 26 and 39): each is refused at the app's own limit for its route,
always with 413, never 502.

The third attack saw 502s for oversized posts (/login, /my-games/forget, 1 in 6 on a deal's
form): nginx passed on any body up to 6 MiB, the app refused it unread, and gunicorn closed the
connection while nginx was still sending it. Now each location of the shipped site takes the
app's own limit (scorekeeper/plumbing/bodies.py), so nginx refuses first, and a body the app
refuses all the same (a records file not sent as a file) is read to its end before the app
answers (`bodies.drain`).
"""

from __future__ import annotations

import json
import re

from scorekeeper.plumbing.bodies import MAX_FORM_BODY, MAX_JSON_BODY, MAX_UPLOAD, UPLOADS

from ._nginx import SITE, body_of, logged
from ._server import NEW_GAME, call, new_game

# How many oversized bodies each route gets: the attack saw 1 in 6 answered 502.
TRIES = 30
MULTIPART = "multipart/form-data; boundary=x"
FORM = "application/x-www-form-urlencoded"


def locations() -> dict[str, int]:
    """Each location of the shipped site and the body it takes, in bytes."""
    text = SITE.read_text()
    found = re.findall(
        r"^\s*location ([^{]+?) \{\s*client_max_body_size (\d+)([km]);", text, re.MULTILINE
    )
    return {where: int(size) * 1024 ** (1 if unit == "k" else 2) for where, size, unit in found}


def an_app():
    """The app, for what it says (no database is opened)."""
    from scorekeeper import create_app

    return create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})


def import_path(slug: str) -> str:
    """The records upload's address, as the app makes it."""
    from flask import url_for

    with an_app().test_request_context():
        return url_for(next(iter(UPLOADS)), slug=slug)


def test_each_location_takes_the_apps_own_limit():
    """A page's form, the API and the records upload: nginx takes what the app takes, to the
    byte (bodies.py), and the upload's location is the app's one upload route."""
    assert len(UPLOADS) == 1, "a new upload route needs its own location in nginx.conf"
    limits = locations()
    assert limits.pop("/") == MAX_FORM_BODY
    assert limits.pop("/api/") == MAX_JSON_BODY
    (upload, most), *others = limits.items()
    assert others == [] and most == MAX_UPLOAD
    pattern = re.fullmatch(r"~ (\S+)", upload)
    assert pattern and re.search(pattern[1], import_path("tuesday"))


def test_a_body_over_nginxs_largest_is_refused_before_it_is_sent(proxied):
    """Past the largest (a club's records file): nginx's 413 at once, none of it sent."""
    _, nginx = proxied
    status, body = body_of_path(nginx.port, import_path("x"), MAX_UPLOAD + 1, MULTIPART, False)
    assert status == 413 and b"nginx" in body, body[:300]


def body_of_path(
    port: int, path: str, size: int, kind: str, send: bool = True, chunked: bool = False
) -> tuple[int, bytes]:
    """POST `size` bytes of `kind` to `path` through nginx: the answer's status and body."""
    return body_of(port, size, send, path=path, kind=kind, chunked=chunked)


def test_oversized_posts_always_get_413(proxied):
    """30 bodies just past each route's limit and 30 far past it, some sent in chunks: every
    answer is a 413 (the attack: 502 for 1 in 6), a plain page naming no secret; the API's is
    the app's own JSON refusal."""
    _, nginx = proxied
    apps = an_app().test_client().post("/api/v1/games", data=b" " * (MAX_JSON_BODY + 1))
    assert apps.status_code == 413
    game = new_game(nginx.port)
    routes = [
        ("/login", MAX_FORM_BODY, FORM),
        ("/my-games/forget", MAX_FORM_BODY, FORM),
        (f"/t/{game.secret}/deals/new", MAX_FORM_BODY, FORM),
        (f"/api/v1/games/{game.id}/deals", MAX_JSON_BODY, "application/json"),
    ]
    answers: dict[str, list[int]] = {}
    for path, limit, kind in routes:
        statuses = answers.setdefault(path, [])
        for n in range(TRIES):
            size = limit + 1 if n % 2 else 3 * limit
            status, body = body_of_path(nginx.port, path, size, kind, chunked=n % 5 == 0)
            statuses.append(status)
            assert game.secret[1:-1].encode() not in body
            assert b"<script" not in body.lower()
            if path.startswith("/api/"):
                assert json.loads(body) == apps.json, body
    assert all(statuses == [413] * TRIES for statuses in answers.values()), answers
    # Each route still takes a body at its limit: nginx passes it on (whatever the app makes
    # of a body of spaces, it is not nginx's 413).
    for path, limit, kind in routes:
        assert body_of_path(nginx.port, path, limit, kind)[0] != 413, path


def test_a_body_the_app_refuses_unread_gets_its_413_and_costs_nobody_else(proxied):
    """A form to the upload's address not sent as a file: nginx takes up to 6 MiB there, the
    app a form's 128 KiB. 30 such bodies, each followed by someone else's new game: every body
    gets the app's own 413 page (read to its end before the answer, so gunicorn closes on
    nothing), and every new game is saved (no connection to gunicorn is used twice)."""
    from scorekeeper.web.errors import MESSAGES

    _, nginx = proxied
    path = import_path("nobody")
    refused, saved = [], []
    for n in range(TRIES):
        refused.append(body_of_path(nginx.port, path, 2 * MAX_FORM_BODY + 4096 * n, FORM))
        saved.append(call(nginx.port, "POST", "/api/v1/games", json_body=NEW_GAME).status)
    assert saved == [201] * TRIES, saved
    assert [status for status, _ in refused] == [413] * TRIES, [s for s, _ in refused]
    assert all(MESSAGES[413].encode() in body for _, body in refused)
    # The access log says the app answered each (an upstream status for every 413).
    line = '/clubs/nobody/import HTTP/1.1" 413'
    assert logged(nginx.access_log, [line]).count(line) >= TRIES
