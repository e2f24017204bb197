"""What the API's requests send, each figure declared once (figures.py): the document's
request bodies and query parameters, and what the views read and refuse. A game's here; a
club's (a night's setup and seating, the nights and standings queries) in `club_shapes.py`."""

from __future__ import annotations

from scorekeeper.rules import PRESETS
from scorekeeper.rules.terms import (
    BOOK_KINDS,
    CARD_CATEGORIES,
    DEAL_LIMIT,
    DEALS_PER_PAGE,
    EXTRA_BONUSES,
    MAX_DEAL_LIMIT,
    MAX_DECKS,
    MAX_DEVICE_NAME,
    MAX_NAME,
    MAX_PLAYERS_PER_SIDE,
    MAX_SIDES,
)
from scorekeeper.web.api.figures import Figure, Shape
from scorekeeper.web.api.refusals import Body


def ref(name: str) -> dict[str, str]:
    """A reference to one of the document's schemas."""
    return {"$ref": f"#/components/schemas/{name}"}


COUNT = {"type": "integer", "minimum": 0}
# A deal's number as a body or the query sends it; longer is no deal any game holds.
DEAL_NUMBER = {"type": "integer", "minimum": 1, "maximum": 10**9 - 1}
POINTS = {"type": "integer", "minimum": 0, "multipleOf": 5}


def _counts(keys: tuple[str, ...]) -> Figure:
    """A figure of named counts (books by kind, cards by category)."""
    return Figure(Shape({k: Figure(COUNT) for k in keys}, closed=True).schema())


# --- a deal's entry: every figure checked by the engine, in its own words ------------------

ENTRY = Shape(
    {
        "books": _counts(BOOK_KINDS),
        "red_threes_down": Figure(COUNT),
        "red_threes_caught": Figure(COUNT),
        "went_out": Figure({"type": "boolean"}),
        "melded_points": Figure({**POINTS, "type": ["integer", "null"]}),
        "leftover_points": Figure({**POINTS, "type": ["integer", "null"]}),
        "melded_cards": _counts(CARD_CATEGORIES),
        "leftover_cards": _counts(CARD_CATEGORIES),
        "bonuses": _counts(tuple(EXTRA_BONUSES)),
        "open_books": _counts(BOOK_KINDS),
        "open_book_points": Figure(POINTS),
    },
    "What one side reports for a deal; omitted figures are 0 or false.",
    closed=True,
)
# The figures of an entry that hold named counts: a refusal names one as "books.clean".
NAMED_COUNTS = tuple(name for name, f in ENTRY.figures.items() if f.schema["type"] == "object")

# --- a new game -------------------------------------------------------------------------------

