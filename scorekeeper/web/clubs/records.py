"""A club's records as CSV: its games, deals or standings out, and a deals file read back in."""

from __future__ import annotations

from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)

from scorekeeper.services import exports, records, records_import
from scorekeeper.services import standings as club_standings
from scorekeeper.services.records_import import jobs as import_jobs
from scorekeeper.web.access import Level
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.clubs import bp
from scorekeeper.web.clubs.filters import filters
from scorekeeper.web.clubs.forms import ImportForm
from scorekeeper.web.creating import too_many
from scorekeeper.web.errors import refilled_when_expired

# The files a club's records are exported as (`services/records.py`).
KINDS = ("games", "deals", "history", "standings")


@bp.get("/<slug>/export/<kind>.csv")
def export(slug: str, kind: str):
    """The club's games, deals, deals' history or standings as CSV: 304 while unchanged since
    the ETag sent, 429 past the address's allowance, else written as it is read (issue 39)."""
    club, level = club_or_404(slug)
    if kind not in KINDS:
        abort(404)
    _, chosen = filters(club)
    # The standings in the page's order: the sort it links with, else the club's own.
    sort = request.args.get("sort") if kind == "standings" else None
    version = exports.version_of(club, kind, chosen, sort)
    if request.if_none_match.contains_weak(version):
        response = current_app.response_class(status=304)
        response.set_etag(version)
        return response
    # A HEAD is sent no file: it costs no allowance.
    if request.method != "HEAD":
        refused = exports.allow(request.remote_addr, organiser=level >= Level.ORGANISER)
        if refused is not None:
            return too_many(refused)
    if kind == "standings":
        body: Any = records.export_standings(club_standings.standings(club, chosen, sort))
    else:
        body = exports.written_as_read(kind, club, chosen)
    name = f"{club.slug}-{kind}.csv"
    response = Response(
        body,
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
    response.set_etag(version)
    return response


@bp.route("/<slug>/import", methods=["GET", "POST"])
@refilled_when_expired
def import_records(slug: str):
    """Read a deals CSV back in as a job (issue 39): looked at here, then the job's page."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    form = ImportForm()
    problem = None
    if form.validate_on_submit():
        raw = form.file.data.read(records_import.MAX_BYTES + 1)
        try:
            text = raw.decode("utf-8-sig")
            job = import_jobs.start_import(club, text)
        except UnicodeDecodeError:
            problem = "The file is not UTF-8 text: export it again from this app."
        except records_import.ImportRefused as exc:
            problem = f"Nothing was imported. {exc}"
        except import_jobs.TooManyImports as exc:
            problem = str(exc)
        else:
            return redirect(url_for(".import_job", slug=slug, job_id=job.id))
    status = 422 if problem or form.errors else 200
    page = render_template(
        "clubs/import.html",
        club=club,
        form=form,
        problem=problem,
        jobs=[(job, import_jobs.job_progress(job)) for job in import_jobs.recent(club)],
    )
    return page, status
