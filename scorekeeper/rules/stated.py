"""What the engine tells a phone so that it can score as figures are typed (static/scorer.js).

The phone writes down no rule number and no refusal sentence of its own: the rules in force,
what a deck holds, the figure ceiling, the step points move in, the labels of a breakdown and
the templates of every refusal and warning it judges (rules/sentences.py) all come from here,
from their one home in the engine. The phone's arithmetic is a second copy of the engine's
*functions* only: tests/browser/test_scorer_differential.py proves the two agree deal by deal,
and tests/test_phone_words.py that no script holds a template's words or a rule's number.
"""

from __future__ import annotations

from typing import Any

from . import limits, sentences
from .ruleset import GOING_OUT_ONLY, RuleSet
from .terms import (
    BOOK_LABELS,
    BOOK_SIZE,
    BREAKDOWN_LINES,
    BREAKDOWN_TOTAL,
    CARD_CATEGORIES,
    CARD_LABELS,
    EXTRA_BONUSES,
    FIELD_LABELS,
    MAX_FIGURE,
    NEEDED_TO_OPEN,
    POINTS_STEP,
)


def deck() -> dict[str, Any]:
    """What one deck holds, and which card categories and books fall in each group of cards."""
    return {
        "cards": dict(limits.DECK_CARDS),
        "wilds": limits.DECK_WILDS,
        "naturals": limits.DECK_NATURALS,
        "red_threes": limits.DECK_RED_THREES,
        "sevens": limits.DECK_SEVENS,
        "book_size": BOOK_SIZE,
        "group_cards": {group: list(cards) for group, cards in limits.GROUP_CARDS.items()},
        "group_books": {group: list(kinds) for group, kinds in limits.GROUP_BOOKS.items()},
    }


def words() -> dict[str, Any]:
    """The labels a breakdown and a refusal are worded with."""
    return {
        "books": dict(BOOK_LABELS),
        "cards": dict(CARD_LABELS),
        "card_order": list(CARD_CATEGORIES),
        "fields": dict(FIELD_LABELS),
        "bonuses": dict(EXTRA_BONUSES),
        "breakdown": [list(line) for line in BREAKDOWN_LINES],
        "breakdown_total": BREAKDOWN_TOTAL,
        "needed_to_open": NEEDED_TO_OPEN,
    }


def stated(rules: RuleSet) -> dict[str, Any]:
    """Everything the phone's scorer needs besides the game itself: rules, deck and words."""
    return {
        # Exactly the API's `rules` of a game: the preset with its house rules applied.
        "rules": rules.to_dict(),
        "called": rules.called,
        "going_out_only": list(GOING_OUT_ONLY),
        "deck": deck(),
        "words": words(),
        "max_figure": MAX_FIGURE,
        "step": POINTS_STEP,
        "sentences": sentences.stated(),
    }
