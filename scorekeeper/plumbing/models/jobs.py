"""Long work kept as a job (issue 39): a club's records file read in off the request, by a
background runner (`services/records_import/runner.py`), its progress and its end kept here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Index, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models.times import now

# What a job is doing: waiting for a runner, then reading the file, checking its games by the
# rules and saving them; then done, refused (nothing imported) or failed.
WAITING, READING, CHECKING, SAVING = "waiting", "reading", "checking", "saving"
DONE, REFUSED, FAILED = "done", "refused", "failed"
UNDER_WAY = (WAITING, READING, CHECKING, SAVING)
ENDED = (DONE, REFUSED, FAILED)


class ImportJob(db.Model):
    """A deals file being read into a club: the file until it ends, where it is, what it did.

    A runner claims it by bumping `claim` and holding `lease_until`; every write it makes
    afterwards names its claim, so a runner whose lease ran out (its process killed or stalled)
    writes nothing more, and the next runner resumes from `games_saved`, committed with the
    games themselves.
    """

    __tablename__ = "import_job"
    __table_args__ = (
        # A club's jobs, newest first; the next job a runner may claim.
        Index("ix_import_job_club", "club_id", "id"),
        Index("ix_import_job_state", "state", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    state: Mapped[str] = mapped_column(String(16), default=WAITING)
    # The file as sent (UTF-8, checked), dropped once the job has ended.
    file: Mapped[bytes | None] = mapped_column(LargeBinary)
    games_total: Mapped[int]
    # How far the current step is, in games (read, checked or saved).
    games_done: Mapped[int] = mapped_column(default=0)
    # The file's games saved so far, in its order: committed in the same transaction as they.
    games_saved: Mapped[int] = mapped_column(default=0)
    # The file's games (by index) already in the club when saving began: skipped.
    skipped: Mapped[list[int] | None] = mapped_column(JSON)
    # What it added and skipped so far (`records_import.ImportReport.to_dict`).
    report: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # Why it was refused or failed, in words.
    problem: Mapped[str | None] = mapped_column(Text)
    # How many times a runner has claimed it; the lease of the last one.
    claim: Mapped[int] = mapped_column(default=0)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
