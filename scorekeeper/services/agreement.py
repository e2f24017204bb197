"""Whether each side has agreed each deal of a game (issue 40), read from the deal's history.

A side agrees a deal by sending its own line of it, or with one tap on its phone afterwards; it
may query it instead. An agreement or a query holds for the deal's version it was given on: a
correction asks every side again. A deal with no history at all (kept before history was, or
imported without it) counts as agreed: nobody was asked.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealEvent, Game
from scorekeeper.plumbing.models.history import AGREED, QUERIED

# A side's state on one deal.
AGREES = "agreed"
QUERIES = "queried"
WAITING = "waiting"


@dataclass(frozen=True)
class Query:
    """A side's query of a deal: who asked, and their words (if any)."""

    side: int
    by: str
    reason: str | None


@dataclass(frozen=True)
class DealAgreement:
    """Each side's state on one deal as it stands (its current version)."""

    number: int
    version: int
    sides: tuple[str, ...]
    queries: tuple[Query, ...] = ()

    @property
    def agreed(self) -> bool:
        """Every side has agreed this deal as it stands."""
        return all(state == AGREES for state in self.sides)

    def waiting(self) -> list[int]:
        """The sides (positions) not yet asked to agree or query, or not yet answering."""
        return [side for side, state in enumerate(self.sides) if state == WAITING]


def agreement_of(game: Game) -> list[DealAgreement]:
    """Each deal's agreement, in deal order: one query of the game's history."""
    events = db.session.execute(
        select(DealEvent).where(DealEvent.game_id == game.id).order_by(DealEvent.id)
    ).scalars()
    return agreement_from(game.deals, len(game.sides), events)


def agreement_from(
    deals: Iterable[Deal], sides: int, events: Iterable[DealEvent]
) -> list[DealAgreement]:
    """Each deal's agreement from its history as read (events in the order they happened)."""
    by_deal: dict[int, list[DealEvent]] = {}
    for event in events:
        by_deal.setdefault(event.deal_number, []).append(event)
    answers = []
    for deal in deals:
        history = by_deal.get(deal.number, [])
        if not history:
            answers.append(DealAgreement(deal.number, deal.version, (AGREES,) * sides))
            continue
        states = [WAITING] * sides
        queries: dict[int, Query] = {}
        for event in history:
            if event.deal_version != deal.version or event.side_position is None:
                continue
            if not 0 <= event.side_position < sides:
                continue
            if event.kind == AGREED:
                states[event.side_position] = AGREES
                queries.pop(event.side_position, None)
            elif event.kind == QUERIED:
                states[event.side_position] = QUERIES
                queries[event.side_position] = Query(event.side_position, event.by, event.reason)
        answers.append(
            DealAgreement(deal.number, deal.version, tuple(states), tuple(queries.values()))
        )
    return answers


def all_agreed(game: Game) -> bool:
    """Every side has agreed every deal of the game as it stands."""
    return all(deal.agreed for deal in agreement_of(game))
