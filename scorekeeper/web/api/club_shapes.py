"""What a club's requests send, each figure declared once (figures.py), as `shapes.py` does a
game's: a club night's setup and the round to seat, and the query strings of its nights and its
standings."""

from __future__ import annotations

from scorekeeper.rules import PRESETS
from scorekeeper.rules.nights import MOST_ROUNDS
from scorekeeper.services.nights import ranking as night_ranking
from scorekeeper.services.nights.planning import DEFAULT_ROUNDS, MOST_GUESTS, MOST_PLAYERS, SHAPES
from scorekeeper.services.nights.play import NO_GAME, PARTNERS_MODES, ROTATING, SIT_OUTS
from scorekeeper.web.api.figures import Figure, Shape
from scorekeeper.web.api.refusals import Body
from scorekeeper.web.api.shapes import DEAL_NUMBER

# --- a club night (issue 29) -----------------------------------------------------------------

ROUNDS_WORDS = "rounds is how many rounds the night plays, 1 to {maximum}: not {shown}."
NIGHT_SETUP = Shape(
    {
        "members": Figure(
            {
                "type": "array",
                "maxItems": MOST_PLAYERS,
                "items": {"type": "integer"},
                "default": [],
                "description": "The ids of the club's members present (GET "
                "/api/v1/clubs/{slug}/members; a member archived or not the club's: 422)",
            },
            {
                "maxItems": "At most {maxItems} players a night; members lists {count:,}.",
                **dict.fromkeys(("type", "items"), "members is a list of member ids (numbers)."),
            },
        ),
        "guests": Figure(
            {
                "type": "array",
                "maxItems": MOST_GUESTS,
                "items": {"type": "string"},
                "default": [],
                "description": "The guests' names, one an item (no commas or line breaks: "
                "the night reads its guests as a list split at them)",
            },
            {
                "maxItems": "At most {maxItems} guests a night; guests lists {count:,}.",
                **dict.fromkeys(("type", "items"), "guests is a list of names (text)."),
            },
        ),
        "ruleset": Figure(
            {
                "type": "string",
                "enum": list(PRESETS),
                "description": "The preset's key every table plays; send it or saved_rules",
            },
            {"type": "Name a rule set by its key."},
        ),
        "saved_rules": Figure(
            {
                "type": "integer",
                "description": "The id of one of the club's saved rule sets (GET "
                "/api/v1/clubs/{slug}/rule-sets) every table plays; send it or ruleset",
            },
            {"type": "saved_rules is the id of one of the club's saved rule sets."},
        ),
        "rounds": Figure(
            {
                "type": "integer",
                "minimum": 1,
                "maximum": MOST_ROUNDS,
                "default": DEFAULT_ROUNDS,
                "description": f"How many rounds (a game at each table) the night plays; "
                f"{DEFAULT_ROUNDS} if left out",
            },
            dict.fromkeys(("type", "minimum", "maximum"), ROUNDS_WORDS),
        ),
        "partners": Figure(
            {
                "type": "string",
                "enum": list(PARTNERS_MODES),
                "default": ROTATING,
                "description": "; ".join(f"{k}: {w}" for k, w in PARTNERS_MODES.items()),
            },
            {"type": "partners is one of " + ", ".join(map(repr, PARTNERS_MODES)) + "."},
        ),
        "sit_out": Figure(
            {
                "type": "string",
                "enum": list(SIT_OUTS),
                "default": NO_GAME,
                "description": "How a round sat out counts in the night's standings. "
                + "; ".join(f"{k}: {w}" for k, w in SIT_OUTS.items()),
            },
            {"type": "sit_out is one of " + ", ".join(map(repr, SIT_OUTS)) + "."},
        ),
        "ranking": Figure(
            {
                "type": "string",
                "enum": list(night_ranking.OFFERED),
                "default": night_ranking.DEFAULT,
                "description": "How the night's standings rank its players. "
                + "; ".join(f"{k}: {w}" for k, w in night_ranking.OFFERED.items()),
            },
            {"type": "ranking is one of " + ", ".join(map(repr, night_ranking.OFFERED)) + "."},
        ),
        "shape": Figure(
            {
                "type": "string",
                "enum": list(SHAPES),
                "description": "How the tables are made ("
                + "; ".join(f"{k}: {words}" for k, (_, words) in SHAPES.items())
                + "); left out, as the rules seat players (individual tables for every player "
                "for themselves, else tables of 4)",
            },
            {"type": "shape is one of " + ", ".join(map(repr, SHAPES)) + "."},
        ),
    },
    "Tonight's night: who is here, the rules every table plays, how many rounds, how "
    "partners are chosen, how a round sat out counts and how the night ranks",
)
NIGHT_SEAT = Shape(
    {
        "round": Figure(
            {
                **DEAL_NUMBER,
                "description": "The round to seat: the night's `next_round.number` when it was "
                "read. Required, so that a request sent twice never seats two rounds: a round "
                "already seated is refused with 409, one further on with 422",
            },
            {
                "required": "round is required: the number of the round to seat.",
                **dict.fromkeys(
                    ("type", "minimum", "maximum"), "round is the number of the round to seat."
                ),
            },
            required=True,
        ),
        "draw": Figure(
            {
                "type": "integer",
                "description": "The night's `draw` when its next_round was read: if the "
                "seating was drawn again since, the round is not seated unseen (409). Without "
                "it, the seating as it is now",
            },
            {"type": "draw is the night's draw number, as it was read."},
        ),
    },
    "The next round to seat",
)

