"""nginx in front of gunicorn, as the README's production section and docs/DEPLOY.md run it
(issue 26: slow clients, the body limit, secrets in the access log).

nginx runs the shipped site, docs/deploy/nginx.conf, with only what a test must change:
its ports and log paths, the app's address in `upstream`, and no TLS (`shipped_site` says each
change and fails if the file no longer has the line it changes). gunicorn runs with the shipped
gunicorn.conf.py. nginx runs as this user, in the foreground, with every file it writes in a
temporary folder: no root, no system service.

- 60 clients trickling headers and 60 trickling a body, through nginx: a normal request is
  answered at once. The same clients straight at gunicorn stall it
  (`test_the_same_clients_straight_at_gunicorn_stall_it`, which keeps the first test honest).
- A body over the app's largest allowance is refused by nginx before it is sent; one the app
  refuses unread costs nobody else a request (no connection to gunicorn is used twice).
- The access log blanks a game's secret and a table code however the path spells them.

Skipped where nginx is not installed (apt-get install nginx), except under REQUIRE_BROWSER=1
(CI), where a missing nginx fails.
"""

from __future__ import annotations

import grp
import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ._server import HOST, NEW_GAME, ROOT, Gunicorn, call, free_port, new_game
from .test_hardening_server import (
    DRIP_SECONDS,
    PROMPT_SECONDS,
    SHIPPED,
    SLOW_HEADER,
    Trickle,
    server,
    timed_get,
)

# The site under test: the shipped one, unless NGINX_SITE names another file (to watch these
# tests fail on an older site: its upstream must then be `server 127.0.0.1:8000;`).
SITE = Path(os.environ.get("NGINX_SITE") or ROOT / "docs" / "deploy" / "nginx.conf")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
# The finding: 40-60 slow connections were enough to time out other requests on the shipped
# 4 workers x 12 threads. Sixty of each kind is more than every thread gunicorn has.
SLOW_HEADERS = 60
SLOW_BODIES = 60
# Normal requests timed while the slow clients are connected.
TRIES = 5
# What a slow body claims to be: far less than any limit, never finished in a test's time.
SLOW_BODY_BYTES = 4000


@pytest.fixture(scope="module")
def nginx_binary() -> str:
    """The nginx program; skipped where it is missing, unless CI demands it."""
    if not os.access(NGINX, os.X_OK):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"nginx not found at {NGINX}: apt-get install nginx")
        pytest.skip("nginx not installed (apt-get install nginx): the proxy tests are skipped")
    return NGINX


def shipped_site(app_port: int, port: int, redirect_port: int, folder: Path) -> str:
    """docs/deploy/nginx.conf with only a test's changes: ports, paths, no TLS.

    Each change names the line it replaces and how many times the file has it, so a change to
    the shipped file that a test cannot follow fails here rather than testing something else.
    """
    text = SITE.read_text()
    changes = [
        # The app: gunicorn on this machine, on the test's port (nothing else about it changes).
        (r"server 127\.0\.0\.1:8000;", f"server {HOST}:{app_port};", 1),
        # Plain HTTP: a free port on loopback rather than port 80 (root only), no IPv6.
        (r"listen 80;", f"listen {HOST}:{redirect_port};", 1),
        (r"\n *listen \[::\]:80;", "", 1),
        # HTTPS without TLS: the same server block on a free port, the certificate's lines out.
        (r"listen 443 ssl http2;", f"listen {HOST}:{port};", 1),
        (r"\n *listen \[::\]:443 ssl http2;", "", 1),
        (r"\n *ssl_[a-z_]+ [^;]+;", "", 6),
        # Logs and the ACME folder in the test's folder.
        (r"/var/log/nginx/scorekeeper\.access\.log", str(folder / "access.log"), 2),
        (r"root /var/www/html;", f"root {folder};", 1),
    ]
    for pattern, replacement, times in changes:
        text, made = re.subn(pattern, replacement, text)
        assert made == times, f"{SITE.name}: {pattern!r} found {made} times, not {times}"
    return text


