"""Access logs that never hold a secret: game links and table codes are blanked before writing.

A game's secret (`/t/<secret>`) and a club's table code (`/clubs/<slug>/table/<code>`) travel
in URL paths, so any access log would keep every table's key to its game. gunicorn writes its
access log through `RedactingLogger` (named in gunicorn.conf.py); a proxy in front of the app
must be told the same (README, production).
"""

from __future__ import annotations

import re
from typing import Any

from gunicorn.glogging import Logger

SECRETS_IN_PATHS = (
    (re.compile(r"(/t/)[A-Za-z0-9_-]+"), r"\1…"),
    (re.compile(r"(/clubs/[^/\s?]+/table/)[^/\s?]+"), r"\1…"),
)
# Request headers a log format may name that carry a secret outright.
SECRET_HEADERS = ("{x-game-key}i", "{x-table-code}i", "{cookie}i")


def redact(text: str) -> str:
    """The text with every game secret and table code in it blanked."""
    for pattern, replacement in SECRETS_IN_PATHS:
        text = pattern.sub(replacement, text)
    return text


class RedactingLogger(Logger):
    """gunicorn's logger, writing paths, request lines and referrers without their secrets."""

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> dict:
        """The values a log line is made of, secrets blanked."""
        atoms = super().atoms(resp, req, environ, request_time)
        for name, value in list(atoms.items()):
            if isinstance(value, str):
                atoms[name] = redact(value)
        for name in SECRET_HEADERS:
            if name in atoms:
                atoms[name] = "…"
        return atoms
