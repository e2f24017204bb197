"""nginx's error log never holds a secret (issue 39), and still says what failed.

nginx writes a failed request's line whole: its request line, the URL it sent the app and the
Referer. The third attack found game links in error.log after a 502 and a 504. The shipped site
now sends its error lines to scorekeeper/plumbing/nginx_errors.py, which writes them blanked.

Here nginx runs the shipped site (tests/reliability/_nginx.py) in front of a stand-in for the
app that closes each connection at once (502), or answers nothing (504, past a
proxy_read_timeout shortened to 1 s), and then is gone (502, refused). Game links, night board
links and table codes, written plainly and encoded, go in the path and the Referer. Both logs
(the access log and the error log) and nginx's own log are read for every secret: none is
there, and each failure has its line.
"""

from __future__ import annotations

import secrets
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from ._nginx import Nginx, logged
from ._server import HOST, call, free_port

# nginx waits this long for the stand-in's answer (the shipped 35 s, shortened).
READ_TIMEOUT = "1s"


class StandIn:
    """In place of the app: each connection is read to the end of its headers, then closed at
    once (a request whose User-Agent says `close`) or held unanswered until `stop`."""

    def __init__(self) -> None:
        self.port = free_port()
        self.listener = socket.create_server((HOST, self.port))
        self.held: list[socket.socket] = []
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return  # stopped
            head = b""
            while b"\r\n\r\n" not in head and (chunk := conn.recv(65536)):
                head += chunk
            if b"User-Agent: close" in head:
                conn.close()
            else:
                self.held.append(conn)

    def stop(self) -> None:
        """Stop listening (new connections are refused) and drop what is held."""
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the thread waiting in accept()
        except OSError:
            pass  # stopped already
        self.listener.close()
        self.thread.join(timeout=5)
        for conn in self.held:
            conn.close()


@pytest.fixture
def failing(nginx_binary, tmp_path) -> Iterator[tuple[Nginx, StandIn]]:
    """nginx with the shipped site in front of the stand-in, its read timeout shortened."""
    stand_in = StandIn()
    changes = ((r"proxy_read_timeout 35s;", f"proxy_read_timeout {READ_TIMEOUT};", 1),)
    nginx = Nginx(nginx_binary, tmp_path, stand_in.port, changes).start()
    try:
        yield nginx, stand_in
    finally:
        nginx.stop()
        stand_in.stop()


def encoded_first(secret: str) -> str:
    """The secret with its first letter percent-encoded."""
    return f"%{ord(secret[0]):02X}{secret[1:]}"


def test_the_error_log_holds_no_secret_after_a_502_and_a_504(failing):
    """Closed on (502), no answer in time (504), refused (502): every line in the error log,
    none with a secret in its request line, upstream URL or referrer."""
    nginx, stand_in = failing
    game, night, code, other = (secrets.token_urlsafe(16) for _ in range(4))
    paths = [
        f"/t/{game}/deals/new",
        f"/n/{night}/results",
        f"/%74/{game}",
        f"//t/{encoded_first(game)}/live",
        f"/x/../t/{game}",
        f"/clubs/tuesday/table/{code}",
    ]
    referers = [
        f"https://scores.example.org/t/{other}",
        f"https://scores.example.org/clubs/tuesday/%74able/{code}?a=1",
        f"https://scores.example.org/n/{night}",
        f"https://scores.example.org/x/../t/{other}",
        f"/t/{other}",  # no browser sends such a Referer; any client can
    ]

    def each(agent: str) -> list[int]:
        statuses = []
        for n, path in enumerate(paths):
            sent = {"Referer": referers[n % len(referers)], "User-Agent": agent}
            method, form = ("POST", {"a": "1"}) if n == 0 else ("GET", None)
            statuses.append(call(nginx.port, method, path, form=form, headers=sent).status)
        return statuses

    assert each("close") == [502] * len(paths)
    assert each("hold") == [504] * len(paths)
    stand_in.stop()
    assert each("refused") == [502] * len(paths)
    # Each failure has its line, blanked: the log says what failed, where, and why.
    expected = [
        "upstream prematurely closed connection",
        "upstream timed out",
        "connect() failed (111: Connection refused)",
        'request: "POST /t/…/deals/new HTTP/1.1"',
        'request: "GET /n/…/results HTTP/1.1"',
        'referrer: "https://scores.example.org/t/…"',
    ]
    # Each failure once for each path at least (nginx may add a line of its own to one).
    errors = logged(nginx.sink.log, expected[:3] * len(paths) + expected[3:])
    access = logged(nginx.access_log, ['refused" '] * len(paths))
    access = logged(nginx.access_log, ['" 502 '] * (2 * len(paths)))
    assert access.count('" 502 ') == 2 * len(paths) and access.count('" 504 ') == len(paths)
    everything = {
        "the error log": errors,
        "the access log": access,
        "nginx's own log": nginx.errors(),
    }
    for name, text in everything.items():
        for secret in (game, night, code, other):
            # Without its first and last letters: no secret in part or whole.
            assert secret[1:-1] not in text, f"{name} holds a secret:\n{text[-3000:]}"


def test_with_the_error_log_down_lines_are_lost_never_written_whole(failing):
    """The error log's service stopped: a 502's line goes nowhere (nginx's own log says it
    could not reach the socket), and no secret reaches any file."""
    nginx, stand_in = failing
    nginx.sink.stop()
    stand_in.stop()
    game = secrets.token_urlsafe(16)
    assert call(nginx.port, "GET", f"/t/{game}", headers={"Referer": f"/t/{game}"}).status == 502
    # nginx notes it in its own log (after the answer has gone out).
    logged(nginx.error_log, ["connect() failed"])
    for log in (nginx.sink.log, nginx.error_log, nginx.access_log):
        text = Path(log).read_text(errors="replace") if Path(log).exists() else ""
        assert game[1:-1] not in text, f"{log.name} holds the secret:\n{text[-2000:]}"
