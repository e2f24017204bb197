"""A game's link as the pages share it: the address phones reach this server at, and what the
scoreboard shows under "Invite the table" (the link, and the address of its QR code, which
web/invite.py draws). Every blueprint that names a game's link asks here."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, request, url_for

from scorekeeper.plumbing.models import Game
from scorekeeper.services import links

LABEL = "QR code of this game's private link"
# The <img>'s width and height: the code's shape, so that its place is kept while it loads and
# nothing moves (app.css widens it to the column, up to 15rem).
SIZE = 240


@dataclass(frozen=True)
class Invitation:
    """What the scoreboard shows under "Invite the table"."""

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
