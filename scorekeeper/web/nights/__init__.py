"""Club nights' pages: one blueprint, `bp` ("nights"), at the addresses they had as club pages
(`/clubs/<slug>/nights...`) and the board link's own (`/n/<secret>...`); what they share with
the club's pages (the club and the visitor's level, which answers a phone keeps) is
web/club_pages.py. Its views by what they show:

planning  tonight's tables seated from the members present (issue 29), nothing saved
hub       the club's nights (in progress, open a night, past) and a new night's form
pages     a club night kept: its page, its rounds, players come and gone, its board, live
checkin   players checking themselves in from their phone, and an organiser's undo
exports   a club night's results as CSV
cards     a club night's movement cards, to print
links     a night's read-only link (`/n/<secret>`): its board for the hall's TV
"""

from __future__ import annotations

from flask import Blueprint, Response, request

from scorekeeper.web.club_pages import keep_only_public_pages

bp = Blueprint("nights", __name__)


@bp.after_request
def keep_only_public_club_pages(response: Response) -> Response:
    """A club's night pages are kept as its other pages are (web/club_pages.py); the board
    link's pages, which name no club (`/n/<secret>`), say for themselves (links.py)."""
    if "slug" in (request.view_args or {}):
        return keep_only_public_pages(response)
    return response


# The views add their routes to bp as they are imported, so they come after it.
from scorekeeper.web.nights import (  # noqa: E402, F401
    cards,
    checkin,
    exports,
    hub,
    links,
    pages,
    planning,
)
