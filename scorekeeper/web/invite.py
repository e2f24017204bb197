"""Invite the table: the game's private link in full, and the same link as a QR code (SVG).

The QR code is drawn here on the server, so no phone asks another site for it. It is a picture
of its own (`/t/<secret>/invite.svg`), not part of the scoreboard: the page names it in a lazy
`<img>` inside the closed *Invite the table*, so a phone fetches it only when that is opened
(at once on a new game, where it starts open). Most visits never open it (issue 18).
"""

from __future__ import annotations

import functools
import hashlib
import io

import segno
from flask import Blueprint, Response, request

from scorekeeper.plumbing.security import DATA_CONTENT_SECURITY_POLICY
from scorekeeper.services import links
from scorekeeper.web.access import Level, game_or_404, require_game
from scorekeeper.web.sharing import LABEL, base_url

bp = Blueprint("invite", __name__)

# The picture shows a private link: kept by this phone's browser alone (never a shared cache),
# a few minutes, then asked again with its tag. A game's link changes only with its secret, and
# then so does the picture's address.
MAX_AGE = 600
# Modules of light around the code, as the QR standard asks: a camera finds it on any page.
QUIET_ZONE = 4


@bp.get("/t/<secret>/invite.svg")
def qr_code(game_id: int):
    """The game's private link as a QR code, for exactly those who may see its scoreboard.

    The secret has already been turned into the game's id (`access.open_game_link`, or a 404);
    then the scoreboard's own check: a club game needs the club's table link (or an organiser),
    unless the club's standings are public.
    """
    game = game_or_404(game_id)
    require_game(game, Level.READ)
    svg = qr_svg(links.link_of(game, base_url()))
    response = Response(svg, mimetype="image/svg+xml")
    response.cache_control.private = True
    response.cache_control.max_age = MAX_AGE
    # Opened on its own in a tab it is a document: it may load and run nothing, as an API answer.
    response.headers["Content-Security-Policy"] = DATA_CONTENT_SECURITY_POLICY
    response.set_etag(hashlib.sha256(svg).hexdigest()[:32])
    return response.make_conditional(request)


# Drawing a code takes about 5 ms and a game's link never changes: each process remembers
# the codes it drew lately (a pure function of the link; nothing a table shares lives here).
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
