"""A game, sign-up or club refused for its address's allowance (creations.py), as an answer."""

from __future__ import annotations

from flask import Response, jsonify, make_response, render_template, request

from scorekeeper.services.creations import TooMany


def too_many(refused: TooMany, page: str | None = None) -> Response:
    """429 with Retry-After and the refusal in words: JSON on the API, else a page.

    `page` is the page to show it on (already rendered), else the error page.
    """
    if request.path.startswith("/api/"):
        # About no figure of the request: no inputs to point at (as errors.py answers).
        error = {"side": None, "field": None, "message": refused.message, "inputs": []}
        body = jsonify(errors=[error])
    else:
        body = page or render_template("error.html", code=429, message=refused.message)
    response = make_response(body, 429)
    response.headers["Retry-After"] = str(refused.retry_after)
    return response
