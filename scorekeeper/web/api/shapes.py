"""What the API's requests send, each figure declared once (figures.py): the document's
request bodies and query parameters, and what the views read and refuse."""

from __future__ import annotations

from scorekeeper.rules import PRESETS
from scorekeeper.rules.nights import MOST_ROUNDS
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
from scorekeeper.services.night_play import NO_GAME, PARTNERS_MODES, ROTATING, SIT_OUTS
from scorekeeper.services.nights import DEFAULT_ROUNDS, MOST_GUESTS, MOST_PLAYERS, SHAPES
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
    "partners are chosen and how a round sat out counts",
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

# The document's schemas of request bodies, by name.
REQUESTS = {
    "Entry": ENTRY,
    "GameSetup": GAME_SETUP,
    "DealScores": DEAL_SCORES,
    "PartBody": PART_BODY,
    "NightSetup": NIGHT_SETUP,
    "NightSeat": NIGHT_SEAT,
}
# Where a refusal's figures are in each body (JSON pointers): a correction's names its
# version, a new deal's the deal it is for (a correction's number is in its path).
GAME_BODY = Body("sides", tuple(GAME_SETUP.figures))
DEAL_BODY = Body("scores", ("scores", "version"), NAMED_COUNTS)
NEW_DEAL_BODY = Body("scores", ("scores", "deal"), NAMED_COUNTS)
LINE_BODY = Body("entry", tuple(PART_BODY.figures), NAMED_COUNTS)
# A night's bodies have no sides: every refusal names a figure of the request as a whole.
NIGHT_BODY = Body("members", tuple(NIGHT_SETUP.figures))
SEAT_BODY = Body("round", tuple(NIGHT_SEAT.figures))

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
