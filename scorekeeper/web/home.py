"""The home page: start a game, games in progress, recently finished."""

from __future__ import annotations

from flask import Blueprint, render_template

from .. import games
from .access import known_clubs

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    """Games in progress and recently finished, newest first."""
    playing = games.recent_games(finished=False)
    finished = games.recent_games(finished=True, limit=10)
    return render_template(
        "home.html",
        my_clubs=known_clubs(),
        playing=[games.summary(g) for g in playing],
        finished=[games.summary(g) for g in finished],
    )
