"""Secrets blanked from a line of text before any log keeps it: the one home of the rules.

A game's secret (`/t/<secret>`), a night's board link (`/n/<secret>`) and a club's table code
(`/clubs/<slug>/table/<code>`) travel in URL paths, so any log line naming a request would keep
every table's key to its game. gunicorn's logs (`logs.RedactingLogger`), the app's own and
nginx's error log (`nginx_errors`, on the proxy host) are all written through these rules.

A path is judged as a server routes it, decoded and tidied: `/%74/<secret>`, `/t/%67...`,
`/t/%20<secret>`, `//t/<secret>` and `/x/../t/<secret>` open (or name) a game as `/t/<secret>`
does, so they are blanked the same. The standard library only: nginx's error log is written
on the proxy host, which need not have the app's packages installed.
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote

# Matched on the decoded path. A secret is the whole path segment after /t/ (whatever it holds,
# spaces included: /t/%20<secret> is still the secret), and letters in any case (/%54/ is /T/).
# Slashes may be doubled: a server merges them (nginx, Werkzeug's redirect) before routing.
# A quote and comma closing the word (an error line's `upstream: "http://.../t/<secret>",`) are
# kept: never part of a secret.
SEGMENT = r"[^/?#]+?(?=[/?#]|\"?,?$)"
SECRETS_IN_PATHS = (
    (re.compile(r"(/+t/+)" + SEGMENT, re.IGNORECASE), r"\1…"),
    # A night's read-only board link (issue 37): a secret of the same kind.
    (re.compile(r"(/+n/+)" + SEGMENT, re.IGNORECASE), r"\1…"),
    (re.compile(r"(/+clubs/+[^/?#]+/+table/+)" + SEGMENT, re.IGNORECASE), r"\1…"),
)
# A path written encoded twice (/%2574/...) reads as /%74/... to the app, and as /t/... to a
# proxy that decodes it once more before passing it on: decoded until it stops changing, this
# many times at most (each decoding only shortens the text).
MOST_DECODINGS = 4
# One path or URL in a line of text: a request line, a Referer, a Location. Written encoded,
# a path holds no whitespace, so it ends at the first.
WORD = re.compile(r"\S+")
# Headers that carry a secret outright, as a server's error line may quote them (nginx:
# `client sent invalid header line: "X-Game-Key: ..."`): their value is blanked wherever named.
# The session cookie holds the phone's game links and table links, signed but readable.
SECRET_HEADER = re.compile(
    r"\b(x-game-key|x-table-code|cookie|set-cookie|authorization|proxy-authorization)"
    r"(\s*[:=]\s*)[^\"\r\n]*",
    re.IGNORECASE,
)
# nginx quotes a header line it refuses, name and value: the value may be any header's.
HEADER_LINE = re.compile(r"(header line: \"[^\":\s]*:?)[^\"]*", re.IGNORECASE)


def decoded(path: str) -> str:
    """The path with its %-escapes undone, as many times as they nest."""
    for _ in range(MOST_DECODINGS):
        once = unquote(path)
        if once == path:
            break
        path = once
    return path


def tidied(text: str) -> str:
    """The path (or URL) with its `.` and `..` segments resolved, as a server routes it."""
    cut = min((at for at in (text.find("?"), text.find("#")) if at >= 0), default=len(text))
    kept: list[str] = []
    for part in text[:cut].split("/"):
        if part == ".":
            continue
        if part == "..":
            if len(kept) > 1:  # never past the start (nor a URL's scheme)
                kept.pop()
            continue
        kept.append(part)
    return "/".join(kept) + text[cut:]


def redact_path(path: str) -> str:
    """One path (or URL) with its secrets blanked: as written if it holds none, else decoded."""
    plain = tidied(decoded(path))
    blanked = plain
    for pattern, replacement in SECRETS_IN_PATHS:
        blanked = pattern.sub(replacement, blanked)
    return path if blanked == plain else blanked


def redact(text: str) -> str:
    """The text with every game secret and table code in it blanked, however it is encoded."""
    return WORD.sub(lambda word: redact_path(word.group()), text)


def redact_line(text: str) -> str:
    """A whole error line (or traceback): its paths, and the values of secret headers, blanked."""
    text = HEADER_LINE.sub(r"\1 …", redact(text))
    return SECRET_HEADER.sub(r"\1\2…", text)


class RedactingFormatter(logging.Formatter):
    """Another formatter's lines, tracebacks included, with their secrets blanked.

    gunicorn's error log names the request it failed on (`Error handling request /t/...`,
    `Invalid request from ip=...: Invalid Request Line 'GET /t/...'`).
    """

    def __init__(self, inner: logging.Formatter | None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        """The inner formatter's line, blanked."""
        return redact_line(self.inner.format(record))


class SecretsFilter(logging.Filter):
    """Blanks a record's message and traceback before any handler formats it (the app's log:
    Flask names the path of a request that failed, `Exception on /t/... [POST]`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Always kept; its message, arguments and traceback blanked in place."""
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # arguments that do not fit: left out, unjudged
            message = f"{record.msg} (its arguments did not fit)"
        record.msg = redact_line(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_line(record.exc_text)
        if record.stack_info:
            record.stack_info = redact_line(record.stack_info)
        return True


def keep_secrets_out(logger: logging.Logger) -> None:
    """Blank every record the logger or its handlers see (the app's log: `create_app`)."""
    for guarded in (logger, *logger.handlers):
        if not any(isinstance(one, SecretsFilter) for one in guarded.filters):
            guarded.addFilter(SecretsFilter())
