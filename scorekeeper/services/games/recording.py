"""A whole game recorded at once (an import, the demo club), and a game deleted for good."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Deal, DealScore, Game, SavedRules
from scorekeeper.rules import DealEntry, DealRefused
from scorekeeper.services import figures
from scorekeeper.services.games.replay import finished_when, rules_of, sides_of
from scorekeeper.services.games.starting import SideSetup, now, start_game
from scorekeeper.services.ratings import kept


def record_game(
    ruleset_key: str,
    sides: Sequence[SideSetup],
    deals: Sequence[Sequence[DealEntry]],
    *,
    decks: int | None = None,
    house_rules: dict[str, Any] | None = None,
    club: Club | None = None,
    played_on: date | None = None,
    commit: bool = True,
    saved_rules: SavedRules | None = None,
    rules_name: str | None = None,
) -> Game:
    """A whole game with all its deals at once (an import, the demo club), checked by the engine.

    Raises GameRefused for the setup and DealRefused for a deal, before anything is saved.
    `rules_name` names its rules where no saved rule set matches (a name from an import file).
    """
    game = start_game(
        ruleset_key,
        sides,
        decks,
        house_rules,
        club,
        played_on,
        commit=False,
        saved_rules=saved_rules,
    )
    game.rules_name = rules_name or game.rules_name
    try:
        progress = engine.play(rules_of(game), game.decks, sides_of(game), deals)
    except DealRefused:
        db.session.expunge(game)
        raise
    for number, entries in enumerate(deals, start=1):
        deal = Deal(number=number, version=1)
        game.deals.append(deal)
        for side, entry, score in zip(
            game.sides, entries, progress.deals[number - 1].scores, strict=True
        ):
            deal.scores.append(
                DealScore(
                    side=side,
                    side_position=side.position,
                    entry=entry.to_dict(),
                    total=score.total,
                )
            )
    figures.keep_side_figures(game, progress, deals)
    game.finished_at = finished_when(game, progress, now())
    if commit:
        db.session.commit()
    return game


def delete_game(game: Game) -> None:
    """Remove a game and its deals for good (an organiser's decision)."""
    club_id, day = game.club_id, game.played_on
    kept.game_deleting(game)
    db.session.delete(game)
    if club_id is not None:
        figures.refresh_member_days(club_id, [day])
    db.session.commit()
