"""gzip for pages, CSS, JS, JSON and SVG, so a phone on poor signal receives a fifth of it.

gunicorn sends what the app gives it; a proxy in front may compress too, and then sees a
response already marked gzip and leaves it alone.
"""

from __future__ import annotations

import gzip

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


def configure(app: Flask) -> None:
    """Compress every eligible response for browsers that accept gzip."""
    app.after_request(compress)


def compress(response: Response) -> Response:
    """The response gzipped, when the browser accepts it and it is text worth the work."""
    if (
        response.status_code in (204, 206, 304)
        or response.status_code < 200
        or response.mimetype not in KINDS
        or "Content-Encoding" in response.headers
        or "gzip" not in request.headers.get("Accept-Encoding", "").lower()
        or request.method == "HEAD"
    ):
        return response
    response.vary.add("Accept-Encoding")
    response.direct_passthrough = False  # static files: read the file to compress it
    body = response.get_data()
    if len(body) < SMALLEST:
        return response
    response.set_data(gzip.compress(body, LEVEL, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:
        # The gzipped bytes differ from the file's: a strong tag would claim they are equal.
        response.set_etag(etag, weak=True)
    return response
