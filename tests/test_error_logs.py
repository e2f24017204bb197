"""Error logs never hold a secret either (issue 39): nginx's error lines, gunicorn's error log and
the app's own log are blanked by the rules the access logs follow (plumbing/redaction.py)."""

from __future__ import annotations

import io
import logging

from gunicorn.config import Config
from sqlalchemy import text

from scorekeeper.plumbing import bodies
from scorekeeper.plumbing.logs import RedactingLogger
from scorekeeper.plumbing.nginx_errors import line_of
from scorekeeper.plumbing.redaction import redact_line

SECRET = "kRHwYNHHKmYXenLppg4Mpg"
CODE = "Zx9-long-table-code-0123456789"
# nginx's line as it reaches the socket (docs/deploy/nginx.conf: nohostname, tag=nginx).
NGINX_LINE = (
    "<187>Dec  2 09:51:32 nginx: 2026/12/02 09:51:32 [error] 8392#8392: *1 upstream timed out "
    "(110: Connection timed out) while reading response header from upstream, client: "
    '192.0.2.1, server: scores.example.org, request: "POST /t/{s}/deals/new HTTP/1.1", '
    'upstream: "http://192.0.2.11:8000/t/{s}/deals/new", host: "scores.example.org", '
    'referrer: "https://scores.example.org/clubs/tue/table/{c}"'
)


def test_an_nginx_error_line_keeps_what_failed_and_loses_the_secrets():
    line = line_of(NGINX_LINE.format(s=SECRET, c=CODE).encode())
    assert line == (
        "2026/12/02 09:51:32 [error] 8392#8392: *1 upstream timed out (110: Connection timed "
        "out) while reading response header from upstream, client: 192.0.2.1, server: "
        'scores.example.org, request: "POST /t/…/deals/new HTTP/1.1", upstream: '
        '"http://192.0.2.11:8000/t/…/deals/new", host: "scores.example.org", referrer: '
        '"https://scores.example.org/clubs/tue/table/…"'
    )


def test_every_spelling_of_a_secret_in_an_error_line_is_blanked():
    """Encoded, with doubled slashes or dot segments, or in a header nginx quotes."""
    spellings = [
        f"/%74/{SECRET}",
        f"//t/{SECRET}",
        f"/t//{SECRET}",
        f"/t/./{SECRET}",
        f"/x/../t/{SECRET}",
        f"/t/%2e/{SECRET}",
        f"/%2574/{SECRET}",
        f"/T/%20{SECRET}",
        f"/n/{SECRET}/results",
        f"/clubs/tue/%74able/{CODE}",
    ]
    for path in spellings:
        line = redact_line(f'request: "GET {path} HTTP/1.1", referrer: "https://x{path}"')
        assert SECRET[1:-1] not in line and CODE[1:-1] not in line, path
    for header in (f"X-Game-Key: {SECRET}", f"x-table-code:{CODE}", f"Cookie: session={SECRET}"):
        line = redact_line(f'client sent invalid header line: "{header}" while reading')
        assert SECRET[1:-1] not in line and CODE[1:-1] not in line, header
    # Nothing else is touched: a line with no secret reads as nginx wrote it.
    plain = 'request: "GET /clubs/caf%C3%A9/standings HTTP/1.1", upstream: "http://a:8000/"'
    assert redact_line(plain) == plain


def test_gunicorns_error_log_names_a_failed_request_without_its_secret(tmp_path):
    """gunicorn logs `Error handling request /t/<secret>` and a refused request line."""
    config = Config()
    config.set("errorlog", str(tmp_path / "error.log"))
    logger = RedactingLogger(config)
    try:
        raise ValueError(f"while reading /t/{SECRET}/live")
    except ValueError:
        logger.exception("Error handling request %s", f"/t/{SECRET}/deals/new")
    logger.warning(f"Invalid request from ip=192.0.2.1: Invalid Request Line 'GET /t/{SECRET}'")
    logger.reopen_files()  # flushed
    written = (tmp_path / "error.log").read_text()
    assert SECRET not in written
    assert "Error handling request /t/…/deals/new" in written
    assert "ValueError: while reading /t/…/live" in written  # the traceback, blanked too
    # A reload sets the handlers up again: still blanked.
    logger.setup(config)
    logger.error("again /t/%s", SECRET)
    logger.reopen_files()
    assert SECRET not in (tmp_path / "error.log").read_text()


def test_the_apps_log_blanks_secrets_and_hides_sql_values(app, caplog, monkeypatch):
    """A crash on a statement that looked up a secret: the log says what failed, neither the
    secret it was given nor the path's."""
    from scorekeeper.plumbing.db import db
    from scorekeeper.web import home

    def broken(*args, **kwargs):
        db.session.execute(
            text("SELECT no_such_column FROM games WHERE secret = :s"), {"s": SECRET}
        )

    monkeypatch.setattr(home, "my_games", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    with caplog.at_level(logging.ERROR):
        assert app.test_client().get("/").status_code == 500
        app.logger.error("Exception on /t/%s [POST]", SECRET)
    logged = caplog.text + "".join(str(record.exc_text) for record in caplog.records)
    assert "Unhandled error" in logged and "no_such_column" in logged
    assert "Exception on /t/… [POST]" in logged
    assert SECRET not in logged


def test_a_refused_body_is_read_to_its_end_before_the_answer():
    """So gunicorn does not close the connection on a body the proxy is still sending."""
    sent = io.BytesIO(b"x" * 300_000)
    bodies.drain({"CONTENT_LENGTH": "300000", "wsgi.input": sent, "wsgi.input_terminated": True})
    assert sent.tell() == 300_000
    # Past what any proxy in front lets through: left alone (the connection is closed on it).
    sent = io.BytesIO(b"x" * 10)
    bodies.drain({"CONTENT_LENGTH": str(bodies.MOST_DRAINED + 1), "wsgi.input": sent})
    assert sent.tell() == 0
