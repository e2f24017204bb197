"""Error pages: a friendly page for people, JSON for API clients, never a traceback."""

from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError, TooManyRequests

from scorekeeper.plumbing.db import db
from scorekeeper.web.access import LinkRefused

MESSAGES = {
    400: "That request could not be read.",
    404: "There is nothing here. The game or page may have been removed, or the link mistyped.",
    405: "That page cannot be used that way.",
    409: "That clashes with what is already saved.",
    413: "That is far more than a score sheet needs.",
    415: "Send JSON, with the Content-Type application/json.",
    # Game links and clubs' table codes share one allowance per address (scorekeeper/links.py).
    429: "Too many game or table links from this address opened nothing. Wait a few minutes, "
    "then open the link again exactly as it was shared.",
    500: "Something went wrong on our side. Nothing you entered was changed.",
    503: "The server is busy saving other tables' deals. Nothing was saved: send it again.",
}


# Forms that, sent with an expired token (a phone asleep at the table), come back filled in
# with a fresh token instead of a bare 400: their views refuse to act on a bad token anyway.
RETRY_FORMS = {
    "games.new",
    "games.new_club_game",
    "games.new_deal",
    "games.edit_deal",
    "games.preview",
    "accounts.login",
    "accounts.signup",
    "clubs.new",
    "clubs.new_rule_set",
    "clubs.edit_rule_set",
    "clubs.members",
    "clubs.seasons",
    "clubs.settings",
    "clubs.import_records",
}


def wants_json() -> bool:
    """API paths answer in JSON."""
    return request.path.startswith("/api/")


def register(app: Flask) -> None:
    """Install the handlers."""

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if isinstance(exc, CSRFError) and request.endpoint in RETRY_FORMS:
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
