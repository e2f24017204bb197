"""gunicorn settings for serving the scorekeeper (issue 14: slow clients, restarts).

    .venv/bin/gunicorn -c gunicorn.conf.py -b 127.0.0.1:8000 'scorekeeper:create_app()'

gunicorn also reads this file by itself when started from this folder without `-c`. Any setting
given on the command line wins over the one here (e.g. `-w 2` on a one-core machine).
tests/reliability/test_hardening_server.py serves the app with this file and checks each promise.

In production nginx stands in front (README, docs/deploy/nginx.conf) and hands gunicorn only
whole requests: 60 slow clients straight at these threads still left a normal request
unanswered (issue 26, tests/reliability/test_nginx.py). The threads are the second line.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from typing import Any

# From <linux/prctl.h>: the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1

bind = "127.0.0.1:8000"

# Threads, not sync workers: a sync worker is one connection at a time, so four clients sending
# their headers a byte at a time held all four and nobody else was answered. A thread waiting
# on a slow client only holds itself; a worker stalls only if all its threads do. 12 threads stay
# within SQLAlchemy's 15 connections per process, so no thread ever waits for one.
workers = 4
worker_class = "gthread"
threads = 12
# Phones poll once a second and keep their connection open between polls; an idle one costs no
# thread. This bounds how many one worker holds (the rest wait in the listen queue).
worker_connections = 250
keepalive = 5
# A worker whose main loop has not checked in for this long is restarted by the master.
timeout = 30

# Game links and table codes travel in URL paths: an access log, if one is turned on
# (`--access-logfile`), is written with them blanked, and so is the error log, which names a
# request gunicorn failed on and prints tracebacks (scorekeeper/plumbing/logs.py). A worker
# timeout names no request.
logger_class = "scorekeeper.plumbing.logs.RedactingLogger"

# Normal stops and reloads give a request this long to finish; requests here take milliseconds,
# a club's records file uploaded over a weak signal a few seconds.
graceful_timeout = 10


def post_fork(server: Any, worker: Any) -> None:
    """Have Linux send this worker SIGQUIT the moment its master dies, however it died.

    Otherwise an orphaned worker notices only at its next look at its parent, then drains for
    graceful_timeout, holding the port all that while: a server started again at once could not
    bind it. A master killed with SIGKILL or by the OOM killer cannot tell its workers itself.
    """
    if not sys.platform.startswith("linux"):
        return  # elsewhere the worker's own check of its parent, once a second, remains
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGQUIT, 0, 0, 0) != 0:
        return
    if os.getppid() != worker.ppid:
        os._exit(0)  # the master died before the request was made: nobody would signal now


def worker_exit(server: Any, worker: Any) -> None:
    """An orphaned worker leaves now: a thread still reading a slow client would keep it alive.

    At interpreter exit Python waits for every thread of the pool; with no master left to kill
    the worker, one client dripping bytes would keep it running for as long as it liked.
    """
    if os.getppid() != worker.ppid:
        os._exit(0)
