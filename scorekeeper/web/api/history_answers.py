"""What the API answers of each deal's history and agreement (issue 40), as models
(answer_base.py): each deal's `history` and `agreement` as the game's state shows them
(`state.py`), and a side's agreement kept (`agreeing.py`).

A phone's device id is never shown: it identifies a phone. Who did something is shown as the
table knows them (the phone's name, an organiser's).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from scorekeeper.services.agreement import AGREES, QUERIES, WAITING
from scorekeeper.services.agreement import DealAgreement as Agreement
from scorekeeper.services.history_read import KINDS, DealRecord, Event
from scorekeeper.web.api.answer_base import Answer, components, declared

SIDE_INDEX = {"ge": 0, "description": "The side's index, from 0"}
WHEN = {"format": "date-time"}


class SideFigures(Answer):
    """One side's figures of a deal, before or after a change"""

    side: int = Field(**SIDE_INDEX)
    total: int = Field(description="The side's score for the deal")
    entry: declared("Entry") | None = Field(  # type: ignore[valid-type]
        description="The side's figures as entered; null where none were kept"
    )


class DealEvent(Answer):
    """One thing that happened to a deal, oldest first"""

    kind: Literal[KINDS] = Field(  # type: ignore[valid-type]
        description="How the deal came to be or changed, or what a side said of it: whole "
        "(entered on one phone or sent whole), lines (saved when the last side's own line came "
        "in), correction, import (came in with a club's records file), agreed, queried"
    )
    by: str = Field(description="Who, as the table knows them (a phone's name, an organiser's)")
    organiser: bool = Field(
        description="Done by an organiser signed in (a correction of a locked club game), not a "
        "table's phone"
    )
    at: str = Field(description="When (ISO 8601, UTC)", json_schema_extra=WHEN)
    side: int | None = Field(
        description="The side (index from 0) whose line, agreement or query this is; null where "
        "the whole table's"
    )
    version: int = Field(
        description="The deal's version this made (an entry, a correction) or was about (an "
        "agreement, a query)"
    )
    reason: str | None = Field(
        description="An organiser's reason for a correction, a query's words; null if none"
    )
    before: list[SideFigures] | None = Field(
        description="Each side's figures before a correction, in the sides' order; null for a "
        "new deal, an agreement or a query"
    )
    after: list[SideFigures] | None = Field(
        description="Each side's figures after an entry or a correction, in the sides' order; "
        "null for an agreement or a query"
    )


class SideAgreement(Answer):
    """One side's answer on a deal as it stands"""

    side: int = Field(**SIDE_INDEX)
    name: str
    state: Literal[AGREES, QUERIES, WAITING] = Field(
        description="agreed (the side's own line counts), queried, or waiting (not yet answered "
        "this version)"
    )


class DealQuery(Answer):
    """A side's query of a deal as it stands"""

    side: int = Field(**SIDE_INDEX)
    by: str = Field(description="Who asked, as the table knows them")
    reason: str | None = Field(description="Their words, if any")


class DealAgreement(Answer):
    """Whether each side has agreed a deal as it stands"""

    version: int = Field(
        description="The deal's version the answers are about (a correction asks every side again)"
    )
    agreed: bool = Field(
        description="Every side has agreed this version (a deal kept before history was counts "
        "as agreed: nobody was asked)"
    )
    sides: list[SideAgreement]
    queries: list[DealQuery]


class AgreementKept(Answer):
    """A side's agreement or query kept, and the deal's agreement as it stands"""

    deal: int
    agreement: DealAgreement
    message: str = Field(description="What was kept, in words")


# The document's schemas of a deal's history and agreement, by name (each deal of GameState
# refers to them; a side's answer kept is agreeing.py's).
HISTORY_ANSWERS: dict[str, dict[str, Any]] = components(DealEvent, DealAgreement)


def _figures(figures: list[dict[str, Any]] | None) -> list[SideFigures] | None:
    """Each side's figures as kept ({"entry", "total"} in the sides' order), as shown."""
    if figures is None:
        return None
    return [
        SideFigures(
            side=side,
            total=each.get("total", 0) if isinstance(each, dict) else 0,
            entry=each.get("entry") if isinstance(each, dict) else None,
        )
        for side, each in enumerate(figures)
    ]


def deal_event(event: Event) -> DealEvent:
    """One event as the API shows it."""
    return DealEvent(
        kind=event.kind,
        by=event.by,
        organiser=event.organiser,
        at=event.at.isoformat(),
        side=event.side,
        version=event.version,
        reason=event.reason,
        before=_figures(event.before),
        after=_figures(event.after),
    )


def deal_history(record: DealRecord) -> list[DealEvent]:
    """A deal's history as the API shows it, oldest first."""
    return [deal_event(event) for event in record.events]


def deal_agreement(agreement: Agreement, names: list[str]) -> DealAgreement:
    """A deal's agreement as the API shows it; `names`: the sides' names in order."""
    return DealAgreement(
        version=agreement.version,
        agreed=agreement.agreed,
        sides=[
            SideAgreement(side=side, name=name, state=state)
            for side, (name, state) in enumerate(zip(names, agreement.sides, strict=True))
        ],
        queries=agreement.queries,
    )
