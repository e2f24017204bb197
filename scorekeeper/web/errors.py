"""Error pages: a friendly page for people, JSON for API clients, never a traceback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, TooManyRequests

from scorekeeper.plumbing.db import db
from scorekeeper.web.access import LinkRefused

View = TypeVar("View", bound=Callable[..., Any])
# The attribute `refilled_when_expired` sets on a view.
REFILLED = "refilled_when_expired"

MESSAGES = {
    400: "That request could not be read.",
    404: "There is nothing here. The game or page may have been removed, or the link mistyped.",
    405: "That page cannot be used that way.",
    409: "That clashes with what is already saved.",
    413: "That is far more than a score sheet needs.",
    415: "Send JSON, with the Content-Type application/json.",
    # Game links and clubs' table codes share one allowance per address
    # (scorekeeper/services/links.py).
    429: "Too many game or table links from this address opened nothing. Wait a few minutes, "
    "then open the link again exactly as it was shared.",
    500: "Something went wrong on our side. Nothing you entered was changed.",
    503: "The server is busy saving other tables' deals. Nothing was saved: send it again.",
}


def refilled_when_expired(view: View) -> View:
    """Mark a form's view: sent with an expired token, its page comes back filled in.

    A phone asleep at the table sends its form with an expired CSRF token: a marked view answers
    it with the form filled in and a fresh token instead of a bare 400 (the view itself refuses
    to act on a bad token, so it only shows the form again). `http_error` reads the mark.
    """
    setattr(view, REFILLED, True)
    return view


def is_refilled_when_expired(endpoint: str | None) -> bool:
    """Whether the endpoint's view is marked `refilled_when_expired`."""
    view = current_app.view_functions.get(endpoint or "")
    return getattr(view, REFILLED, False) is True


def wants_json() -> bool:
    """API paths answer in JSON."""
    return request.path.startswith("/api/")


def register(app: Flask) -> None:
    """Install the handlers."""

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if isinstance(exc, CSRFError) and is_refilled_when_expired(request.endpoint):
            view = current_app.view_functions[request.endpoint]
            try:
                return current_app.make_response(view(**(request.view_args or {})))
            except HTTPException as refused:
                # The form's own page is refused (no such club, say): answer as it would.
                exc = refused
        code = exc.code or 500
        message = MESSAGES.get(code, exc.description or "That did not work.")
        if isinstance(exc, CSRFError):
            message = "This form has expired. Go back, reload the page and enter it again."
        if wants_json():
            # About no figure of the request: no inputs to point at.
            error = {"side": None, "field": None, "message": message, "inputs": []}
            return jsonify(errors=[error]), code
        return render_template("error.html", code=code, message=message), code

    @app.errorhandler(LinkRefused)
    def too_many_misses(exc: LinkRefused):
        response = http_error(TooManyRequests())
        response = current_app.make_response(response)
        response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        app.logger.exception("Unhandled error")
        # A failed statement leaves the session unusable; the error page may need it.
        db.session.rollback()
        return http_error(InternalServerError())
