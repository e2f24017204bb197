"""Rule cards: every number of a rule set, on one phone screen."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from scorekeeper import rules as engine
from scorekeeper.rules.terms import PLAYER_COUNTS
from scorekeeper.services import games
from scorekeeper.web.access import Level, game_or_404, require_game

bp = Blueprint("rulecards", __name__)


@bp.get("/rules")
def index():
    """The six presets, each a tap from its rule card."""
    return render_template("rulesets.html", presets=engine.PRESETS.values())


@bp.get("/rules/<key>")
def card(key: str):
    """One preset's rule card."""
    if key not in engine.PRESETS:
        abort(404)
    return render_template("rule_card.html", rules=engine.PRESETS[key], players=PLAYER_COUNTS)


@bp.get("/t/<secret>/rules")
def game_card(game_id: int):
    """The rule card a game is played by, house rules included."""
    game = game_or_404(game_id)
    require_game(game, Level.READ)
    return render_template(
        "rule_card.html",
        rules=games.rules_of(game),
        preset=engine.PRESETS[game.ruleset],
        players=PLAYER_COUNTS,
        game=game,
        club=game.club,
        changed=games.changed_rules(game),
    )
