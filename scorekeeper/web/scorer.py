"""The phone's scorer: the game's rules and deals as JSON, for scoring as figures are typed."""

from __future__ import annotations

import json

from flask import Blueprint, current_app, g, request

from scorekeeper.plumbing.models import Game
from scorekeeper.services import scorer
from scorekeeper.services.queue_words import ON_THE_FORM
from scorekeeper.web.access import Level, game_or_404, require_game

bp = Blueprint("scorer", __name__)


def stated_json(game: Game) -> str:
    """What the phone's scorer is told of the game, as compact JSON."""
    return json.dumps(scorer.scorer_state(game), separators=(",", ":"))


@bp.app_template_global("scorer_stated")
def form_stated_json(game: Game) -> str:
    """The same, with only the queue's words a form says itself (queue_words.ON_THE_FORM).

    The deal and line forms carry it (their form's `data-stated`), so that the phone scores from
    the page's load, with no signal too, and a first visit needs no request of its own for it.
    """
    state = scorer.scorer_state(game)
    state["queue"] = {name: state["queue"][name] for name in ON_THE_FORM}
    return json.dumps(state, separators=(",", ":"))


@bp.get("/t/<secret>/scorer")
def state(game_id: int):
    """What static/scorer.js scores with; 304 while the game's live version stands."""
    game = game_or_404(game_id)
    require_game(game, Level.READ)
    # The live version moves on with every deal saved or corrected (docs/LIVE.md).
    etag = f"s{g.live_version}"
    # Weakly compared: a gzipped answer's tag is weak (plumbing/compress.py), and a browser
    # sends it back as it was given.
    if request.if_none_match.contains_weak(etag):
        response = current_app.response_class(status=304)
    else:
        body = stated_json(game)
        response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(etag)
    # Kept by the phone's worker for no signal (static/sw.js), asked again whenever shown.
    response.headers["Cache-Control"] = "private, no-cache"
    return response
