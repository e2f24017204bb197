"""A link as the pages share it: a game's, and a club's table link.

The address phones reach this server at; what the scoreboard shows under "Invite the table"
(the game's link, and the address of its QR code, which web/invite.py serves); the club's
table link as its settings and printed table card show it (web/clubs/table_card.py); and the
QR code of either, drawn here on the server. Every blueprint that names a game's or a club's
link, or draws its code, asks here.
"""

from __future__ import annotations

import functools
import hashlib
import io
from dataclasses import dataclass

import segno
from flask import Response, current_app, request, url_for

from scorekeeper.plumbing.models import Club, Game
from scorekeeper.plumbing.security import DATA_CONTENT_SECURITY_POLICY
from scorekeeper.services import links

LABEL = "QR code of this game's private link"
TABLE_LABEL = "QR code of the club's table link"
# The <img>'s width and height: the code's shape, so that its place is kept while it loads and
# nothing moves (app.css widens it to the column, up to 15rem).
SIZE = 240
# Modules of light around the code, as the QR standard asks: a camera finds it on any page.
QUIET_ZONE = 4


@dataclass(frozen=True)
class Invitation:
    """What the scoreboard shows under "Invite the table", and the club's settings of its
    table link: the link, and the address of its QR code."""

    link: str
    qr_url: str
    qr_size: int = SIZE
    qr_label: str = LABEL


def base_url() -> str:
    """The address phones reach this server at: PUBLIC_URL if the operator set it, else the
    address this request came to."""
    return current_app.config.get("PUBLIC_URL") or request.host_url


def invitation(game: Game) -> Invitation:
    """The game's link and the address of its QR code."""
    return Invitation(
        links.link_of(game, base_url()), url_for("invite.qr_code", secret=game.secret)
    )


def table_invitation(club: Club) -> Invitation:
    """The club's table link in full, and the address of its QR code (organisers only: the
    address names the code, so a new link is a new picture)."""
    path = url_for("clubs.table_link", slug=club.slug, code=club.table_code)
    qr_url = url_for("clubs.table_qr", slug=club.slug, code=club.table_code)
    return Invitation(base_url().rstrip("/") + path, qr_url, qr_label=TABLE_LABEL)


def qr_picture(text: str, label: str) -> Response:
    """The QR code of `text` as an answer of its own, tagged; its caching is the caller's."""
    svg = qr_svg(text, label)
    response = Response(svg, mimetype="image/svg+xml")
    # Opened on its own in a tab it is a document: it may load and run nothing, as an API answer.
    response.headers["Content-Security-Policy"] = DATA_CONTENT_SECURITY_POLICY
    response.set_etag(hashlib.sha256(svg).hexdigest()[:32])
    return response


# Drawing a code takes about 5 ms and a link seldom changes: each process remembers the codes
# it drew lately (a pure function of the link; nothing a table shares lives here).
@functools.lru_cache(maxsize=512)
def qr_svg(text: str, label: str = LABEL) -> bytes:
    """A QR code of `text` as an SVG file: black on its own white ground, whatever the page
    behind it (night mode included), with its quiet zone; about 2 KB for a link."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        xmldecl=False,
        svgns=True,
        nl=False,
        omitsize=True,  # its size is the page's <img width height>
        border=QUIET_ZONE,
        dark="#000",
        light="#fff",
        title=label,
        svgclass=None,
        lineclass=None,
    )
    return out.getvalue()
