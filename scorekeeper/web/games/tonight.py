"""A club night's game on its pages (issue 37): the links to its night's read-only board and
results (`/n/<secret>`, web/nights/links.py), for every template that names a night's game.

Asked by name, so a game's pages still show where it sits if that blueprint is not there.
"""

from __future__ import annotations

from flask import current_app, url_for

from scorekeeper.web.games import bp

BOARD = "nights.link_board"
RESULTS = "nights.link_results"


def _night_link(endpoint: str, secret: str | None) -> str | None:
    if not secret or endpoint not in current_app.view_functions:
        return None
    return url_for(endpoint, night_secret=secret)


@bp.app_template_global()
def night_board_url(secret: str | None) -> str | None:
    """The night's read-only board (`/n/<secret>`); None for a night with no board link."""
    return _night_link(BOARD, secret)


@bp.app_template_global()
def night_results_url(secret: str | None) -> str | None:
    """The night's results for everyone; None for a night with no board link."""
    return _night_link(RESULTS, secret)