# The document's schemas of a club's request bodies, by name (after the game's, `REQUESTS`).
CLUB_REQUESTS = {
    "NightSetup": NIGHT_SETUP,
    "NightSeat": NIGHT_SEAT,
}
# A night's bodies have no sides: every refusal names a figure of the request as a whole.
NIGHT_BODY = Body("members", tuple(NIGHT_SETUP.figures))
SEAT_BODY = Body("round", tuple(NIGHT_SEAT.figures))

# --- the query strings ------------------------------------------------------------------------

DATE = Figure(
    {"type": "string", "format": "date"}, {"format": "Dates are written like 2026-04-30."}
)
# How many of a club's newest nights the API lists unless asked for another number.
NIGHTS_SHOWN = 10
MOST_NIGHTS_SHOWN = 100
NIGHTS_QUERY = Shape(
    {
        "limit": Figure(
            {
                "type": "integer",
                "minimum": 1,
                "maximum": MOST_NIGHTS_SHOWN,
                "default": NIGHTS_SHOWN,
                "description": f"How many of the newest nights to list ({NIGHTS_SHOWN} by "
                f"default, at most {MOST_NIGHTS_SHOWN}); not a number in that range: 422",
            },
            dict.fromkeys(
                ("type", "minimum", "maximum"),
                "limit is how many nights to list: 1 to {maximum}, not '{text}'.",
            ),
        )
    },
    query=True,
)
# The standings' `games`: each value and whether it means the games at the club's nights only.
STANDINGS_GAMES = {"all": False, "nights": True}
STANDINGS_QUERY = Shape(
    {
        "season": Figure(
            {
                "type": "string",
                "description": "A season's id, or 'all'; without season, from or to, the "
                "current season",
            }
        ),
        "from": DATE,
        "to": DATE,
        "ruleset": Figure({"type": "string"}),
        "saved_rules": Figure(
            {
                "type": "string",
                "description": "The id of one of the club's saved rule sets: only the games "
                "started from it",
            }
        ),
        "games": Figure(
            {
                "type": "string",
                "enum": list(STANDINGS_GAMES),
                "default": "all",
                "description": "'nights': only the games played at the club's nights; 'all' "
                "(the default): every club game",
            }
        ),
        # Any order standings.SORTS does not name ranks in the club's own order too.
        "sort": Figure(
            {
                "type": "string",
                "description": "The figure to rank by (win_rate, wins, rating, ...); without "
                "it, the club's own choice (its settings), win_rate unless it chose another; "
                "rating only where ratings are kept for the filters, else win_rate",
            }
        ),
    },
    query=True,
)
