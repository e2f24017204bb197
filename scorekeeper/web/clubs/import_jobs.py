"""An import job's page (issue 39): its progress while it runs, then what it added or why not.

Organisers of the club only; anyone else, a stranger or another club's organiser, gets a 404,
as for a job that does not exist. The page moves its bar by asking `import_job_progress`
(`static/import_job.js`), or refreshes itself where no script runs.
"""

from __future__ import annotations

from flask import abort, jsonify, render_template

from scorekeeper.plumbing.models import Club, ImportJob
from scorekeeper.services import clubs
from scorekeeper.services.records_import import jobs as import_jobs
from scorekeeper.web.access import Level, club_level
from scorekeeper.web.clubs import bp

# How often the page asks how far the job is (its script), and refreshes with no script.
POLL_MS = 1000
REFRESH_SECONDS = 3


@bp.get("/<slug>/import/<int:job_id>")
def import_job(slug: str, job_id: int):
    """The job's progress, then its report (what was added and skipped) or its refusal."""
    club, job = _job_or_404(slug, job_id)
    progress = import_jobs.job_progress(job)
    return render_template(
        "clubs/import_job.html",
        club=club,
        job=job,
        progress=progress,
        poll_ms=POLL_MS,
        refresh_seconds=REFRESH_SECONDS,
    )


@bp.get("/<slug>/import/<int:job_id>/progress")
def import_job_progress(slug: str, job_id: int):
    """How far the job is, for its page's script: its bar, its words, whether it has ended."""
    _, job = _job_or_404(slug, job_id)
    return jsonify(import_jobs.job_progress(job).as_json())


def _job_or_404(slug: str, job_id: int) -> tuple[Club, ImportJob]:
    """The club and its job, for its organisers; a 404 for anyone else, or no such job."""
    club = clubs.club_by_slug(slug)
    if club is None or club_level(club) < Level.ORGANISER:
        abort(404)
    job = import_jobs.job_of(club, job_id)
    if job is None:
        abort(404)
    return club, job
