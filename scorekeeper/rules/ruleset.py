"""Rule sets as data: every number a club may change, and how house rules apply."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .sentences import say
from .terms import (
    BOOK_KINDS,
    BOOK_SIZE,
    CARD_CATEGORIES,
    DEAL_LIMIT,
    DECK_SIZE,
    EXTRA_BONUSES,
    MAX_DEAL_LIMIT,
    MAX_DEALS,
    MAX_DECKS,
    MAX_RULE_NUMBER,
    MELDED_BLACK_THREES,
    POINTS_STEP,
    off_the_step,
)

# The kinds of book a rule set can require before a side may go out.
GOING_OUT_KINDS: tuple[str, ...] = ("clean", "dirty", "wild")
# What a book of each kind counts as toward going out, unless a rule set says otherwise.
DEFAULT_COUNTS_AS: dict[str, str] = {
    "clean": "clean",
    "dirty": "dirty",
    "wild": "wild",
    "clean_sevens": "clean",
    "black_threes": "clean",
}
# Books that can only be closed as the side goes out (black threes meld only then).
GOING_OUT_ONLY: tuple[str, ...] = ("black_threes",)

MINIMUM_BASES = ("deal", "total")
# The kinds each mapping of a rule set is keyed by.
RULE_KEYS: dict[str, tuple[str, ...]] = {
    "card_values": CARD_CATEGORIES,
    "book_bonuses": BOOK_KINDS,
    "books_to_go_out": GOING_OUT_KINDS,
    "book_counts_as": BOOK_KINDS,
    "extra_bonuses": tuple(EXTRA_BONUSES),
}
# The range a house rule's number keeps, where it is not 0 to MAX_RULE_NUMBER.
RULE_BOUNDS: dict[str, tuple[int, int]] = {
    # A dirty book holds at least one natural card.
    "max_wilds_in_dirty_book": (0, BOOK_SIZE - 1),
    "hand_size": (1, MAX_RULE_NUMBER),
    "foot_size": (1, MAX_RULE_NUMBER),
    "min_default_decks": (1, MAX_DECKS),
    "red_three_down": (0, MAX_RULE_NUMBER),
    "end_after_deals": (1, MAX_DEALS),
    "deal_limit": (1, MAX_DEAL_LIMIT),
    "target_score": (1, 10 * MAX_RULE_NUMBER),
}
# The mappings a house rule may take kinds out of, with null: books and bonuses not played.
REMOVABLE: tuple[str, ...] = ("book_bonuses", "extra_bonuses")
TIE_RULES = ("share", "play_on")


class RulesError(ValueError):
    """House rules that cannot be played: one message per problem."""

    def __init__(self, messages: list[str], rules: list[str] | None = None) -> None:
        super().__init__("; ".join(messages))
        self.messages = messages
        # The house rule each message is about ("" for the rules as a whole), as sent.
        self.rules = rules or [""] * len(messages)


def rule(doc: str, **kwargs: Any) -> Any:
    """A rule-set field with its meaning, which the API's schema of a rule set is made from."""
    return field(metadata={"doc": doc}, **kwargs)


