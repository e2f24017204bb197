"""An import as a job (issue 39): the upload looked at and kept in the request, then run off
it (`work.py`, by `runner.py`); how far a job is and how it ended, in words, for its page.

Saving is in batches (`work.BATCH` games a transaction), so a job's answer never waits on the
whole file. What a club sees: nothing is saved until every game of the file has been read and
checked by the rules, so a refused file imports nothing, as before; a job that fails while
saving (the database gone, the server stopped too often) says on its page how many of the
file's games went in and which, and importing the same file again adds the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, ImportJob
from scorekeeper.plumbing.models.jobs import (
    CHECKING,
    DONE,
    ENDED,
    FAILED,
    READING,
    REFUSED,
    SAVING,
    UNDER_WAY,
    WAITING,
)
from scorekeeper.plumbing.models.times import now
from scorekeeper.services.records_import import first_look, runner
from scorekeeper.services.records_import.report import ImportReport

# A club's imports under way at once (each keeps its file until it ends).
MOST_UNDER_WAY = 3
# Ended jobs are listed on the import page this long, then deleted with the next import.
KEEP_DAYS = 30
# How many of a club's jobs the import page lists.
LISTED = 5
# The steps a job goes through, in order: its bar is each step's games, one after another.
STEPS = (READING, CHECKING, SAVING)


class TooManyImports(ValueError):
    """The club has `MOST_UNDER_WAY` imports under way already."""

    def __init__(self) -> None:
        super().__init__(
            f"This club has {MOST_UNDER_WAY} imports under way already: wait for one to end "
            "(they are listed below), then import again."
        )


def start_import(club: Club, text: str) -> ImportJob:
    """Look at the file (ImportRefused for what can be refused at once), keep it as a job,
    commit, and hand it to this process's runner; the job, to show its page."""
    total = first_look(text)
    under_way = select(func.count()).where(
        ImportJob.club_id == club.id, ImportJob.state.in_(UNDER_WAY)
    )
    if db.session.execute(under_way).scalar_one() >= MOST_UNDER_WAY:
        raise TooManyImports
    db.session.execute(
        delete(ImportJob).where(
            ImportJob.club_id == club.id,
            ImportJob.state.in_(ENDED),
            ImportJob.created_at < now() - timedelta(days=KEEP_DAYS),
        )
    )
    job = ImportJob(club_id=club.id, file=text.encode("utf-8"), games_total=total)
    db.session.add(job)
    db.session.commit()
    runner.run_soon(job.id)
    return job


def job_of(club: Club, job_id: int) -> ImportJob | None:
    """The club's job of that id (another club's is none), read afresh."""
    query = select(ImportJob).where(ImportJob.id == job_id, ImportJob.club_id == club.id)
    return db.session.execute(query.execution_options(populate_existing=True)).scalar_one_or_none()


def recent(club: Club) -> list[ImportJob]:
    """The club's newest jobs (under way or ended), newest first."""
    query = (
        select(ImportJob)
        .where(ImportJob.club_id == club.id)
        .order_by(ImportJob.id.desc())
        .limit(LISTED)
    )
    return list(db.session.execute(query).scalars())


@dataclass(frozen=True)
class Progress:
    """A job as its page shows it: a bar (`value` of `most`), its words, and how it ended."""

    state: str
    value: int
    most: int
    words: str
    ended: bool
    report: ImportReport | None
    problem: str | None

    def as_json(self) -> dict[str, object]:
        """What the page's script reads to move the bar and its words."""
        return {
            "state": self.state,
            "value": self.value,
            "max": self.most,
            "words": self.words,
            "ended": self.ended,
        }


def job_progress(job: ImportJob) -> Progress:
    """How far the job is, in a bar and words; its report or its problem once it has ended."""
    total = job.games_total
    most = max(1, total * len(STEPS))
    report = ImportReport.from_dict(job.report) if job.report else None
    if job.state in ENDED:
        words = _ended_words(job, report)
        return Progress(job.state, most, most, words, True, report, job.problem)
    step = STEPS.index(job.state) if job.state in STEPS else 0
    value = step * total + min(job.games_done, total) if job.state != WAITING else 0
    words = _under_way_words(job)
    stalled = job.lease_until is not None and _aware(job.lease_until) < now()
    if stalled:
        words += " (Paused: the server stopped during it. It carries on by itself shortly.)"
    return Progress(job.state, value, most, words, False, None, None)


def _under_way_words(job: ImportJob) -> str:
    total, done = job.games_total, min(job.games_done, job.games_total)
    games = f"{total:,} game{'' if total == 1 else 's'}"
    if job.state == READING:
        return f"Reading the file: {done:,} of {games} read."
    if job.state == CHECKING:
        return f"Checking the games by the rules: {done:,} of {games} checked."
    if job.state == SAVING:
        return f"Saving the games: {done:,} of {games} done."
    return f"Waiting to start: {games} in the file."


def _ended_words(job: ImportJob, report: ImportReport | None) -> str:
    if job.state == DONE and report is not None:
        return report.summary()
    if job.state == REFUSED:
        return "The file was refused: nothing was imported."
    if job.state == FAILED:
        return "The import failed."
    return "The import ended."


def _aware(moment: datetime) -> datetime:
    """A moment SQLite gives back without its zone is UTC (every moment here is kept in UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
