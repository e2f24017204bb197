"""Lighter on the wire: gzip for pages, CSS, JS, JSON and SVG, so a phone on poor signal receives
a fifth of it; the app's own CSS, JS and manifest sent without their comments and indentation,
gzipped once at the highest level; and kept by the browser for a few minutes.

gunicorn sends what the app gives it; a proxy in front may compress too, and then sees a
response already marked gzip and leaves it alone.

Brotli would save about another 15% on CSS and JS, but needs a compiled package (`brotli` on
PyPI) and the app depends on pure Python alone; gzip is what every browser accepts.
"""

from __future__ import annotations

import gzip
import json
import re
from functools import lru_cache

from flask import Flask, Response, request

# Text worth compressing; images other than SVG and fonts are compressed already.
KINDS = {
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/problem+json",
    "image/svg+xml",
    "text/csv",
    "text/plain",
}
SMALLEST = 1024  # below this, gzip's header and the CPU cost more than they save
LEVEL = 6
# The app's own files are compressed once per version of the file, so the best level is free.
FILE_LEVEL = 9
# The app's files in /static (their addresses carry no version) are fresh in the browser's
# cache this long. Two requests for one file at the same moment are then one fetch: a page's
# icon and the same icon named by the manifest, which Chrome fetches while the page loads.
# After an update a phone may use the old CSS or JS this long (its service worker keeps the
# files, refreshed behind each use, in any case).
STATIC_MAX_AGE = 600
# The worker's script, minified like the files in /static (web/live.py serves it from /sw.js).
WORKER_ENDPOINT = "live.service_worker"
MINIFIED = {"text/css", "text/javascript", "application/javascript", "application/manifest+json"}


def configure(app: Flask) -> None:
    """Compress every eligible response for browsers that accept gzip."""
    app.after_request(compress)


def compress(response: Response) -> Response:
    """The response gzipped, when the browser accepts it and it is text worth the work.

    The app's own files (CSS, JS, the manifest, the worker) go minified whatever the browser
    accepts, so that the gzipped bytes always unpack to the bytes sent to any other browser.
    """
    own_file = request.endpoint in ("static", WORKER_ENDPOINT) and response.status_code == 200
    if own_file:
        return _own_file(response)
    if (
        response.status_code in (204, 206, 304)
        or response.status_code < 200
        or response.mimetype not in KINDS
        or "Content-Encoding" in response.headers
        or not _accepts_gzip()
        or request.method == "HEAD"
    ):
        return response
    response.vary.add("Accept-Encoding")
    response.direct_passthrough = False
    body = response.get_data()
    if len(body) < SMALLEST:
        return response
    response.set_data(gzip.compress(body, LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    _weaken_etag(response)
    return response


def _accepts_gzip() -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def _weaken_etag(response: Response) -> None:
    etag, weak = response.get_etag()
    if etag and not weak:
        # The gzipped bytes differ from the file's: a strong tag would claim they are equal.
        response.set_etag(etag, weak=True)


def _own_file(response: Response) -> Response:
    """A file of the app's own: minified and gzipped once per version, kept a while."""
    if request.endpoint == "static" and response.cache_control.max_age is None:
        response.cache_control.no_cache = None
        response.cache_control.max_age = STATIC_MAX_AGE
    # Shown inline anyway; a byte range of the file would not match the minified bytes; and the
    # ETag alone tells a browser whether its copy is current. Bytes on every response saved.
    for needless in ("Content-Disposition", "Accept-Ranges", "Last-Modified"):
        response.headers.pop(needless, None)
    text = response.mimetype in KINDS or response.mimetype in MINIFIED
    if not text or "Content-Encoding" in response.headers:
        return response
    response.vary.add("Accept-Encoding")
    response.direct_passthrough = False  # read the file to work on it
    etag, _ = response.get_etag()
    body, packed = _prepared(response.mimetype, request.path, etag or "", response.get_data())
    if packed is None or request.method == "HEAD" or not _accepts_gzip():
        response.set_data(body)
        return response
    response.set_data(packed)
    response.headers["Content-Encoding"] = "gzip"
    _weaken_etag(response)
    return response


@lru_cache(maxsize=64)
def _prepared(mimetype: str, path: str, etag: str, body: bytes) -> tuple[bytes, bytes | None]:
    """The file minified, and gzipped if that is worth it; once per file version (its tag).

    `path` and `etag` only key the cache; `body` is the file as stored.
    """
    if mimetype == "text/css":
        body = minify_css(body.decode()).encode()
    elif mimetype in ("text/javascript", "application/javascript"):
        body = minify_js(body.decode()).encode()
    elif mimetype == "application/manifest+json":
        body = json.dumps(json.loads(body), separators=(",", ":"), ensure_ascii=False).encode()
    if len(body) < SMALLEST:
        return body, None
    return body, gzip.compress(body, FILE_LEVEL, mtime=0)


# ------------------------------------------------------------------------- minifying
#
# Deliberately plain: comments and the whitespace around punctuation go, nothing is renamed or
# rewritten, and strings stay exactly as written. What the app's files need, no more.

_STRING = re.compile(r"""("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")


def minify_css(text: str) -> str:
    """CSS without comments, line breaks, or spaces around `{ } ; , >` and after `:`."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    pieces = _STRING.split(text)  # odd pieces are strings, kept as they are
    for i in range(0, len(pieces), 2):
        piece = re.sub(r"\s+", " ", pieces[i])
        piece = re.sub(r"\s*([{};,>])\s*", r"\1", piece)
        pieces[i] = re.sub(r":\s+", ":", piece).replace(";}", "}")
    return "".join(pieces).strip() + "\n"


def minify_js(text: str) -> str:
    """JavaScript without whole-line `//` comments, blank lines and indentation.

    Line breaks stay (no semicolon is ever inferred differently), and a line is only touched
    at its ends, so no string or regular expression inside one can change. The app's scripts
    write no string across lines (a template literal that did would lose its indentation).
    """
    lines = (line.strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//")) + "\n"
