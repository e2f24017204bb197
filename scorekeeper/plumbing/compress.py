"""Lighter on the wire: gzip for pages, CSS, JS, JSON and SVG, so a phone on poor signal receives
a fifth of it; the app's own files sent without their comments and indentation, gzipped once at
the highest level; and each named by its version, so a browser keeps it for a year.

Versions: every address of a file in /static that the app gives out (`url_for("static", ...)`,
through `versioned`) carries `?v=` and the first digits of the SHA-256 of the file as served.
Asked for with the current version, a file is sent `immutable` for a year; asked for without
one, it is kept a few minutes; with any other (a page from before a release asking for its old
files), it is sent as it is now, to be asked for again next time. A file that names another of
the app's files writes a quoted name ending in `?v=` ("form.js?v=" in app.js, "/static/app.css?v="
in sw.js, "icon.svg?v=" in the manifest) and is served with that file's version filled in: its
own version then follows from the versions it names. Each version is worked out once per content
of the file, which is looked at (a `stat`) whenever an address is made, so a file changed on disk
gets a new version at once; every process works out the same versions from the same files.

gunicorn sends what the app gives it; a proxy in front may compress too, and then sees a
response already marked gzip and leaves it alone.

Brotli would save about another 15% on CSS and JS, but needs a compiled package (`brotli` on
PyPI) and the app depends on pure Python alone; gzip is what every browser accepts.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import os
import re
import stat
import zlib
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Any, NamedTuple

from flask import Flask, Response, current_app, request, session
from werkzeug.security import safe_join

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
# A body written as it is read (a club's records file, megabytes): packed at the fastest level,
# a third of level 6's CPU for a half larger file (11.5 MB of deals: 0.2 s and 2.2 MB, not
# 0.6 s and 1.5 MB), so the gzipped file costs the worker little more than the plain one.
STREAM_LEVEL = 1
# The app's own files are compressed once per version of the file, so the best level is free,
# and so is compressing a small one: it goes gzipped whenever that saves more than the header.
FILE_LEVEL = 9
GZIP_HEADER = len("Content-Encoding: gzip\r\n")
# A file asked for without a version (a page kept from before versions, a bookmark) is fresh in
# the browser's cache this long: the app's own pages name every file with its version.
STATIC_MAX_AGE = 600
# A file asked for with its current version never changes at that address.
IMMUTABLE = "public, max-age=31536000, immutable"
# A file asked for with a version it no longer has (a page from before a release, or, while
# servers are replaced one by one, a new page reaching a server with the old files): the file as
# it is now, which the browser must not keep under that address, but may check by its tag.
STALE = "no-cache"
# Hex digits of a version: 32 bits, ample for telling one file's versions apart.
VERSION_DIGITS = 8
# The worker's script, minified like the files in /static (web/live.py serves it from /sw.js).
WORKER_ENDPOINT = "live.service_worker"
WORKER_FILE = "sw.js"
MINIFIED = {"text/css", "text/javascript", "application/javascript", "application/manifest+json"}
# Where a file of the app's own names another by version: a quoted name, relative to /static
# (or under /static/), ending in `?v=`. The version is filled in as the file is served.
_NAMED = re.compile(r"""(["'])((?:/static/)?)([\w./-]+)\?v=\1""")


def configure(app: Flask) -> None:
    """Compress every eligible response for browsers that accept gzip; version /static's
    addresses."""
    app.after_request(compress)

    @app.url_defaults
    def versioned(endpoint: str, values: dict[str, Any]) -> None:
        """`url_for("static", filename=...)` gives the file's address with its version."""
        if endpoint == "static" and "v" not in values and app.static_folder:
            found = version(app.static_folder, values.get("filename", ""))
            if found:
                values["v"] = found


class Served(NamedTuple):
    """A file of the app's own as it goes out: minified, gzipped if worth it, its version."""

    body: bytes
    packed: bytes | None
    version: str


def version(folder: str, filename: str, chain: tuple[str, ...] = ()) -> str | None:
    """The version of a file in the static folder (None if there is no such file)."""
    served = _own(folder, filename, chain=chain)
    return served.version if served else None


def compress(response: Response) -> Response:
    """The response gzipped, when the browser accepts it and it is text worth the work.

    The app's own files (CSS, JS, the manifest, the worker) go minified whatever the browser
    accepts, so that the gzipped bytes always unpack to the bytes sent to any other browser.
    """
    if request.endpoint in ("static", WORKER_ENDPOINT) and response.status_code in (200, 304):
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
    if response.is_streamed:
        # Written as it is read (a club's records, issue 39): gzipped a piece at a time, never
        # gathered into one body.
        response.response = _gzipped(response.response)
        response.headers.pop("Content-Length", None)
        response.headers["Content-Encoding"] = "gzip"
        _weaken_etag(response)
        return response
    response.direct_passthrough = False
    body = response.get_data()
    if len(body) < SMALLEST:
        return response
    response.set_data(gzip.compress(body, LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    _weaken_etag(response)
    return response


def _gzipped(pieces: Iterable[str | bytes]) -> Iterator[bytes]:
    """A streamed body gzipped as it goes (one gzip member: the same bytes once unpacked)."""
    packer = zlib.compressobj(STREAM_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    try:
        for piece in pieces:
            packed = packer.compress(piece.encode() if isinstance(piece, str) else piece)
            if packed:
                yield packed
        yield packer.flush()
    finally:
        close = getattr(pieces, "close", None)
        if close is not None:
            close()  # the view's generator: its request context ends with it


def _accepts_gzip() -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def _weaken_etag(response: Response) -> None:
    etag, weak = response.get_etag()
    if etag and not weak:
        # The gzipped bytes differ from the file's: a strong tag would claim they are equal.
        response.set_etag(etag, weak=True)


def _own_file(response: Response) -> Response:
    """A file of the app's own: minified and gzipped once per version, tagged by its version.

    Sent from what `_own` makes of the file, whatever Flask answered: Flask's tag (the file's
    time and size) does not change when a file it names gets a new version, nor agree between
    servers. So Flask's own answer, a 304 included, is set aside and the version is the tag.
    """
    name = WORKER_FILE if request.endpoint == WORKER_ENDPOINT else request.view_args["filename"]
    served = _own(current_app.static_folder or "static", name)
    if served is None:
        return response
    # The same for every visitor: that a check before the view looked at the session (the
    # sign-in's, scorekeeper/__init__.py) must not add "Vary: Cookie", which would have the
    # browser ask for the file again whenever a page renews the session's cookie.
    if not session.modified:
        session.accessed = False
    close = getattr(response.response, "close", None)
    if close is not None:
        close()  # Flask's open file: the bytes come from `served`
    response.status_code = 200
    response.direct_passthrough = False
    if request.endpoint == "static":
        asked = request.args.get("v")
        if asked is None:
            response.headers["Cache-Control"] = f"max-age={STATIC_MAX_AGE}"
        else:
            response.headers["Cache-Control"] = IMMUTABLE if asked == served.version else STALE
    # Shown inline anyway; a byte range of the file would not match the minified bytes; and the
    # ETag alone tells a browser whether its copy is current. Bytes on every response saved.
    for needless in ("Content-Disposition", "Accept-Ranges", "Last-Modified", "Content-Range"):
        response.headers.pop(needless, None)
    packed = served.packed if request.method != "HEAD" and _accepts_gzip() else None
    if served.packed is not None:
        response.vary.add("Accept-Encoding")
    response.headers.pop("Content-Encoding", None)
    response.set_data(packed if packed is not None else served.body)
    response.set_etag(served.version, weak=packed is not None)
    if packed is not None:
        response.headers["Content-Encoding"] = "gzip"
    return response.make_conditional(request)


def _own(folder: str, filename: str, chain: tuple[str, ...] = ()) -> Served | None:
    """A file in the static folder as served, or None if there is none.

    Looked at on every call (one `stat`), worked on only when its content, or the version of a
    file it names, is new. `chain`: the files naming this one, not named back (no loop).
    """
    path = safe_join(folder, filename)
    if path is None:
        return None
    try:
        found = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(found.st_mode):
        return None
    raw = _read(path, found.st_mtime_ns, found.st_size)
    mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    named = tuple(
        (other, version(folder, other, (*chain, filename)))
        for other in (_names(raw) if _is_text(mimetype) else ())
        if other != filename and other not in chain
    )
    return _prepared(mimetype, raw, named)


def _is_text(mimetype: str) -> bool:
    return mimetype in KINDS or mimetype in MINIFIED


@lru_cache(maxsize=64)
def _read(path: str, mtime_ns: int, size: int) -> bytes:
    """The file's bytes, read once per time and size it has on disk."""
    with open(path, "rb") as file:
        return file.read()


@lru_cache(maxsize=64)
def _names(raw: bytes) -> tuple[str, ...]:
    """The app's files this one names by version (`"form.js?v="`), each once."""
    text = raw.decode("utf-8", "replace")
    return tuple(dict.fromkeys(found.group(3) for found in _NAMED.finditer(text)))


@lru_cache(maxsize=64)
def _prepared(mimetype: str, raw: bytes, named: tuple[tuple[str, str | None], ...]) -> Served:
    """The file minified, the versions it names filled in, and gzipped if that is worth it;
    once per file content and versions named."""
    if not _is_text(mimetype):
        return Served(raw, None, _digest(raw))
    text = raw.decode()
    versions = dict(named)
    if versions:

        def fill(found: re.Match) -> str:
            quote, under, name = found.groups()
            return f"{quote}{under}{name}?v={versions.get(name) or ''}{quote}"

        text = _NAMED.sub(fill, text)
    if mimetype == "text/css":
        text = minify_css(text)
    elif mimetype in ("text/javascript", "application/javascript"):
        text = minify_js(text)
    elif mimetype == "application/manifest+json":
        text = json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
    body = text.encode()
    packed = gzip.compress(body, FILE_LEVEL, mtime=0)
    if len(packed) + GZIP_HEADER >= len(body):
        packed = None
    return Served(body, packed, _digest(body))


def _digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:VERSION_DIGITS]


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
