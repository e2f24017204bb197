"""A club night's movement cards (issue 37): a card per player (each round's table, partner and
opponents) and a card per table, to print and cut, when a schedule says the seating in advance.

Seen as the night's page is (organisers and the table link: Level.TABLE); it names no game's
link, but no phone keeps it either, as no page of a night is kept.
"""

from __future__ import annotations

from flask import abort, g, render_template

from scorekeeper.plumbing.models import Night
from scorekeeper.services.nights import cards as night_cards
from scorekeeper.services.nights import play as night_play
from scorekeeper.web.access import Level
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.nights import bp


@bp.get("/clubs/<slug>/nights/<int:night_id>/cards")
def night_cards_page(slug: str, night_id: int):
    """The night's movement cards, or why there are none (a seating drawn round by round)."""
    club, _ = club_or_404(slug, Level.TABLE)
    g.public_club_page = False
    night = night_play.night_of(club, night_id)
    if night is None:
        abort(404)
    cards = night_cards.movement_cards(night)
    return render_template("clubs/night_cards.html", club=club, night=night, cards=cards)


@bp.app_template_global()
def has_movement_cards(night: Night) -> bool:
    """Whether the night's page links to its movement cards (templates/clubs/_night_cards_link)."""
    return night_cards.has_cards(night)
