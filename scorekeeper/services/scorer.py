"""What a phone needs to score this game itself, with or without signal (static/scorer.js)."""

from __future__ import annotations

from typing import Any

from scorekeeper.plumbing.models import Game
from scorekeeper.rules.stated import stated
from scorekeeper.services.game_view import game_view
from scorekeeper.services.queue_words import QUEUE_WORDS


def scorer_state(game: Game) -> dict[str, Any]:
    """The game's rules as the engine states them, its sides, table and every saved deal.

    The phone replays the saved deals and any waiting on it with the engine's functions, so its
    running totals, opening minimums and winner are the server's own until the server says
    otherwise (docs/LIVE.md, *Where each figure is computed*). The server replays nothing here.
    """
    view = game_view(game)
    return {
        **stated(view.rules),
        # What the phone says of the deals waiting on it to be sent.
        "queue": QUEUE_WORDS,
        "game": {
            "sides": [
                {"name": side.name, "players": max(1, len(side.players))} for side in view.sides
            ],
            "decks": view.decks,
            # Who sits where (partners apart), and who dealt first: the deal passes to the left.
            "table": [seat.player for seat in view.seats],
            "first_dealer": view.first_dealer,
            # Every saved deal's entries as entered, in deal and side order.
            "deals": view.entries,
        },
    }
