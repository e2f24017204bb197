"""nginx running the shipped site (docs/deploy/nginx.conf) for the proxy tests, as this user.

nginx runs the shipped site with only what a test must change: its ports and log paths, the
app's address in `upstream`, the error log's socket, and no TLS (`shipped_site` says each
change and fails if the file no longer has the line it changes). Its error lines go, as
shipped, to scorekeeper/plumbing/nginx_errors.py (`ErrorSink`), run as a process of its own.
nginx runs in the foreground with every file it writes in a temporary folder: no root, no
system service. Skipped where nginx is not installed, except under REQUIRE_BROWSER=1 (CI).
"""

from __future__ import annotations

import grp
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ._server import HOST, ROOT, Gunicorn, free_port
from .test_hardening_server import SHIPPED, server

# The site under test: the shipped one, unless NGINX_SITE names another file (to watch these
# tests fail on an older site: its upstream must then be `server 127.0.0.1:8000;`).
SITE = Path(os.environ.get("NGINX_SITE") or ROOT / "docs" / "deploy" / "nginx.conf")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
# The error log's socket as shipped (scorekeeper-nginx-errors.service makes it).
SHIPPED_SOCKET = "/run/scorekeeper-nginx/errors.sock"


def find_nginx() -> str:
    """The nginx program; skipped where it is missing, unless CI demands it."""
    if not os.access(NGINX, os.X_OK):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"nginx not found at {NGINX}: apt-get install nginx")
        pytest.skip("nginx not installed (apt-get install nginx): the proxy tests are skipped")
    return NGINX


def shipped_site(
    app_port: int,
    port: int,
    redirect_port: int,
    folder: Path,
    changes: tuple[tuple[str, str, int], ...] = (),
) -> str:
    """docs/deploy/nginx.conf with only a test's changes: ports, paths, no TLS, and `changes`.

    Each change names the line it replaces and how many times the file has it, so a change to
    the shipped file that a test cannot follow fails here rather than testing something else.
    """
    text = SITE.read_text()
    every = [
        # The app: gunicorn on this machine, on the test's port (nothing else about it changes).
        (r"server 127\.0\.0\.1:8000;", f"server {HOST}:{app_port};", 1),
        # Plain HTTP: a free port on loopback rather than port 80 (root only), no IPv6.
        (r"listen 80;", f"listen {HOST}:{redirect_port};", 1),
        (r"\n *listen \[::\]:80;", "", 1),
        # HTTPS without TLS: the same server block on a free port, the certificate's lines out.
        (r"listen 443 ssl http2;", f"listen {HOST}:{port};", 1),
        (r"\n *listen \[::\]:443 ssl http2;", "", 1),
        (r"\n *ssl_[a-z_]+ [^;]+;", "", 6),
        # Logs, the error log's socket and the ACME folder in the test's folder.
        (r"/var/log/nginx/scorekeeper\.access\.log", str(folder / "access.log"), 2),
        (re.escape(SHIPPED_SOCKET), str(folder / "errors.sock"), 2),
        (r"root /var/www/html;", f"root {folder};", 1),
        *changes,
    ]
    for pattern, replacement, times in every:
        text, made = re.subn(pattern, replacement, text)
        assert made == times, f"{SITE.name}: {pattern!r} found {made} times, not {times}"
    return text


def main_config(folder: Path, site: Path) -> str:
    """What Debian's /etc/nginx/nginx.conf would be, in `folder`: the site in its http block.

    nginx's own error log (Debian's /var/log/nginx/error.log) is here error.log, at `info`,
    so that a test sees whatever reaches it.
    """
    # As root, workers would otherwise run as nobody and could not write the body files here,
    # nor send to the error log's socket.
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


class ErrorSink:
    """scorekeeper/plumbing/nginx_errors.py as the service runs it: python3 -m, from the
    checkout, with no site-packages (-S: the proxy host needs none of the app's packages)."""

    def __init__(self, folder: Path) -> None:
        self.socket = folder / "errors.sock"
        self.log = folder / "scorekeeper.error.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, wait: float = 10.0) -> ErrorSink:
        self.socket.unlink(missing_ok=True)
        command = [sys.executable, "-S", "-m", "scorekeeper.plumbing.nginx_errors"]
        self.proc = subprocess.Popen(
            [*command, str(self.socket), str(self.log)], cwd=ROOT, start_new_session=True
        )
        deadline = time.monotonic() + wait
        while not self.socket.exists():
            assert self.proc.poll() is None, "nginx_errors exited at start"
            assert time.monotonic() < deadline, "nginx_errors made no socket"
            time.sleep(0.05)
        return self

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


