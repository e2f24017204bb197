"""What a game's requests send, each declared once as a model (modelled.py): the document's
request bodies and query parameters, and what the views read and refuse. A club's requests are
in `club_requests.py`."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import Annotated, Any, get_args, get_origin, get_type_hints

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    SkipValidation,
    WithJsonSchema,
    create_model,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

from scorekeeper.rules import PRESETS
from scorekeeper.rules.entry import COUNTED_KINDS, POINT_FIELDS, DealEntry
from scorekeeper.rules.terms import (
    DEAL_LIMIT,
    DEALS_PER_PAGE,
    MAX_DEAL_LIMIT,
    MAX_DECKS,
    MAX_DEVICE_NAME,
    MAX_NAME,
    MAX_PLAYERS_PER_SIDE,
    MAX_SIDES,
)
from scorekeeper.web.api.answer_base import ELSEWHERE
from scorekeeper.web.api.modelled import Say, Strict, digits, moment
from scorekeeper.web.api.refusals import Body

# A deal's number as a body or the query sends it; longer is no deal any game holds.
MOST_DEAL = 10**9 - 1
Unsent = SkipJsonSchema[None]  # null is taken as not sent, and not shown as a value
POINTS_STEP = 5  # every card scores a multiple of 5


def ref(name: str) -> dict[str, str]:
    """A reference to one of the document's schemas."""
    return {"$ref": f"#/components/schemas/{name}"}


# --- a deal's entry: the engine's DealEntry, every figure checked by the engine --------------


def _entry_field(name: str, hint: Any) -> tuple[Any, Any]:
    """A DealEntry field as the document shows it (counts by kind, points, a count, yes/no)."""
    if get_origin(hint) is Mapping or Mapping in map(get_origin, get_args(hint)):
        count = Annotated[int, Field(ge=0)] | Unsent
        counts = {kind: (count, None) for kind in COUNTED_KINDS[name]}
        closed = ConfigDict(extra="forbid")
        return create_model(f"Entry_{name}", __config__=closed, **counts) | Unsent, None
    if hint is bool:
        return bool, False
    step = {"multiple_of": POINTS_STEP} if name in POINT_FIELDS else {}
    return hint, Field(None if type(None) in get_args(hint) else 0, ge=0, **step)


# The engine checks an entry in words of its own (each naming the side and the figure): this
# model is what the document shows of it, made from the engine's dataclass.
Entry = create_model(
    "Entry",
    __config__=ConfigDict(extra="forbid"),
    __doc__="What one side reports for a deal; omitted figures are 0 or false.",
    **{
        f.name: _entry_field(f.name, get_type_hints(DealEntry)[f.name])
        for f in dataclasses.fields(DealEntry)
    },
)

# --- a new game -------------------------------------------------------------------------------


class Side(Strict):
    """One side of a new game."""

    # Its length is the service's to check, in words naming the side.
    name: Annotated[
        str,
        Say("Side {number} needs a name (text).", shown={"minLength": 1, "maxLength": MAX_NAME}),
    ]
    # One refusal for the side, its players unread: not one for each of a million.
    players: Annotated[
        list[str],
        Field(max_length=MAX_PLAYERS_PER_SIDE),
        Say(
            "{name}: players must be a list of names.",
            too_long=f"Side {{number}} has {{count:,}} players: a side has 1 to "
            f"{MAX_PLAYERS_PER_SIDE}.",
        ),
    ] = []

    @model_validator(mode="before")
    @classmethod
    def _no_object(cls, sent: Any) -> Any:
        """A side sent as no object is a side with no name (refused as that)."""
        return sent if isinstance(sent, dict) else {}


TWO_SIDES = "Give at least two sides, each with a name."
# As many as a club can change: more are refused unread, in one refusal rather than one for
# each rule no club can change.
MOST_RULES = len(PRESETS["classic"].house_rule_fields())