@dataclass(frozen=True)
class RuleSet:
    """Every number and choice of one rulebook, as plain data."""

    key: str = rule("The preset's key, as games and the API name it")
    name: str = rule("The preset's name")
    summary: str = rule("The preset in one sentence")
    rulebook: str = rule("The rulebook the preset follows")
    sides_note: str = rule("Who plays: teams, individuals, how many")
    card_values: Mapping[str, int] = rule("Points of each card category, melded or left over")
    book_bonuses: Mapping[str, int] = rule(
        "The bonus of each kind of book these rules score; a kind not listed is not played"
    )
    max_wilds_in_dirty_book: int = rule("The most wild cards a seven-card dirty book may hold")
    red_three_down: int | None = rule(
        "Points for each red three laid face up; null where red threes cannot be laid down"
    )
    red_three_caught: int = rule("Points lost for each red three caught in a hand or foot")
    going_out_bonus: int = rule("The bonus of the side that goes out")
    books_to_go_out: Mapping[str, int] = rule(
        "The books of each kind (clean, dirty, wild) a side must hold to go out"
    )
    minimum_basis: str = rule(
        "What the opening minimum goes by: the deal's number ('deal') or the side's running "
        "total ('total')"
    )
    opening_minimums: tuple[tuple[int, int], ...] = rule(
        "The opening-minimum schedule: [from, minimum] steps in rising order, from a deal number "
        "or from a running total (minimum_basis); each step holds until the next"
    )
    end_after_deals: int | None = rule("The game ends after this many deals; null if it does not")
    target_score: int | None = rule(
        "The game ends after the deal in which a side reaches this total; null if it does not"
    )
    default_decks: tuple[tuple[int, int, int], ...] = rule(
        "The default number of decks: [from players, decks per player, plus] steps; from that "
        "many players, decks = players × per player + plus (at least min_default_decks)"
    )
    hand_size: int = rule("Cards in each player's hand")
    foot_size: int = rule("Cards in each player's foot")
    discard_pickup: str = rule("What taking the discard pile means under these rules")
    min_sides: int = rule("The fewest sides a game takes", default=2)
    max_sides: int | None = rule("The most sides a game takes; null for no limit", default=None)
    # Individual rule sets: every side is one player, whose melds are their own.
    individuals: bool = rule("Every side is one player, whose melds are their own", default=False)
    min_default_decks: int = rule("The fewest decks the default gives", default=1)
    book_counts_as: Mapping[str, str] = rule(
        "What each kind of book counts as toward going out (clean, dirty or wild)",
        default_factory=lambda: dict(DEFAULT_COUNTS_AS),
    )
    extra_bonuses: Mapping[str, int] = rule(
        "Bonuses beyond books, red threes and going out, each paid once per player who earned it",
        default_factory=dict,
    )
    tie_rule: str = rule(
        "Equal highest totals at the end: share the win ('share') or play another deal ('play_on')",
        default="share",
    )
    open_books_to_other_team: bool = rule(
        "Melds of seven or more left open go to the other team at the end of a deal",
        default=False,
    )
    melded_black_threes: str = rule(
        "When black threes may be melded: 'never' (only discarded or left over), 'going_out' "
        "(by the side going out) or 'always'; a book of black threes, where scored, is melded "
        "by the side going out",
        default="never",
    )
    open_melds: str = rule("What happens to melds of seven or more left open", default="")
    rulings: tuple[str, ...] = rule("How the app rules where the rulebook is silent", default=())
    # The most deals a game holds, whether or not it has ended by then.
    deal_limit: int = rule(
        "The most deals a game holds, whether or not it has ended by then", default=DEAL_LIMIT
    )
    # Set by with_house_rules: refusals then speak of "these house rules", not the preset's.
    house: bool = rule("House rules changed this rule set from its preset", default=False)

    @property
    def called(self) -> str:
        """How a message names these rules: the preset's, or "these house rules"."""
        return "these house rules" if self.house else f"the {self.name} rules"

    def opening_minimum(self, deal_number: int, total: int) -> int:
        """The least a side's first meld must count in the given deal."""
        basis = deal_number if self.minimum_basis == "deal" else total
        minimum = self.opening_minimums[0][1]
        for start, value in self.opening_minimums:
            if basis >= start:
                minimum = value
        return minimum

    def decks_for(self, players: int) -> int:
        """The default number of decks for a table of this many players."""
        per_player, plus = self.default_decks[0][1:]
        for start, step_per_player, step_plus in self.default_decks:
            if players >= start:
                per_player, plus = step_per_player, step_plus
        return max(self.min_default_decks, per_player * players + plus, self.decks_to_deal(players))

    def decks_to_deal(self, players: int) -> int:
        """The fewest decks that hold every player's hand and foot and leave a stock."""
        return players * (self.hand_size + self.foot_size) // DECK_SIZE + 1

    def counts_as(self, kind: str) -> str:
        """What a book of this kind counts as toward going out."""
        return self.book_counts_as.get(kind, DEFAULT_COUNTS_AS[kind])

    def with_house_rules(self, overrides: Mapping[str, Any] | None) -> RuleSet:
        """This rule set with a club's changes applied, each one checked."""
        if not overrides:
            return self
        if not isinstance(overrides, Mapping):
            raise RulesError(["House rules must be given as named rules and their values."])
        errors: list[str] = []
        about: list[str] = []
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            setter = _OVERRIDES.get(name)
            if setter is None:
                errors.append(f"There is no rule called '{name}' that a club can change.")
                about.append(str(name))
                continue
            try:
                changes[name] = setter(self, name, value)
            except RulesError as exc:
                errors.extend(exc.messages)
                about.extend([name] * len(exc.messages))
        if errors:
            raise RulesError(errors, about)
        changed = dataclasses.replace(self, **changes)
        if changed != self:
            changed = dataclasses.replace(changed, house=True)
        changed.check()
        return changed

    def check(self) -> None:
        """Refuse a combination of rules that no game could be played under."""
        errors: list[str] = []
        if self.end_after_deals is None and self.target_score is None:
            errors.append("A game needs an end: a number of deals, a target score, or both.")
        if self.open_books_to_other_team and self.max_sides != 2:
            errors.append("Open books can only go to the other team when exactly two sides play.")
        for kind, needed in self.books_to_go_out.items():
            if needed and not any(self.counts_as(k) == kind for k in self.book_bonuses):
                errors.append(
                    f"Going out needs {needed} {kind} book(s), but no {kind} book is scored."
                )
        if self.end_after_deals is not None and self.end_after_deals > self.deal_limit:
            errors.append(
                f"A game of {self.end_after_deals} deals cannot be held to "
                f"{self.deal_limit} deals: raise deal_limit or end the game sooner."
            )
        starts = [start for start, _ in self.opening_minimums]
        if starts != sorted(set(starts)):
            errors.append("Opening minimums must be listed in rising order, each step once.")
        if errors:
            raise RulesError(errors)

    def house_rule_fields(self) -> dict[str, Any]:
        """The rules a club may change, with this rule set's values (as overrides take them)."""
        return {name: _export(getattr(self, name)) for name in _OVERRIDES}

    def to_dict(self) -> dict[str, Any]:
        """Every parameter, in JSON-friendly form."""
        data = {f.name: _export(getattr(self, f.name)) for f in dataclasses.fields(self)}
        data["book_counts_as"] = {k: self.counts_as(k) for k in self.book_bonuses}
        return data


