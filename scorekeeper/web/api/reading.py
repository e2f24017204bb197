"""A request body as the API reads it: JSON, an object, and bounded before it is parsed."""

from __future__ import annotations

from typing import Any, NoReturn

from flask import abort, request
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

from scorekeeper.plumbing.bodies import MAX_JSON_BODY
from scorekeeper.rules import Refusal
from scorekeeper.web.api.game_requests import GameQuery
from scorekeeper.web.api.modelled import Unfit, read_query
from scorekeeper.web.api.refusals import refused, stop

# A deal's figures nest four levels ({"scores": [{"books": {...}}]}): a body nesting far deeper
# is no request of this API, and is refused before anything walks it.
MAX_DEPTH = 32
TOO_DEEP = f"The body nests too deeply: more than {MAX_DEPTH} levels of [ and {{."
# Every [ and { of a body is a list or an object to build and walk. The largest legitimate body
# (a new game of 12 sides, 84 names of 60 characters) holds some 100, and 5,040 more if every
# character of every name were one; a body of 256 KiB of [] holds 87,000, which cost 0.3-0.6 s
# to parse and walk. Counted in the raw body (in C, in microseconds) before it is parsed.
MAX_BRACKETS = 10_000
TOO_MANY = (
    f"The body holds more than {MAX_BRACKETS:,} [ and {{: no game, deal or line has that many."
)
# bodies.MAX_JSON_BODY: four times the largest body a client of this API sends.
TOO_LARGE = (
    f"The body is over {MAX_JSON_BODY:,} bytes, the most this API reads: nothing of it was "
    "read. No game, deal or line is near that size."
)


def body() -> dict[str, Any]:
    """The request's JSON object; 415 if it is not JSON, 400 if it does not parse or nests deep."""
    if not request.is_json:
        abort(415)
    allowed = request.max_content_length
    if request.content_length is None and allowed and len(request.get_data()) >= allowed:
        # Sent in chunks, with no length: Werkzeug stops reading at the allowance, so a body
        # that filled it ran past it. Refused as one sent with its length would have been.
        raise RequestEntityTooLarge()
    raw = request.get_data()
    if raw.count(b"[") + raw.count(b"{") > MAX_BRACKETS:
        _unread(TOO_MANY)
    try:
        data = request.get_json()
    except RecursionError:
        # The parser recurses once per [ or {: thousands of them exhaust Python's stack.
        _unread(TOO_DEEP)
    except BadRequest:
        abort(400)
    if _nests_deeper(data, MAX_DEPTH):
        _unread(TOO_DEEP)
    if not isinstance(data, dict):
        abort(400)
    return data


def _nests_deeper(data: Any, limit: int) -> bool:
    """Whether the parsed body nests more than `limit` levels (walked a level at a time)."""
    level = [data]
    for _ in range(limit):
        below: list[Any] = []
        for value in level:
            if isinstance(value, dict):
                below.extend(value.values())
            elif isinstance(value, list):
                below.extend(value)
        if not below:
            return False
        level = below
    # What `limit` levels hold: a list or an object among them nests one level more.
    return any(isinstance(value, dict | list) for value in level)


def too_large(_exc: RequestEntityTooLarge):
    """A body past the API's allowance (bodies.py): 413, naming the limit."""
    return refused([Refusal(None, "body", TOO_LARGE)], 413)


def _unread(why: str) -> NoReturn:
    """Stop with a 400 that says why the body was not read."""
    stop([Refusal(None, "body", why)], 400)


def deals_from() -> int:
    """The first deal a game's answer lists (`?deals_from=`, 1 by default); 422 if not one."""
    try:
        return read_query(GameQuery, request.args).deals_from
    except Unfit as exc:
        stop(exc.refusals)