def _few_rules(sent: Any) -> Any:
    """House rules as sent, refused unread if more than a club can change."""
    if isinstance(sent, dict) and len(sent) > MOST_RULES:
        raise PydanticCustomError("too_long", "too many house rules")
    return sent


class GameSetup(Strict):
    """A new game: its rules, its sides and its decks."""

    ruleset: Annotated[
        str | Unsent,
        Say(
            "Name a rule set by its key.",
            "The preset's key; needed unless saved_rules is sent (then, if sent, it must be "
            "the saved rule set's)",
            shown={"enum": list(PRESETS)},
        ),
    ] = None
    # More than a game holds: refused before any side is read (each would only be refused
    # again).
    sides: Annotated[
        list[Side],
        Field(min_length=2, max_length=MAX_SIDES),
        Say(TWO_SIDES, too_long=f"A game has at most {MAX_SIDES} sides, not {{count:,}}."),
    ]
    decks: Annotated[
        int | None,
        Say(
            "Decks must be a whole number.",
            "Decks to play with; omitted or null, the rule set's default for this many "
            "players (at least the fewest that hold every hand and foot)",
            shown={"minimum": 1, "maximum": MAX_DECKS},
        ),
    ] = None
    # The engine reads the house rules (in its words); the document shows HouseRules.
    rules: Annotated[
        Any,
        BeforeValidator(_few_rules),
        WithJsonSchema({ELSEWHERE: "HouseRules", "maxProperties": MOST_RULES}),
        Say(
            f"House rules change at most the {MOST_RULES} rules a club can, not {{count:,}}.",
            "House rules: changes to the preset (deal_limit is the most deals the game holds, "
            f"1 to {MAX_DEAL_LIMIT:,}, {DEAL_LIMIT} by default)",
        ),
    ] = None
    club: Annotated[
        SkipValidation[str] | Unsent, Field(description="A club's slug (send X-Table-Code too)")
    ] = None
    saved_rules: Annotated[
        int | Unsent,
        Say(
            "saved_rules is the id of one of the club's saved rule sets.",
            "The id of one of the club's saved rule sets (GET /api/v1/clubs/{slug}/rule-sets), "
            "with `club`: the game starts from its preset and numbers, and keeps its name. "
            "ruleset and rules may then be left out; sent, they must be the saved rule set's "
            "own (else 422)",
        ),
    ] = None


# --- a deal, and a side's line of one ---------------------------------------------------------

DealNumber = Annotated[int, Field(ge=1, le=MOST_DEAL)]


def _sender(what: str, words: str) -> Say:
    """Who sent a deal or a line: the words refusing it, and its meaning."""
    return Say(
        f"sent_by is the name of whoever sent the {what} (text).",
        f"Who {words} (control and invisible "
        f"characters dropped, at most {MAX_DEVICE_NAME} characters kept); 'Someone' by default",
    )


def _required(*names: str) -> ConfigDict:
    """Figures the document says a body needs, which the services check (in their words)."""
    return ConfigDict(json_schema_extra=lambda schema: schema.update(required=list(names)))


