"""Helpers shared by the tests of services/deals.py (test_deals*.py): figures, games, readers."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from scorekeeper.plumbing.models import Deal, DealPart, DealScore, Game, Side
from scorekeeper.services import games
from scorekeeper.services.access import Level
from scorekeeper.services.deals import Saved

from ._support import ANN_AND_CAT, TEAMS, kept

TABLE, ORGANISER = Level.TABLE, Level.ORGANISER
BOTH_OUT = {"books": {"clean": 2, "dirty": 2}, "went_out": True}
# Ten thousand: 3×500 + 300 + 6×1500 + 100 for going out is 10,900, past the target at once.
PAST_TEN_THOUSAND = {"books": {"clean": 3, "dirty": 1, "wild": 6}, "went_out": True}


def fresh_game(ruleset: str = "club", **more) -> Game:
    sides = ANN_AND_CAT if ruleset == "club" else TEAMS
    return games.start_game(ruleset, sides, **more)


def saved(outcome) -> Deal:
    assert isinstance(outcome, Saved), outcome
    return outcome.deal


def deals_kept() -> list[tuple]:
    """Each deal kept: (number, version, each side's entry and total in order)."""
    rows = kept(
        select(Deal.number, Deal.version, DealScore.entry, DealScore.total)
        .join(DealScore.deal)
        .order_by(Deal.number, DealScore.side_position)
    )
    found: dict[int, tuple] = {}
    for number, version, entry, total in rows:
        found.setdefault(number, (number, version))
        found[number] += ((entry, total),)
    return list(found.values())


def totals_kept() -> list[int]:
    return [total for (total,) in kept(select(Side.final_total).order_by(Side.id))]


def refused_as(outcome) -> list[tuple]:
    """A refusal's reasons as (side, field, message)."""
    return [(r.side, r.field, r.message) for r in outcome.refusals]


def line_of(game: Game, side: int, number: int, version: int = 1) -> DealPart:
    """A side's own line of a deal, as a phone would have sent it."""
    return DealPart(
        game_id=game.id,
        side_position=side,
        deal_number=number,
        entry={},
        sent_by="Cat",
        entered_at=datetime(2025, 3, 4, 12, tzinfo=UTC),
        version=version,
    )