SIDE = Shape(
    {
        "name": Figure(
            {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
            {"type": "Side {number} needs a name (text)."},
            required=True,
        ),
        "players": Figure(
            {
                "type": "array",
                "maxItems": MAX_PLAYERS_PER_SIDE,
                "items": {"type": "string"},
                "default": [],
            },
            {
                # One refusal for the side, its players unread: not one for each of a million.
                "maxItems": "Side {number} has {count:,} players: a side has 1 to {maxItems}.",
                **dict.fromkeys(("type", "items"), "{name}: players must be a list of names."),
            },
        ),
    }
)
TWO_SIDES = "Give at least two sides, each with a name."
GAME_SETUP = Shape(
    {
        "ruleset": Figure(
            {
                "type": "string",
                "enum": list(PRESETS),
                "description": "The preset's key; needed unless saved_rules is sent (then, if "
                "sent, it must be the saved rule set's)",
            },
            {"type": "Name a rule set by its key."},
        ),
        "sides": Figure(
            {"type": "array", "minItems": 2, "maxItems": MAX_SIDES, "items": SIDE.schema()},
            # More than a game holds: refused before any side is read (each would only be
            # refused again).
            {
                "type": TWO_SIDES,
                "minItems": TWO_SIDES,
                "maxItems": "A game has at most {maxItems} sides, not {count:,}.",
            },
            required=True,
        ),
        "decks": Figure(
            {
                "type": ["integer", "null"],
                "minimum": 1,
                "maximum": MAX_DECKS,
                "description": "Decks to play with; omitted or null, the rule set's default for "
                "this many players (at least the fewest that hold every hand and foot)",
            },
            {"type": "Decks must be a whole number."},
        ),
        "rules": Figure(
            {
                **ref("HouseRules"),
                "description": "House rules: changes to the preset (deal_limit is the most "
                f"deals the game holds, 1 to {MAX_DEAL_LIMIT:,}, {DEAL_LIMIT} by default)",
                # As many as a club can change: more are refused unread, in one refusal
                # rather than one for each rule no club can change.
                "maxProperties": len(PRESETS["classic"].house_rule_fields()),
            },
            {
                "maxProperties": "House rules change at most the {maxProperties} rules a club "
                "can, not {count:,}."
            },
        ),
        "club": Figure({"type": "string", "description": "A club's slug (send X-Table-Code too)"}),
        "saved_rules": Figure(
            {
                "type": "integer",
                "description": "The id of one of the club's saved rule sets (GET "
                "/api/v1/clubs/{slug}/rule-sets), with `club`: the game starts from its preset "
                "and numbers, and keeps its name. ruleset and rules may then be left out; sent, "
                "they must be the saved rule set's own (else 422)",
            },
            {"type": "saved_rules is the id of one of the club's saved rule sets."},
        ),
    }
)

# --- a deal, and a side's line of one ---------------------------------------------------------


def _deal(what: str, description: str, unsent: str | None = None) -> Figure:
    """The number of the deal a body's figures are for; `unsent`: why it may not be left out."""
    refusal = f"deal is the number of the deal the {what} is for, from 1."
    words = dict.fromkeys(("type", "minimum", "maximum"), refusal)
    if unsent is not None:
        words = {"required": unsent, **words}
    schema = {**DEAL_NUMBER, "description": description}
    return Figure(schema, words, required=unsent is not None)


DEAL_SCORES = Shape(
    {
        "scores": Figure(
            {
                "type": "array",
                "items": ref("Entry"),
                "description": "One entry per side, in the game's order of sides",
            },
            required=True,
        ),
        "version": Figure(
            {
                "type": "integer",
                "description": "A correction's: the version of the deal it was made to (the "
                "deal's `version` when it was read). Another version is refused with 409; "
                "without it, the correction is made to whatever is saved.",
            }
        ),
        "deal": _deal(
            "figures",
            "A new deal's (POST): the deal the figures are for (the game's next_deal when it "
            "was read). If that deal was saved meanwhile (by another client, or by the sides' "
            "own lines), the deal is refused with 409; a deal not reached yet with 422. "
            "Without it, the figures are saved as whatever deal is next.",
        ),
        # Who sent it, for the deal's history (issue 40): services/deal_history.py.
        "sent_by": Figure(
            {
                "type": "string",
                "description": "Who entered or corrected the deal, kept in its history and "
                "told to the table (control and invisible characters dropped, at most "
                f"{MAX_DEVICE_NAME} characters kept); 'Someone' by default",
            },
            {"type": "sent_by is the name of whoever sent the deal (text)."},
        ),
        "side": Figure(
            {
                "type": "integer",
                "minimum": 0,
                "description": "A new deal's (POST): the side the sending phone is on, if it "
                "says. Entering the whole deal counts as that side's agreement of it.",
            },
            dict.fromkeys(
                ("type", "minimum"), "side is the side this phone is on, from 0, or left out."
            ),
        ),
        "reason": Figure(
            {
                "type": "string",
                "description": "A correction's (PUT): why it is made. Required of an "
                "organiser correcting a club's locked game (every side agreed every deal, or "
                "the club's hours since it ended passed), at most 500 characters; kept in the "
                "deal's history.",
            },
            {"type": "reason is the reason for the correction, in words (text)."},
        ),
    }
)
# Without it a line raced the whole deal and was saved into it, or into the next one.
NO_DEAL = (
    "deal is required: the number of the deal the line is for (the game's next_deal when it "
    "was read), so that a line is never kept for another deal."
)
PART_BODY = Shape(
    {
        "entry": Figure(
            {
                **ref("Entry"),
                "description": "The side's own figures, as one item of a deal's scores",
            },
            required=True,
        ),
        "deal": _deal(
            "line",
            "The deal the line was entered for (the game's next_deal when it was read). "
            "Required: a line is never kept for another deal. If that deal was saved meanwhile, "
            "the line is refused with 409 (or, the same line as the deal saved holds, answered "
            "as saved)",
            unsent=NO_DEAL,
        ),
        "sent_by": Figure(
            {
                "type": "string",
                "description": "Who sent the line, shown to the table (control and invisible "
                f"characters dropped, at most {MAX_DEVICE_NAME} characters kept); 'Someone' "
                "by default",
            },
            {"type": "sent_by is the name of whoever sent the line (text)."},
        ),
        "entered_at": Figure(
            {
                "type": "string",
                "format": "date-time",
                "description": "When the line was entered on the client (RFC 3339, with its "
                "offset: 2026-04-30T19:05:00Z): of two lines sent for one side, the one entered "
                "later stands, whichever arrives last. Without it, or any moment ahead of the "
                "server's clock, the moment it arrives",
            },
            dict.fromkeys(
                ("type", "format"),
                "entered_at is an RFC 3339 date-time, like 2026-04-30T19:05:00Z, not {shown}.",
            ),
        ),
    }
)

# The document's schemas of a game's request bodies, by name (a club's: `club_shapes.py`).
REQUESTS = {
    "Entry": ENTRY,
    "GameSetup": GAME_SETUP,
    "DealScores": DEAL_SCORES,
    "PartBody": PART_BODY,
}
# Where a refusal's figures are in each body (JSON pointers): a correction's names its
# version, a new deal's the deal it is for (a correction's number is in its path).
GAME_BODY = Body("sides", tuple(GAME_SETUP.figures))
DEAL_BODY = Body("scores", ("scores", "version", "sent_by", "reason"), NAMED_COUNTS)
NEW_DEAL_BODY = Body("scores", ("scores", "deal", "sent_by", "side"), NAMED_COUNTS)
LINE_BODY = Body("entry", tuple(PART_BODY.figures), NAMED_COUNTS)

# --- the query strings ------------------------------------------------------------------------

NOT_A_DEAL = "deals_from must be a deal number from 1, not '{text}'."
GAME_QUERY = Shape(
    {
        "deals_from": Figure(
            {
                **DEAL_NUMBER,
                "default": 1,
                "description": f"The first deal the answer lists (1 by default); it lists at "
                f"most {DEALS_PER_PAGE}, and `next` links to the following page. Not a deal "
                "number from 1: 422.",
            },
            dict.fromkeys(("type", "minimum", "maximum"), NOT_A_DEAL),
        )
    },
    query=True,
)
