"""What the API answers, each shape declared once: the document's schemas of its answers."""

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
SAVED_RULES = answered(
    {
        "id": INTEGER,
        "name": TEXT,
        "ruleset": {"type": "string", "enum": list(PRESETS)},
        "house_rules": {
            **ref("HouseRules"),
            "description": "What differs from the preset ({} for nothing)",
        },
        "default": {
            "type": "boolean",
            "description": "Club games start from it unless another is chosen",
        },
        "rules": {
            **ref("RuleSet"),
            "description": "The rules in force: the preset with the house rules applied, every "
            "parameter",
        },
    },
    "A club's saved rule set: a preset and the numbers the club plays differently",
)
# --- a club night (issue 29) -----------------------------------------------------------------

NUMBER_OR_NULL = {"type": ["integer", "null"]}
NIGHT_GAME = answered(
    {
        "id": {"type": "integer", "description": "The game's id: GET /api/v1/games/{game_id}"},
        "key": {
            "type": "string",
            "pattern": f"^{SECRET.pattern}$",
            "description": "The game's secret, for X-Game-Key",
        },
        "url": {"type": "string", "description": "The game's private link, as a path"},
        "link": {"type": "string", "format": "uri", "description": "Its private link in full"},
    },
    "A table's game, as the API names games elsewhere: shown only to those who may score it "
    "(the club's organisers and holders of its table link)",
)
NIGHT_SIDE = answered(
    {
        "name": {"type": "string", "description": "The side's name: its players, joined"},
        "players": NAMES,
        "total": {
            **NUMBER_OR_NULL,
            "description": "The side's total so far; null if the table's game was deleted",
        },
        "won": {"type": "boolean"},
        "chance": {
            **NUMBER_OR_NULL,
            "description": "At a night whose partners are balanced by rating, the side's chance "
            "of winning in percent from the club's ratings, while its table has no deal (a "
            "table's chances sum to 100); else null",
        },
    }
)
NIGHT_TABLE = answered(
    {
        "number": INTEGER,
        "title": {"type": "string", "description": "Ann & Bob v Cat & Dan"},
        "sides": {"type": "array", "items": ref("NightSide")},
        "deals": {"type": "integer", "description": "Deals played at the table so far"},
        "finished": {
            "type": "boolean",
            "description": "The table's game is over (or was deleted)",
        },
        "game": {
            "anyOf": [ref("NightGame"), {"type": "null"}],
            "description": "The table's game; null if it was deleted",
        },
    },
    "A table of a round seated: its sides as seated and its game as it stands",
)
SEATING = answered(
    {
        "number": {"type": "integer", "description": "The round's number"},
        "tables": {
            "type": "array",
            "items": answered(
                {
                    "number": INTEGER,
                    "title": {"type": "string", "description": "Ann & Bob v Cat & Dan"},
                    "sides": {"type": "array", "items": NAMES},
                    "chances": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 0, "maximum": 100},
                        "description": "At a night whose partners are balanced by rating, each "
                        "side's chance of winning in percent, in the sides' order (summing to "
                        "100); else empty",
                    },
                }
            ),
        },
        "sitting_out": NAMES,
    },
    "The next round as the engine seats it now (the same each time it is asked, until a "
    "player comes or goes): what seating the round keeps",
)
NIGHT_PLAYER = answered(
    {
        "id": {"type": "integer", "description": "The player's id at this night"},
        "name": {"type": "string", "description": "Their name that night"},
        "member_id": {**NUMBER_OR_NULL, "description": "The member; null for a guest"},
        "from_round": {"type": "integer", "description": "The first round they may be seated"},
        "left_after": {
            **NUMBER_OR_NULL,
            "description": "The last round before they left; null while they are here",
        },
        "here": {"type": "boolean", "description": "Still at the night (not gone)"},
    }
)
# A member's rating (issue 30) as the standings page shows it, and the games behind it.
RATING = {
    "type": ["number", "null"],
    "description": "The member's rating: their skill from who won, with and against whom "
    "(OpenSkill), the cautious figure (skill less 3 uncertainties) to one decimal, so few games "
    "rate low; null where no rating is kept for the filters (dates of one's own, a season with "
    "a rule set, the nights' games only) or no game rated the member",
}
RATED_GAMES = {
    "type": "integer",
    "description": "The games behind the rating (0 where it is null)",
}
MEMBER = answered(
    {
        "id": {"type": "integer", "description": "What a new night's `members` lists"},
        "name": TEXT,
        "archived": {
            "type": "boolean",
            "description": "Archived: kept in the club's records, not seated at a night",
        },
        "rating": {
            **RATING,
            "description": "The member's rating over every club game (as the standings show "
            "it over all seasons); null before their first rated game",
        },
        "rated_games": RATED_GAMES,
    },
    "A member of a club",
)
NIGHT_STANDING = answered(
    {
        "rank": {**NUMBER_OR_NULL, "description": "null until they have a game counted"},
        "name": TEXT,
        "points": INTEGER,
        "games": {
            "type": "integer",
            "description": "Games counted (with rounds sat out, if they count as 0 points)",
        },
        "wins": INTEGER,
        "sat_out": {"type": "integer", "description": "Rounds sat out"},
        "average": {**NUMBER_OR_NULL, "description": "Points per game counted, rounded"},
    }
)
NIGHT_BRIEF_PROPERTIES: dict[str, Any] = {
    "id": INTEGER,
    "url": {"type": "string", "description": "The night's address in this API"},
    "played_on": {"type": "string", "format": "date"},
    "rules_called": {
        "type": "string",
        "description": "The saved rule set's name the night started with, else the preset's",
    },
    "ruleset": {"type": "string", "description": "The preset every table plays"},
    "saved_rules_id": {
        **NUMBER_OR_NULL,
        "description": "The club's saved rule set it started from; null for a preset (and "
        "once that saved rule set is deleted)",
    },
    "shape": {"type": "string", "description": "fours, sixes or singles"},
    "partners": {"type": "string", "description": "rotating, fixed or balanced (by rating)"},
    "sit_out": {"type": "string", "description": "How a round sat out counts: no game or zero"},
    "rounds_planned": INTEGER,
    "rounds_seated": INTEGER,
    "finished_at": {
        "type": ["string", "null"],
        "format": "date-time",
        "description": "When its organisers ended it; null if they have not",
    },
}
NIGHT_BRIEF = answered(
    {**NIGHT_BRIEF_PROPERTIES, "players": {"type": "integer", "description": "Players come"}},
    "A club night in brief",
)
NIGHT = answered(
    {
        **NIGHT_BRIEF_PROPERTIES,
        "sit_out_rule": {"type": "string", "description": "How a round sat out counts, in words"},
        "may_run": {
            "type": "boolean",
            "description": "Whoever asked may seat its rounds (organisers; the table link where "
            "the club allows it)",
        },
        "draw": {
            "type": "integer",
            "description": "How many times the next round's seating was drawn again: send it "
            "with the round to seat, so that what is seated is the seating read",
        },
        "players": {"type": "array", "items": ref("NightPlayer")},
        "rounds": {
            "type": "array",
            "description": "Each round seated, its tables and who sat it out",
            "items": answered(
                {
                    "number": INTEGER,
                    "tables": {"type": "array", "items": ref("NightTable")},
                    "sitting_out": NAMES,
                }
            ),
        },
        "round_over": {
            "type": "boolean",
            "description": "Every table of the last round seated has finished (true if none is "
            "seated): the next round may be seated",
        },
        "done": {
            "type": "boolean",
            "description": "Ended by its organisers, or every round planned played",
        },
        "standings": {
            "type": "array",
            "description": "The night's players ranked by average per game, then points",
            "items": ref("NightStanding"),
        },
        "next_round": {
            "anyOf": [ref("Seating"), {"type": "null"}],
            "description": "The next round's seating once the last round is over; null while a "
            "round plays, once the night is done, or when it cannot be seated (why_no_next)",
        },
        "why_no_next": {
            "type": ["string", "null"],
            "description": "Why the next round cannot be seated, in words; null when it can, a "
            "round still plays (round_over false) or the night is done",
        },
    },
    "A club night: its rules, its players present and gone, each round's tables and games, "
    "the night's standings and the next round's seating",
)

# The document's schemas of answers, by name.
ANSWERS: dict[str, dict[str, Any]] = {
    "Member": MEMBER,
    "NightBrief": NIGHT_BRIEF,
    "Night": NIGHT,
    "NightPlayer": NIGHT_PLAYER,
    "NightTable": NIGHT_TABLE,
    "NightSide": NIGHT_SIDE,
    "NightGame": NIGHT_GAME,
    "NightStanding": NIGHT_STANDING,
    "Seating": SEATING,
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
    "SavedRulesLink": answered({"id": INTEGER, "name": TEXT}),
    "SavedRules": SAVED_RULES,
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
    "Standing": answered(
        {
            "player": TEXT,
            "games": INTEGER,
            "wins": INTEGER,
            "night_wins": {
                "type": "integer",
                "description": "The club's finished nights within the filters at which the "
                "member ranked first in the night's standings (a first place shared counts "
                "for each)",
            },
            "win_rate": {"type": "number"},
            "average_score": {"type": "number"},
            "average_per_deal": {"type": "number"},
            "total_points": INTEGER,
            "rank": {"type": ["integer", "null"]},
            "rating": RATING,
            "rated_games": RATED_GAMES,
        }
    ),
}
