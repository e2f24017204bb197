"""What the API answers of a game, each shape declared once as a model (answer_base.py): its
state, each side's own line of the next deal, the rule sets in brief, and every refusal. A
deal's history and agreement are in history_answers.py, a club's answers in club_answers.py."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, computed_field, create_model
from pydantic.json_schema import SkipJsonSchema

from scorekeeper.rules import PRESETS
from scorekeeper.rules.terms import (
    BREAKDOWN_LINES,
    DEAL_LIMIT,
    DEALS_PER_PAGE,
    MAX_DEAL_LIMIT,
    MAX_ERRORS_LISTED,
)
from scorekeeper.services.links import SECRET
from scorekeeper.web.api.answer_base import Answer, components, declared, optional
from scorekeeper.web.api.history_answers import DealAgreement, DealEvent

Entry = declared("Entry")
Preset = Literal[tuple(PRESETS)]  # type: ignore[valid-type]  # the presets' keys, as they are
GAME_KEY = {"pattern": f"^{SECRET.pattern}$"}

# A side's score of a deal line by line, as the engine breaks it down (its lines are the
# engine's): each a number of points, and a worded detail for each.
Breakdown = create_model(
    "Breakdown",
    __base__=Answer,
    **{
        name: (int, ...)
        for name in (*(line for line, _ in BREAKDOWN_LINES), "total", "melded_points")
    },
    leftover_points=(int, ...),
    details=(dict[str, str], ...),
)


class Dealer(Answer):
    """Who deals a deal"""

    seat: int = Field(description="The seat, from 0")
    side: int = Field(description="The dealer's side's index")
    player: str


class Seat(Answer):
    """A chair at the table: the side it belongs to and who sits in it"""

    side: int = Field(description="The side's index")
    player: str


class GameSide(Answer):
    """A side of the game and where it stands"""

    model_config = {"json_schema_extra": optional("opening_minimum")}
    name: str
    players: list[str]
    total: int = Field(description="The running total")
    next_opening_minimum: int = Field(
        description="The least this side's first meld must count in the next deal"
    )
    par: int | None = Field(
        description="Par: the side's chance to win in percent, from its club's ratings as the "
        "game started (the sides' pars sum to 100); null for a casual game, an imported one, "
        "or a table where nobody was rated yet"
    )

    @computed_field(
        description="The same figure as next_opening_minimum, under the name v1 gave it first: "
        "here, the minimum for the NEXT deal (in deals[].scores[], opening_minimum is the one "
        "that applied)"
    )
    @property
    def opening_minimum(self) -> int:
        """v1's first name for the next deal's minimum."""
        return self.next_opening_minimum


class DealScore(Answer):
    """A side's score of a deal"""

    model_config = {"json_schema_extra": optional("opening_minimum")}
    side: str
    total: int
    running_total: int
    minimum_applied: int = Field(
        description="The opening minimum that applied to this side in this deal"
    )
    breakdown: Breakdown  # type: ignore[valid-type]
    entry: Entry

    @computed_field(
        description="The same figure as minimum_applied, under the name v1 gave it first: "
        "here, the minimum that APPLIED in this deal (in sides[], opening_minimum is the one "
        "for the next deal)"
    )
    @property
    def opening_minimum(self) -> int:
        """v1's first name for the minimum that applied."""
        return self.minimum_applied


class GameDeal(Answer):
    """A deal saved: its dealer, its version, each side's score, its history and agreement"""

    number: int
    dealer: Dealer
    version: int = Field(
        description="1 when entered, one more with each correction; send it with a correction "
        "(PUT) as `version`"
    )
    warnings: list[str]
    scores: list[DealScore]
    history: list[DealEvent] = Field(
        description="What happened to the deal, oldest first: who entered it, how and when, "
        "each correction with the figures before and after, each side's agreement or query"
    )
    agreement: DealAgreement


class Part(Answer):
    """One side's own line of the next deal: in (with its figures) or not yet"""

    side: int = Field(description="The side's index, from 0")
    name: str = Field(description="The side's name")
    is_in: bool = Field(alias="in", description="Whether the side's line is in")
    sent_by: str | None = Field(
        description="Who sent the line, as the table knows them; null if not in"
    )
    mine: bool = Field(
        description="Sent from the phone asking (the app's own pages); always false in this API"
    )
    problem: str | None = Field(
        description="Why the deal cannot stand with this line as it is, found when another "
        "side's line came in (say both sides went out); null when none. Cleared when the side "
        "sends its line again"
    )
    entry: Entry | None = Field(
        description="The line's figures, as the engine reads them; null if not in"
    )


class Parts(Answer):
    """The next deal's lines, one per side"""

    deal: int | None = Field(
        description="The number of the deal the lines are for (the game's next_deal); null when "
        "no deal can be entered"
    )
    saved: bool = Field(
        description="false: the deal waits for the lines not in yet (when the last line is in, "
        "the deal is saved and the answer is the game's state, 201)"
    )
    parts: list[Part]


class SavedRulesLink(Answer):
    """A club's saved rule set, by id and name"""

    id: int
    name: str


