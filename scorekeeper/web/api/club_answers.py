"""What the API answers of a club, each shape declared once as `answers.py` declares a game's:
its saved rule sets, its members and standings, and its nights."""

from __future__ import annotations

from typing import Any

from scorekeeper.rules import PRESETS
from scorekeeper.services.links import SECRET
from scorekeeper.services.nights import ranking as night_ranking
from scorekeeper.web.api.answers import INTEGER, NAMES, TEXT, answered
from scorekeeper.web.api.shapes import ref

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
        "rank": {
            **NUMBER_OR_NULL,
            "description": "null until they have a game counted, and while the night's ranking "
            "does not rank them (not_ranked says why)",
        },
        "name": TEXT,
        "points": INTEGER,
        "games": {
            "type": "integer",
            "description": "Games counted (with rounds sat out, if they count as 0 points)",
        },
        "wins": INTEGER,
        "sat_out": {"type": "integer", "description": "Rounds sat out"},
        "average": {
            **NUMBER_OR_NULL,
            "description": "Points per game counted, to the whole point, halves up (2512.5 is "
            "2513), as the night's page and CSV show it",
        },
        "score": {
            **NUMBER_OR_NULL,
            "description": "The figure the night's ranking ranks by, to the whole point, halves "
            "up: the average per game (half, average), total points (total), or points with "
            "each round sat out scored at the player's own average (own_average); null with "
            "no game counted",
        },
        "not_ranked": {
            "type": ["string", "null"],
            "description": "Why the player is not ranked, in words; null when ranked",
        },
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
    "partners": {
        "type": "string",
        "description": "rotating, fixed, balanced (by rating) or fixed_balanced (fixed pairs "
        "drawn balanced by rating)",
    },
    "sit_out": {"type": "string", "description": "How a round sat out counts: no game or zero"},
    "ranking": {
        "type": "string",
        "enum": list(night_ranking.RANKINGS),
        "description": "How the night's standings rank its players (ranking_rule says it in "
        "words); average only for nights kept before a club chose",
    },
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
        "ranking_rule": {"type": "string", "description": "How the night ranks, in words"},
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
            "description": "The night's players ranked by its ranking, then by name; those "
            "not ranked after",
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

# The document's schemas of a club's answers, by name (after a game's, `ANSWERS`).
CLUB_ANSWERS: dict[str, dict[str, Any]] = {
    "Member": MEMBER,
    "NightBrief": NIGHT_BRIEF,
    "Night": NIGHT,
    "NightPlayer": NIGHT_PLAYER,
    "NightTable": NIGHT_TABLE,
    "NightSide": NIGHT_SIDE,
    "NightGame": NIGHT_GAME,
    "NightStanding": NIGHT_STANDING,
    "Seating": SEATING,
    "SavedRulesLink": answered({"id": INTEGER, "name": TEXT}),
    "SavedRules": SAVED_RULES,
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
            "win_rate": {
                "type": "number",
                "description": "Wins over games, 0 to 1, to four decimals, halves up",
            },
            "average_score": {"type": "number", "description": "To one decimal, halves up"},
            "average_per_deal": {"type": "number", "description": "To one decimal, halves up"},
            "total_points": INTEGER,
            "rank": {"type": ["integer", "null"]},
            "rating": RATING,
            "rated_games": RATED_GAMES,
        }
    ),
}
