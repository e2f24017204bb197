"""Club pages: standings, history, members, seasons, settings, export and import.

One blueprint, `bp` ("clubs"), and its views by what they show:

overview   the clubs you run, a new club, its table link and its front page
standings  the standings and the finished games
members    the member list, one member's page; archiving, merging and deleting members
seasons    the club's seasons
settings   name, visibility, ranking threshold, the table link and organisers
table_card the table link's QR code, its printable table card, a new link once confirmed
nights     tonight's tables seated from the members present (issue 29), nothing saved
night_hub  the club's nights (in progress, open a night, past) and a new night's form
night_pages a club night kept: its page (tables, table cards, Seat round N, players come and
           gone; once over, its results) and its board, live
night_checkin players checking themselves in from their phone, and an organiser's undo
night_exports a club night's results as CSV
night_cards a club night's movement cards: each player's and each table's rounds, to print
records    the club's games, deals and standings as CSV, and a deals file read back in
import_jobs an import's page: its progress while it runs, then its report (issue 39)
rating_holds how games from the table link count (a settings section), the games held for
           an organiser to confirm
rule_sets  the club's own rule sets, their default and rule cards
filters    which games the standings, history and exports count
forms      the forms of these pages
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, g

from scorekeeper.plumbing.models import Club
from scorekeeper.plumbing.security import NO_STORE
from scorekeeper.services import clubs
from scorekeeper.services.access import may_run_nights
from scorekeeper.web.access import Level, club_level, require

bp = Blueprint("clubs", __name__, url_prefix="/clubs")


def club_or_404(slug: str, needed: Level = Level.READ) -> tuple[Club, Level]:
    """The club and the visitor's level in it, or 404/403."""
    club = clubs.club_by_slug(slug)
    if club is None:
        abort(404)
    level = require(club, needed)
    # Only what any stranger may read is fit to keep on a phone (see keep_only_public_pages).
    g.public_club_page = club.standings_public and level < Level.ORGANISER
    return club, level


@bp.after_request
def keep_only_public_pages(response: Response) -> Response:
    """Organiser-only answers and a private club's pages go out no-store: no phone keeps them.

    Closed unless a view said otherwise: a page that shows its club as any stranger sees a
    public club may be kept; everything else here (settings, import, the clubs you run, a
    private club's members and standings, any organiser's view) never outlives the session.
    """
    # Popped: two requests in one app context (a test's) must not share the mark.
    if not g.pop("public_club_page", False):
        response.headers["Cache-Control"] = NO_STORE
    return response


@bp.app_context_processor
def club_helpers():
    """Templates ask what the visitor may do in a club."""
    return {"club_level": club_level, "Level": Level, "may_run_nights": may_run_nights}


# The views add their routes to bp as they are imported, so they come after it.
from scorekeeper.web.clubs import (  # noqa: E402, F401
    import_jobs,
    members,
    overview,
    rating_holds,
    records,
    rule_sets,
    seasons,
    settings,
    standings,
    table_card,
)
from scorekeeper.web.nights import (  # noqa: E402, F401
    cards,
    checkin,
    exports,
    hub,
    pages,
    planning,
)