def main_config(folder: Path, site: Path) -> str:
    """What Debian's /etc/nginx/nginx.conf would be, in `folder`: the site in its http block."""
    # As root, workers would otherwise run as nobody and could not write the body files here.
    user = ""
    if os.geteuid() == 0:
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name};"
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""{user}
daemon off;
worker_processes 1;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} info;
events {{
    worker_connections 1024;
}}
http {{
    access_log {folder / "other.access.log"};
{temp}
    include {site};
}}
"""


class Nginx:
    """nginx in the foreground with the shipped site, in front of gunicorn on `app_port`."""

    def __init__(self, binary: str, folder: Path, app_port: int) -> None:
        self.folder = folder
        self.port = free_port()
        self.redirect_port = free_port()
        site = folder / "scorekeeper.conf"
        site.write_text(shipped_site(app_port, self.port, self.redirect_port, folder))
        self.config = folder / "nginx.conf"
        self.config.write_text(main_config(folder, site))
        self.access_log = folder / "access.log"
        self.error_log = folder / "error.log"
        self.command = [
            binary,
            "-p",
            str(folder),
            "-c",
            str(self.config),
            "-e",
            str(self.error_log),
        ]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, wait: float = 10.0) -> Nginx:
        checked = subprocess.run([*self.command, "-t"], capture_output=True, text=True)
        assert checked.returncode == 0, f"nginx -t refused the shipped site:\n{checked.stderr}"
        self.proc = subprocess.Popen(self.command, start_new_session=True)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited {self.proc.returncode}:\n{self.errors()}")
            try:
                socket.create_connection((HOST, self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not listen in {wait} s:\n{self.errors()}")

    def errors(self) -> str:
        return self.error_log.read_text(errors="replace") if self.error_log.exists() else ""

    def stop(self) -> None:
        """Fast stop (SIGTERM) of the master, which takes its worker with it; SIGKILL if not."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def proxied(nginx_binary, tmp_path_factory) -> Iterator[tuple[Gunicorn, Nginx]]:
    """gunicorn with the shipped gunicorn.conf.py, behind nginx with the shipped site."""
    folder = tmp_path_factory.mktemp("nginx")
    gunicorn = server(folder, SHIPPED)
    # As the README runs it behind a proxy on this machine (SCOREKEEPER_PROXY_FROM's default).
    gunicorn.env["SCOREKEEPER_PROXIES"] = "1"
    nginx: Nginx | None = None
    try:
        gunicorn.init_db()
        gunicorn.start()
        nginx = Nginx(nginx_binary, folder, gunicorn.port).start()
        yield gunicorn, nginx
    finally:
        if nginx is not None:
            nginx.stop()
        gunicorn.stop()


def slow_headers(port: int) -> Trickle:
    """Clients sending a request's headers a byte at a time (slowloris)."""
    return Trickle(port, SLOW_HEADERS, b"", SLOW_HEADER)


def slow_bodies(port: int) -> Trickle:
    """Clients sending whole headers for a new game, then its body a byte at a time."""
    head = (
        "POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"Content-Length: {SLOW_BODY_BYTES}\r\n\r\n"
    ).encode()
    return Trickle(port, SLOW_BODIES, head, b" " * SLOW_BODY_BYTES)


def answers_while_slow(port: int) -> tuple[list[tuple[int | None, float]], int]:
    """Normal GETs while both kinds of slow client hold connections to the same `port`: each
    GET's status (None: no answer in PROMPT_SECONDS) and time, and how many slow clients were
    still connected at the end."""
    with slow_headers(port) as headers, slow_bodies(port) as bodies:
        time.sleep(2 * DRIP_SECONDS)  # every slow client is accepted and being read
        answers = [timed_get(port) for _ in range(TRIES)]
        held = len(headers.sockets) + len(bodies.sockets)
    return answers, held


