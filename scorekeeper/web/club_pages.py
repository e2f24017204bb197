"""What a club's pages share, whichever blueprint shows them (web/clubs, web/nights): the club
and the visitor's level in it, and which of its answers a phone may keep."""

from __future__ import annotations

from flask import Response, abort, g

from scorekeeper.plumbing.models import Club
from scorekeeper.plumbing.security import NO_STORE
from scorekeeper.services import clubs
from scorekeeper.web.access import Level, require

# On `g`: this answer shows its club as any stranger sees a public club (club_or_404).
PUBLIC_MARK = "public_club_page"


def club_or_404(slug: str, needed: Level = Level.READ) -> tuple[Club, Level]:
    """The club and the visitor's level in it, or 404/403."""
    club = clubs.club_by_slug(slug)
    if club is None:
        abort(404)
    level = require(club, needed)
    # Only what any stranger may read is fit to keep on a phone (see keep_only_public_pages).
    setattr(g, PUBLIC_MARK, club.standings_public and level < Level.ORGANISER)
    return club, level


def keep_only_public_pages(response: Response) -> Response:
    """Organiser-only answers and a private club's pages go out no-store: no phone keeps them.

    Closed unless a view said otherwise: a page that shows its club as any stranger sees a
    public club may be kept; everything else (settings, import, the clubs you run, a private
    club's members, standings and nights, any organiser's view) never outlives the session.
    Each club blueprint runs it after its requests.
    """
    # Popped: two requests in one app context (a test's) must not share the mark.
    if not g.pop(PUBLIC_MARK, False):
        response.headers["Cache-Control"] = NO_STORE
    return response
