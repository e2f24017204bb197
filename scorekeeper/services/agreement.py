"""Whether each side has agreed each deal of a game (issue 40), read from the deal's history.

A side agrees a deal by sending its own line of it, or with one tap on its phone afterwards; it
may query it instead. An agreement or a query holds for the deal's version it was given on: a
correction asks every side again. A deal with no history at all (kept before history was, or
imported without it) counts as agreed: nobody was asked.

A side's phones agree or query with `agree` and `query` (one outcome each); what a phone is
asked and what the table and a club's organiser are told: agreement_shown.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealEvent, Game
from scorekeeper.plumbing.models.history import AGREED, CORRECTION, LINES, QUERIED, WHOLE
from scorekeeper.rules import Refusal
from scorekeeper.services import access, table_news
from scorekeeper.services.access import Level
from scorekeeper.services.deal_outcomes import NoSuchDeal, NotAllowed, Refused
from scorekeeper.services.names import cleaned, phone_name

# A phone's id, as a form's key is made (deals.FORM_KEY): kept with what it said.
DEVICE = re.compile(r"[0-9a-f]{32}")

# What asks every side to agree the deal as it then stands.
ASKING = frozenset({WHOLE, LINES, CORRECTION})
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
        # Only a deal entered or corrected as it stands asks the sides; one kept before history
        # was, or imported without its asking, counts as agreed (a query still shows).
        asked = any(e.kind in ASKING and e.deal_version == deal.version for e in history)
        if not history:
            answers.append(DealAgreement(deal.number, deal.version, (AGREES,) * sides))
            continue
        states = [WAITING if asked else AGREES] * sides
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


# --- a side agrees or queries a deal from its phone ------------------------------------------

# The most characters of a query's words kept: a sentence or two, said to the table.
MOST_REASON = 300


@dataclass(frozen=True)
class Answered:
    """The side's agreement or query is kept (`again`: it had said so of this version already)."""

    number: int
    version: int
    side: int
    name: str
    kind: str
    by: str
    reason: str | None = None
    asks_organiser: bool = False
    again: bool = False

    @property
    def message(self) -> str:
        """In words for the person, or the client."""
        if self.kind == AGREED:
            return f"{self.name} agreed deal {self.number}."
        who = "The organiser is asked to look at it" if self.asks_organiser else "Talk it over"
        return (
            f"{self.name} queried deal {self.number}. {who}; correct the deal, or agree it as "
            "it stands."
        )


@dataclass(frozen=True)
class DealChanged:
    """The deal was corrected since the phone showed it: nothing kept, the side asked again."""

    number: int
    version: int
    current: int

    @property
    def message(self) -> str:
        """In words for the person, or the client."""
        return (
            f"Deal {self.number} was corrected since this phone showed it (version "
            f"{self.current} now, {self.version} shown): look at it again, then agree or query it."
        )


Outcome = Answered | DealChanged | Refused | NotAllowed | NoSuchDeal


def agree(
    game: Game,
    level: Level,
    number: int,
    side: int,
    version: Any,
    by: str | None = None,
    device: str | None = None,
) -> Outcome:
    """Side `side` agrees deal `number` as it stood at `version` (one tap on its phone)."""
    return _answer(game, level, number, side, version, AGREED, by, device, None)


def query(
    game: Game,
    level: Level,
    number: int,
    side: int,
    version: Any,
    by: str | None = None,
    device: str | None = None,
    reason: Any = None,
) -> Outcome:
    """Side `side` queries deal `number` as it stood at `version`, with its words if any."""
    return _answer(game, level, number, side, version, QUERIED, by, device, reason)


def _answer(
    game: Game,
    level: Level,
    number: int,
    side: int,
    version: Any,
    kind: str,
    by: str | None,
    device: str | None,
    reason: Any,
) -> Outcome:
    """Keep one side's agreement or query of one deal's version, and tell the table's phones."""
    if not access.may_enter(game, level):
        return NotAllowed(access.TO_ENTER)
    refusals = _refusals(game, side, version, reason)
    if refusals:
        return Refused(refusals)
    deal = next((d for d in game.deals if d.number == number), None)
    if deal is None:
        return NoSuchDeal(number)
    if version != deal.version:
        return DealChanged(number, version, deal.version)
    said = _said(reason)
    answered = Answered(
        number,
        deal.version,
        side,
        game.sides[side].name,
        kind,
        phone_name(by),
        said,
        asks_organiser=kind == QUERIED and game.club_id is not None,
    )
    current = next(a for a in agreement_of(game) if a.number == number)
    state = current.sides[side]
    held = next((q for q in current.queries if q.side == side), None)
    if (kind == AGREED and state == AGREES) or (
        kind == QUERIED and state == QUERIES and held is not None and held.reason == said
    ):
        return replace(answered, again=True)  # said already of this version: nothing new
    db.session.add(
        DealEvent(
            game_id=game.id,
            deal_number=number,
            deal_version=deal.version,
            kind=kind,
            side_position=side,
            by=answered.by,
            device=device if device and DEVICE.fullmatch(device) else None,
            reason=said,
        )
    )
    # Every phone of the table (and a club night's board) fetches what it shows again.
    table_news.touch(game.id)
    db.session.commit()
    return answered


def _refusals(game: Game, side: Any, version: Any, reason: Any) -> list[Refusal]:
    """What in the request cannot stand, each in words naming the figure."""
    refusals = []
    sides = len(game.sides)
    if isinstance(side, bool) or not isinstance(side, int) or not 0 <= side < sides:
        refusals.append(
            Refusal(None, "side", f"side must be one of the game's sides, 0 to {sides - 1}.")
        )
    if isinstance(version, bool) or not isinstance(version, int):
        refusals.append(
            Refusal(None, "version", "version is the deal's version as shown (a whole number).")
        )
    if reason is not None and not isinstance(reason, str):
        refusals.append(Refusal(None, "reason", "reason is the query's words (text)."))
    elif isinstance(reason, str) and len(_said(reason) or "") > MOST_REASON:
        refusals.append(
            Refusal(None, "reason", f"reason is at most {MOST_REASON} characters: say it shorter.")
        )
    return refusals


def _said(reason: Any) -> str | None:
    """A query's words as kept: tidied, None when there are none."""
    return (cleaned(reason) or None) if isinstance(reason, str) else None