def test_the_shipped_site_buffers_bounds_and_times_out_slow_clients():
    """The settings the README promises are written in the file, not left to defaults."""
    from scorekeeper import create_app
    from scorekeeper.plumbing.bodies import MAX_UPLOAD

    text = SITE.read_text()

    def setting(name: str) -> str:
        found = re.findall(rf"^\s*{name}\s+([^;]+);", text, re.MULTILINE)
        assert len(found) == 1, f"{SITE.name} sets {name} {len(found)} times, not once"
        return found[0].strip()

    assert setting("proxy_request_buffering") == "on"
    assert setting("proxy_buffering") == "on"
    assert re.fullmatch(r"\d+k", setting("client_body_buffer_size"))
    for timeout in ("client_header_timeout", "client_body_timeout", "send_timeout"):
        assert re.fullmatch(r"\d+s", setting(timeout)) and int(setting(timeout)[:-1]) <= 30
    # nginx's body limit is at least the app's largest, or a records file could not be sent
    # (and no more: test_a_body_over_nginxs_limit_is_refused_before_it_is_sent).
    limit = setting("client_max_body_size")
    assert re.fullmatch(r"\d+m", limit)
    app_limit = create_app({"TESTING": True}).config["MAX_CONTENT_LENGTH"]
    assert int(limit[:-1]) * 1024 * 1024 >= app_limit == MAX_UPLOAD


def test_slow_clients_through_nginx_do_not_stall_a_normal_request(proxied):
    """60 clients trickling headers and 60 trickling a body to nginx: nginx holds them all,
    and a normal request through it is answered at once."""
    gunicorn, nginx = proxied
    answers, held = answers_while_slow(nginx.port)
    assert held == SLOW_HEADERS + SLOW_BODIES, "nginx dropped a slow client"
    for status, seconds in answers:
        assert status == 200 and seconds < PROMPT_SECONDS, answers
    assert "WORKER TIMEOUT" not in gunicorn.log()


def test_the_same_clients_straight_at_gunicorn_stall_it(proxied):
    """The same clients sent straight to gunicorn (no proxy): a normal request times out.

    This is what the attack saw on the README's old recipe; it keeps the test above honest.
    """
    gunicorn, _ = proxied
    assert timed_get(gunicorn.port)[0] == 200  # answered while nobody is slow
    answers, _ = answers_while_slow(gunicorn.port)
    print(f"\nstraight at gunicorn, (status, seconds) of each normal GET: {answers}")
    assert any(status is None for status, _ in answers), answers
    # Once the slow clients are gone, gunicorn answers again.
    time.sleep(1)
    assert timed_get(gunicorn.port)[0] == 200


def body_of(port: int, size: int, send_body: bool) -> tuple[int, bytes]:
    """POST a JSON body of `size` bytes to /api/v1/games (or only its headers): the answer."""
    with socket.create_connection((HOST, port), timeout=30) as sock:
        sock.sendall(
            (
                "POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                f"Content-Length: {size}\r\nConnection: close\r\n\r\n"
            ).encode()
        )
        if send_body:
            try:
                sock.sendall(b"[" + b" " * (size - 2) + b"]")
            except OSError:  # refused before it was all sent: the answer says why
                pass
        # The answer's head, then as much body as it says: nginx keeps a refused upload's
        # connection open a while (lingering close) to read what the client goes on sending.
        got = b""
        while b"\r\n\r\n" not in got and (chunk := sock.recv(65536)):
            got += chunk
        head, _, body = got.partition(b"\r\n\r\n")
        length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
        while length and len(body) < int(length[1]) and (chunk := sock.recv(65536)):
            body += chunk
    return int(head.split()[1]), body


def test_a_body_over_nginxs_limit_is_refused_before_it_is_sent(proxied):
    """nginx's limit is the app's largest (a club's records file): a body claiming more gets
    nginx's 413 at once, and none of it reaches gunicorn."""
    _, nginx = proxied
    from scorekeeper.plumbing.bodies import MAX_UPLOAD

    status, body = body_of(nginx.port, MAX_UPLOAD + 1, send_body=False)
    assert status == 413 and b"nginx" in body, body[:300]


