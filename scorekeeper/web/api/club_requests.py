"""What a club's requests send, each declared once as a model (modelled.py), as
`game_requests.py` does a game's: a club night's setup and the round to seat, and the query
strings of its nights and its standings."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, SkipValidation

from scorekeeper.rules import PRESETS
from scorekeeper.rules.nights import MOST_ROUNDS
from scorekeeper.services.nights import ranking as night_ranking
from scorekeeper.services.nights.planning import DEFAULT_ROUNDS, MOST_GUESTS, MOST_PLAYERS, SHAPES
from scorekeeper.services.nights.play import NO_GAME, PARTNERS_MODES, ROTATING, SIT_OUTS
from scorekeeper.web.api.game_requests import MOST_DEAL, DealNumber, Unsent
from scorekeeper.web.api.modelled import Say, Strict, day, digits
from scorekeeper.web.api.refusals import Body


def _one_of(name: str, choices: Any, description: str) -> Any:
    """A choice the night's services check; this API refuses only what is not text."""
    words = f"{name} is one of " + ", ".join(map(repr, choices)) + "."
    return Annotated[str, Say(words, description, shown={"enum": list(choices)})]


def _meanings(choices: dict[str, str]) -> str:
    """Each choice and what it means."""
    return "; ".join(f"{key}: {words}" for key, words in choices.items())


# --- a club night (issue 29) -----------------------------------------------------------------


class NightSetup(Strict):
    """Tonight's night: who is here, its rules, rounds, partners, sit-outs and ranking"""

    members: Annotated[
        list[int],
        Field(max_length=MOST_PLAYERS),
        Say(
            "members is a list of member ids (numbers).",
            "The ids of the club's members present (GET /api/v1/clubs/{slug}/members; a member "
            "archived or not the club's: 422)",
            too_long=f"At most {MOST_PLAYERS} players a night; members lists {{count:,}}.",
        ),
    ] = []
    guests: Annotated[
        list[str],
        Field(max_length=MOST_GUESTS),
        Say(
            "guests is a list of names (text).",
            "The guests' names, one an item (no commas or line breaks: the night reads its "
            "guests as a list split at them)",
            too_long=f"At most {MOST_GUESTS} guests a night; guests lists {{count:,}}.",
        ),
    ] = []
    ruleset: Annotated[
        str | Unsent,
        Say(
            "Name a rule set by its key.",
            "The preset's key every table plays; send it or saved_rules",
            shown={"enum": list(PRESETS)},
        ),
    ] = None
    saved_rules: Annotated[
        int | Unsent,
        Say(
            "saved_rules is the id of one of the club's saved rule sets.",
            "The id of one of the club's saved rule sets (GET "
            "/api/v1/clubs/{slug}/rule-sets) every table plays; send it or ruleset",
        ),
    ] = None
    rounds: Annotated[
        Annotated[int, Field(ge=1, le=MOST_ROUNDS)],
        Say(
            f"rounds is how many rounds the night plays, 1 to {MOST_ROUNDS}: not {{shown}}.",
            f"How many rounds (a game at each table) the night plays; {DEFAULT_ROUNDS} if left out",
        ),
    ] = DEFAULT_ROUNDS
    partners: _one_of("partners", PARTNERS_MODES, _meanings(PARTNERS_MODES)) = ROTATING
    sit_out: _one_of(
        "sit_out",
        SIT_OUTS,
        "How a round sat out counts in the night's standings. " + _meanings(SIT_OUTS),
    ) = NO_GAME
    ranking: _one_of(
        "ranking",
        night_ranking.OFFERED,
        "How the night's standings rank its players. " + _meanings(night_ranking.OFFERED),
    ) = night_ranking.DEFAULT
    shape: (
        _one_of(
            "shape",
            SHAPES,
            "How the tables are made ("
            + "; ".join(f"{k}: {words}" for k, (_, words) in SHAPES.items())
            + "); left out, as the rules seat players (individual tables for every player for "
            "themselves, else tables of 4)",
        )
        | Unsent
    ) = None


class NightSeat(Strict):
    """The next round to seat"""

    round: Annotated[
        DealNumber,
        Say(
            "round is the number of the round to seat.",
            "The round to seat: the night's `next_round.number` when it was read. Required, so "
            "that a request sent twice never seats two rounds: a round already seated is "
            "refused with 409, one further on with 422",
            missing="round is required: the number of the round to seat.",
        ),
    ]
    draw: Annotated[
        int | Unsent,
        Say(
            "draw is the night's draw number, as it was read.",
            "The night's `draw` when its next_round was read: if the seating was "
            "drawn again since, the round is not seated unseen (409). Without it, the seating "
            "as it is now",
        ),
    ] = None


# The document's schemas of a club's request bodies, by name (after the game's, `REQUESTS`).
CLUB_REQUESTS = {"NightSetup": NightSetup, "NightSeat": NightSeat}
# A night's bodies have no sides: every refusal names a figure of the request as a whole.
NIGHT_BODY = Body("members", tuple(NightSetup.model_fields))
SEAT_BODY = Body("round", tuple(NightSeat.model_fields))

# --- the query strings ------------------------------------------------------------------------

# How many of a club's newest nights the API lists unless asked for another number.
NIGHTS_SHOWN = 10
MOST_NIGHTS_SHOWN = 100


class NightsQuery(Strict):
    """How many of a club's nights to list."""

    limit: Annotated[
        Annotated[int, Field(ge=1, le=MOST_NIGHTS_SHOWN)],
        BeforeValidator(digits(MOST_DEAL)),
        Say(
            f"limit is how many nights to list: 1 to {MOST_NIGHTS_SHOWN}, not '{{text}}'.",
            f"How many of the newest nights to list ({NIGHTS_SHOWN} by default, at "
            f"most {MOST_NIGHTS_SHOWN}); not a number in that range: 422",
        ),
    ] = NIGHTS_SHOWN


# The standings' `games`: each value and whether it means the games at the club's nights only.
STANDINGS_GAMES = {"all": False, "nights": True}
DATE = Annotated[date | Unsent, BeforeValidator(day), Say("Dates are written like 2026-04-30.")]
# The standings' filters are the services' to check, in words naming the filter: text here.
Text = SkipValidation[str] | Unsent


class StandingsQuery(Strict):
    """The filters of a club's standings."""

    season: Annotated[
        Text,
        Field(
            description="A season's id, or 'all'; without season, from or to, the current season"
        ),
    ] = None
    from_: Annotated[DATE, Field(alias="from")] = None
    to: DATE = None
    ruleset: Text = None
    saved_rules: Annotated[
        Text,
        Field(
            description="The id of one of the club's saved rule sets: only the games started "
            "from it"
        ),
    ] = None
    games: Annotated[
        SkipValidation[str],
        Field(
            description="'nights': only the games played at the club's nights; 'all' (the "
            "default): every club game",
            json_schema_extra={"enum": list(STANDINGS_GAMES)},
        ),
    ] = "all"
    # Any order standings.SORTS does not name ranks in the club's own order too.
    sort: Annotated[
        Text,
        Field(
            description="The figure to rank by (win_rate, wins, rating, ...); without it, the "
            "club's own choice (its settings), win_rate unless it chose another; rating only "
            "where ratings are kept for the filters, else win_rate"
        ),
    ] = None
