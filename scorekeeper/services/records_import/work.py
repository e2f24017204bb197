"""An import job's work, off the request: claimed with a lease, read, checked, saved in batches.

A runner claims a job (`claim` bumped, `lease_until` held; every write it makes afterwards
names its claim and renews the lease), then:

1. reads the file and checks every game by the rules, saving nothing: a refusal ends the job
   "refused", with the words the import page always gave ("Nothing was imported. Line 3, ...");
2. saves the games a batch (`BATCH`) at a time, each batch committed with the job's count of
   games saved, so a runner cut short leaves whole batches and the next one resumes after
   them. The club's ratings are held meanwhile and the whole club marked once at the end
   (`kept.held`), folded after that commit.

A runner killed (its process) leaves its lease to run out; the next runner (this process's
sweep, or any other's) claims the job again, reads and checks the file again and resumes from
`games_saved`. A job claimed `MOST_CLAIMS` times without ending is given up. A job that fails
while saving keeps the games saved so far and says so (`failure_words`): importing the file
again adds the rest, as the games already held are skipped.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from flask import current_app
from sqlalchemy import exists, or_, select, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import aliased

from scorekeeper.plumbing.db import db, reading_only
from scorekeeper.plumbing.models import Club, ImportJob
from scorekeeper.plumbing.models.jobs import (
    CHECKING,
    DONE,
    FAILED,
    READING,
    REFUSED,
    SAVING,
    UNDER_WAY,
)
from scorekeeper.plumbing.models.times import now
from scorekeeper.services.ratings import kept
from scorekeeper.services.records_import import read_games
from scorekeeper.services.records_import.recording import (
    check_by_engine,
    members_of,
    record_one,
    skipped_game,
    skipped_of,
)
from scorekeeper.services.records_import.refusals import ImportRefused
from scorekeeper.services.records_import.report import ImportReport
from scorekeeper.services.records_import.rows import FileGame

log = logging.getLogger(__name__)

# Games saved in one transaction: short enough that another table's save waits a moment at
# most for the write lock (SQLite) or the club's row (PostgreSQL).
BATCH = 20
# How long a runner holds a job without renewing it (each progress write and batch renews it):
# a runner killed mid-job holds it this long, then the next runner takes it over.
LEASE_SECONDS = 30
# A job claimed this many times without ending is given up (it stops every runner it meets).
MOST_CLAIMS = 3
# At most one progress write this often while reading and checking.
PROGRESS_SECONDS = 0.5


class LostClaim(Exception):
    """Another runner holds the job now (this one's lease ran out): this one writes nothing."""


class ClubGone(Exception):
    """The club was deleted while its import ran."""


def lease_seconds() -> float:
    """`IMPORT_JOB_LEASE` (or `SCOREKEEPER_IMPORT_JOB_LEASE`: a test's short one), else ours."""
    return float(_setting("IMPORT_JOB_LEASE") or LEASE_SECONDS)


def batch_games() -> int:
    """Games a transaction saves: `IMPORT_JOB_BATCH` (a test's small one), else `BATCH`."""
    return int(_setting("IMPORT_JOB_BATCH") or BATCH)


def _setting(name: str) -> Any:
    return current_app.config.get(name) or os.environ.get(f"SCOREKEEPER_{name}")


def claimable() -> list[int]:
    """Jobs a runner may take now, oldest first: under way, no lease running, and no earlier
    job of the same club under way (a club's imports run one after another, so the second
    import of a file skips the games the first one added)."""
    earlier = aliased(ImportJob)
    query = (
        select(ImportJob.id)
        .where(
            ImportJob.state.in_(UNDER_WAY),
            or_(ImportJob.lease_until.is_(None), ImportJob.lease_until < now()),
            ~exists().where(
                earlier.club_id == ImportJob.club_id,
                earlier.id < ImportJob.id,
                earlier.state.in_(UNDER_WAY),
            ),
        )
        .order_by(ImportJob.id)
    )
    with reading_only():
        found = list(db.session.execute(query).scalars())
    db.session.rollback()
    return found


def run_job(job_id: int) -> bool:
    """Claim the job and run it to its end; False if it is not for a runner to take now.

    In an app context, and so a session, of its own: the caller's objects are never touched.
    """
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    with app.app_context():
        return _run_job(job_id)


def _run_job(job_id: int) -> bool:
    claim = _claim(job_id)
    if claim is None:
        return False
    run = _Run(job_id, claim)
    try:
        if claim > MOST_CLAIMS:
            run.give_up()
        else:
            run.work()
    except LostClaim:
        db.session.rollback()
        log.warning("Import job %s was taken over by another runner", job_id)
    except ImportRefused as refused:
        db.session.rollback()
        if run.saved:
            run.end(FAILED, failure_words(refused, run))
        else:
            run.end(REFUSED, f"Nothing was imported. {refused}")
    except Exception as exc:
        db.session.rollback()
        log.exception("Import job %s failed", job_id)
        run.end(FAILED, failure_words(exc, run))
    return True


def _claim(job_id: int) -> int | None:
    """Take the job if it is under way and no runner's lease runs; its claim, or None."""
    moment = now()
    with _writing():
        taken = db.session.execute(
            update(ImportJob)
            .where(
                ImportJob.id == job_id,
                ImportJob.state.in_(UNDER_WAY),
                or_(ImportJob.lease_until.is_(None), ImportJob.lease_until < moment),
            )
            .values(claim=ImportJob.claim + 1, lease_until=_until())
        ).rowcount
        claim = db.session.execute(select(ImportJob.claim).where(ImportJob.id == job_id))
        return claim.scalar_one() if taken else None


class _Run:
    """One runner's claim on a job: every write names it and renews the lease."""

    def __init__(self, job_id: int, claim: int) -> None:
        self.job_id = job_id
        self.claim = claim
        self.total = 0
        self.saved = 0  # the file's games saved, by any runner (skipped ones counted)
        self.games: list[FileGame] = []
        self.report: ImportReport | None = None
        self._written = 0.0

    def work(self) -> None:
        """Read, check and save the file's games, resuming after what was saved before."""
        with reading_only():
            job = db.session.get(ImportJob, self.job_id)
            assert job is not None and job.file is not None
            text, club_id = job.file.decode("utf-8"), job.club_id
            self.total, self.saved, skipped = job.games_total, job.games_saved, job.skipped
            self.report = ImportReport.from_dict(job.report) if job.report else None
        db.session.rollback()
        self.write(READING, 0)
        self.games = read_games(text, lambda reached: self.progress(READING, reached))
        self.write(CHECKING, 0)
        for number, game in enumerate(self.games, start=1):
            check_by_engine(game)
            self.progress(CHECKING, number)
        resumed = skipped is not None
        if skipped is None:
            skipped = self.plan(club_id)
        else:
            self.write(SAVING, self.saved)
        left = set(range(self.saved, len(self.games))) - set(skipped)
        # Resumed after games were saved: the club is marked at the end even if none is left
        # (the runner before may have been killed between its last batch and its mark).
        if left or (resumed and self.saved):
            with _ratings_held(club_id):
                for start in range(self.saved, len(self.games), batch_games()):
                    self.save(club_id, start, set(skipped))
        self.end(DONE, None)

    def plan(self, club_id: int) -> list[int]:
        """The file's games the club already holds, decided once and kept: skipped."""
        with reading_only():
            club = db.session.get(Club, club_id)
            if club is None:
                raise ClubGone
            skipped = skipped_of(club, self.games)
        db.session.rollback()
        self.report = ImportReport(
            games=0, deals=0, skipped=[skipped_game(self.games[i]) for i in skipped]
        )
        self.write(SAVING, 0, skipped=skipped, report=self.report.to_dict())
        return skipped

    def save(self, club_id: int, start: int, skipped: set[int]) -> None:
        """One batch of games saved, with the job's count of games saved, in one transaction."""
        assert self.report is not None
        end = min(start + batch_games(), len(self.games))
        with _writing():
            club = db.session.get(Club, club_id)
            if club is None:
                raise ClubGone
            members, added, deals = members_of(club), [], 0
            for index in range(start, end):
                if index not in skipped:
                    deals += record_one(club, self.games[index], members, added)
            report = ImportReport(
                games=self.report.games + sum(i not in skipped for i in range(start, end)),
                deals=self.report.deals + deals,
                members_added=self.report.members_added + added,
                skipped=self.report.skipped,
            )
            values = {"state": SAVING, "games_done": end, "games_saved": end}
            self._update(ImportJob.games_saved == start, report=report.to_dict(), **values)
        db.session.expunge_all()  # the batch's games: nothing reads them again
        self.saved, self.report = end, report

    def progress(self, state: str, done: int) -> None:
        """How far the step is, written at most every `PROGRESS_SECONDS`."""
        if time.monotonic() - self._written >= PROGRESS_SECONDS:
            self.write(state, done)

    def write(self, state: str, done: int, **values: Any) -> None:
        """The job's step and how far it is, in a transaction of its own; the lease renewed."""
        with _writing():
            self._update(state=state, games_done=done, **values)
        self._written = time.monotonic()

    def end(self, state: str, problem: str | None) -> None:
        """The job ended: its words and report kept, its file let go of."""
        report = self.report.to_dict() if self.report else None
        try:
            with _writing():
                self._update(
                    state=state,
                    problem=problem,
                    report=report,
                    file=None,
                    games_done=self.total if state == DONE else self.saved,
                    lease_until=None,
                    finished_at=now(),
                )
        except LostClaim:
            log.warning("Import job %s was taken over before it could end", self.job_id)

    def give_up(self) -> None:
        """Claimed too often without ending: failed, the games saved so far rated."""
        with reading_only():
            job = db.session.get(ImportJob, self.job_id)
            assert job is not None
            self.total, self.saved, club_id = job.games_total, job.games_saved, job.club_id
            self.report = ImportReport.from_dict(job.report) if job.report else None
        db.session.rollback()
        if self.saved:
            with _writing():
                kept.club_changed(club_id)  # saved while the ratings were held: mark them now
        self.end(FAILED, failure_words(None, self))

    def _update(self, *where: Any, **values: Any) -> None:
        """Write to the job if this claim still holds it, else LostClaim."""
        values.setdefault("lease_until", _until())
        statement = update(ImportJob).where(
            ImportJob.id == self.job_id, ImportJob.claim == self.claim, *where
        )
        if db.session.execute(statement.values(**values)).rowcount != 1:
            raise LostClaim


def failure_words(problem: BaseException | None, run: _Run) -> str:
    """Why a job failed, and what of the file is in the records, in words."""
    why = (
        f"it was cut short {MOST_CLAIMS} times (the server stopped during it), so it was given up"
        if problem is None
        else _why(problem)
    )
    if not run.saved:
        return f"The import failed: {why}. Nothing was imported; import the file again."
    last = run.games[run.saved - 1] if len(run.games) >= run.saved else None
    upto = f" (up to game {last.ref}, line {last.line:,})" if last else ""
    return (
        f"The import stopped: {why}. The file's first {run.saved:,} of {run.total:,} "
        f"games{upto} went in and stay in the records; import the same file again to add "
        "the rest (the games already in are skipped)."
    )


def _why(problem: BaseException) -> str:
    if isinstance(problem, ImportRefused):
        return str(problem)
    if isinstance(problem, ClubGone):
        return "the club was deleted"
    if isinstance(problem, MemoryError):
        return "the server ran out of memory"
    if isinstance(problem, DBAPIError):
        return "the database could not be written (it may be down, busy or full)"
    return f"an error on the server ({type(problem).__name__})"


def _until() -> Any:
    return now() + timedelta(seconds=lease_seconds())


@contextmanager
def _ratings_held(club_id: int) -> Iterator[None]:
    """`kept.held`: the batches' commits mark no ratings; the whole club is marked once at the
    end (whatever happens) in a commit of its own, taken in this process's writers' turn."""
    held = kept.held(club_id)
    held.__enter__()
    try:
        yield
    except BaseException:
        db.session.rollback()
        raise
    finally:
        with _turn():
            held.__exit__(None, None, None)


@contextmanager
def _writing() -> Iterator[None]:
    """One short write transaction in this process's writers' turn, committed at its end."""
    with _turn():
        try:
            yield
            db.session.commit()
        except BaseException:
            db.session.rollback()
            raise


@contextmanager
def _turn() -> Iterator[None]:
    """This process's one writer at a time on SQLite (db.one_writer_at_a_time), if it keeps one."""
    turn: Callable[[], Any] | None = current_app.extensions.get("writers_turn")
    if turn is None:
        yield
        return
    with turn():
        yield
