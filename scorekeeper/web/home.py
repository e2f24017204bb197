"""The home page: start a game, and this phone's own games and clubs (nobody else's)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for

from scorekeeper.plumbing.security import never_keep
from scorekeeper.services import games
from scorekeeper.web.access import forget_my_games, known_clubs, my_games, organiser
from scorekeeper.web.forms import ActionForm

bp = Blueprint("home", __name__)
# The finished games the home page shows; the rest stay a link away on the phone that has it.
FINISHED_SHOWN = 10


@bp.get("/")
def index():
    """This phone's games in progress and recently finished, and its clubs."""
    if organiser() is not None:
        # It lists the clubs the organiser runs: not shown from the phone once signed out.
        never_keep()
    mine = [games.summary(g) for g in my_games()]
    return render_template(
        "home.html",
        my_clubs=known_clubs(),
        playing=[s for s in mine if not s.finished],
        finished=[s for s in mine if s.finished][:FINISHED_SHOWN],
        forget_form=ActionForm(),
    )


@bp.post("/my-games/forget")
def forget():
    """One tap: this phone forgets its games and table links (the games stay on the server)."""
    if ActionForm().validate_on_submit():
        forget_my_games()
        flash("This phone has forgotten its games. Each opens again from its link.")
    return redirect(url_for(".index"))
