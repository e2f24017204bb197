"""The OpenAPI 3.1 document describing JSON API v1.

The schema of a rule set is made from the engine's `RuleSet` dataclass (its fields, their types
and the meaning each carries), so a rule added to the engine appears here without a word
written twice.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Any, Union, get_args, get_origin, get_type_hints

from scorekeeper.plumbing.db import WRITER_WAIT_SECONDS
from scorekeeper.rules import PRESETS, RuleSet
from scorekeeper.rules.ruleset import (
    GOING_OUT_KINDS,
    MINIMUM_BASES,
    REMOVABLE,
    RULE_BOUNDS,
    RULE_KEYS,
    TIE_RULES,
)
from scorekeeper.rules.terms import (
    BOOK_KINDS,
    BREAKDOWN_LINES,
    CARD_CATEGORIES,
    DEAL_LIMIT,
    DEALS_PER_PAGE,
    EXTRA_BONUSES,
    MAX_DEAL_LIMIT,
    MAX_DECKS,
    MAX_DEVICE_NAME,
    MAX_ERRORS_LISTED,
    MAX_NAME,
    MAX_PLAYERS_PER_SIDE,
    MAX_RULE_NUMBER,
    MAX_SIDES,
    MELDED_BLACK_THREES,
)
from scorekeeper.services.creations import ALLOWANCES, GAME
from scorekeeper.services.deals import KEY
from scorekeeper.services.links import MISS_WINDOW, MISSES_ALLOWED, SECRET

COUNT = {"type": "integer", "minimum": 0}
# The choices each worded rule (or a mapping's values) takes, each from its home in the engine.
RULE_CHOICES: dict[str, tuple[str, ...]] = {
    "key": tuple(PRESETS),
    "minimum_basis": MINIMUM_BASES,
    "tie_rule": TIE_RULES,
    "melded_black_threes": tuple(MELDED_BLACK_THREES),
    "book_counts_as": GOING_OUT_KINDS,
}


def _counts(keys: tuple[str, ...]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {k: COUNT for k in keys},
        "additionalProperties": False,
    }


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str, **headers: str) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "description": description,
        "content": {"application/json": {"schema": schema}},
    }
    if headers:
        answer["headers"] = {
            name.replace("_", "-"): {"description": text, "schema": {"type": "string"}}
            for name, text in headers.items()
        }
    return answer


def _errors(description: str) -> dict[str, Any]:
    return _json(_ref("Errors"), description)


# --- a rule set, from the engine's dataclass ------------------------------------------------


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with null allowed beside it."""
    shown = {**schema, "type": [schema["type"], "null"]}
    if "enum" in schema:
        shown["enum"] = [*schema["enum"], None]
    return shown


