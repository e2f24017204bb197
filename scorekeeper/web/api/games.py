"""Starting a game and reading it."""

from __future__ import annotations

from typing import Any

from flask import abort, request, url_for

from scorekeeper.plumbing.models import Club, SavedRules
from scorekeeper.rules import Refusal
from scorekeeper.rules.terms import DEALS_PER_PAGE
from scorekeeper.services import clubs, creations, games, links
from scorekeeper.web.access import Level, club_level, game_or_404, require, require_game
from scorekeeper.web.api.answer_base import answered
from scorekeeper.web.api.game_requests import GAME_BODY, GameSetup, ref
from scorekeeper.web.api.modelled import Unfit, read, said
from scorekeeper.web.api.operations import (
    A_GAME,
    DEALS_FROM,
    GAME_NOT_FOUND,
    POINTERS,
    TABLE_CODE,
    TOO_MANY,
    TOO_MANY_GAMES,
    answer,
    errors,
    route,
)
from scorekeeper.web.api.reading import body, deals_from
from scorekeeper.web.api.refusals import refused
from scorekeeper.web.api.state import game_state, new_game
from scorekeeper.web.creating import too_many
from scorekeeper.web.sharing import base_url

STARTED = answer(
    ref("NewGame"),
    "Started: the game's state, its secret (`key`, for X-Game-Key) and its private link in "
    "full (`link`), to share with the table",
    Location="The game's address in this API",
)
CANNOT_START = errors(
    "The game cannot start as asked: each error names the side (null for the game as a whole), "
    "the figure and why. A saved_rules that is not the club's, or sent without club, or with a "
    f"ruleset or rules of its own (/saved_rules, /ruleset, /rules). {POINTERS}: /sides/1/name, "
    "/decks, /ruleset, /sides, /rules/going_out_bonus, /rules/opening_minimums/0 (a house "
    "rule's points off the multiples of 5, decks too few to deal every hand and foot)."
)


@route(
    "POST",
    "/games",
    "startGame",
    "Start a game",
    parameters=(TABLE_CODE,),
    body="GameSetup",
    answers={
        "201": STARTED,
        "403": errors(
            "A public club's game: starting one needs the club's table code (X-Table-Code)"
        ),
        "404": errors("No club with that slug, or a private club's game without its X-Table-Code"),
        "422": CANNOT_START,
        "429": TOO_MANY_GAMES,
    },
)
def create_game():
    """Start a game: 201 with its state, 422 naming what is wrong, or 429 past the address's
    allowance of new games (creations.py)."""
    data = body()
    try:
        setup = read(GameSetup, data, sides="sides")
        sides = [games.SideSetup(side.name, side.players) for side in setup.sides]
        club = _club_for_game(setup.club)
        saved = _saved_for_game(data, setup.saved_rules, club)
        if saved is not None:
            key, house_rules = saved.ruleset, dict(saved.house_rules)
        elif setup.ruleset is None:
            raise Unfit([Refusal(None, "ruleset", said(GameSetup, "ruleset"))])
        else:
            key, house_rules = setup.ruleset, setup.rules or None
        game = games.start_game(
            key,
            sides,
            setup.decks,
            house_rules,
            club,
            saved_rules=saved,
            by_table_link=club is not None and club_level(club) < Level.ORGANISER,
            made_from=request.remote_addr,  # counted inside, with the game (creations.py)
        )
    except creations.OverAllowance as over:
        return too_many(over.too_many)
    except (Unfit, games.GameRefused) as exc:
        return refused(exc.refusals, into=GAME_BODY, sent=data)
    # The secret is told once, to whoever started the game: it is what every later request needs.
    response = answered(new_game(game, links.link_of(game, base_url())))
    response.headers["Location"] = url_for(".game", game_id=game.id)
    return response, 201


def _club_for_game(slug: Any) -> Club | None:
    """The club a new game belongs to: the table link's code must come with it."""
    if slug is None:
        return None
    club = clubs.club_by_slug(slug) if isinstance(slug, str) else None
    if club is None:
        abort(404)
    require(club, Level.TABLE)
    return club


def _saved_for_game(
    data: dict[str, Any], asked: int | None, club: Club | None
) -> SavedRules | None:
    """The club's saved rule set a new game starts from (`saved_rules`), or None if not asked.

    `ruleset` and `rules` may then be left out; given, they must be the saved rule set's.
    """
    if asked is None:
        return None
    saved = clubs.saved_rules(club, asked) if club is not None else None
    if saved is None:
        message = (
            f"The club has no saved rule set {asked}."
            if club is not None
            else "A saved rule set is a club's: send `club` (and X-Table-Code) with it."
        )
        raise games.GameRefused([Refusal(None, "saved_rules", message)])
    refusals = []
    if "ruleset" in data and data["ruleset"] != saved.ruleset:
        message = f"{saved.name} is based on '{saved.ruleset}': leave ruleset out, or send that."
        refusals.append(Refusal(None, "ruleset", message))
    rules = data.get("rules")
    if rules is not None and not (
        isinstance(rules, dict) and games.same_rules(saved, saved.ruleset, rules)
    ):
        message = f"These rules are not {saved.name}'s: leave rules out, or send its own."
        refusals.append(Refusal(None, "rules", message))
    if refusals:
        raise games.GameRefused(refusals)
    return saved


@route(
    "GET",
    "/games/<int:game_id>",
    "getGame",
    "A game's state",
    parameters=(*A_GAME, DEALS_FROM),
    answers={
        "200": answer(
            ref("GameState"),
            f"The game's state: its totals, and at most {DEALS_PER_PAGE} of its deals from "
            "deals_from",
        ),
        "404": errors(GAME_NOT_FOUND),
        "422": errors("deals_from is not a deal number from 1 (inputs: [])"),
        "429": TOO_MANY,
    },
)
def game(game_id: int):
    """The game's state."""
    game = game_or_404(game_id)
    require_game(game, Level.READ)
    return answered(game_state(game, deals_from=deals_from()))
