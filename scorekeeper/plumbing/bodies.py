"""How large a request body the app reads: the one home of each body limit.

Werkzeug refuses a body past `request.max_content_length` with 413 before reading a byte of
it (or, sent without a length, as soon as it runs past). Every request gets the allowance of
what it is: an API call's JSON, a page's form, or the one upload a club makes. A body is
refused before it is parsed, so no request makes the app hold more than its allowance's worth
of parsed keys, fields or names (issue 26: 5.75 MB of players cost a worker 42 s and 1.35 GB).
"""

from __future__ import annotations

from flask import Flask, Response, request
from werkzeug.wsgi import get_input_stream

# The largest records CSV a club may import (records_import.MAX_BYTES is this one): 5 MiB.
MAX_RECORDS_FILE = 5 * 1024 * 1024
# What the upload's multipart form adds around the file: boundaries, part headers, the CSRF
# token, a few hundred bytes; a whole MiB, so that a file at its limit is never refused by the
# body's (413) before the import can say in words that it is too large.
UPLOAD_FORM_ROOM = 1024 * 1024
# The file with its form around it (6 MiB): the largest body any route takes, and the app's
# MAX_CONTENT_LENGTH. Only the upload gets it.
MAX_UPLOAD = MAX_RECORDS_FILE + UPLOAD_FORM_ROOM
# The largest body a legitimate API client sends is a new game of MAX_SIDES (12) sides of
# MAX_PLAYERS_PER_SIDE (6) players, every name MAX_NAME (60) characters each written as a
# \\ud83c\\udca1 pair, with a preset's every rule and indented: 65,278 bytes. A deal of 12 sides
# with every figure filled is 12,282 and a line 1,517 (tests/test_request_bounds.py builds
# them). Four times the largest, so that no client ever meets it; a body of only unknown keys
# this size parses to some 37,000 keys, which costs a worker milliseconds.
MAX_JSON_BODY = 256 * 1024
# The largest legitimate form is a new game of MAX_SIDES_ON_FORM (6) sides, each name and
# player list at its most in 4-byte characters, percent-encoded (12 bytes a character): under
# 30 KB with the house rules. Four times that. A form this size of empty fields (a&a&...) is
# 65,536 fields, which Werkzeug parses in some 30 ms.
MAX_FORM_BODY = 128 * 1024
# Fields of a multipart form (Werkzeug's own default): the deal form of 6 sides, the largest,
# has under 200; a form of more is no form of this app.
MAX_FORM_PARTS = 1_000
# The upload's form parts that are not the file (the CSRF token) are small: at most a form's.
MAX_FORM_MEMORY_SIZE = MAX_FORM_BODY
# The routes that take MAX_UPLOAD, as multipart/form-data only: the records CSV's import page.
UPLOADS = frozenset({"clubs.import_records"})
UPLOAD_TYPE = "multipart/form-data"
# A body refused with 413 is read to its end (and dropped) before the answer goes out, up to
# this much: answered with the body still unsent, gunicorn closes the connection on it and the
# proxy, still sending, answers the client 502 instead (issue 39: 1 in 6 on a deal's form).
# nginx refuses anything past a route's own limit itself (docs/deploy/nginx.conf), so what is
# read here is what nginx let through: at most the largest body it takes.
MOST_DRAINED = MAX_UPLOAD


def allowance(path: str, endpoint: str | None, mimetype: str, most: int | None) -> int:
    """The most bytes of body this request may send (`most`: the app's MAX_CONTENT_LENGTH)."""
    if endpoint in UPLOADS and mimetype == UPLOAD_TYPE:
        return most or MAX_UPLOAD
    limit = MAX_JSON_BODY if path.startswith("/api/") else MAX_FORM_BODY
    return min(limit, most) if most else limit


def configure(app: Flask) -> None:
    """Give each request its allowance before anything reads its body.

    Call first: CSRFProtect's check reads a form, and SQLite's writer queue (db.py) reads every
    body that writes, each in a hook of its own that must find the allowance set.
    """

    @app.before_request
    def bound_the_body() -> None:
        """This request's allowance, before any hook or view reads its body."""
        request.max_content_length = allowance(
            request.path, request.endpoint, request.mimetype, app.config.get("MAX_CONTENT_LENGTH")
        )

    @app.after_request
    def read_what_was_refused(response: Response) -> Response:
        """Read a refused body to its end (up to MOST_DRAINED), so the 413 reaches its sender."""
        if response.status_code == 413:
            drain(request.environ)
        return response


def drain(environ: dict) -> None:
    """Read and drop what is left of the request's body, at most MOST_DRAINED bytes of it."""
    length = environ.get("CONTENT_LENGTH")
    if length and length.isdigit() and int(length) > MOST_DRAINED:
        return  # more than any proxy in front lets through: the connection is closed on it
    stream = get_input_stream(environ, safe_fallback=True)
    left = MOST_DRAINED
    try:
        while left > 0 and (chunk := stream.read(min(64 * 1024, left))):
            left -= len(chunk)
    except OSError:
        pass  # the sender has gone: nobody left to answer
