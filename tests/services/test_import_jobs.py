"""services/records_import/ jobs (issue 39): claimed with a lease, saved in batches, resumed
after a runner killed mid-job, given up in words, run by a thread of the process."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from flask import current_app
from sqlalchemy import select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, ImportJob, RatingMark
from scorekeeper.plumbing.models.times import now
from scorekeeper.services import clubs, demo, records, records_import
from scorekeeper.services.games import fingerprint_of
from scorekeeper.services.ratings import kept as ratings
from scorekeeper.services.records_import import jobs, runner, work

from ._support import kept

GAMES = 10


class Killed(BaseException):
    """The process dying mid-batch: nothing of the runner's own handling runs after it."""


@pytest.fixture
def exported(quick_hashing) -> str:
    """The deals file of a demo club of `GAMES` finished games."""
    return records.export_deals(demo.fill_demo("demo", games=GAMES))


@pytest.fixture
def target(olga) -> Club:
    return clubs.create_club("Thursday Club", "thursday", olga)


@pytest.fixture
def off(app):
    """Jobs kept but run by nobody until a test runs them; two games a batch."""
    app.config.update(IMPORT_JOBS="off", IMPORT_JOB_BATCH=2)


def job(job_id: int) -> ImportJob:
    """The job as committed, read in a transaction ended at once (SQLite: a test's session
    holding the write lock would keep the runner's own session waiting)."""
    db.session.rollback()
    found = db.session.get(ImportJob, job_id, populate_existing=True)
    db.session.expunge(found)
    db.session.rollback()
    return found


def run(job_id: int) -> bool:
    """The runner's work, as a thread would call it: this test's session holding nothing."""
    db.session.rollback()
    return work.run_job(job_id)


def prints(club_id: int) -> list[str]:
    """The fingerprints of the club's games, as committed."""
    db.session.rollback()
    games = db.session.execute(select(Game).where(Game.club_id == club_id)).scalars()
    found = sorted(fingerprint_of(game) for game in games)
    db.session.rollback()
    return found


def rated_right(club_id: int) -> bool:
    """The club's ratings are what a fold from scratch makes."""
    db.session.rollback()
    differing = ratings.recompute_club(db.session.get(Club, club_id), dry_run=True)
    db.session.rollback()
    return differing == 0


def lease_ended(job_id: int) -> None:
    """The runner holding the job is gone and its lease has run out."""
    past = now() - timedelta(seconds=1)
    db.session.execute(update(ImportJob).where(ImportJob.id == job_id).values(lease_until=past))
    db.session.commit()


def test_a_job_is_kept_then_run_to_the_same_games_as_an_import(off, exported, target, olga):
    kept_job = jobs.start_import(target, exported)
    job_id, target_id = kept_job.id, target.id
    assert (kept_job.state, kept_job.games_total, kept_job.games_saved) == ("waiting", GAMES, 0)
    assert prints(target_id) == []  # nothing saved in the request
    assert work.claimable() == [job_id]
    assert run(job_id)
    ended = job(job_id)
    assert (ended.state, ended.games_saved, ended.file, ended.lease_until) == (
        "done",
        GAMES,
        None,
        None,
    )
    progress = jobs.job_progress(ended)
    assert progress.ended and progress.value == progress.most
    assert progress.words.startswith(f"Imported {GAMES} games with ")
    same = clubs.create_club("Same", "same", olga)
    assert progress.report == records_import.import_deals(same, exported)
    assert prints(target_id) == prints(same.id)
    # The ratings were held while it saved, then marked once for the whole club and folded.
    assert kept(select(RatingMark.id)) == []
    assert rated_right(target_id)


def test_a_claimed_job_is_nobody_elses_until_its_lease_runs_out(off, exported, target):
    job_id = jobs.start_import(target, exported).id
    assert work._claim(job_id) == 1
    assert work._claim(job_id) is None  # held: its lease runs
    assert work.claimable() == []
    assert not run(job_id)
    lease_ended(job_id)
    assert work.claimable() == [job_id]
    assert work._claim(job_id) == 2
    # The first runner, back too late, writes nothing more: its claim is no longer the job's.
    late = work._Run(job_id, 1)
    with pytest.raises(work.LostClaim):
        late.write("reading", 5)
    assert job(job_id).games_done == 0


