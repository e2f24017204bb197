"""Access logs that never hold a secret: game links and table codes are blanked before writing.

A game's secret (`/t/<secret>`), a night's board link (`/n/<secret>`) and a club's table code
(`/clubs/<slug>/table/<code>`) travel in URL paths, so any access log would keep every table's
key to its game. gunicorn writes its
access log through `RedactingLogger` (named in gunicorn.conf.py); a proxy in front of the app
must be told the same (README, production).

A path is judged as the app routes it, decoded: `/%74/<secret>`, `/t/%67...` and
`/t/%20<secret>` open (or name) a game as `/t/<secret>` does, so they are blanked the same.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from gunicorn.glogging import Logger

# Matched on the decoded path. A secret is the whole path segment after /t/ (whatever it holds,
# spaces included: /t/%20<secret> is still the secret), and letters in any case (/%54/ is /T/).
SECRETS_IN_PATHS = (
    (re.compile(r"(/t/)[^/?#]+", re.IGNORECASE), r"\1…"),
    # A night's read-only board link (issue 37): a secret of the same kind.
    (re.compile(r"(/n/)[^/?#]+", re.IGNORECASE), r"\1…"),
    (re.compile(r"(/clubs/[^/?#]+/table/)[^/?#]+", re.IGNORECASE), r"\1…"),
)
# A path written encoded twice (/%2574/...) reads as /%74/... to the app, and as /t/... to a
# proxy that decodes it once more before passing it on: decoded until it stops changing, this
# many times at most (each decoding only shortens the text).
MOST_DECODINGS = 4
# One path or URL in a line of text: a request line, a Referer, a Location. Written encoded,
# a path holds no whitespace, so it ends at the first.
WORD = re.compile(r"\S+")
# The atoms gunicorn fills with a path already decoded (PATH_INFO): it may hold spaces, and is
# judged whole rather than word by word.
DECODED_PATHS = ("U", "{path_info}e")
# Request and response headers a log format may name that carry a secret outright (the session
# cookie holds the phone's game links and table links, signed but readable).
SECRET_HEADERS = ("{x-game-key}i", "{x-table-code}i", "{cookie}i", "{set-cookie}o")


def decoded(path: str) -> str:
    """The path with its %-escapes undone, as many times as they nest."""
    for _ in range(MOST_DECODINGS):
        once = unquote(path)
        if once == path:
            break
        path = once
    return path


def redact_path(path: str) -> str:
    """One path (or URL) with its secrets blanked: as written if it holds none, else decoded."""
    plain = decoded(path)
    blanked = plain
    for pattern, replacement in SECRETS_IN_PATHS:
        blanked = pattern.sub(replacement, blanked)
    return path if blanked == plain else blanked


def redact(text: str) -> str:
    """The text with every game secret and table code in it blanked, however it is encoded."""
    return WORD.sub(lambda word: redact_path(word.group()), text)


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
