"""A club night's results as CSV (issue 29): its standings, then each round's tables."""

from __future__ import annotations

from flask import Response, abort, g

from scorekeeper.services.nights import export as night_export
from scorekeeper.services.nights import play as night_play
from scorekeeper.web.access import Level
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.nights import bp


@bp.get("/clubs/<slug>/nights/<int:night_id>/results.csv")
def night_results(slug: str, night_id: int):
    """The night's standings and every table's totals as CSV, for whoever may see the night."""
    club, _ = club_or_404(slug, Level.TABLE)
    # As the night's own pages: only the table link or an organiser opens it, so no phone
    # keeps it, even in a public club (web/club_pages.py keep_only_public_pages).
    g.public_club_page = False
    night = night_play.night_of(club, night_id)
    if night is None:
        abort(404)
    name = f"{club.slug}-night-{night.played_on.isoformat()}-{night.id}.csv"
    return Response(
        night_export.export_night(night),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
