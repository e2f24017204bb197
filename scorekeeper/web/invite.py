"""Invite the table: the game's private link in full, and the same link as a QR code (SVG).

The QR code is drawn here on the server, so no phone asks another site for it.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass

import segno
from flask import current_app, request
from markupsafe import Markup, escape

from .. import links
from ..models import Game


@dataclass(frozen=True)
class Invitation:
    """What the scoreboard shows under "Invite the table"."""

    link: str
    qr_svg: Markup


def base_url() -> str:
    """The address phones reach this server at: PUBLIC_URL if the operator set it, else the
    address this request came to."""
    return current_app.config.get("PUBLIC_URL") or request.host_url


def invitation(game: Game) -> Invitation:
    """The game's link and its QR code."""
    link = links.link_of(game, base_url())
    return Invitation(link, qr_svg(link, "QR code of this game's private link"))


# Drawing a code takes about 5 ms and a game's link never changes: each process remembers
# the codes it drew lately (a pure function of the link; nothing a table shares lives here).
@functools.lru_cache(maxsize=512)
def qr_svg(text: str, label: str) -> Markup:
    """A QR code of `text` as inline SVG: one path, about 2 KB for a link."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=True, nl=False, omitsize=True, border=2)
    svg = out.getvalue().decode()
    # A picture with a name for screen readers, scaled by the page's CSS.
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)
    svg = svg.replace(' class="segno"', ' class="qr"', 1)
    return Markup(svg)
