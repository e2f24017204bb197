"""The OpenAPI 3.1 document describing JSON API v1."""

from __future__ import annotations

from typing import Any

from ..deals import KEY
from ..links import SECRET
from ..rules import PRESETS
from ..rules.terms import (
    BOOK_KINDS,
    BREAKDOWN_LINES,
    CARD_CATEGORIES,
    DEAL_LIMIT,
    DEALS_PER_PAGE,
    EXTRA_BONUSES,
    MAX_DEAL_LIMIT,
    MAX_DECKS,
    MAX_NAME,
)

COUNT = {"type": "integer", "minimum": 0}


def _counts(keys: tuple[str, ...]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {k: COUNT for k in keys},
        "additionalProperties": False,
    }


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


ERRORS = _json(_ref("Errors"), "Refused: each error names the side, the figure and why")
NOT_JSON = _json(_ref("Errors"), "The body is not JSON (Content-Type application/json)")
BAD_JSON = _json(
    _ref("Errors"),
    "The body does not parse as a JSON object, or nests too deeply (more than 32 levels of "
    '[ and {: "The body nests too deeply")',
)
FORBIDDEN = _json(_ref("Errors"), "A club game: the table code (X-Table-Code) is needed")
NOT_FOUND = _json(
    _ref("Errors"),
    "No such game, deal or rule set; for a game, also a missing or wrong X-Game-Key "
    "(the two are answered alike)",
)
TOO_MANY = _json(
    _ref("Errors"),
    "Too many requests from this address named no game lately: wait the Retry-After seconds",
)
GAME = _json(
    _ref("GameState"),
    f"The game's state: its totals, and at most {DEALS_PER_PAGE} of its deals from deals_from",
)
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
DEALS_FROM_REFUSED = _json(_ref("Errors"), "deals_from is not a deal number from 1")
TABLE_CODE = {
    "name": "X-Table-Code",
    "in": "header",
    "required": False,
    "description": "A club's table-link code: needed for a private club's records and for "
    "entering deals in any club game",
    "schema": {"type": "string"},
}


