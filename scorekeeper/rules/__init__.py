"""The rules engine: pure Python, no web framework, no database."""

from .deal import Side, SideScore, check_deal, score_deal, score_side
from .entry import DealEntry
from .game import (
    DealLimitReached,
    DealResult,
    GameOver,
    Progress,
    check_setup,
    correct_deal,
    extend,
    game_over,
    no_deal_now,
    play,
    too_long_to_change,
)
from .house import Knob, knobs, overrides_from
from .lines import check_lines, sides_involved
from .nights import (
    History,
    Round,
    SeatingRefused,
    Shape,
    Table,
    history_of,
    plan_night,
    plan_round,
    table_sizes,
    whist_schedule,
)
from .presets import PRESETS, ruleset, saved_ruleset
from .refusals import DealRefused, Refusal
from .ruleset import RulesError, RuleSet, held_to_ceilings
from .seating import Seat, dealer, dealer_seat, seating
from .terms import BOOK_KINDS, BOOK_LABELS, CARD_CATEGORIES, CARD_LABELS

__all__ = [
    "BOOK_KINDS",
    "BOOK_LABELS",
    "CARD_CATEGORIES",
    "CARD_LABELS",
    "PRESETS",
    "DealEntry",
    "DealLimitReached",
    "DealRefused",
    "DealResult",
    "GameOver",
    "History",
    "Knob",
    "Progress",
    "Refusal",
    "Round",
    "RuleSet",
    "RulesError",
    "Seat",
    "SeatingRefused",
    "Shape",
    "dealer",
    "dealer_seat",
    "seating",
    "Side",
    "SideScore",
    "Table",
    "check_deal",
    "check_lines",
    "check_setup",
    "correct_deal",
    "extend",
    "game_over",
    "held_to_ceilings",
    "history_of",
    "knobs",
    "no_deal_now",
    "overrides_from",
    "plan_night",
    "plan_round",
    "play",
    "ruleset",
    "saved_ruleset",
    "score_deal",
    "score_side",
    "sides_involved",
    "table_sizes",
    "too_long_to_change",
    "whist_schedule",
]
