"""A game's state as the API answers it (the GameState schema of answers.py)."""

from __future__ import annotations

from typing import Any

from flask import request, url_for

from scorekeeper.plumbing.models import Game
from scorekeeper.rules.terms import DEALS_PER_PAGE
from scorekeeper.services import game_view, history_read, links
from scorekeeper.web.api.figures import Unfit
from scorekeeper.web.api.history_answers import deal_agreement, deal_history
from scorekeeper.web.api.refusals import stop
from scorekeeper.web.api.shapes import GAME_QUERY


def deals_from() -> int:
    """The first deal the game JSON lists (`?deals_from=`, 1 by default); 422 if not a number."""
    try:
        return GAME_QUERY.read(request.args, "deals_from")
    except Unfit as exc:
        stop(exc.refusals)


def _dealer(dealer: game_view.Dealer) -> dict[str, Any]:
    """Who deals a deal: the seat's number (from 0), its side and its player."""
    return {"seat": dealer.seat, "side": dealer.side, "player": dealer.player}


def game_state(game: Game, deals_from: int = 1) -> dict[str, Any]:
    """The game as the JSON API shows it: its totals, and DEALS_PER_PAGE deals from `deals_from`."""
    view = game_view.game_view(game)
    total = len(view.entries)
    last = deals_from - 1 + DEALS_PER_PAGE
    following = url_for(".game", game_id=game.id, deals_from=last + 1) if last < total else None
    # Each listed deal's history and agreement (issue 40): one query for the page's deals.
    records = history_read.deal_records(game, deals_from, last)
    names = [side.name for side in view.sides]
    return {
        "id": game.id,
        "url": links.path_of(game),
        "ruleset": game.ruleset,
        "house_rules": game.house_rules or {},
        # The club's saved rule set the game started from, as it is called now; and its name
        # when the game started (kept if the saved rule set is renamed or deleted since).
        "saved_rules": (
            {"id": game.saved_rules.id, "name": game.saved_rules.name}
            if game.saved_rules is not None
            else None
        ),
        "rules_name": game.rules_name,
        # The rules in force: the preset with the house rules applied.
        "rules": view.rules.to_dict(),
        "decks": view.decks,
        "finished": view.finished,
        "winners": [side.name for side in view.winners],
        # None when no deal can be entered: the game is over, or holds its most deals.
        "next_deal": view.next_deal,
        "deal_limit": view.rules.deal_limit,
        "deal_limit_reached": view.deal_limit_reached,
        # Who sits where (partners apart) and who deals: the deal passes to the left.
        "first_dealer": view.first_dealer,
        "seats": [{"side": seat.side, "player": seat.player} for seat in view.seats],
        "next_dealer": None if view.next_dealer is None else _dealer(view.next_dealer),
        "sides": [
            {
                "name": side.name,
                "players": side.players,
                "total": total,
                "next_opening_minimum": minimum,
                # v1's first name for it: in sides, the minimum for the next deal.
                "opening_minimum": minimum,
            }
            for side, total, minimum in zip(
                view.sides, view.totals, view.next_minimums, strict=True
            )
        ],
        "deals": [
            {
                "number": deal.number,
                "version": deal.version,
                "dealer": _dealer(deal.dealer),
                "warnings": deal.warnings,
                "scores": [
                    {
                        "side": side.name,
                        "total": score.total,
                        "running_total": running,
                        "minimum_applied": minimum,
                        # v1's first name for it: in a deal, the minimum that applied.
                        "opening_minimum": minimum,
                        "breakdown": score.breakdown(),
                        "entry": entry,
                    }
                    for side, score, running, minimum, entry in zip(
                        view.sides,
                        deal.scores,
                        deal.totals,
                        deal.minimums,
                        deal.entries,
                        strict=True,
                    )
                ],
                "history": deal_history(records[deal.number]),
                "agreement": deal_agreement(records[deal.number].agreement, names),
            }
            for deal in view.deals(deals_from, last)
        ],
        "deals_total": total,
        "deals_from": deals_from,
        "next": following,
        # Each side's own line of the next deal, as sent so far (none once no deal can be added).
        "parts": [line.as_json() for line in view.lines],
        # The table's next game (Play again): whoever reads this game holds its link already.
        "next_game": (
            {
                "id": view.next_game.id,
                "url": view.next_game.path,
                "started_by": view.next_game.started_by,
            }
            if view.next_game is not None
            else None
        ),
    }