class Nginx:
    """nginx in the foreground with the shipped site, in front of gunicorn on `app_port`, its
    error lines written by an `ErrorSink`."""

    def __init__(
        self,
        binary: str,
        folder: Path,
        app_port: int,
        changes: tuple[tuple[str, str, int], ...] = (),
    ) -> None:
        self.folder = folder
        self.port = free_port()
        self.redirect_port = free_port()
        site = folder / "scorekeeper.conf"
        site.write_text(shipped_site(app_port, self.port, self.redirect_port, folder, changes))
        self.config = folder / "nginx.conf"
        self.config.write_text(main_config(folder, site))
        self.access_log = folder / "access.log"
        self.error_log = folder / "error.log"
        self.sink = ErrorSink(folder)
        self.command = [binary, "-p", str(folder), "-c", str(self.config)]
        self.command += ["-e", str(self.error_log)]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, wait: float = 10.0) -> Nginx:
        checked = subprocess.run([*self.command, "-t"], capture_output=True, text=True)
        assert checked.returncode == 0, f"nginx -t refused the shipped site:\n{checked.stderr}"
        self.sink.start()
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
        """nginx's own error log (Debian's /var/log/nginx/error.log)."""
        return self.error_log.read_text(errors="replace") if self.error_log.exists() else ""

    def stop(self) -> None:
        """Fast stop (SIGTERM) of the master, which takes its worker with it; SIGKILL if not."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.sink.stop()


def proxied_app(binary: str, folder: Path) -> Iterator[tuple[Gunicorn, Nginx]]:
    """gunicorn with the shipped gunicorn.conf.py, behind nginx with the shipped site."""
    gunicorn = server(folder, SHIPPED)
    # As the README runs it behind a proxy on this machine (SCOREKEEPER_PROXY_FROM's default).
    gunicorn.env["SCOREKEEPER_PROXIES"] = "1"
    nginx: Nginx | None = None
    try:
        gunicorn.init_db()
        gunicorn.start()
        nginx = Nginx(binary, folder, gunicorn.port).start()
        yield gunicorn, nginx
    finally:
        if nginx is not None:
            nginx.stop()
        gunicorn.stop()


def body_of(
    port: int,
    size: int,
    send_body: bool,
    path: str = "/api/v1/games",
    kind: str = "application/json",
    chunked: bool = False,
) -> tuple[int, bytes]:
    """POST a body of `size` bytes to `path` (or only its headers): the answer's status and
    body. `chunked`: sent in chunks with no Content-Length."""
    length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {kind}\r\n{length}\r\n"
    body = b"[" + b" " * (size - 2) + b"]" if kind == "application/json" else b"a" * size
    if chunked:
        body = b"".join(
            b"%x\r\n%s\r\n" % (len(body[at : at + 65536]), body[at : at + 65536])
            for at in range(0, len(body), 65536)
        )
        body += b"0\r\n\r\n"
    with socket.create_connection((HOST, port), timeout=30) as sock:
        sock.sendall((head + "Connection: close\r\n\r\n").encode())
        if send_body:
            try:
                sock.sendall(body)
            except OSError:  # refused before it was all sent: the answer says why
                pass
        # The answer's head, then as much body as it says: nginx keeps a refused upload's
        # connection open a while (lingering close) to read what the client goes on sending.
        got = b""
        while b"\r\n\r\n" not in got and (chunk := sock.recv(65536)):
            got += chunk
        head_got, _, answer = got.partition(b"\r\n\r\n")
        said = re.search(rb"(?im)^content-length:\s*(\d+)", head_got)
        while said and len(answer) < int(said[1]) and (chunk := sock.recv(65536)):
            answer += chunk
    return int(head_got.split()[1]), answer


def logged(path: Path, marks: list[str], seconds: float = 5) -> str:
    """The log at `path` once each of `marks` is in it, as many times as listed (nginx writes a
    line after its answer has gone out, so a client can be told before the line is written)."""
    deadline = time.monotonic() + seconds
    while True:
        log = path.read_text(errors="replace") if path.exists() else ""
        missing = [mark for mark in set(marks) if log.count(mark) < marks.count(mark)]
        if not missing or time.monotonic() > deadline:
            assert not missing, f"no line in {path.name} for {missing}:\n{log[-3000:]}"
            return log
        time.sleep(0.05)
