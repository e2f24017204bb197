"""Access logs never hold a game's secret or a club's table code (issue 14)."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

from gunicorn.config import Config

from scorekeeper.logs import RedactingLogger, redact

SECRET = "kRHwYNHHKmYXenLppg4Mpg"
CODE = "Zx9-long-table-code-0123456789"


def test_redact_blanks_links_and_codes_and_nothing_else():
    assert redact(f"GET /t/{SECRET}/deals/new HTTP/1.1") == "GET /t/…/deals/new HTTP/1.1"
    assert redact(f"/clubs/tuesday/table/{CODE}") == "/clubs/tuesday/table/…"
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
    assert 'logger_class = "scorekeeper.logs.RedactingLogger"' in settings
