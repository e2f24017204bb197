"""When import jobs run: in the process's job thread, off every request (as the ratings' folder).

`IMPORT_JOBS` (or `SCOREKEEPER_IMPORT_JOBS`) says how:

- ``thread`` (the default): each app process keeps one job thread, started by its first
  request, woken when a job is kept, and looking every `SWEEP_SECONDS` for a job no runner
  holds (another process's, or one whose runner was killed: its lease has run out). Its first
  look takes whatever a process left before a restart.
- ``at_once``: run right after the commit that kept it, in the committing thread, in an app
  context (and so a session) of its own (the tests' default: the page after the POST shows the
  job ended).
- ``off``: this process runs none; another process's thread does.

The jobs are the queue: rows in the database (`ImportJob`), so nothing is lost with a process,
and any number of processes and hosts run them side by side, each job held by one runner at a
time (`work.run_job`'s claim and lease).
"""

from __future__ import annotations

import logging
import os
import threading

from flask import Flask, current_app, has_app_context

from scorekeeper.services.records_import import work

log = logging.getLogger(__name__)

MODES = ("thread", "at_once", "off")
# How often a job thread looks for jobs that no commit of its own woke it for.
SWEEP_SECONDS = 10.0
KEY = "import_jobs"


def mode_of(app: Flask) -> str:
    """How this app runs jobs: its `IMPORT_JOBS`, the environment's, or the default."""
    mode = app.config.get("IMPORT_JOBS") or os.environ.get("SCOREKEEPER_IMPORT_JOBS", "")
    if mode in MODES:
        return mode
    if mode:
        log.warning("IMPORT_JOBS=%r is none of %s: running jobs in a thread", mode, MODES)
    return "at_once" if app.testing else "thread"


def run_soon(job_id: int) -> None:
    """The job is committed: run it as this app runs jobs."""
    if not has_app_context():
        return  # kept outside any app (a script): a web process's thread takes it
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    mode = mode_of(app)
    if mode == "at_once":
        try:
            work.run_job(job_id)  # in an app context of its own, as the thread's would be
        except Exception:
            # The job is kept whatever happened here: a thread's sweep takes it again.
            log.exception("Running import job %s failed", job_id)
    elif mode == "thread":
        runner_of(app).wake()


def runner_of(app: Flask) -> Runner:
    """The process's job thread (made again in a forked worker: threads do not fork)."""
    runner = app.extensions.get(KEY)
    if runner is None or runner.pid != os.getpid():
        runner = app.extensions[KEY] = Runner(app)
    return runner


def start_with_requests(app: Flask) -> None:
    """In `thread` mode, the first request of each process starts its job thread."""

    @app.before_request
    def _start_the_runner() -> None:
        if mode_of(app) == "thread":
            runner_of(app).start()


class Runner:
    """One thread that runs every job it can claim, woken by a new job or by its sweep."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.pid = os.getpid()
        self._woken = threading.Condition()
        self._wanted = False
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._stopped = False

    def start(self) -> None:
        """Start the thread if it is not running (the first call does; later ones cost a check)."""
        if self._stopped or (self._thread is not None and self._thread.is_alive()):
            return
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=KEY, daemon=True)
                self._thread.start()

    def wake(self) -> None:
        """Look for jobs as soon as the thread is free."""
        with self._woken:
            self._wanted = True
            self._woken.notify()
        self.start()

    def stop(self) -> None:
        """Let the thread end after the job it is running (an app let go of: a test's)."""
        with self._woken:
            self._stopped = True
            self._woken.notify()
        if self._thread is not None:
            self._thread.join(timeout=SWEEP_SECONDS)

    def _run(self) -> None:
        while not self._stopped:
            self.run_claimable()
            with self._woken:
                if not self._wanted and not self._stopped:
                    self._woken.wait(timeout=SWEEP_SECONDS)
                self._wanted = False

    def run_claimable(self) -> int:
        """Run every job this runner can claim now, one after another; how many it ran."""
        ran = 0
        with self.app.app_context():
            try:
                while not self._stopped:
                    now_ran = 0
                    for job_id in work.claimable():
                        if self._stopped:
                            break
                        now_ran += work.run_job(job_id)
                    if not now_ran:
                        break
                    ran += now_ran
            except Exception:
                # The jobs stay: the next sweep takes them again.
                log.exception("Running import jobs failed")
        return ran
