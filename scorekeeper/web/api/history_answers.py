"""What the API answers of each deal's history and agreement (issue 40): the document's schemas,
and each deal's `history` and `agreement` as the game's state shows them (`state.py`).

A phone's device id is never shown: it identifies a phone. Who did something is shown as the
table knows them (the phone's name, an organiser's).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.services.agreement import AGREES, QUERIES, WAITING, DealAgreement
from scorekeeper.services.history_read import KINDS, DealRecord, Event
from scorekeeper.web.api.answers import TEXT, answered
from scorekeeper.web.api.shapes import ref

SIDE_INDEX = {"type": "integer", "minimum": 0, "description": "The side's index, from 0"}
STATES = (AGREES, QUERIES, WAITING)

SIDE_FIGURES = answered(
    {
        "side": SIDE_INDEX,
        "total": {"type": "integer", "description": "The side's score for the deal"},
        "entry": {
            "anyOf": [ref("Entry"), {"type": "null"}],
            "description": "The side's figures as entered; null where none were kept",
        },
    },
    "One side's figures of a deal, before or after a change",
)
FIGURES = {
    "anyOf": [{"type": "array", "items": ref("SideFigures")}, {"type": "null"}],
}
DEAL_EVENT = answered(
    {
        "kind": {
            "type": "string",
            "enum": list(KINDS),
            "description": "How the deal came to be or changed, or what a side said of it: "
            "whole (entered on one phone or sent whole), lines (saved when the last side's "
            "own line came in), correction, import (came in with a club's records file), "
            "agreed, queried",
        },
        "by": {
            "type": "string",
            "description": "Who, as the table knows them (a phone's name, an organiser's)",
        },
        "organiser": {
            "type": "boolean",
            "description": "Done by an organiser signed in (a correction of a locked club game), "
            "not a table's phone",
        },
        "at": {"type": "string", "format": "date-time", "description": "When (ISO 8601, UTC)"},
        "side": {
            "type": ["integer", "null"],
            "description": "The side (index from 0) whose line, agreement or query this is; "
            "null where the whole table's",
        },
        "version": {
            "type": "integer",
            "description": "The deal's version this made (an entry, a correction) or was about "
            "(an agreement, a query)",
        },
        "reason": {
            "type": ["string", "null"],
            "description": "An organiser's reason for a correction, a query's words; null if none",
        },
        "before": {
            **FIGURES,
            "description": "Each side's figures before a correction, in the sides' order; null "
            "for a new deal, an agreement or a query",
        },
        "after": {
            **FIGURES,
            "description": "Each side's figures after an entry or a correction, in the sides' "
            "order; null for an agreement or a query",
        },
    },
    "One thing that happened to a deal, oldest first",
)
SIDE_AGREEMENT = answered(
    {
        "side": SIDE_INDEX,
        "name": TEXT,
        "state": {
            "type": "string",
            "enum": list(STATES),
            "description": "agreed (the side's own line counts), queried, or waiting (not yet "
            "answered this version)",
        },
    },
    "One side's answer on a deal as it stands",
)
DEAL_QUERY = answered(
    {
        "side": SIDE_INDEX,
        "by": {"type": "string", "description": "Who asked, as the table knows them"},
        "reason": {"type": ["string", "null"], "description": "Their words, if any"},
    },
    "A side's query of a deal as it stands",
)
DEAL_AGREEMENT = answered(
    {
        "version": {
            "type": "integer",
            "description": "The deal's version the answers are about (a correction asks every "
            "side again)",
        },
        "agreed": {
            "type": "boolean",
            "description": "Every side has agreed this version (a deal kept before history was "
            "counts as agreed: nobody was asked)",
        },
        "sides": {"type": "array", "items": ref("SideAgreement")},
        "queries": {"type": "array", "items": ref("DealQuery")},
    },
    "Whether each side has agreed a deal as it stands",
)
# The document's schemas of a deal's history and agreement, by name (each deal of GameState
# refers to them: `answers.DEAL`).
HISTORY_ANSWERS: dict[str, dict[str, Any]] = {
    "SideFigures": SIDE_FIGURES,
    "DealEvent": DEAL_EVENT,
    "SideAgreement": SIDE_AGREEMENT,
    "DealQuery": DEAL_QUERY,
    "DealAgreement": DEAL_AGREEMENT,
}


def _figures(figures: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """Each side's figures as kept ({"entry", "total"} in the sides' order), as shown."""
    if figures is None:
        return None
    return [
        {
            "side": side,
            "total": each.get("total", 0) if isinstance(each, dict) else 0,
            "entry": each.get("entry") if isinstance(each, dict) else None,
        }
        for side, each in enumerate(figures)
    ]


def event_json(event: Event) -> dict[str, Any]:
    """One event as the API shows it."""
    return {
        "kind": event.kind,
        "by": event.by,
        "organiser": event.organiser,
        "at": event.at.isoformat(),
        "side": event.side,
        "version": event.version,
        "reason": event.reason,
        "before": _figures(event.before),
        "after": _figures(event.after),
    }


def deal_history(record: DealRecord) -> list[dict[str, Any]]:
    """A deal's history as the API shows it, oldest first."""
    return [event_json(event) for event in record.events]


def deal_agreement(agreement: DealAgreement, names: list[str]) -> dict[str, Any]:
    """A deal's agreement as the API shows it; `names`: the sides' names in order."""
    return {
        "version": agreement.version,
        "agreed": agreement.agreed,
        "sides": [
            {"side": side, "name": name, "state": state}
            for side, (name, state) in enumerate(zip(names, agreement.sides, strict=True))
        ],
        "queries": [
            {"side": query.side, "by": query.by, "reason": query.reason}
            for query in agreement.queries
        ],
    }
