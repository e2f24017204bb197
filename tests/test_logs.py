"""Access logs never hold a game's secret or a club's table code (issue 14)."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

from gunicorn.config import Config

from scorekeeper.plumbing.logs import RedactingLogger, redact

SECRET = "kRHwYNHHKmYXenLppg4Mpg"
CODE = "Zx9-long-table-code-0123456789"


def test_redact_blanks_links_and_codes_and_nothing_else():
    assert redact(f"GET /t/{SECRET}/deals/new HTTP/1.1") == "GET /t/…/deals/new HTTP/1.1"
    assert redact(f"/clubs/tuesday/table/{CODE}") == "/clubs/tuesday/table/…"
    # A night's read-only board link (issue 37), and its results, are secrets of the same kind.
    assert redact(f"GET /n/{SECRET} HTTP/1.1") == "GET /n/… HTTP/1.1"
    assert redact(f"https://x.example/N/{SECRET}/results") == "https://x.example/N/…/results"
    assert redact("/clubs/tuesday/standings?season=all") == "/clubs/tuesday/standings?season=all"
    assert redact("/api/v1/games/12") == "/api/v1/games/12"


def test_the_access_log_line_holds_no_secret():
    logger = RedactingLogger(Config())
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/t/{SECRET}/live?device=abc",
        "PATH_INFO": f"/t/{SECRET}/live",
        "QUERY_STRING": "device=abc",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.0.2.1",
        "HTTP_REFERER": f"https://scores.example.org/clubs/tue/table/{CODE}",
    }
    request = SimpleNamespace(headers=[("X-GAME-KEY", SECRET), ("X-TABLE-CODE", CODE)])
    response = SimpleNamespace(status="200 OK", sent=12, headers=[])
    atoms = logger.atoms(response, request, environ, datetime.timedelta(milliseconds=3))
    line = logger.cfg.access_log_format % atoms
    everything = " ".join(str(v) for v in atoms.values())
    assert SECRET not in everything and CODE not in everything
    assert "/t/…/live" in line and "/table/…" in line
    assert atoms["{x-game-key}i"] == "…"


def test_the_shipped_gunicorn_settings_use_it():
    from pathlib import Path

    settings = (Path(__file__).resolve().parent.parent / "gunicorn.conf.py").read_text()
    assert 'logger_class = "scorekeeper.plumbing.logs.RedactingLogger"' in settings


# ------------------------------------------------- issue 26: secrets written percent-encoded


ENCODED_LINKS = [
    (f"/%74/{SECRET}", "/t/…"),  # /t/ with its t escaped
    (f"/t/%{ord(SECRET[0]):02x}{SECRET[1:]}", "/t/…"),  # the secret's first letter escaped
    (f"/t/%20{SECRET}", "/t/…"),  # a space before the secret
    (f"/%2574/{SECRET}/deals/new", "/t/…/deals/new"),  # escaped twice
    (f"/%54/{SECRET}", "/T/…"),  # a capital T: no route, but the secret is still the secret
    (f"/clubs/tue/table/%{ord(CODE[0]):02X}{CODE[1:]}", "/clubs/tue/table/…"),
    (f"/clubs/tue/%74able/{CODE}", "/clubs/tue/table/…"),
    (f"/login?next=%2Ft%2F{SECRET}", "/login?next=/t/…"),
]


def test_redact_judges_the_decoded_path():
    """Each way of writing a secret a server decodes to /t/<secret> is blanked in a log line."""
    for written, blanked in ENCODED_LINKS:
        assert redact(f"GET {written} HTTP/1.1") == f"GET {blanked} HTTP/1.1", written
        assert redact(f"https://scores.example.org{written}") == (
            f"https://scores.example.org{blanked}"
        ), written


def test_an_escape_with_no_secret_behind_it_is_logged_as_sent():
    """Only a path holding a secret is rewritten: any other keeps its escapes, for debugging."""
    for path in ("/clubs/caf%C3%A9/standings", "/games/new?name=A%20B", "/%74ables"):
        assert redact(f"GET {path} HTTP/1.1") == f"GET {path} HTTP/1.1"


def test_the_access_log_line_holds_no_secret_written_encoded():
    """gunicorn's request line (raw), its PATH_INFO (decoded: a space in it) and the Referer."""
    logger = RedactingLogger(Config())
    for written, _ in ENCODED_LINKS:
        environ = {
            "REQUEST_METHOD": "GET",
            "RAW_URI": written,
            "PATH_INFO": decoded_path(written),
            "QUERY_STRING": "",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "192.0.2.1",
            "HTTP_REFERER": f"https://scores.example.org{written}",
        }
        request = SimpleNamespace(headers=[])
        response = SimpleNamespace(
            status="302 FOUND",
            sent=0,
            headers=[("Location", written), ("Set-Cookie", f"session={SECRET}")],
        )
        atoms = logger.atoms(response, request, environ, datetime.timedelta(milliseconds=3))
        everything = " ".join(str(v) for v in atoms.values())
        assert SECRET not in everything and CODE not in everything, written
        assert SECRET[1:] not in everything and CODE[1:] not in everything, written


def decoded_path(raw: str) -> str:
    """PATH_INFO as gunicorn fills it: the path before any ?, decoded once."""
    from urllib.parse import unquote

    return unquote(raw.split("?", 1)[0])
