"""When a club's rating marks are folded: by the process's folding thread, after the commit.

`RATINGS_FOLD` (or `SCOREKEEPER_RATINGS_FOLD`) says how:

- ``thread`` (the default): each app process keeps one folding thread, woken by its own saves'
  commits and looking every `SWEEP_SECONDS` for marks any process left (another host's, or a
  process killed mid-fold). It starts with the process's first request, and its first look
  folds what was left before a restart.
- ``at_once``: folded right after the commit, in the committing thread (the tests' default, so
  what a test saved is rated when it reads it back); still outside the save's transaction.
- ``off``: this process folds nothing; `flask fold --watch` folds for every process (a host
  whose club is so large that a fold should not share a web process's interpreter lock).

The marks are the queue: in the database, so nothing is lost with a process and any number of
processes and hosts fold side by side (`refold.py`'s lease keeps them to one a club).
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable

from flask import Flask, current_app, has_app_context

from scorekeeper.services.ratings import refold

log = logging.getLogger(__name__)

MODES = ("thread", "at_once", "off")
# How often a folding thread looks for marks that no commit of its own woke it for.
SWEEP_SECONDS = 10.0
KEY = "ratings_folder"


def mode_of(app: Flask) -> str:
    """How this app folds: its `RATINGS_FOLD`, the environment's, or the default."""
    mode = app.config.get("RATINGS_FOLD") or os.environ.get("SCOREKEEPER_RATINGS_FOLD", "")
    if mode in MODES:
        return mode
    if mode:
        log.warning("RATINGS_FOLD=%r is none of %s: folding in a thread", mode, ", ".join(MODES))
    return "at_once" if app.testing else "thread"


def fold_soon(club_ids: Iterable[int]) -> None:
    """The clubs' marks are committed: fold them as this app folds."""
    if not has_app_context():
        return  # a session outside any app (a script): `flask fold` or the next sweep folds
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    mode = mode_of(app)
    if mode == "at_once":
        # An app context of its own: its own session, as the thread's would be.
        with app.app_context():
            try:
                for club_id in club_ids:
                    refold.fold_club(club_id)
            except Exception:
                # The save is kept whatever the fold does; its marks stay for the next fold.
                log.exception("Folding the ratings of clubs %s failed", sorted(club_ids))
    elif mode == "thread":
        folder_of(app).wake(club_ids)


def folder_of(app: Flask) -> Folder:
    """The process's folding thread (made again in a forked worker: threads do not fork)."""
    folder = app.extensions.get(KEY)
    if folder is None or folder.pid != os.getpid():
        folder = app.extensions[KEY] = Folder(app)
    return folder


def start_with_requests(app: Flask) -> None:
    """In `thread` mode, the first request of each process starts its folding thread."""

    @app.before_request
    def _start_the_folder() -> None:
        if mode_of(app) == "thread":
            folder_of(app).start()


class Folder:
    """One thread that folds the clubs it is woken for, and sweeps for any marks left."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.pid = os.getpid()
        self._wanted: set[int] = set()
        self._woken = threading.Condition()
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

    def wake(self, club_ids: Iterable[int]) -> None:
        """Fold these clubs as soon as the thread is free."""
        with self._woken:
            self._wanted.update(club_ids)
            self._woken.notify()
        self.start()

    def watch(self) -> None:
        """Fold in this thread for ever (`flask fold --watch`)."""
        self._run()

    def stop(self) -> None:
        """Let the thread end after what it is folding (an app let go of: a test's)."""
        with self._woken:
            self._stopped = True
            self._woken.notify()
        if self._thread is not None:
            self._thread.join(timeout=SWEEP_SECONDS)

    def _run(self) -> None:
        sweep = True  # the first look folds whatever a process left before this one began
        while not self._stopped:
            with self._woken:
                if not self._wanted and not sweep and not self._stopped:
                    sweep = not self._woken.wait(timeout=SWEEP_SECONDS)
                if self._stopped:
                    return
                wanted, self._wanted = self._wanted, set()
            self.fold(wanted, sweep=sweep)
            sweep = False

    def fold(self, club_ids: set[int], *, sweep: bool) -> None:
        """Fold these clubs (and, sweeping, every club with marks); log, never die, on an error."""
        with self.app.app_context():
            try:
                if sweep:
                    club_ids = club_ids | set(refold.marked_clubs())
                for club_id in sorted(club_ids):
                    refold.fold_club(club_id)
            except Exception:
                # The marks stay: the next sweep folds them again.
                log.exception("Folding the ratings of clubs %s failed", sorted(club_ids))