def openapi_document() -> dict[str, Any]:
    """The whole document."""
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
    deal_body = {
        "type": "object",
        "required": ["scores"],
        "properties": {
            "scores": {"type": "array", "items": _ref("Entry")},
            "version": {"type": "integer", "description": "The deal's version, for corrections"},
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
            "decks",
            "finished",
            "winners",
            "sides",
            "deals",
            "deals_total",
            "deals_from",
            "next",
            "deal_limit",
            "deal_limit_reached",
        ],
        "properties": {
            "id": {"type": "integer"},
            "url": {"type": "string", "description": "The game's private link, as a path"},
            "ruleset": {"type": "string", "enum": list(PRESETS)},
            "house_rules": {"type": "object"},
            "decks": {"type": "integer"},
            "finished": {"type": "boolean"},
            "winners": {"type": "array", "items": {"type": "string"}},
            "next_deal": {"type": ["integer", "null"]},
            "sides": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "players", "total", "opening_minimum"],
                    "properties": {
                        "name": {"type": "string"},
                        "players": {"type": "array", "items": {"type": "string"}},
                        "total": {"type": "integer"},
                        "opening_minimum": {"type": "integer"},
                    },
                },
            },
            "deal_limit": {
                "type": "integer",
                "description": f"The most deals this game holds ({DEAL_LIMIT} unless a house "
                f"rule sets it, at most {MAX_DEAL_LIMIT:,})",
            },
            "deal_limit_reached": {
                "type": "boolean",
                "description": "The game holds its most deals: no deal can be added, though the "
                "game has not ended (not finished, no winners, next_deal null)",
            },
            "deals_total": {"type": "integer", "description": "How many deals the game holds"},
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
                    "required": ["number", "version", "scores"],
                    "properties": {
                        "number": {"type": "integer"},
                        "version": {"type": "integer"},
                        "warnings": {"type": "array", "items": {"type": "string"}},
                        "scores": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["side", "total", "breakdown"],
                                "properties": {
                                    "side": {"type": "string"},
                                    "total": {"type": "integer"},
                                    "running_total": {"type": "integer"},
                                    "opening_minimum": {"type": "integer"},
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
                    "required": ["side", "field", "message"],
                    "properties": {
                        "side": {"type": ["integer", "null"]},
                        "field": {"type": ["string", "null"]},
                        "message": {"type": "string"},
                    },
                },
            }
        },
    }
    new_game = {
        "type": "object",
        "required": ["ruleset", "sides"],
        "properties": {
            "ruleset": {"type": "string", "enum": list(PRESETS)},
            "sides": {
                "type": "array",
                "minItems": 2,
                "items": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
                        "players": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
            "decks": {"type": "integer", "minimum": 1, "maximum": MAX_DECKS},
            "rules": {
                "type": "object",
                "description": "House-rule overrides of the preset; deal_limit is the most deals "
                f"the game holds (1 to {MAX_DEAL_LIMIT:,}, {DEAL_LIMIT} by default)",
            },
            "club": {"type": "string", "description": "A club's slug (send X-Table-Code too)"},
        },
    }
    deal_number = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"}}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Hand and Foot Scorekeeper API",
            "version": "1",
            "description": "Rule sets, games and deals. Requests and responses are JSON. "
            "A game is private: every request about it sends its secret in X-Game-Key.",
        },
        "paths": {
            "/api/v1/rulesets": {
                "get": {
                    "summary": "Every rule set",
                    "responses": {"200": _json({"type": "array"}, "The presets")},
                }
            },
            "/api/v1/rulesets/{key}": {
                "get": {
                    "summary": "One rule set with all its parameters",
                    "parameters": [
                        {
                            "name": "key",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        }
                    ],
                    "responses": {"200": _json({"type": "object"}, "Parameters"), "404": NOT_FOUND},
                }
            },
            "/api/v1/clubs/{slug}/standings": {
                "get": {
                    "summary": "A club's standings (public clubs, or with the table code)",
                    "parameters": [
                        {
                            "name": "slug",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string"},
                        },
                        {"name": "season", "in": "query", "schema": {"type": "string"}},
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
                        {"name": "sort", "in": "query", "schema": {"type": "string"}},
                        TABLE_CODE,
                    ],
                    "responses": {
                        "200": _json(
                            {"type": "array", "items": _ref("Standing")}, "Ranked members"
                        ),
                        "404": NOT_FOUND,
                        "422": ERRORS,
                    },
                }
            },
            "/api/v1/games": {
                "post": {
                    "summary": "Start a game",
                    "parameters": [TABLE_CODE],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": new_game}},
                    },
                    "responses": {
                        "201": _json(
                            _ref("NewGame"),
                            "Started: the game's state, its secret (`key`, for X-Game-Key) "
                            "and its private link in full (`link`), to share with the table",
                        ),
                        "400": BAD_JSON,
                        "403": FORBIDDEN,
                        "404": _json(_ref("Errors"), "No club with that slug"),
                        "415": NOT_JSON,
                        "422": ERRORS,
                    },
                }
            },
            "/api/v1/games/{game_id}": {
                "get": {
                    "summary": "A game's state",
                    "parameters": [GAME_ID, GAME_KEY, TABLE_CODE, DEALS_FROM],
                    "responses": {
                        "200": GAME,
                        "404": NOT_FOUND,
                        "422": DEALS_FROM_REFUSED,
                        "429": TOO_MANY,
                    },
                }
            },
            "/api/v1/games/{game_id}/deals": {
                "post": {
                    "summary": "Enter the next deal",
                    "parameters": [GAME_ID, GAME_KEY, TABLE_CODE, IDEMPOTENCY_KEY, DEALS_FROM],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": deal_body}},
                    },
                    "responses": {
                        "201": GAME,
                        "400": BAD_JSON,
                        "403": FORBIDDEN,
                        "415": NOT_JSON,
                        "404": NOT_FOUND,
                        "429": TOO_MANY,
                        "409": _json(
                            _ref("Errors"),
                            "The game is over; or it holds its most deals (deal_limit: "
                            f"{DEAL_LIMIT} unless a house rule sets it), a limit that does not "
                            "end the game; or another phone saved the deal first",
                        ),
                        "422": ERRORS,
                    },
                }
            },
            "/api/v1/games/{game_id}/deals/{number}": {
                "put": {
                    "summary": "Correct a deal; later totals are recomputed",
                    "parameters": [GAME_ID, deal_number, GAME_KEY, TABLE_CODE, DEALS_FROM],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": deal_body}},
                    },
                    "responses": {
                        "200": GAME,
                        "400": BAD_JSON,
                        "403": FORBIDDEN,
                        "415": NOT_JSON,
                        "404": NOT_FOUND,
                        "429": TOO_MANY,
                        "409": _json(_ref("Errors"), "Made from an older version of the deal"),
                        "422": ERRORS,
                    },
                }
            },
        },
        "components": {
            "schemas": {
                "Entry": entry,
                "Breakdown": breakdown,
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
