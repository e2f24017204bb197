"""nginx's error log without secrets: nginx sends each line here, and it is written blanked.

nginx writes a failed request's line whole (its request line, the upstream URL, the Referer),
and nothing in nginx can rewrite an error line. So the shipped site (docs/deploy/nginx.conf)
sends its error lines as syslog datagrams to a Unix socket, and this process writes each one
to the error log file with `redaction.redact_line` (the rules gunicorn's logs follow):

    python3 -m scorekeeper.plumbing.nginx_errors /run/scorekeeper-nginx/errors.sock \\
        /var/log/scorekeeper-nginx/error.log

run by docs/deploy/scorekeeper-nginx-errors.service from a checkout of the app, with the
standard library alone (the proxy host needs none of the app's packages). While it is not
running, nginx's lines are lost, never written whole: nginx notes in its own error log that it
could not reach the socket. A file moved away by logrotate is noticed and opened anew.
"""

from __future__ import annotations

import argparse
import logging
import logging.handlers
import os
import re
import socket
import sys
from collections.abc import Callable
from pathlib import Path

from scorekeeper.plumbing.redaction import redact_line

# What nginx puts before its line: `<PRI>Mmm dd hh:mm:ss ` (RFC 3164), the host name unless
# `nohostname`, then `tag: `. The line itself begins with nginx's own time and level.
SYSLOG_HEAD = re.compile(r"^<\d{1,3}>[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d (?:\S+ )?\S+?: ")
# nginx's longest error line is 2 KB; a datagram past this is no line of nginx's.
MOST_BYTES = 65_536
# Who may send to the socket: its owner (nginx's workers run as the same user) and its group.
SOCKET_MODE = 0o660


def line_of(datagram: bytes) -> str:
    """The error line a datagram carries, without its syslog header, secrets blanked."""
    text = datagram.decode("utf-8", errors="backslashreplace").rstrip("\r\n")
    return redact_line(SYSLOG_HEAD.sub("", text, count=1))


def writer(log_path: Path) -> Callable[[str], None]:
    """Appends a line to the log file, opening it anew if logrotate moved it away."""
    handler = logging.handlers.WatchedFileHandler(log_path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(message)s"))

    def write(line: str) -> None:
        handler.emit(logging.LogRecord("nginx", logging.ERROR, "", 0, line, None, None))

    return write


def listening(socket_path: Path) -> socket.socket:
    """The datagram socket nginx sends to (a stale one from a previous run is replaced)."""
    socket_path.unlink(missing_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(socket_path))
    os.chmod(socket_path, SOCKET_MODE)
    return sock


def serve(socket_path: Path, log_path: Path) -> None:
    """Write every line nginx sends, blanked, until stopped."""
    write = writer(log_path)
    with listening(socket_path) as sock:
        print(f"nginx's error lines: {socket_path} -> {log_path}", file=sys.stderr, flush=True)
        while True:
            write(line_of(sock.recv(MOST_BYTES)))


def main(argv: list[str] | None = None) -> None:
    """`python3 -m scorekeeper.plumbing.nginx_errors SOCKET LOG`."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("socket", type=Path, help="the Unix socket nginx's error_log names")
    parser.add_argument("log", type=Path, help="the error log file to append to")
    args = parser.parse_args(argv)
    try:
        serve(args.socket, args.log)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
