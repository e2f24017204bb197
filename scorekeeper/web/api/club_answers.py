"""What the API answers of a club, each shape declared once as a model as `answers.py` declares
a game's: its saved rule sets, its members and standings, and its nights."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, computed_field

from scorekeeper.services.nights import ranking as night_ranking
from scorekeeper.services.ratings import model
from scorekeeper.services.ratings.kept import Kept
from scorekeeper.services.ratings.model import PROVISIONAL_GAMES
from scorekeeper.web.api.answer_base import Answer, components, declared
from scorekeeper.web.api.answers import GAME_KEY, Preset

# A member's rating (issue 30) as the standings page shows it, and the games behind it.
RATING = (
    "The member's rating: their skill from who won, with and against whom (OpenSkill), the "
    "cautious figure (skill less 3 uncertainties) to one decimal, so few games rate low; null "
    "where no rating is kept for the filters (dates of one's own, a season with a rule set, the "
    "nights' games only) or no game rated the member"
)
RATED_GAMES = "The games behind the rating (0 where it is null)"
SEPARABLE = (
    "false: every rated game in the scope was with the same partner (or partners), so the "
    "ratings cannot yet tell this player from them (the standings mark it †); true: told apart, "
    "by a game with someone else or alone; null: no rating, or not worked out yet"
)
PROVISIONAL = (
    f"The rating stands on fewer than {PROVISIONAL_GAMES} games (provisional: the standings "
    "sorted by rating list it after every rating that is not); false where the rating is null"
)
MU = "The skill the rating is figured from (OpenSkill's mu; the rating is mu less 3 sigmas)"
SIGMA = "How unsure that skill is (OpenSkill's sigma)"
SCOPE = (
    "Which games the ratings are kept over: all, season:<id>, rules:<preset>, saved:<id>; the "
    "standings' and the members' answers default alike (this season, where the club has one); "
    "null where no rating is kept for the filters"
)
SCOPE_NAME = "That scope as the pages name it: All seasons, the season's or the rule set's name"


class Rated(Answer):
    """A member's rating within a scope, and what it is made of"""

    rating: float | None = Field(description=RATING)
    rated_games: int = Field(description=RATED_GAMES)
    provisional: bool = Field(description=PROVISIONAL)
    mu: float | None = Field(description=MU)
    sigma: float | None = Field(description=SIGMA)
    rating_scope: str | None = Field(description=SCOPE)
    rating_scope_name: str | None = Field(description=SCOPE_NAME)
    separable: bool | None = Field(description=SEPARABLE)


TITLE = "Ann & Bob v Cat & Dan"


class SavedRules(Answer):
    """A club's saved rule set: a preset and the numbers the club plays differently"""

    id: int
    name: str
    ruleset: Preset
    house_rules: declared("HouseRules") = Field(  # type: ignore[valid-type]
        description="What differs from the preset ({} for nothing)"
    )
    default: bool = Field(description="Club games start from it unless another is chosen")
    rules: declared("RuleSet") = Field(  # type: ignore[valid-type]
        description="The rules in force: the preset with the house rules applied, every parameter"
    )


def rated_in(found: Kept | None, scope: str, name: str) -> dict[str, Any]:
    """A `Rated`'s fields from a kept rating (None: not yet rated in the scope)."""
    if found is None:
        figures: dict[str, Any] = {"rating": None, "rated_games": 0, "provisional": False}
        figures["separable"] = None
        return {
            **figures,
            "mu": None,
            "sigma": None,
            "rating_scope": scope,
            "rating_scope_name": name,
        }
    return {
        "rating": model.shown(found.skill),
        "rated_games": found.games,
        "provisional": model.provisional(found.games),
        "mu": found.skill.mu,
        "sigma": found.skill.sigma,
        "rating_scope": scope,
        "rating_scope_name": name,
        "separable": separable(found.partners),
    }


def separable(partners: str | None) -> bool | None:
    """Whether the ratings can tell the player apart from their partners (`Kept.partners`)."""
    return None if partners is None else partners == ""


class Member(Rated):
    """A member of a club, and their rating in the scope the standings show by default"""

    id: int = Field(description="What a new night's `members` lists")
    name: str
    archived: bool = Field(
        description="Archived: kept in the club's records, not seated at a night"
    )


class Standing(Rated):
    """A member's line of the club's standings"""

    player: str
    games: int
    wins: int
    night_wins: int = Field(
        description="The club's finished nights within the filters at which the member ranked "
        "first in the night's standings (a first place shared counts for each)"
    )
    win_rate: float = Field(description="Wins over games, 0 to 1, to four decimals, halves up")
    average_score: float = Field(description="To one decimal, halves up")
    average_per_deal: float = Field(description="To one decimal, halves up")
    total_points: int
    rank: int | None


# --- a club night (issue 29) -----------------------------------------------------------------


class NightGame(Answer):
    """A table's game, as the API names games elsewhere: shown only to those who may score it
    (the club's organisers and holders of its table link)"""

    id: int = Field(description="The game's id: GET /api/v1/games/{game_id}")
    key: str = Field(description="The game's secret, for X-Game-Key", json_schema_extra=GAME_KEY)
    url: str = Field(description="The game's private link, as a path")
    link: str = Field(description="Its private link in full", json_schema_extra={"format": "uri"})


class NightSide(Answer):
    """A side at a night's table, as seated, and its total"""

    name: str = Field(description="The side's name: its players, joined")
    players: list[str]
    total: int | None = Field(
        description="The side's total so far; null if the table's game was deleted"
    )
    won: bool
    chance: int | None = Field(
        description="At a night whose partners are balanced by rating, the side's chance of "
        "winning in percent from the club's ratings, while its table has no deal (a table's "
        "chances sum to 100); else null"
    )


