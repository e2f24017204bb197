"""What the API answers, each shape declared once: the document's schemas of its answers. A
game's here, with the words every answer is made of; a club's (its members, standings, saved
rule sets and nights) in `club_answers.py`."""

from __future__ import annotations

from typing import Any

from scorekeeper.rules import PRESETS
from scorekeeper.rules.terms import (
    BREAKDOWN_LINES,
    DEAL_LIMIT,
    DEALS_PER_PAGE,
    MAX_DEAL_LIMIT,
    MAX_ERRORS_LISTED,
)
from scorekeeper.services.links import SECRET
from scorekeeper.web.api.shapes import ref

INTEGER = {"type": "integer"}
TEXT = {"type": "string"}
NAMES = {"type": "array", "items": TEXT}


def answered(
    properties: dict[str, Any], description: str | None = None, optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    """An object the API answers with: every property is in every answer but the `optional`."""
    schema: dict[str, Any] = {"type": "object"}
    if description is not None:
        schema["description"] = description
    schema["required"] = [name for name in properties if name not in optional]
    schema["properties"] = properties
    return schema


BREAKDOWN: dict[str, Any] = {
    "type": "object",
    "properties": {
        name: INTEGER
        for name in (
            *(line for line, _ in BREAKDOWN_LINES),
            "total",
            "melded_points",
            "leftover_points",
        )
    }
    | {"details": {"type": "object", "additionalProperties": TEXT}},
}
DEALER = answered(
    {
        "seat": {"type": "integer", "description": "The seat, from 0"},
        "side": {"type": "integer", "description": "The dealer's side's index"},
        "player": TEXT,
    },
    "Who deals a deal",
)
SIDE = answered(
    {
        "name": TEXT,
        "players": NAMES,
        "total": {"type": "integer", "description": "The running total"},
        "next_opening_minimum": {
            "type": "integer",
            "description": "The least this side's first meld must count in the next deal",
        },
        "opening_minimum": {
            "type": "integer",
            "description": "The same figure as next_opening_minimum, under the name v1 gave it "
            "first: here, the minimum for the NEXT deal (in deals[].scores[], opening_minimum "
            "is the one that applied)",
        },
    },
    optional=("opening_minimum",),
)
SCORE = answered(
    {
        "side": TEXT,
        "total": INTEGER,
        "running_total": INTEGER,
        "minimum_applied": {
            "type": "integer",
            "description": "The opening minimum that applied to this side in this deal",
        },
        "opening_minimum": {
            "type": "integer",
            "description": "The same figure as minimum_applied, under the name v1 gave it "
            "first: here, the minimum that APPLIED in this deal (in sides[], opening_minimum "
            "is the one for the next deal)",
        },
        "breakdown": ref("Breakdown"),
        "entry": ref("Entry"),
    },
    optional=("opening_minimum",),
)
DEAL = answered(
    {
        "number": INTEGER,
        "dealer": ref("Dealer"),
        "version": {
            "type": "integer",
            "description": "1 when entered, one more with each correction; send it with a "
            "correction (PUT) as `version`",
        },
        "warnings": NAMES,
        "scores": {"type": "array", "items": SCORE},
        # Issue 40: the schemas they refer to are in history_answers.py.
        "history": {
            "type": "array",
            "items": ref("DealEvent"),
            "description": "What happened to the deal, oldest first: who entered it, how and "
            "when, each correction with the figures before and after, each side's agreement or "
            "query",
        },
        "agreement": ref("DealAgreement"),
    }
)
GAME_STATE = answered(
    {
        "id": INTEGER,
        "url": {"type": "string", "description": "The game's private link, as a path"},
        "ruleset": {"type": "string", "enum": list(PRESETS)},
        "house_rules": {
            **ref("HouseRules"),
            "description": "The house rules the game was started with, as they were sent: "
            "only what differs from the preset ({} for none); `rules` shows them applied",
        },
        "rules": {
            **ref("RuleSet"),
            "description": "The rules in force: the preset with the game's house rules "
            "applied, every parameter (as GET /api/v1/rulesets/{key} shows a preset)",
        },
        "saved_rules": {
            "anyOf": [ref("SavedRulesLink"), {"type": "null"}],
            "description": "The club's saved rule set the game started from, as it is called "
            "now; null for a preset or house rules of the table's own (and once the saved rule "
            "set is deleted)",
        },
        "rules_name": {
            "type": ["string", "null"],
            "description": "The saved rule set's name when the game started (kept if it is "
            "renamed or deleted since); null if the game started from none",
        },
        "decks": INTEGER,
        "finished": {"type": "boolean"},
        "winners": NAMES,
        "next_deal": {
            "type": ["integer", "null"],
            "description": "The number the next deal gets; null when no deal can be entered "
            "(the game is over, or holds its most deals)",
        },
        "sides": {"type": "array", "items": SIDE},
        "deal_limit": {
            "type": "integer",
            "description": f"The most deals this game holds ({DEAL_LIMIT} unless a house rule "
            f"sets it, at most {MAX_DEAL_LIMIT:,})",
        },
        "first_dealer": {
            "type": "integer",
            "description": "The seat (from 0, in `seats`) of the first deal's dealer",
        },
        "seats": {
            "type": "array",
            "description": "The table seat by seat: each side's first player, then each side's "
            "second, so partners sit apart; the deal passes to the next seat",
            "items": answered(
                {"side": {"type": "integer", "description": "The side's index"}, "player": TEXT}
            ),
        },
        "next_dealer": {
            "oneOf": [ref("Dealer"), {"type": "null"}],
            "description": "Who deals the next deal; null when no deal can be entered",
        },
        "deal_limit_reached": {
            "type": "boolean",
            "description": "The game holds its most deals: no deal can be added, though the "
            "game has not ended (not finished, no winners, next_deal null)",
        },
        "deals_total": {"type": "integer", "description": "How many deals the game holds"},
        "parts": {
            "type": "array",
            "items": ref("Part"),
            "description": "Each side's own line of the next deal, one per side in the game's "
            "order, in or not yet (PUT /api/v1/games/{game_id}/deals/next/parts/{side}); empty "
            "when no deal can be entered (next_deal null)",
        },
        "next_game": {
            "anyOf": [ref("NextGame"), {"type": "null"}],
            "description": "The game this table played next (Play again on the finished game's "
            "scoreboard): one per finished game, whichever phone started it; null until then",
        },
        "deals_from": {"type": "integer", "description": "The number of the first deal listed"},
        "next": {
            "type": ["string", "null"],
            "description": "The address of the next page of deals; null on the last",
        },
        "deals": {
            "type": "array",
            "maxItems": DEALS_PER_PAGE,
            "description": f"At most {DEALS_PER_PAGE} deals, from deals_from",
            "items": DEAL,
        },
    }
)
INPUT = answered(
    {
        "side": {"type": ["integer", "null"]},
        "field": TEXT,
        "pointer": {
            "type": "string",
            "description": "A JSON pointer (RFC 6901) to the figure in the request body: "
            "/scores/1/melded_cards/black_three, /version, /sides/0/name, /decks, "
            "/rules/going_out_bonus, /entry/books/clean, /entered_at",
        },
    }
)
ERROR = answered(
    {
        "side": {
            "type": ["integer", "null"],
            "description": "The side's index; null for the request as a whole",
        },
        "field": {
            "type": ["string", "null"],
            "description": "The figure refused, as a dotted path within the side (books.clean) "
            "or the request (decks, rules, version); null when the answer names none",
        },
        "message": TEXT,
        "inputs": {
            "type": "array",
            "description": "The figures of the request body the error is about: a side's own "
            "figure, or every side's figure that counted toward a limit of the whole deal. "
            "Empty when the error is about no figure of the body (a header such as "
            "Idempotency-Key, the query, a game that is over, a missing game). A side's line "
            "holds that side's figures alone: another side's figure an error is about is left "
            "out (the message names that side).",
            "items": INPUT,
        },
    }
)
ERRORS = answered(
    {
        "errors": {"type": "array", "items": ERROR},
        "errors_left_out": {
            "type": "integer",
            "minimum": 1,
            "description": f"Only the first {MAX_ERRORS_LISTED} errors are listed: how many "
            "more there were. Absent when every error is listed",
        },
    },
    optional=("errors_left_out",),
)
PART = answered(
    {
        "side": {"type": "integer", "description": "The side's index, from 0"},
        "name": {"type": "string", "description": "The side's name"},
        "in": {"type": "boolean", "description": "Whether the side's line is in"},
        "sent_by": {
            "type": ["string", "null"],
            "description": "Who sent the line, as the table knows them; null if not in",
        },
        "mine": {
            "type": "boolean",
            "description": "Sent from the phone asking (the app's own pages); always false in "
            "this API",
        },
        "problem": {
            "type": ["string", "null"],
            "description": "Why the deal cannot stand with this line as it is, found when "
            "another side's line came in (say both sides went out); null when none. Cleared "
            "when the side sends its line again",
        },
        "entry": {
            "anyOf": [ref("Entry"), {"type": "null"}],
            "description": "The line's figures, as the engine reads them; null if not in",
        },
    },
    "One side's own line of the next deal: in (with its figures) or not yet",
)
PARTS = answered(
    {
        "deal": {
            "type": ["integer", "null"],
            "description": "The number of the deal the lines are for (the game's next_deal); "
            "null when no deal can be entered",
        },
        "saved": {
            "type": "boolean",
            "description": "false: the deal waits for the lines not in yet (when the last line "
            "is in, the deal is saved and the answer is the game's state, 201)",
        },
        "parts": {"type": "array", "items": ref("Part")},
    },
    "The next deal's lines, one per side",
)
# The document's schemas of a game's answers, by name (a club's: `club_answers.py`).
ANSWERS: dict[str, dict[str, Any]] = {
    "Breakdown": BREAKDOWN,
    "Dealer": DEALER,
    "RulesetBrief": answered(
        {
            "key": {"type": "string", "enum": list(PRESETS)},
            "name": TEXT,
            "summary": TEXT,
            "url": {"type": "string", "description": "Where this API answers the rule set in full"},
        }
    ),
    "NextGame": answered(
        {
            "id": INTEGER,
            "url": {
                "type": "string",
                "description": "The next game's private link, as a path (its secret is its "
                "X-Game-Key)",
            },
            "started_by": {
                "type": "string",
                "description": "The name of the phone that started it, as the table sees it",
            },
        }
    ),
    "Part": PART,
    "Parts": PARTS,
    "GameState": GAME_STATE,
    "NewGame": {
        "allOf": [
            ref("GameState"),
            answered(
                {
                    "key": {"type": "string", "pattern": f"^{SECRET.pattern}$"},
                    "link": {"type": "string", "format": "uri"},
                }
            ),
        ]
    },
    "Errors": ERRORS,
}
