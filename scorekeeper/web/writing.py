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


# The API's writes of a game, by endpoint: what each counts as. A page's refusal shows its form
# again (the game read), so only these are answered before anything else.
COUNTED = {
    "api.add_deal": writes.ENTRY,
    "api.send_line": writes.ENTRY,
    "api.correct_deal": writes.CORRECTION,
}


def configure(app: Flask) -> None:
    """A write this process refused lately refused again before it waits for the SQLite writer's
    turn; at each request's end, a write let through that committed nothing counted all the same.

    The teardown is registered after the writer's turn (db.one_writer_at_a_time): teardowns run
    last registered first, so the count is kept while the turn is still held.
    """
    hooks = app.before_request_funcs.setdefault(None, [])
    names = [hook.__name__ for hook in hooks]
    if "wait_for_the_writers_turn" in names:  # SQLite
        # A flood's refusals (8 threads without pause) must not queue with other tables' saves.
        hooks.insert(names.index("wait_for_the_writers_turn"), refused_again)

    @app.teardown_request
    def keep_the_count(_error: BaseException | None) -> None:
        writes.keep_uncommitted()


def refused_again() -> Response | None:
    """429 at once for an API write this process refused lately (writes.remembered)."""
    kind = COUNTED.get(request.endpoint or "")
    game_id = (request.view_args or {}).get("game_id")
    if kind is None or not isinstance(game_id, int):
        return None
    refused = writes.remembered(kind, game_id, request.remote_addr)
    return too_many_writes(refused) if refused is not None else None
