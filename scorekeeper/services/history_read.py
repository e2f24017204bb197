"""Each deal's history and agreement as answers and records read them (issue 40): the events of
a game's deals in the order they happened, one query for any range of deals.

Only reads: the events are written as deals are saved, corrected, agreed and queried
(`deal_history.py`, `agreement.py`) and as a club's records are imported
(`records_import/history.py`).
A phone's device id is never handed on from here: it identifies a phone, not a person.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import DealEvent, Game
from scorekeeper.plumbing.models.history import (
    AGREED,
    CORRECTION,
    IMPORT,
    LINES,
    QUERIED,
    WHOLE,
)
from scorekeeper.services.agreement import DealAgreement, agreement_from
from scorekeeper.services.deal_history import BY_ORGANISER, in_utc

# Every kind of event, in the order a deal's life goes through them.
KINDS = (WHOLE, LINES, CORRECTION, IMPORT, AGREED, QUERIED)


@dataclass(frozen=True)
class Event:
    """One event of a deal as shown outside the app: no row id, no device."""

    deal: int
    version: int
    kind: str
    side: int | None
    by: str
    organiser: bool  # an organiser signed in, not a table's phone
    at: datetime
    reason: str | None
    before: list[dict[str, Any]] | None
    after: list[dict[str, Any]] | None


@dataclass(frozen=True)
class DealRecord:
    """A deal's history in order, and each side's agreement on it as it stands."""

    events: list[Event]
    agreement: DealAgreement


def as_event(row: DealEvent) -> Event:
    """A stored event as shown, without its id or device."""
    return Event(
        deal=row.deal_number,
        version=row.deal_version,
        kind=row.kind,
        side=row.side_position,
        by=row.by,
        organiser=row.device == BY_ORGANISER,
        at=in_utc(row.at),
        reason=row.reason,
        before=row.before,
        after=row.after,
    )


def deal_records(game: Game, first: int = 1, last: int | None = None) -> dict[int, DealRecord]:
    """Each saved deal from `first` to `last` (all by default): its history and agreement, by
    deal number; one query."""
    count = len(game.deals)
    first = max(1, first)
    last = count if last is None else min(last, count)
    if first > last:
        return {}
    rows = list(
        db.session.execute(
            select(DealEvent)
            .where(
                DealEvent.game_id == game.id,
                DealEvent.deal_number >= first,
                DealEvent.deal_number <= last,
            )
            .order_by(DealEvent.id)
        ).scalars()
    )
    deals = game.deals[first - 1 : last]
    agreements = agreement_from(deals, len(game.sides), rows)
    events: dict[int, list[Event]] = {deal.number: [] for deal in deals}
    for row in rows:
        events.setdefault(row.deal_number, []).append(as_event(row))
    return {
        agreement.number: DealRecord(events.get(agreement.number, []), agreement)
        for agreement in agreements
    }