class NightTable(Answer):
    """A table of a round seated: its sides as seated and its game as it stands"""

    number: int
    title: str = Field(description=TITLE)
    sides: list[NightSide]
    deals: int = Field(description="Deals played at the table so far")
    finished: bool = Field(description="The table's game is over (or was deleted)")
    game: NightGame | None = Field(description="The table's game; null if it was deleted")


class SeatingTable(Answer):
    """A table of the next round as the engine seats it"""

    number: int
    title: str = Field(description=TITLE)
    sides: list[list[str]]
    chances: list[Annotated[int, Field(ge=0, le=100)]] = Field(
        description="At a night whose partners are balanced by rating, each side's chance of "
        "winning in percent, in the sides' order (summing to 100); else empty",
    )


class Seating(Answer):
    """The next round as the engine seats it now (the same each time it is asked, until a
    player comes or goes): what seating the round keeps"""

    number: int = Field(description="The round's number")
    tables: list[SeatingTable]
    sitting_out: list[str]


class NightPlayer(Answer):
    """A player of a night"""

    id: int = Field(description="The player's id at this night")
    name: str = Field(description="Their name that night")
    member_id: int | None = Field(description="The member; null for a guest")
    from_round: int = Field(description="The first round they may be seated")
    left_after: int | None = Field(
        description="The last round before they left; null while they are here"
    )

    @computed_field(description="Still at the night (not gone)")
    @property
    def here(self) -> bool:
        """Not gone: no round they left after."""
        return self.left_after is None


class NightStanding(Answer):
    """A player's line of the night's standings"""

    rank: int | None = Field(
        description="null until they have a game counted, and while the night's ranking does "
        "not rank them (not_ranked says why)"
    )
    name: str
    points: int
    games: int = Field(description="Games counted (with rounds sat out, if they count as 0 points)")
    wins: int
    sat_out: int = Field(description="Rounds sat out")
    average: int | None = Field(
        description="Points per game counted, to the whole point, halves up (2512.5 is 2513), "
        "as the night's page and CSV show it"
    )
    score: int | None = Field(
        description="The figure the night's ranking ranks by, to the whole point, halves up: the "
        "average per game (half, average), total points (total), or points with each round sat "
        "out scored at the player's own average (own_average); null with no game counted"
    )
    not_ranked: str | None = Field(
        description="Why the player is not ranked, in words; null when ranked"
    )


class NightRound(Answer):
    """A round seated: its tables and who sat it out"""

    number: int
    tables: list[NightTable]
    sitting_out: list[str]


class NightAbout(Answer):
    """What a night is: its date, rules, tables, partners and rounds"""

    id: int
    url: str = Field(description="The night's address in this API")
    played_on: str = Field(json_schema_extra={"format": "date"})
    rules_called: str = Field(
        description="The saved rule set's name the night started with, else the preset's"
    )
    ruleset: str = Field(description="The preset every table plays")
    saved_rules_id: int | None = Field(
        description="The club's saved rule set it started from; null for a preset (and once "
        "that saved rule set is deleted)"
    )
    shape: str = Field(description="fours, sixes or singles")
    partners: str = Field(
        description="rotating, fixed, balanced (by rating) or fixed_balanced (fixed pairs drawn "
        "balanced by rating)"
    )
    sit_out: str = Field(description="How a round sat out counts: no game or zero")
    ranking: Literal[tuple(night_ranking.RANKINGS)] = Field(  # type: ignore[valid-type]
        description="How the night's standings rank its players (ranking_rule says it in "
        "words); average only for nights kept before a club chose"
    )
    rounds_planned: int
    rounds_seated: int
    finished_at: str | None = Field(
        description="When its organisers ended it; null if they have not",
        json_schema_extra={"format": "date-time"},
    )


class NightBrief(NightAbout):
    """A club night in brief"""

    players: int = Field(description="Players come")


class Night(NightAbout):
    """A club night: its rules, its players present and gone, each round's tables and games,
    the night's standings and the next round's seating"""

    sit_out_rule: str = Field(description="How a round sat out counts, in words")
    ranking_rule: str = Field(description="How the night ranks, in words")
    may_run: bool = Field(
        description="Whoever asked may seat its rounds (organisers; the table link where the "
        "club allows it)"
    )
    draw: int = Field(
        description="How many times the next round's seating was drawn again: send it with the "
        "round to seat, so that what is seated is the seating read"
    )
    players: list[NightPlayer]
    rounds: list[NightRound] = Field(description="Each round seated, its tables and who sat it out")
    round_over: bool = Field(
        description="Every table of the last round seated has finished (true if none is "
        "seated): the next round may be seated"
    )
    done: bool = Field(description="Ended by its organisers, or every round planned played")
    standings: list[NightStanding] = Field(
        description="The night's players ranked by its ranking, then by name; those not ranked "
        "after"
    )
    next_round: Seating | None = Field(
        description="The next round's seating once the last round is over; null while a round "
        "plays, once the night is done, or when it cannot be seated (why_no_next)"
    )
    why_no_next: str | None = Field(
        description="Why the next round cannot be seated, in words; null when it can, a round "
        "still plays (round_over false) or the night is done"
    )


# The document's schemas of a club's answers, by name (after a game's, `ANSWERS`).
CLUB_ANSWERS: dict[str, dict[str, Any]] = components(
    SavedRules, Member, Standing, NightBrief, Night
)