class DealScores(Strict):
    """A deal's figures: one entry per side (a new deal, or a correction)."""

    model_config = _required("scores")

    scores: Annotated[
        SkipValidation[list[Entry]],  # type: ignore[valid-type]
        Field(description="One entry per side, in the game's order of sides"),
    ] = None
    version: Annotated[
        SkipValidation[int] | Unsent,
        Field(
            description="A correction's: the version of the deal it was made to (the deal's "
            "`version` when it was read). Another version is refused with 409; without it, "
            "the correction is made to whatever is saved."
        ),
    ] = None
    deal: Annotated[
        DealNumber | Unsent,
        Say(
            "deal is the number of the deal the figures are for, from 1.",
            "A new deal's (POST): the deal the figures are for (the game's next_deal when it "
            "was read). If that deal was saved meanwhile (by another client, or by the sides' "
            "own lines), the deal is refused with 409; a deal not reached yet with 422. "
            "Without it, the figures are saved as whatever deal is next.",
        ),
    ] = None
    # Who sent it, for the deal's history (issue 40): services/deal_history.py.
    sent_by: Annotated[
        str | Unsent,
        _sender("deal", "entered or corrected the deal, kept in its history and told to the table"),
    ] = None
    side: Annotated[
        Annotated[int, Field(ge=0)] | Unsent,
        Say(
            "side is the side this phone is on, from 0, or left out.",
            "A new deal's (POST): the side the sending phone is on, if it says. Entering the "
            "whole deal counts as that side's agreement of it.",
        ),
    ] = None
    reason: Annotated[
        str | Unsent,
        Say(
            "reason is the reason for the correction, in words (text).",
            "A correction's (PUT): why it is made. Required of an organiser correcting a "
            "club's locked game (every side agreed every deal, or the club's hours since it "
            "ended passed), at most 500 characters; kept in the deal's history.",
        ),
    ] = None


class PartBody(Strict):
    """One side's own line of the next deal."""

    model_config = _required("entry", "deal")

    entry: Annotated[
        SkipValidation[Entry],  # type: ignore[valid-type]
        # A reference, not Entry written out again (pydantic writes a lone model field out).
        WithJsonSchema({ELSEWHERE: "Entry"}),
        Field(description="The side's own figures, as one item of a deal's scores"),
    ] = None
    # Without it a line raced the whole deal and was saved into it, or into the next one.
    deal: Annotated[
        DealNumber,
        Say(
            "deal is the number of the deal the line is for, from 1.",
            "The deal the line was entered for (the game's next_deal when it was read). "
            "Required: a line is never kept for another deal. If that deal was saved "
            "meanwhile, the line is refused with 409 (or, the same line as the deal saved "
            "holds, answered as saved)",
            missing="deal is required: the number of the deal the line is for (the game's "
            "next_deal when it was read), so that a line is never kept for another deal.",
        ),
    ]
    sent_by: Annotated[str | Unsent, _sender("line", "sent the line, shown to the table")] = None
    entered_at: Annotated[
        datetime | Unsent,
        BeforeValidator(moment),
        Say(
            "entered_at is an RFC 3339 date-time, like 2026-04-30T19:05:00Z, not {shown}.",
            "When the line was entered on the client (RFC 3339, with its offset: "
            "2026-04-30T19:05:00Z): of two lines sent for one side, the one entered later "
            "stands, whichever arrives last. Without it, or any moment ahead of the server's "
            "clock, the moment it arrives",
        ),
    ] = None


# Where a refusal's figures are in each body (JSON pointers): a correction's names its
# version, a new deal's the deal it is for (a correction's number is in its path).
NAMED_COUNTS = tuple(COUNTED_KINDS)
GAME_BODY = Body("sides", tuple(GameSetup.model_fields))
DEAL_BODY = Body("scores", ("scores", "version", "sent_by", "reason"), NAMED_COUNTS)
NEW_DEAL_BODY = Body("scores", ("scores", "deal", "sent_by", "side"), NAMED_COUNTS)
LINE_BODY = Body("entry", tuple(PartBody.model_fields), NAMED_COUNTS)

# --- the query string -------------------------------------------------------------------------


class GameQuery(Strict):
    """What a game's state lists."""

    deals_from: Annotated[
        DealNumber,
        BeforeValidator(digits(MOST_DEAL)),
        Say(
            "deals_from must be a deal number from 1, not '{text}'.",
            f"The first deal the answer lists (1 by default); it lists at most "
            f"{DEALS_PER_PAGE}, and `next` links to the following page. Not a deal number "
            "from 1: 422.",
        ),
    ] = 1


# The document's schemas of a game's request bodies, by name (a club's: `club_requests.py`).
REQUESTS = {"Entry": Entry, "GameSetup": GameSetup, "DealScores": DealScores, "PartBody": PartBody}
