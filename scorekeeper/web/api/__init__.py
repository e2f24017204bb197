"""JSON API v1: rule sets, games and deals, for other clients and acceptance checks.

Each route is declared with its operation in the OpenAPI document (operations.py), each figure
a request sends in a pydantic model with its refusal words (modelled.py; game_requests.py for
a game's requests, club_requests.py for a club's), and each answer's shape once (answers.py,
club_answers.py); openapi.py makes the document from them.
"""

from __future__ import annotations

from flask import Blueprint
from werkzeug.exceptions import RequestEntityTooLarge

bp = Blueprint("api", __name__, url_prefix="/api/v1")

# The routes, each added to bp as its module is read (so after bp is made).
from scorekeeper.web.api import agreeing, clubs, deals, games, nights, rulesets  # noqa: E402, F401
from scorekeeper.web.api.reading import MAX_BRACKETS, MAX_DEPTH, too_large  # noqa: E402

bp.register_error_handler(RequestEntityTooLarge, too_large)

__all__ = ["MAX_BRACKETS", "MAX_DEPTH", "bp"]
