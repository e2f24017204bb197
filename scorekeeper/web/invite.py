"""Invite the table: the game's private link in full, and the same link as a QR code (SVG).

The QR code is drawn on the server (web/sharing.py), so no phone asks another site for it. It
is a picture of its own (`/t/<secret>/invite.svg`), not part of the scoreboard: the page names
it in a lazy `<img>` inside the closed *Invite the table*, so a phone fetches it only when that
is opened (at once on a new game, where it starts open). Most visits never open it (issue 18).
"""

from __future__ import annotations

from flask import Blueprint, request

from scorekeeper.services import links
from scorekeeper.web.access import Level, game_or_404, require_game
from scorekeeper.web.sharing import LABEL, base_url, qr_picture

bp = Blueprint("invite", __name__)

# The picture shows a private link: kept by this phone's browser alone (never a shared cache),
# a few minutes, then asked again with its tag. A game's link changes only with its secret, and
# then so does the picture's address.
MAX_AGE = 600


@bp.get("/t/<secret>/invite.svg")
def qr_code(game_id: int):
    """The game's private link as a QR code, for exactly those who may see its scoreboard.

    The secret has already been turned into the game's id (`access.open_game_link`, or a 404);
    then the scoreboard's own check: a club game needs the club's table link (or an organiser),
    unless the club's standings are public.
    """
    game = game_or_404(game_id)
    require_game(game, Level.READ)
    # Drawn by web/sharing.qr_svg, as the club's table link is (web/clubs/table_card.py).
    response = qr_picture(links.link_of(game, base_url()), LABEL)
    response.cache_control.private = True
    response.cache_control.max_age = MAX_AGE
    return response.make_conditional(request)
