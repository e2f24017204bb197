"""Club pages: standings, history, members, seasons, settings, export and import; the club's
nights are a room of their own (web/nights), and what both show of a club is web/club_pages.py.

One blueprint, `bp` ("clubs"), and its views by what they show:

overview   the clubs you run, a new club, its table link and its front page
standings  the standings and the finished games
members    the member list, one member's page; archiving, merging and deleting members
seasons    the club's seasons
settings   name, visibility, ranking threshold, the table link and organisers
table_card the table link's QR code, its printable table card, a new link once confirmed
records    the club's games, deals and standings as CSV, and a deals file read back in
import_jobs an import's page: its progress while it runs, then its report (issue 39)
rating_holds how games from the table link count (a settings section), the games held for
           an organiser to confirm
rule_sets  the club's own rule sets, their default and rule cards
filters    which games the standings, history and exports count
forms      the forms of these pages
"""

from __future__ import annotations

from flask import Blueprint

from scorekeeper.services.access import may_run_nights
from scorekeeper.web.access import Level, club_level
from scorekeeper.web.club_pages import keep_only_public_pages

bp = Blueprint("clubs", __name__, url_prefix="/clubs")
# Organiser-only answers and a private club's pages go out no-store (web/club_pages.py).
bp.after_request(keep_only_public_pages)


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
