"""House rules as a flat list of numbers a club can change, and back to overrides."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .ruleset import GOING_OUT_KINDS, RuleSet
from .sentences import say
from .terms import BOOK_LABELS, CARD_LABELS, EXTRA_BONUSES, POINTS_STEP, off_the_step


@dataclass(frozen=True)
class Knob:
    """One changeable number: where it lives in the rule set, its label, its value."""

    path: str
    label: str
    value: int
    group: str


def knobs(rules: RuleSet) -> list[Knob]:
    """Every number of this rule set that a club may change, grouped as a rule card lists them."""
    found = [
        Knob(f"card_values.{c}", f"Card value: {CARD_LABELS[c]}", v, "Cards")
        for c, v in rules.card_values.items()
    ]
    found += [
        Knob(f"book_bonuses.{k}", f"{BOOK_LABELS[k].capitalize()} book bonus", v, "Books")
        for k, v in rules.book_bonuses.items()
    ]
    found.append(
        Knob(
            "max_wilds_in_dirty_book",
            "Most wild cards in a dirty book",
            rules.max_wilds_in_dirty_book,
            "Books",
        )
    )
    if rules.red_three_down is not None:
        found.append(
            Knob("red_three_down", "Red three laid down", rules.red_three_down, "Red threes")
        )
    found.append(
        Knob(
            "red_three_caught",
            "Red three caught (points lost)",
            rules.red_three_caught,
            "Red threes",
        )
    )
    found.append(Knob("going_out_bonus", "Going-out bonus", rules.going_out_bonus, "Going out"))
    found += [
        Knob(
            f"books_to_go_out.{k}",
            f"{k.capitalize()} books needed to go out",
            rules.books_to_go_out.get(k, 0),
            "Going out",
        )
        for k in GOING_OUT_KINDS
    ]
    found += [
        Knob(f"extra_bonuses.{b}", f"Bonus: {EXTRA_BONUSES[b]}", v, "Extras")
        for b, v in rules.extra_bonuses.items()
    ]
    for index, (start, minimum) in enumerate(rules.opening_minimums):
        where = f"deal {start}" if rules.minimum_basis == "deal" else f"total from {start:,}"
        found.append(
            Knob(f"opening_minimums.{index}", f"Opening minimum, {where}", minimum, "Minimums")
        )
    if rules.end_after_deals is not None:
        found.append(Knob("end_after_deals", "Deals in a game", rules.end_after_deals, "Game"))
    if rules.target_score is not None:
        found.append(Knob("target_score", "Target score", rules.target_score, "Game"))
    found.append(Knob("deal_limit", "Most deals a game holds", rules.deal_limit, "Game"))
    found.append(Knob("hand_size", "Cards in a hand", rules.hand_size, "Game"))
    found.append(Knob("foot_size", "Cards in a foot", rules.foot_size, "Game"))
    return found


# The numbers that are points: every card is worth a multiple of 5, so every score moves in fives
# and a bonus, penalty, minimum or target off that step is a typo.
IN_FIVES = (
    "card_values",
    "book_bonuses",
    "red_three_down",
    "red_three_caught",
    "going_out_bonus",
    "extra_bonuses",
    "opening_minimums",
    "target_score",
)


def off_the_fives(rules: RuleSet) -> list[tuple[str, str]]:
    """Each points figure of these rules off the step of points (POINTS_STEP): (its path, why)."""
    return [
        (knob.path, say("house_fives", label=knob.label, step=POINTS_STEP, value=knob.value))
        for knob in knobs(rules)
        if knob.path.partition(".")[0] in IN_FIVES and off_the_step(knob.value)
    ]


def overrides_from(rules: RuleSet, values: Mapping[str, int | None]) -> dict[str, Any]:
    """The overrides that turn `rules` into one with these knob values (blank keeps a value)."""
    overrides: dict[str, Any] = {}
    minimums = list(rules.opening_minimums)
    for knob in knobs(rules):
        value = values.get(knob.path)
        if value is None or value == knob.value:
            continue
        head, _, key = knob.path.partition(".")
        if head == "opening_minimums":
            start, _ = minimums[int(key)]
            minimums[int(key)] = (start, value)
            overrides[head] = [list(step) for step in minimums]
        elif key:
            overrides.setdefault(head, {})[key] = value
        else:
            overrides[head] = value
    return overrides
