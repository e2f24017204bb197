"""A game's writes (deals, lines, corrections) counted against their allowances (writes.py), and a
write past one refused: 429 with Retry-After, JSON on the API, the form again on a page."""

from __future__ import annotations

from flask import Flask, Response, jsonify, make_response, request

from scorekeeper.services import writes
from scorekeeper.services.writes import TooMany


def refused_write(kind: str, game_id: int) -> TooMany | None:
    """Count one more write of `kind` to the game from this request's address; or why not."""
    return writes.allow(kind, game_id, request.remote_addr)


def too_many_writes(refused: TooMany) -> Response:
    """The API's 429: the refusal in its usual shape (about no figure), with Retry-After."""
    error = {"side": None, "field": None, "message": refused.message, "inputs": []}
    return with_retry_after(refused, jsonify(errors=[error]))


def with_retry_after(refused: TooMany, page: object) -> Response:
    """A page (the form shown again, its figures kept, the message among its problems) or an
    answer, as a 429 saying when to try again."""
    response = make_response(page)
    response.status_code = 429
    response.headers["Retry-After"] = str(refused.retry_after)
    return response


def configure(app: Flask) -> None:
    """At each request's end, a write let through that committed nothing is counted all the same.

    Registered after the SQLite writer's turn (db.one_writer_at_a_time): teardowns run last
    registered first, so the count is kept while the turn is still held.
    """

    @app.teardown_request
    def keep_the_count(_error: BaseException | None) -> None:
        writes.keep_uncommitted()
