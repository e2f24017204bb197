"""A club's records as CSV: its games, deals or standings out, and a deals file read back in."""

from __future__ import annotations

from flask import Response, abort, flash, redirect, render_template, request, url_for

from scorekeeper.services import records, records_import
from scorekeeper.services import standings as club_standings
from scorekeeper.web.access import Level
from scorekeeper.web.clubs import bp, club_or_404
from scorekeeper.web.clubs.filters import filters
from scorekeeper.web.clubs.forms import ImportForm
from scorekeeper.web.errors import refilled_when_expired


@bp.get("/<slug>/export/<kind>.csv")
def export(slug: str, kind: str):
    """The club's games, deals or standings as CSV."""
    club, _ = club_or_404(slug)
    _, chosen = filters(club)
    if kind == "games":
        text = records.export_games(club, chosen)
    elif kind == "deals":
        text = records.export_deals(club, chosen)
    elif kind == "standings":
        # In the page's order: the sort it links with, else the club's own.
        sort = request.args.get("sort")
        text = records.export_standings(club_standings.standings(club, chosen, sort))
    else:
        abort(404)
    name = f"{club.slug}-{kind}.csv"
    return Response(
        text,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@bp.route("/<slug>/import", methods=["GET", "POST"])
@refilled_when_expired
def import_records(slug: str):
    """Read a deals CSV back in: all of it, or nothing."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    form = ImportForm()
    problem = None
    if form.validate_on_submit():
        raw = form.file.data.read(records_import.MAX_BYTES + 1)
        try:
            text = raw.decode("utf-8-sig")
            report = records_import.import_deals(club, text)
        except UnicodeDecodeError:
            problem = "The file is not UTF-8 text: export it again from this app."
        except records_import.ImportRefused as exc:
            problem = f"Nothing was imported. {exc}"
        else:
            flash(report.summary())
            return redirect(url_for(".history", slug=slug, season="all"))
    status = 422 if problem or form.errors else 200
    return render_template("clubs/import.html", club=club, form=form, problem=problem), status