def _typed(hint: Any, name: str, *, house: bool = False) -> dict[str, Any]:
    """The JSON schema of a RuleSet field's type; `house`: as a house rule overrides it."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType) and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        return _nullable(_typed(inner, name, house=house))
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        if not house:
            return {"type": "integer"}
        # Points must also be multiples of 5 (refused with 422 otherwise); the schema does not
        # say so with multipleOf, because games started before that check may hold others.
        low, high = RULE_BOUNDS.get(name, (0, MAX_RULE_NUMBER))
        return {"type": "integer", "minimum": low, "maximum": high}
    if hint is str:
        choices = RULE_CHOICES.get(name.partition(".")[0])
        return {"type": "string", **({"enum": list(choices)} if choices else {})}
    if origin is Mapping and name in RULE_KEYS:
        value = _typed(args[1], f"{name}.*", house=house)
        if house and name in REMOVABLE:
            value = _nullable(value)
        return {
            "type": "object",
            "properties": {key: value for key in RULE_KEYS[name]},
            "additionalProperties": False,
        }
    if origin is tuple and args[-1:] == (Ellipsis,):
        return {"type": "array", "items": _typed(args[0], name, house=house)}
    if origin is tuple and len(set(args)) == 1:
        # A fixed number of numbers of one kind; the field's description says which is which.
        # (Not prefixItems: schemathesis 4 cannot check an answer against it, and
        # openapi-python-client refuses the `items: false` that would close it.)
        return {
            "type": "array",
            "items": _typed(args[0], name, house=house),
            "minItems": len(args),
            "maxItems": len(args),
        }
    raise TypeError(f"RuleSet.{name}: no JSON schema for {hint!r}; teach web/openapi.py it.")


def ruleset_schema() -> dict[str, Any]:
    """Every field of a rule set as the API shows it, each with its meaning."""
    hints = get_type_hints(RuleSet)
    fields = dataclasses.fields(RuleSet)
    return {
        "type": "object",
        "description": "A rule set: every number and choice of one rulebook, as the engine "
        "scores by it",
        "required": [f.name for f in fields],
        "properties": {
            f.name: {**_typed(hints[f.name], f.name), "description": f.metadata["doc"]}
            for f in fields
        },
        "additionalProperties": False,
    }


def _minimums_schema() -> dict[str, Any]:
    """The two ways a house rule writes an opening-minimum schedule."""
    minimum = {"type": "integer", "minimum": 0, "maximum": MAX_RULE_NUMBER}
    # A step's "from" may be a negative total (a side below 0); its minimum may not.
    number = {"type": "integer", "minimum": -MAX_RULE_NUMBER, "maximum": MAX_RULE_NUMBER}
    return {
        "oneOf": [
            {
                "type": "array",
                "minItems": 1,
                "items": minimum,
                "description": "Minimums by deal: the first for deal 1, the next for deal 2, "
                "and so on; the last holds for every deal after. Only where the rule set's "
                "minimum_basis is 'deal'.",
            },
            {
                "type": "array",
                "minItems": 1,
                "items": {"type": "array", "items": number, "minItems": 2, "maxItems": 2},
                "description": "[from, minimum] steps in rising order, each from once: from a "
                "deal number, or from a running total where minimum_basis is 'total' (which "
                "may be negative); each step holds until the next. A minimum is 0 or more, "
                "a multiple of 5.",
            },
        ]
    }


def house_rules_schema() -> dict[str, Any]:
    """The rules a club may change (RuleSet.house_rule_fields), each as an override takes it."""
    hints = get_type_hints(RuleSet)
    docs = {f.name: f.metadata["doc"] for f in dataclasses.fields(RuleSet)}
    some_rules = next(iter(PRESETS.values()))
    properties: dict[str, Any] = {}
    for name in some_rules.house_rule_fields():
        if name == "opening_minimums":
            schema = _minimums_schema()
        else:
            schema = _typed(hints[name], name, house=True)
        words = docs[name]
        if name in RULE_KEYS:
            words += ". Only the kinds given change; the others keep the rule set's value"
        if name in REMOVABLE:
            words += "; null takes a kind out (it is then not played)"
        properties[name] = {**schema, "description": words}
    return {
        "type": "object",
        "description": "House rules: changes to the preset, each optional; what is not given "
        "keeps the preset's value. Points are multiples of 5, as every card is.",
        "properties": properties,
        "additionalProperties": False,
    }


# --- answers shared by several operations ---------------------------------------------------

NOT_JSON = _errors("The body is not JSON (send Content-Type: application/json)")
BUSY = _errors(
    "The server is busy saving other tables' deals (on SQLite a request that writes waits at "
    f"most {WRITER_WAIT_SECONDS} s for its turn): nothing was saved; send it again"
)
GAME_NOT_FOUND = (
    "No such game; also a missing or wrong X-Game-Key, or a private club's game asked without "
    "its X-Table-Code (all answered alike, so that nothing tells them apart)"
)
TOO_MANY = _errors(
    f"This address (an IPv6 /64) asked for games that are not there, or sent table codes no "
    f"club has, {MISSES_ALLOWED} times within {MISS_WINDOW.seconds // 60} minutes: no key or "
    "table code is checked until the Retry-After seconds have passed, even the right one"
)
TOO_MANY["headers"] = {
    "Retry-After": {
        "description": "Seconds until this address may ask again",
        "schema": {"type": "string", "pattern": "^[0-9]+$"},
    }
}
# Starting games: each address has an allowance in a window (creations.py), whatever the key.
_GAMES = ALLOWANCES[GAME]
TOO_MANY_GAMES = _errors(
    f"This address has started the most games it may within the last "
    f"{int(_GAMES.window.total_seconds()) // 60} minutes ({_GAMES.most} unless the server's "
    f"{_GAMES.setting} says otherwise; an IPv6 /64 counts as one address): nothing was saved. "
    "The message says when to try again; Retry-After gives the seconds"
)
TOO_MANY_GAMES["headers"] = TOO_MANY["headers"]
GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Sent again with the same key and the same scores, the request records no "
    "second deal: it answers 201 with Idempotent-Replayed: true. The same key with other scores "
    "is refused with 422 (field Idempotency-Key): a key is bound to the scores it was first "
    "sent with.",
    "schema": {"type": "string", "pattern": f"^{KEY.pattern}$"},
}
GAME_KEY = {
    "name": "X-Game-Key",
    "in": "header",
    "required": True,
    "description": "The game's secret, as `key` in the answer that started it (the last part "
    "of its private link). Without it, or with a wrong one, the game is a 404.",
    "schema": {"type": "string", "pattern": f"^{SECRET.pattern}$"},
}
DEALS_FROM = {
    "name": "deals_from",
    "in": "query",
    "required": False,
    "description": f"The first deal the answer lists (1 by default); it lists at most "
    f"{DEALS_PER_PAGE}, and `next` links to the following page. Not a deal number from 1: 422.",
    "schema": {"type": "integer", "minimum": 1, "default": 1},
}
TABLE_CODE = {
    "name": "X-Table-Code",
    "in": "header",
    "required": False,
    "description": "A club's table-link code: needed to start a club game and to enter or "
    "correct its deals, and to see a private club's games and standings",
    "schema": {"type": "string"},
}
POINTERS = (
    "Each error's `inputs` point at the figures it is about in the request body (JSON "
    "pointers, RFC 6901)"
)


def _body(name: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": _ref(name)}}}


def _with_body(
    responses: dict[str, Any],
    max_body: int | None,
    max_depth: int | None,
    max_brackets: int | None = None,
) -> dict[str, Any]:
    """The answers every operation with a JSON body may give, besides its own."""
    depth = f" (more than {max_depth} levels of [ and {{)" if max_depth else ""
    many = f", or holds more than {max_brackets:,} [ and {{ in all" if max_brackets else ""
    common = {
        "400": _errors(
            f"The body does not parse as JSON, is not a JSON object, or nests too deeply{depth}"
            f"{many} (field body)"
        ),
        "415": NOT_JSON,
        "503": BUSY,
    }
    if max_body:
        common["413"] = _errors(
            f"The body is larger than the API reads ({max_body:,} bytes, a few times the "
            "largest game, deal or line): nothing was read (field body)"
        )
    return dict(sorted({**common, **responses}.items()))


# --- the document ---------------------------------------------------------------------------


def openapi_document(
    max_body: int | None = None, max_depth: int | None = None, max_brackets: int | None = None
) -> dict[str, Any]:
    """The whole document; `max_body` is the largest body the server reads (else no 413),
    `max_depth` and `max_brackets` how deep and how many lists and objects it reads."""
    entry = {
        "type": "object",
        "description": "What one side reports for a deal; omitted figures are 0 or false.",
        "properties": {
            "books": _counts(BOOK_KINDS),
            "red_threes_down": COUNT,
            "red_threes_caught": COUNT,
            "went_out": {"type": "boolean"},
            "melded_points": {"type": ["integer", "null"], "minimum": 0, "multipleOf": 5},
            "leftover_points": {"type": ["integer", "null"], "minimum": 0, "multipleOf": 5},
            "melded_cards": _counts(CARD_CATEGORIES),
            "leftover_cards": _counts(CARD_CATEGORIES),
            "bonuses": _counts(tuple(EXTRA_BONUSES)),
            "open_books": _counts(BOOK_KINDS),
            "open_book_points": {"type": "integer", "minimum": 0, "multipleOf": 5},
        },
        "additionalProperties": False,
    }
    deal_scores = {
        "type": "object",
        "required": ["scores"],
        "properties": {
            "scores": {
                "type": "array",
                "items": _ref("Entry"),
                "description": "One entry per side, in the game's order of sides",
            },
            "version": {
                "type": "integer",
                "description": "A correction's: the version of the deal it was made to (the "
                "deal's `version` when it was read). Another version is refused with 409; "
                "without it, the correction is made to whatever is saved.",
            },
            "deal": {
                "type": "integer",
                "minimum": 1,
                "maximum": 10**9 - 1,
                "description": "A new deal's (POST): the deal the figures are for (the game's "
                "next_deal when it was read). If that deal was saved meanwhile (by another "
                "client, or by the sides' own lines), the deal is refused with 409; a deal not "
                "reached yet with 422. Without it, the figures are saved as whatever deal is "
                "next.",
            },
        },
    }
    breakdown = {
        "type": "object",
        "properties": {
            name: {"type": "integer"}
            for name in (
                *(line for line, _ in BREAKDOWN_LINES),
                "total",
                "melded_points",
                "leftover_points",
            )
        }
        | {"details": {"type": "object", "additionalProperties": {"type": "string"}}},
    }
    game_state = {
        "type": "object",
        "required": [
            "id",
            "url",
            "ruleset",
            "house_rules",
            "rules",
            "decks",
            "finished",
            "winners",
            "next_deal",
            "sides",
            "deals",
            "deals_total",
            "deals_from",
            "next",
            "deal_limit",
            "deal_limit_reached",
            "first_dealer",
            "seats",
            "next_dealer",
            "saved_rules",
            "rules_name",
            "parts",
            "next_game",
        ],
        "properties": {
            "id": {"type": "integer"},
            "url": {"type": "string", "description": "The game's private link, as a path"},
            "ruleset": {"type": "string", "enum": list(PRESETS)},
            "house_rules": {
                **_ref("HouseRules"),
                "description": "The house rules the game was started with, as they were sent: "
                "only what differs from the preset ({} for none); `rules` shows them applied",
            },
            "rules": {
                **_ref("RuleSet"),
                "description": "The rules in force: the preset with the game's house rules "
                "applied, every parameter (as GET /api/v1/rulesets/{key} shows a preset)",
            },
            "saved_rules": {
                "anyOf": [_ref("SavedRulesLink"), {"type": "null"}],
                "description": "The club's saved rule set the game started from, as it is "
                "called now; null for a preset or house rules of the table's own (and once the "
                "saved rule set is deleted)",
            },
            "rules_name": {
                "type": ["string", "null"],
                "description": "The saved rule set's name when the game started (kept if it "
                "is renamed or deleted since); null if the game started from none",
            },
            "decks": {"type": "integer"},
            "finished": {"type": "boolean"},
            "winners": {"type": "array", "items": {"type": "string"}},
            "next_deal": {
                "type": ["integer", "null"],
                "description": "The number the next deal gets; null when no deal can be "
                "entered (the game is over, or holds its most deals)",
            },
            "sides": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "players", "total", "next_opening_minimum"],
                    "properties": {
                        "name": {"type": "string"},
                        "players": {"type": "array", "items": {"type": "string"}},
                        "total": {"type": "integer", "description": "The running total"},
                        "next_opening_minimum": {
                            "type": "integer",
                            "description": "The least this side's first meld must count in "
                            "the next deal",
                        },
                        "opening_minimum": {
                            "type": "integer",
                            "description": "The same figure as next_opening_minimum, under "
                            "the name v1 gave it first: here, the minimum for the NEXT deal "
                            "(in deals[].scores[], opening_minimum is the one that applied)",
                        },
                    },
                },
            },
            "deal_limit": {
                "type": "integer",
                "description": f"The most deals this game holds ({DEAL_LIMIT} unless a house "
                f"rule sets it, at most {MAX_DEAL_LIMIT:,})",
            },
            "first_dealer": {
                "type": "integer",
                "description": "The seat (from 0, in `seats`) of the first deal's dealer",
            },
            "seats": {
                "type": "array",
                "description": "The table seat by seat: each side's first player, then each "
                "side's second, so partners sit apart; the deal passes to the next seat",
                "items": {
                    "type": "object",
                    "required": ["side", "player"],
                    "properties": {
                        "side": {"type": "integer", "description": "The side's index"},
                        "player": {"type": "string"},
                    },
                },
            },
            "next_dealer": {
                "oneOf": [_ref("Dealer"), {"type": "null"}],
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
                "items": _ref("Part"),
                "description": "Each side's own line of the next deal, one per side in the "
                "game's order, in or not yet (PUT /api/v1/games/{game_id}/deals/next/parts/"
                "{side}); empty when no deal can be entered (next_deal null)",
            },
            "next_game": {
                "anyOf": [_ref("NextGame"), {"type": "null"}],
                "description": "The game this table played next (Play again on the finished "
                "game's scoreboard): one per finished game, whichever phone started it; null "
                "until then",
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
                "items": {
                    "type": "object",
                    "required": ["number", "version", "dealer", "warnings", "scores"],
                    "properties": {
                        "number": {"type": "integer"},
                        "dealer": _ref("Dealer"),
                        "version": {
                            "type": "integer",
                            "description": "1 when entered, one more with each correction; "
                            "send it with a correction (PUT) as `version`",
                        },
                        "warnings": {"type": "array", "items": {"type": "string"}},
                        "scores": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": [
                                    "side",
                                    "total",
                                    "running_total",
                                    "minimum_applied",
                                    "breakdown",
                                    "entry",
                                ],
                                "properties": {
                                    "side": {"type": "string"},
                                    "total": {"type": "integer"},
                                    "running_total": {"type": "integer"},
                                    "minimum_applied": {
                                        "type": "integer",
                                        "description": "The opening minimum that applied to "
                                        "this side in this deal",
                                    },
                                    "opening_minimum": {
                                        "type": "integer",
                                        "description": "The same figure as minimum_applied, "
                                        "under the name v1 gave it first: here, the minimum "
                                        "that APPLIED in this deal (in sides[], "
                                        "opening_minimum is the one for the next deal)",
                                    },
                                    "breakdown": _ref("Breakdown"),
                                    "entry": _ref("Entry"),
                                },
                            },
                        },
                    },
                },
            },
        },
    }
    errors = {
        "type": "object",
        "required": ["errors"],
        "properties": {
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["side", "field", "message", "inputs"],
                    "properties": {
                        "side": {
                            "type": ["integer", "null"],
                            "description": "The side's index; null for the request as a whole",
                        },
                        "field": {
                            "type": ["string", "null"],
                            "description": "The figure refused, as a dotted path within the "
                            "side (books.clean) or the request (decks, rules, version); null "
                            "when the answer names none",
                        },
                        "message": {"type": "string"},
                        "inputs": {
                            "type": "array",
                            "description": "The figures of the request body the error is "
                            "about: a side's own figure, or every side's figure that counted "
                            "toward a limit of the whole deal. Empty when the error is about "
                            "no figure of the body (a header such as Idempotency-Key, the "
                            "query, a game that is over, a missing game). A side's line holds "
                            "that side's figures alone: another side's figure an error is "
                            "about is left out (the message names that side).",
                            "items": {
                                "type": "object",
                                "required": ["side", "field", "pointer"],
                                "properties": {
                                    "side": {"type": ["integer", "null"]},
                                    "field": {"type": "string"},
                                    "pointer": {
                                        "type": "string",
                                        "description": "A JSON pointer (RFC 6901) to the "
                                        "figure in the request body: "
                                        "/scores/1/melded_cards/black_three, /version, "
                                        "/sides/0/name, /decks, /rules/going_out_bonus, "
                                        "/entry/books/clean, /entered_at",
                                    },
                                },
                            },
                        },
                    },
                },
            },
            "errors_left_out": {
                "type": "integer",
                "minimum": 1,
                "description": f"Only the first {MAX_ERRORS_LISTED} errors are listed: how "
                "many more there were. Absent when every error is listed",
            },
        },
    }
    game_setup = {
        "type": "object",
        "required": ["sides"],
        "properties": {
            "ruleset": {
                "type": "string",
                "enum": list(PRESETS),
                "description": "The preset's key; needed unless saved_rules is sent (then, if "
                "sent, it must be the saved rule set's)",
            },
            "sides": {
                "type": "array",
                "minItems": 2,
                "maxItems": MAX_SIDES,
                "items": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
                        "players": {
                            "type": "array",
                            "maxItems": MAX_PLAYERS_PER_SIDE,
                            "items": {"type": "string"},
                        },
                    },
                },
            },
            "decks": {
                "type": ["integer", "null"],
                "minimum": 1,
                "maximum": MAX_DECKS,
                "description": "Decks to play with; omitted or null, the rule set's default for "
                "this many players (at least the fewest that hold every hand and foot)",
            },
            "rules": {
                **_ref("HouseRules"),
                "description": "House rules: changes to the preset (deal_limit is the most "
                f"deals the game holds, 1 to {MAX_DEAL_LIMIT:,}, {DEAL_LIMIT} by default)",
            },
            "club": {"type": "string", "description": "A club's slug (send X-Table-Code too)"},
            "saved_rules": {
                "type": "integer",
                "description": "The id of one of the club's saved rule sets (GET "
                "/api/v1/clubs/{slug}/rule-sets), with `club`: the game starts from its preset "
                "and numbers, and keeps its name. ruleset and rules may then be left out; sent, "
                "they must be the saved rule set's own (else 422)",
            },
        },
    }
    deal_number = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"}}
    side = {
        "name": "side",
        "in": "path",
        "required": True,
        "description": "The side's index, from 0, in the game's order of sides (a side the game "
        "does not have: 404)",
        "schema": {"type": "integer", "minimum": 0},
    }
    part = {
        "type": "object",
        "description": "One side's own line of the next deal: in (with its figures) or not yet",
        "required": ["side", "name", "in", "sent_by", "mine", "problem", "entry"],
        "properties": {
            "side": {"type": "integer", "description": "The side's index, from 0"},
            "name": {"type": "string", "description": "The side's name"},
            "in": {"type": "boolean", "description": "Whether the side's line is in"},
            "sent_by": {
                "type": ["string", "null"],
                "description": "Who sent the line, as the table knows them; null if not in",
            },
            "mine": {
                "type": "boolean",
                "description": "Sent from the phone asking (the app's own pages); always false "
                "in this API",
            },
            "problem": {
                "type": ["string", "null"],
                "description": "Why the deal cannot stand with this line as it is, found when "
                "another side's line came in (say both sides went out); null when none. "
                "Cleared when the side sends its line again",
            },
            "entry": {
                "anyOf": [_ref("Entry"), {"type": "null"}],
                "description": "The line's figures, as the engine reads them; null if not in",
            },
        },
    }
    lines = {
        "type": "object",
        "description": "The next deal's lines, one per side",
        "required": ["deal", "saved", "parts"],
        "properties": {
            "deal": {
                "type": ["integer", "null"],
                "description": "The number of the deal the lines are for (the game's "
                "next_deal); null when no deal can be entered",
            },
            "saved": {
                "type": "boolean",
                "description": "false: the deal waits for the lines not in yet (when the last "
                "line is in, the deal is saved and the answer is the game's state, 201)",
            },
            "parts": {"type": "array", "items": _ref("Part")},
        },
    }
    part_body = {
        "type": "object",
        "required": ["entry", "deal"],
        "properties": {
            "entry": {
                **_ref("Entry"),
                "description": "The side's own figures, as one item of a deal's scores",
            },
            "deal": {
                "type": "integer",
                "minimum": 1,
                "maximum": 10**9 - 1,
                "description": "The deal the line was entered for (the game's next_deal when "
                "it was read). Required: a line is never kept for another deal. If that deal "
                "was saved meanwhile, the line is refused with 409 (or, the same line as the "
                "deal saved holds, answered as saved)",
            },
            "sent_by": {
                "type": "string",
                "description": "Who sent the line, shown to the table (control and invisible "
                f"characters dropped, at most {MAX_DEVICE_NAME} characters kept); 'Someone' "
                "by default",
            },
            "entered_at": {
                "type": "string",
                "format": "date-time",
                "description": "When the line was entered on the client (RFC 3339, with its "
                "offset: 2026-04-30T19:05:00Z): of two lines sent for one side, the one entered "
                "later stands, whichever arrives last. Without it, or any moment ahead of the "
                "server's clock, the moment it arrives",
            },
        },
    }
    game = _json(
        _ref("GameState"),
        f"The game's state: its totals, and at most {DEALS_PER_PAGE} of its deals from deals_from",
    )
    entered = _json(
        _ref("GameState"),
        "Saved: the game's state with the new deal",
        Idempotent_Replayed="true when the Idempotency-Key was seen with these scores before: "
        "the deal it recorded stands, and nothing more was saved",
    )
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Hand and Foot Scorekeeper API",
            "version": "1",
            "description": "Rule sets, games and deals. Requests and responses are JSON. "
            "A game is private: every request about it sends its secret in X-Game-Key. "
            "Every error answer is {errors: [...]}, each error with the JSON pointers of the "
            "figures it is about.",
        },
        "paths": {
            "/api/v1/openapi.json": {
                "get": {
                    "operationId": "getOpenapiDocument",
                    "summary": "This document",
                    "responses": {"200": _json({"type": "object"}, "The OpenAPI document")},
                }
            },
            "/api/v1/rulesets": {
                "get": {
                    "operationId": "listRulesets",
                    "summary": "Every rule set",
                    "responses": {
                        "200": _json(
                            {"type": "array", "items": _ref("RulesetBrief")},
                            "The presets, in brief",
                        )
                    },
                }
            },
            "/api/v1/rulesets/{key}": {
                "get": {
                    "operationId": "getRuleset",
                    "summary": "One rule set with all its parameters",
                    "parameters": [
                        {
                            "name": "key",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                    ],
                    "responses": {
                        "200": _json(_ref("RuleSet"), "Every parameter of the preset"),
                        "404": _errors("No rule set with that key"),
                    },
                }
            },
            "/api/v1/clubs/{slug}/standings": {
                "get": {
                    "operationId": "getStandings",
                    "summary": "A club's standings (public clubs, or with the table code)",
                    "parameters": [
                        {
                            "name": "slug",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                        {
                            "name": "season",
                            "in": "query",
                            "description": "A season's id, or 'all'; without season, from or "
                            "to, the current season",
                            "schema": {"type": "string"},
                        },
                        {
                            "name": "from",
                            "in": "query",
                            "schema": {"type": "string", "format": "date"},
                        },
                        {
                            "name": "to",
                            "in": "query",
                            "schema": {"type": "string", "format": "date"},
                        },
                        {"name": "ruleset", "in": "query", "schema": {"type": "string"}},
                        {
                            "name": "saved_rules",
                            "in": "query",
                            "description": "The id of one of the club's saved rule sets: only "
                            "the games started from it",
                            "schema": {"type": "string"},
                        },
                        {"name": "sort", "in": "query", "schema": {"type": "string"}},
                        TABLE_CODE,
                    ],
                    "responses": {
                        "200": _json(
                            {"type": "array", "items": _ref("Standing")}, "Ranked members"
                        ),
                        "404": _errors(
                            "No club with that slug, or a private club asked without its "
                            "X-Table-Code"
                        ),
                        "422": _errors(
                            "A filter that is not one: no such season, rule set or saved rule "
                            "set, or a date not written like 2026-04-30"
                        ),
                        "429": TOO_MANY,
                    },
                }
            },
            "/api/v1/clubs/{slug}/rule-sets": {
                "get": {
                    "operationId": "listSavedRules",
                    "summary": "A club's saved rule sets (public clubs, or with the table code)",
                    "parameters": [
                        {
                            "name": "slug",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                        TABLE_CODE,
                    ],
                    "responses": {
                        "200": _json(
                            {"type": "array", "items": _ref("SavedRules")},
                            "The club's saved rule sets, by name",
                        ),
                        "404": _errors(
                            "No club with that slug, or a private club asked without its "
                            "X-Table-Code"
                        ),
                        "429": TOO_MANY,
                    },
                }
            },
            "/api/v1/games": {
                "post": {
                    "operationId": "startGame",
                    "summary": "Start a game",
                    "parameters": [TABLE_CODE],
                    "requestBody": _body("GameSetup"),
                    "responses": _with_body(
                        {
                            "201": _json(
                                _ref("NewGame"),
                                "Started: the game's state, its secret (`key`, for X-Game-Key) "
                                "and its private link in full (`link`), to share with the table",
                                Location="The game's address in this API",
                            ),
                            "403": _errors(
                                "A public club's game: starting one needs the club's table "
                                "code (X-Table-Code)"
                            ),
                            "404": _errors(
                                "No club with that slug, or a private club's game without its "
                                "X-Table-Code"
                            ),
                            "422": _errors(
                                "The game cannot start as asked: each error names the side "
                                "(null for the game as a whole), the figure and why. A "
                                "saved_rules that is not the club's, or sent without club, or "
                                "with a ruleset or rules of its own (/saved_rules, /ruleset, "
                                "/rules). "
                                f"{POINTERS}: /sides/1/name, /decks, /ruleset, /sides, "
                                "/rules/going_out_bonus, /rules/opening_minimums/0 (a house "
                                "rule's points off the multiples of 5, decks too few to deal "
                                "every hand and foot)."
                            ),
                            "429": TOO_MANY_GAMES,
                        },
                        max_body,
                        max_depth,
                        max_brackets,
                    ),
                }
            },
            "/api/v1/games/{game_id}": {
                "get": {
                    "operationId": "getGame",
                    "summary": "A game's state",
                    "parameters": [GAME_ID, GAME_KEY, TABLE_CODE, DEALS_FROM],
                    "responses": {
                        "200": game,
                        "404": _errors(GAME_NOT_FOUND),
                        "422": _errors("deals_from is not a deal number from 1 (inputs: [])"),
                        "429": TOO_MANY,
                    },
                }
            },
            "/api/v1/games/{game_id}/deals": {
                "post": {
                    "operationId": "enterDeal",
                    "summary": "Enter the next deal",
                    "parameters": [GAME_ID, GAME_KEY, TABLE_CODE, IDEMPOTENCY_KEY, DEALS_FROM],
                    "requestBody": _body("DealScores"),
                    "responses": _with_body(
                        {
                            "201": entered,
                            "403": _errors(
                                "A club game: entering a deal needs the club's table code "
                                "(X-Table-Code)"
                            ),
                            "404": _errors(GAME_NOT_FOUND),
                            "409": _errors(
                                "The game is over; or it holds its most deals (deal_limit: "
                                f"{DEAL_LIMIT} unless a house rule sets it), a limit that does "
                                "not end the game; or another request saved this deal first. "
                                "Nothing was saved (inputs: [])."
                            ),
                            "422": _errors(
                                "Figures the rules refuse: each error names the side (null "
                                "for the deal as a whole), the figure and why. "
                                f"{POINTERS}: /scores/1/melded_cards/black_three, /scores; a "
                                "limit of the whole deal points at every side's figure that "
                                "counted toward it. Also a deals_from that is not a deal "
                                "number, or an Idempotency-Key already used with other scores "
                                "(inputs: [] for both). Nothing was saved."
                            ),
                            "429": TOO_MANY,
                        },
                        max_body,
                        max_depth,
                        max_brackets,
                    ),
                }
            },
            "/api/v1/games/{game_id}/deals/{number}": {
                "put": {
                    "operationId": "correctDeal",
                    "summary": "Correct a deal; every later total is recomputed",
                    "parameters": [GAME_ID, deal_number, GAME_KEY, TABLE_CODE, DEALS_FROM],
                    "requestBody": _body("DealScores"),
                    "responses": _with_body(
                        {
                            "200": _json(
                                _ref("GameState"),
                                "Corrected: the game's state with every later total, minimum "
                                "and the winners recomputed (a correction that changes nothing "
                                "is 200 too, and keeps the version)",
                            ),
                            "403": _errors(
                                "A club game: correcting needs the club's table code "
                                "(X-Table-Code); once a club game is finished, only its "
                                "organisers (signed in) may correct it"
                            ),
                            "404": _errors(f"{GAME_NOT_FOUND}; or the game has no such deal"),
                            "409": _errors(
                                "Made from an older version of the deal: `version` is not the "
                                "deal's version now (another phone corrected it meanwhile). "
                                "The error's inputs point at /version. Nothing was saved."
                            ),
                            "422": _errors(
                                "Refused, nothing saved: figures the rules refuse, as for a new "
                                f"deal ({POINTERS}: /scores/0/books/clean); a `version` that is "
                                "not a whole number (/version); or a correction that would end "
                                "the game before deals that already follow it (say deal 1 of 3 "
                                "corrected past the target score): that is refused with 422, "
                                "not 409, since the figures themselves cannot stand (inputs: "
                                "[]). Also a deals_from that is not a deal number."
                            ),
                            "429": TOO_MANY,
                        },
                        max_body,
                        max_depth,
                        max_brackets,
                    ),
                }
            },
            "/api/v1/games/{game_id}/deals/next/parts": {
                "get": {
                    "operationId": "getLines",
                    "summary": "Each side's own line of the next deal, in or not yet",
                    "parameters": [GAME_ID, GAME_KEY, TABLE_CODE],
                    "responses": {
                        "200": _json(
                            _ref("Parts"),
                            "The lines of the next deal, one per side (none, and deal null, "
                            "once no deal can be entered)",
                        ),
                        "404": _errors(GAME_NOT_FOUND),
                        "429": TOO_MANY,
                    },
                }
            },
            "/api/v1/games/{game_id}/deals/next/parts/{side}": {
                "put": {
                    "operationId": "sendLine",
                    "summary": "Send one side's own line of the next deal; the deal is saved "
                    "when the last side's line is in",
                    "description": "Each side may enter its own line on its own phone. A line "
                    "is checked as it comes in against the lines in so far (as the whole deal "
                    "would be); a side's later line takes the place of its earlier one. When "
                    "the last side's line arrives, the deal is checked as a whole and saved "
                    "once, and the lines go. A whole deal entered meanwhile (POST .../deals) "
                    "is saved in their place.",
                    "parameters": [GAME_ID, side, GAME_KEY, TABLE_CODE, DEALS_FROM],
                    "requestBody": _body("PartBody"),
                    "responses": _with_body(
                        {
                            "200": _json(
                                _ref("Parts"),
                                "Kept: the deal waits for the other sides' lines (every side's "
                                "line as it stands)",
                            ),
                            "201": _json(
                                _ref("GameState"),
                                "This line was the last one in: the deal was saved, and the "
                                "answer is the game's state with it",
                            ),
                            "403": _errors(
                                "A club game: sending a line needs the club's table code "
                                "(X-Table-Code)"
                            ),
                            "404": _errors(f"{GAME_NOT_FOUND}; or the game has no such side"),
                            "409": _errors(
                                "Nothing was kept: the deal named in `deal` was saved meanwhile "
                                "(field deal); another line for this side, entered later, "
                                "stands (field entered_at, the message says who sent it); the "
                                "game is over, or holds its most deals (inputs: [])."
                            ),
                            "422": _errors(
                                "Refused, nothing kept: the line's figures, or what they meet "
                                "with the lines in so far (say two sides went out: the other "
                                "side's line then shows the problem). "
                                f"{POINTERS}: /entry/melded_cards/black_three, /entry/went_out; "
                                "another side's figure is left out of inputs. Also a `deal` "
                                "missing, or a `deal`, `sent_by` or `entered_at` not as "
                                "documented (/deal, /sent_by, /entered_at), or a deals_from "
                                "that is not a deal number."
                            ),
                            "429": TOO_MANY,
                        },
                        max_body,
                        max_depth,
                        max_brackets,
                    ),
                }
            },
        },
        "components": {
            "schemas": {
                "Entry": entry,
                "Breakdown": breakdown,
                "Dealer": {
                    "type": "object",
                    "description": "Who deals a deal",
                    "required": ["seat", "side", "player"],
                    "properties": {
                        "seat": {"type": "integer", "description": "The seat, from 0"},
                        "side": {"type": "integer", "description": "The dealer's side's index"},
                        "player": {"type": "string"},
                    },
                },
                "RuleSet": ruleset_schema(),
                "HouseRules": house_rules_schema(),
                "RulesetBrief": {
                    "type": "object",
                    "required": ["key", "name", "summary", "url"],
                    "properties": {
                        "key": {"type": "string", "enum": list(PRESETS)},
                        "name": {"type": "string"},
                        "summary": {"type": "string"},
                        "url": {
                            "type": "string",
                            "description": "Where this API answers the rule set in full",
                        },
                    },
                },
                "GameSetup": game_setup,
                "NextGame": {
                    "type": "object",
                    "required": ["id", "url", "started_by"],
                    "properties": {
                        "id": {"type": "integer"},
                        "url": {
                            "type": "string",
                            "description": "The next game's private link, as a path (its "
                            "secret is its X-Game-Key)",
                        },
                        "started_by": {
                            "type": "string",
                            "description": "The name of the phone that started it, as the "
                            "table sees it",
                        },
                    },
                },
                "SavedRulesLink": {
                    "type": "object",
                    "required": ["id", "name"],
                    "properties": {
                        "id": {"type": "integer"},
                        "name": {"type": "string"},
                    },
                },
                "SavedRules": {
                    "type": "object",
                    "description": "A club's saved rule set: a preset and the numbers the club "
                    "plays differently",
                    "required": ["id", "name", "ruleset", "house_rules", "default", "rules"],
                    "properties": {
                        "id": {"type": "integer"},
                        "name": {"type": "string"},
                        "ruleset": {"type": "string", "enum": list(PRESETS)},
                        "house_rules": {
                            **_ref("HouseRules"),
                            "description": "What differs from the preset ({} for nothing)",
                        },
                        "default": {
                            "type": "boolean",
                            "description": "Club games start from it unless another is chosen",
                        },
                        "rules": {
                            **_ref("RuleSet"),
                            "description": "The rules in force: the preset with the house "
                            "rules applied, every parameter",
                        },
                    },
                },
                "DealScores": deal_scores,
                "PartBody": part_body,
                "Part": part,
                "Parts": lines,
                "GameState": game_state,
                "NewGame": {
                    "allOf": [
                        _ref("GameState"),
                        {
                            "type": "object",
                            "required": ["key", "link"],
                            "properties": {
                                "key": {"type": "string", "pattern": f"^{SECRET.pattern}$"},
                                "link": {"type": "string", "format": "uri"},
                            },
                        },
                    ]
                },
                "Errors": errors,
                "Standing": {
                    "type": "object",
                    "required": ["player", "games", "wins", "win_rate", "average_score", "rank"],
                    "properties": {
                        "player": {"type": "string"},
                        "games": {"type": "integer"},
                        "wins": {"type": "integer"},
                        "win_rate": {"type": "number"},
                        "average_score": {"type": "number"},
                        "average_per_deal": {"type": "number"},
                        "total_points": {"type": "integer"},
                        "rank": {"type": ["integer", "null"]},
                    },
                },
            }
        },
    }
