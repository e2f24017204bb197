"""Logs that never hold a secret: game links and table codes are blanked before writing.

A game's secret (`/t/<secret>`), a night's board link (`/n/<secret>`) and a club's table code
(`/clubs/<slug>/table/<code>`) travel in URL paths, so any log would keep every table's key to
its game. gunicorn writes its access log and its error log through `RedactingLogger` (named in
gunicorn.conf.py); the app's own log and nginx's error log are blanked by the same rules, in
`redaction.py` (which imports no gunicorn: it is optional).
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from scorekeeper.plumbing.redaction import (
    RedactingFormatter,
    decoded,
    redact,
    redact_line,
    redact_path,
)

__all__ = ["RedactingLogger", "decoded", "redact", "redact_line", "redact_path"]

# The atoms gunicorn fills with a path already decoded (PATH_INFO): it may hold spaces, and is
# judged whole rather than word by word.
DECODED_PATHS = ("U", "{path_info}e")
# Request and response headers a log format may name that carry a secret outright (the session
# cookie holds the phone's game links and table links, signed but readable).
SECRET_HEADERS = ("{x-game-key}i", "{x-table-code}i", "{cookie}i", "{set-cookie}o")


class RedactingLogger(Logger):
    """gunicorn's logger, writing paths, request lines and referrers without their secrets."""

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict:
        """The values a log line is made of, secrets blanked."""
        atoms = super().atoms(resp, req, environ, request_time)
        for name, value in list(atoms.items()):
            if isinstance(value, str):
                atoms[name] = redact_path(value) if name in DECODED_PATHS else redact(value)
        for name in SECRET_HEADERS:
            if name in atoms:
                atoms[name] = "…"
        return atoms

    def setup(self, cfg: Any) -> None:
        """gunicorn's handlers, each writing through a `RedactingFormatter` (also on reload)."""
        super().setup(cfg)
        for handler in self.error_log.handlers:
            if not isinstance(handler.formatter, RedactingFormatter):
                handler.setFormatter(RedactingFormatter(handler.formatter))