class NextGame(Answer):
    """The game this table played next"""

    id: int
    url: str = Field(
        description="The next game's private link, as a path (its secret is its X-Game-Key)"
    )
    started_by: str = Field(
        description="The name of the phone that started it, as the table sees it"
    )


class GameState(Answer):
    """A game: its rules, sides and totals, and a page of its deals"""

    id: int
    url: str = Field(description="The game's private link, as a path")
    ruleset: Preset
    house_rules: declared("HouseRules") = Field(  # type: ignore[valid-type]
        description="The house rules the game was started with, as they were sent: only what "
        "differs from the preset ({} for none); `rules` shows them applied"
    )
    rules: declared("RuleSet") = Field(  # type: ignore[valid-type]
        description="The rules in force: the preset with the game's house rules applied, every "
        "parameter (as GET /api/v1/rulesets/{key} shows a preset)"
    )
    saved_rules: SavedRulesLink | None = Field(
        description="The club's saved rule set the game started from, as it is called now; null "
        "for a preset or house rules of the table's own (and once the saved rule set is deleted)"
    )
    rules_name: str | None = Field(
        description="The saved rule set's name when the game started (kept if it is renamed or "
        "deleted since); null if the game started from none"
    )
    decks: int
    finished: bool
    winners: list[str]
    next_deal: int | None = Field(
        description="The number the next deal gets; null when no deal can be entered (the game "
        "is over, or holds its most deals)"
    )
    sides: list[GameSide]
    deal_limit: int = Field(
        description=f"The most deals this game holds ({DEAL_LIMIT} unless a house rule sets it, "
        f"at most {MAX_DEAL_LIMIT:,})"
    )
    first_dealer: int = Field(
        description="The seat (from 0, in `seats`) of the first deal's dealer"
    )
    seats: list[Seat] = Field(
        description="The table seat by seat: each side's first player, then each side's second, "
        "so partners sit apart; the deal passes to the next seat"
    )
    next_dealer: Dealer | None = Field(
        description="Who deals the next deal; null when no deal can be entered"
    )
    deal_limit_reached: bool = Field(
        description="The game holds its most deals: no deal can be added, though the game has "
        "not ended (not finished, no winners, next_deal null)"
    )
    deals_total: int = Field(description="How many deals the game holds")
    parts: list[Part] = Field(
        description="Each side's own line of the next deal, one per side in the game's order, in "
        "or not yet (PUT /api/v1/games/{game_id}/deals/next/parts/{side}); empty when no deal "
        "can be entered (next_deal null)"
    )
    next_game: NextGame | None = Field(
        description="The game this table played next (Play again on the finished game's "
        "scoreboard): one per finished game, whichever phone started it; null until then"
    )
    deals_from: int = Field(description="The number of the first deal listed")
    next: str | None = Field(description="The address of the next page of deals; null on the last")
    deals: list[GameDeal] = Field(
        max_length=DEALS_PER_PAGE,
        description=f"At most {DEALS_PER_PAGE} deals, from deals_from",
    )


class NewGame(GameState):
    """A game just started: its state, its secret and its private link in full"""

    key: str = Field(json_schema_extra=GAME_KEY)
    link: str = Field(json_schema_extra={"format": "uri"})


class RulesetBrief(Answer):
    """A preset in brief"""

    key: Preset
    name: str
    summary: str
    url: str = Field(description="Where this API answers the rule set in full")


class ErrorInput(Answer):
    """A figure of the request body an error is about"""

    side: int | None
    field: str
    pointer: str = Field(
        description="A JSON pointer (RFC 6901) to the figure in the request body: "
        "/scores/1/melded_cards/black_three, /version, /sides/0/name, /decks, "
        "/rules/going_out_bonus, /entry/books/clean, /entered_at"
    )


class Error(Answer):
    """One figure refused, and why"""

    side: int | None = Field(description="The side's index; null for the request as a whole")
    field: str | None = Field(
        description="The figure refused, as a dotted path within the side (books.clean) or the "
        "request (decks, rules, version); null when the answer names none"
    )
    message: str
    inputs: list[ErrorInput] = Field(
        description="The figures of the request body the error is about: a side's own figure, "
        "or every side's figure that counted toward a limit of the whole deal. Empty when the "
        "error is about no figure of the body (a header such as Idempotency-Key, the query, a "
        "game that is over, a missing game). A side's line holds that side's figures alone: "
        "another side's figure an error is about is left out (the message names that side)."
    )


class Errors(Answer):
    """Every error of a request refused"""

    model_config = {"json_schema_extra": optional("errors_left_out")}
    errors: list[Error]
    errors_left_out: int | SkipJsonSchema[None] = Field(
        None,
        exclude_if=lambda left: left is None,
        json_schema_extra={"minimum": 1},
        description=f"Only the first {MAX_ERRORS_LISTED} errors are listed: how many more there "
        "were. Absent when every error is listed",
    )


# The document's schemas of a game's answers, by name (a club's: `club_answers.py`).
ANSWERS: dict[str, dict[str, Any]] = components(GameState, NewGame, Parts, RulesetBrief, Errors)