def test_a_runner_killed_mid_job_is_resumed_by_the_next_without_doubling(
    off, exported, target, olga, monkeypatch
):
    job_id, target_id = jobs.start_import(target, exported).id, target.id
    real, calls = work.record_one, []

    def dies_in_the_fourth_batch(*args):
        calls.append(1)
        if len(calls) == 7:
            raise Killed
        return real(*args)

    monkeypatch.setattr(work, "record_one", dies_in_the_fourth_batch)
    with pytest.raises(Killed):
        run(job_id)
    left = job(job_id)
    # Three whole batches went in with their count; the fourth left nothing.
    assert (left.state, left.games_saved, left.claim) == ("saving", 6, 1)
    assert len(prints(target_id)) == 6
    assert not run(job_id)  # the dead runner's lease still runs
    lease_ended(job_id)
    monkeypatch.setattr(work, "record_one", real)
    db.session.rollback()
    assert runner.Runner(current_app._get_current_object()).run_claimable() == 1
    ended = job(job_id)
    assert (ended.state, ended.games_saved, ended.claim) == ("done", GAMES, 2)
    # As one import of the file in one go: the same report, the same games, once each.
    same = clubs.create_club("Same", "same", olga)
    assert records_import.ImportReport.from_dict(ended.report) == records_import.import_deals(
        same, exported
    )
    assert prints(target_id) == prints(same.id)
    assert rated_right(target_id)


def test_a_job_cut_short_too_often_is_given_up_in_words(off, exported, target):
    job_id, target_id = jobs.start_import(target, exported).id, target.id
    db.session.execute(
        update(ImportJob).where(ImportJob.id == job_id).values(claim=work.MOST_CLAIMS)
    )
    db.session.commit()
    assert run(job_id)
    ended = job(job_id)
    assert ended.state == "failed"
    assert f"cut short {work.MOST_CLAIMS} times" in ended.problem
    assert "Nothing was imported" in ended.problem
    assert prints(target_id) == []


def test_a_job_failing_while_saving_says_which_games_went_in(off, exported, target, monkeypatch):
    job_id, target_id = jobs.start_import(target, exported).id, target.id
    real, calls = work.record_one, []

    def fails_on_the_fifth(*args):
        calls.append(1)
        if len(calls) == 5:
            raise RuntimeError("the disk is full")
        return real(*args)

    monkeypatch.setattr(work, "record_one", fails_on_the_fifth)
    assert run(job_id)
    ended = job(job_id)
    assert ended.state == "failed"
    assert ended.problem.startswith("The import stopped: an error on the server (RuntimeError).")
    assert f"The file's first 4 of {GAMES:,} games (up to game " in ended.problem
    assert "import the same file again to add the rest" in ended.problem
    assert len(prints(target_id)) == 4
    progress = jobs.job_progress(ended)
    assert progress.report is not None and progress.report.games == 4
    # What went in is rated: the club was marked whole when the saving stopped.
    assert rated_right(target_id)
    # The same file again adds the rest, the four already in skipped.
    monkeypatch.setattr(work, "record_one", real)
    again = jobs.start_import(db.session.get(Club, target_id), exported).id
    assert run(again)
    report = jobs.job_progress(job(again)).report
    assert (report.games, len(report.skipped)) == (GAMES - 4, 4)
    assert len(prints(target_id)) == GAMES


def test_a_refused_game_imports_nothing_though_batches_would_have_gone_in(off, exported, target):
    lines = exported.splitlines(keepends=True)
    # The last row of the file goes out without the books the rules ask for.
    header = lines[0].rstrip("\r\n").split(",")
    last = lines[-1].rstrip("\r\n").split(",")
    last[header.index("went_out")] = "yes"
    text = "".join(lines[:-1]) + ",".join(last) + "\r\n"
    job_id, target_id = jobs.start_import(target, text).id, target.id
    assert run(job_id)
    ended = job(job_id)
    assert ended.state == "refused"
    # Named as ever: the deal of the last game the rules refuse (on one of its sides' lines).
    assert ended.problem.startswith("Nothing was imported. Line ")
    assert ", column went_out: Deal " in ended.problem and " is refused: " in ended.problem
    assert prints(target_id) == [] and ended.games_saved == 0


def test_a_clubs_second_job_waits_for_its_first(off, exported, target):
    first = jobs.start_import(target, exported).id
    second = jobs.start_import(target, exported).id
    assert work.claimable() == [first]
    assert run(first)
    assert work.claimable() == [second]
    assert run(second)
    report = jobs.job_progress(job(second)).report
    assert (report.games, len(report.skipped)) == (0, GAMES)  # each game held once
    club = db.session.get(Club, target.id)
    for _ in range(jobs.MOST_UNDER_WAY):
        jobs.start_import(club, exported)
    with pytest.raises(jobs.TooManyImports):
        jobs.start_import(club, exported)


def test_the_process_thread_runs_a_job_kept_by_a_request(app, exported, target, monkeypatch):
    app.config.update(IMPORT_JOBS="thread", IMPORT_JOB_BATCH=3)
    ended = threading.Event()
    real = work.run_job

    def run_and_tell(job_id: int) -> bool:
        ran = real(job_id)
        if ran:
            ended.set()
        return ran

    monkeypatch.setattr(work, "run_job", run_and_tell)
    job_id, target_id = jobs.start_import(target, exported).id, target.id
    db.session.rollback()
    assert ended.wait(timeout=120), "the thread never ran the job"
    thread = runner.runner_of(app)
    assert thread._thread is not None and thread._thread.is_alive()
    assert job(job_id).state == "done"
    assert len(prints(target_id)) == GAMES