def held_to_ceilings(overrides: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """Saved house rules (a game's, a club's saved rule set's) as today's ceilings read them.

    A ceiling lowered since they were saved must not make them unreadable: a game already played
    under them still opens. A deal_limit saved above MAX_DEAL_LIMIT (up to 1,000 before issue
    26) is read as MAX_DEAL_LIMIT; anything else is left for `with_house_rules` to judge.
    """
    if not isinstance(overrides, Mapping):
        return overrides  # type: ignore[return-value]  # not house rules: refused as such
    limit = overrides.get("deal_limit")
    if _is_int(limit) and limit > MAX_DEAL_LIMIT:
        return {**overrides, "deal_limit": MAX_DEAL_LIMIT}
    return dict(overrides)


def _export(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, tuple):
        return [_export(v) for v in value]
    return value


def _is_int(value: Any) -> bool:
    # bool is an int in Python, but "true" is not a number of points.
    return isinstance(value, int) and not isinstance(value, bool)


def _number(name: str, value: Any, *, low: int = 0, high: int = MAX_RULE_NUMBER) -> int:
    if not _is_int(value):
        raise RulesError([f"{name} must be a whole number, not {value!r}."])
    if not low <= value <= high:
        raise RulesError([f"{name} must be between {low:,} and {high:,}, not {value:,}."])
    return value


def _bounds(name: str) -> tuple[int, int]:
    return RULE_BOUNDS.get(name, (0, MAX_RULE_NUMBER))


def _set_number(rules: RuleSet, name: str, value: Any) -> int:
    low, high = _bounds(name)
    return _number(name, value, low=low, high=high)


def _set_optional(rules: RuleSet, name: str, value: Any) -> int | None:
    if value is None:
        return None
    return _set_number(rules, name, value)


def _set_mapping(in_step: bool = False):
    def setter(rules: RuleSet, name: str, value: Any) -> dict[str, int]:
        if not isinstance(value, Mapping):
            raise RulesError([f"{name} must map names to numbers, not {value!r}."])
        universe, removable = RULE_KEYS[name], name in REMOVABLE
        merged = dict(getattr(rules, name))
        errors: list[str] = []
        for key, number in value.items():
            if key not in universe:
                errors.append(f"{name} has no '{key}'; it knows {', '.join(universe)}.")
            elif number is None and removable:
                merged.pop(key, None)
            else:
                try:
                    merged[key] = _number(f"{name}.{key}", number)
                except RulesError as exc:
                    errors.extend(exc.messages)
                    continue
                if in_step and off_the_step(number):
                    label, step = f"{name}.{key}", POINTS_STEP
                    errors.append(say("card_value_fives", label=label, step=step, value=number))
        if errors:
            raise RulesError(errors)
        return merged

    return setter


def _set_counts_as(rules: RuleSet, name: str, value: Any) -> dict[str, str]:
    if not isinstance(value, Mapping):
        raise RulesError([f"{name} must map book kinds to clean, dirty or wild."])
    merged = dict(rules.book_counts_as)
    for kind, counts in value.items():
        if kind not in BOOK_KINDS or counts not in GOING_OUT_KINDS:
            raise RulesError([f"{name}.{kind} cannot count as {counts!r}."])
        merged[kind] = counts
    return merged


def _set_minimums(rules: RuleSet, name: str, value: Any) -> tuple[tuple[int, int], ...]:
    # A plain list is a schedule by deal (deal 1, 2, ...); pairs are [from, minimum] steps.
    if not isinstance(value, list | tuple) or not value:
        raise RulesError([f"{name} must be a list of minimums, not {value!r}."])
    if all(_is_int(v) for v in value):
        if rules.minimum_basis != "deal":
            raise RulesError(
                [f"{name} go by running total here: give [from total, minimum] pairs."]
            )
        steps = [(number, v) for number, v in enumerate(value, start=1)]
    elif all(isinstance(v, list | tuple) and len(v) == 2 for v in value):
        steps = [tuple(v) for v in value]
    else:
        raise RulesError([f"{name} must be a list of numbers or of [from, minimum] pairs."])
    checked = []
    for start, minimum in steps:
        low = -MAX_RULE_NUMBER
        checked.append((_number(f"{name} step", start, low=low), _number(f"{name}", minimum)))
    return tuple(checked)


def _set_choice(choices: tuple[str, ...]):
    def setter(rules: RuleSet, name: str, value: Any) -> str:
        if value not in choices:
            raise RulesError([f"{name} must be one of {', '.join(choices)}, not {value!r}."])
        return value

    return setter


def _set_flag(rules: RuleSet, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise RulesError([f"{name} must be true or false, not {value!r}."])
    return value


# The rules a club may change, each with the check its value must pass.
_OVERRIDES = {
    "card_values": _set_mapping(in_step=True),
    "book_bonuses": _set_mapping(),
    "book_counts_as": _set_counts_as,
    "max_wilds_in_dirty_book": _set_number,
    "red_three_down": _set_optional,
    "red_three_caught": _set_number,
    "going_out_bonus": _set_number,
    "books_to_go_out": _set_mapping(),
    "extra_bonuses": _set_mapping(),
    "minimum_basis": _set_choice(MINIMUM_BASES),
    "opening_minimums": _set_minimums,
    "end_after_deals": _set_optional,
    "deal_limit": _set_number,
    "target_score": _set_optional,
    "tie_rule": _set_choice(TIE_RULES),
    "hand_size": _set_number,
    "foot_size": _set_number,
    "open_books_to_other_team": _set_flag,
    "melded_black_threes": _set_choice(tuple(MELDED_BLACK_THREES)),
}