def test_a_body_the_app_refuses_unread_costs_nobody_else_a_request(proxied):
    """A body over the API's allowance (the app's 413, unread) and then someone else's new
    game, 20 times: every new game is saved. gunicorn reads at most 64 KB of a body the app
    left and closes the connection; nginx kept connections to gunicorn open (`keepalive`) and
    sent the next request on that closed one: 502 (5 of 20 in a trial)."""
    _, nginx = proxied
    from scorekeeper.plumbing.bodies import MAX_JSON_BODY

    refused, saved = [], []
    for _ in range(20):
        refused.append(body_of(nginx.port, MAX_JSON_BODY + 50_000, send_body=True))
        saved.append(call(nginx.port, "POST", "/api/v1/games", json_body=NEW_GAME).status)
    assert saved == [201] * 20, saved
    # The app itself refused them (its JSON 413), not nginx; nginx may answer the sender a 502
    # when gunicorn closed before the whole body was passed on, which costs only the sender.
    statuses = [status for status, _ in refused]
    assert set(statuses) <= {413, 502} and statuses.count(413) >= 10, statuses
    assert all(body.startswith(b"{") for status, body in refused if status == 413)


def logged(nginx: Nginx, marks: list[str]) -> str:
    """The access log once a line holding each of `marks` is in it (nginx writes a line after
    its answer has gone out, so a client can be told before the line is written)."""
    deadline = time.monotonic() + 5
    while True:
        log = nginx.access_log.read_text()
        missing = [mark for mark in marks if mark not in log]
        if not missing or time.monotonic() > deadline:
            assert not missing, f"no line in the access log for {missing}:\n{log[-3000:]}"
            return log
        time.sleep(0.05)


def test_the_access_log_blanks_secrets_however_the_path_spells_them(proxied):
    """/t/<secret> written as /%74/<secret>, /t/%67..., /t/%20<secret>, //t/<secret> or /T/, a table
    code behind /%74able/, and the same in a Referer: none of it reaches nginx's access log."""
    _, nginx = proxied
    game = new_game(nginx.port)
    secret = game.secret
    first = f"%{ord(secret[0]):02X}{secret[1:]}"  # its first letter percent-encoded
    code = secrets.token_urlsafe(12)
    night = secrets.token_urlsafe(16)
    paths = {
        f"/t/{secret}": 200,
        f"/%74/{secret}": 200,  # the app decodes the path: this is the game's own page
        f"/t/{first}": 200,
        f"/t/%20{secret}": 404,
        f"//t/{secret}/invite.svg": None,  # whatever the app makes of it, it is not logged
        f"/clubs/nobody/table/{code}": None,
        f"/clubs/nobody/%74able/{code}": None,
        f"/%54/{secret}": 404,  # /T/: no route of the app, and still no secret in the log
        # A night's read-only board link (issue 37) is a secret of the same kind: here one that
        # opens no night, and as a Referer below.
        f"/n/{night}": 404,
        f"/n/{night}/results": 404,
    }
    referers = [
        f"http://x/t/{secret}?a=%20",
        f"http://x/%74/{secret}",
        f"http://x/t/{first}",
        f"http://x/t/{secret[:3]}%{ord(secret[3]):02X}{secret[4:]}",
        f"http://x/clubs/nobody/%74able/{code}?a=1",
        f"http://x//clubs/nobody/table/{code}/",
        f"http://x/n/{night}",
    ]
    marks = [f"log-test-{n}" for n in range(len(paths))]
    for n, (path, expected) in enumerate(paths.items()):
        sent = {"Referer": referers[n % len(referers)], "User-Agent": marks[n]}
        reply = call(nginx.port, "GET", path, headers=sent)
        assert expected is None or reply.status == expected, (path, reply.status)
    log = logged(nginx, marks)
    # Without its first and last letters: no secret in part or whole, encoded or not.
    for hidden in (secret[1:-1], code[1:-1], night[1:-1]):
        assert hidden not in log, log[-3000:]
    # The blanked lines still say what was asked and how it went.
    assert '"GET /t/... HTTP/1.1" 200' in log
    assert '"http://x/..."' in log
