"""What a side enters for one deal, read from the figures as sent: each one refused in words."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .limits import CARD_FIELDS
from .refusals import DealRefused, Refusal
from .ruleset import RuleSet
from .sentences import SENTENCES, say
from .terms import (
    BOOK_KINDS,
    BOOK_LABELS,
    CARD_CATEGORIES,
    CARD_LABELS,
    EXTRA_BONUSES,
    FIELD_LABELS,
    MAX_ERRORS_LISTED,
    over_ceiling,
)

COUNT_FIELDS = ("red_threes_down", "red_threes_caught")
POINT_FIELDS = ("melded_points", "leftover_points", "open_book_points")
KIND_FIELDS = ("books", "open_books", "bonuses")
POINTS_ENTERED = ("melded_points", "leftover_points")
ENTRY_FIELDS = (*KIND_FIELDS, *COUNT_FIELDS, "went_out", *POINT_FIELDS, *CARD_FIELDS)
# The kinds each figure counted by kind takes (the API's document shows them from here).
COUNTED_KINDS: dict[str, tuple[str, ...]] = {
    "books": BOOK_KINDS,
    "open_books": BOOK_KINDS,
    "bonuses": tuple(EXTRA_BONUSES),
    "melded_cards": CARD_CATEGORIES,
    "leftover_cards": CARD_CATEGORIES,
}


@dataclass(frozen=True)
class DealEntry:
    """What one side reports at the end of a deal."""

    books: Mapping[str, int] = field(default_factory=dict)
    red_threes_down: int = 0
    red_threes_caught: int = 0
    went_out: bool = False
    melded_points: int | None = None
    melded_cards: Mapping[str, int] | None = None
    leftover_points: int | None = None
    leftover_cards: Mapping[str, int] | None = None
    bonuses: Mapping[str, int] = field(default_factory=dict)
    open_books: Mapping[str, int] = field(default_factory=dict)
    open_book_points: int = 0

    @classmethod
    def from_dict(cls, data: Any, side: int | None = None) -> DealEntry:
        """Read an entry from JSON-like data, refusing anything that is not a plain figure."""
        return _parse(data, side)

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON-like data, leaving out what was not entered."""
        data: dict[str, Any] = {}
        for name in ENTRY_FIELDS:
            value = getattr(self, name)
            if isinstance(value, Mapping):
                value = {k: v for k, v in value.items() if v} or None
            # Points of 0 are a figure the side entered; other zeros are just the default.
            if value is None or (value in (0, False) and name not in POINTS_ENTERED):
                continue
            data[name] = value
        return data

    def melded(self, rules: RuleSet) -> int:
        """Card points melded: as entered, or added up from the counts."""
        return _card_points(rules, self.melded_points, self.melded_cards)

    def leftover(self, rules: RuleSet) -> int:
        """Card points left in hands and feet."""
        return _card_points(rules, self.leftover_points, self.leftover_cards)


def _card_points(rules: RuleSet, points: int | None, cards: Mapping[str, int] | None) -> int:
    if cards:
        return sum(rules.card_values[c] * n for c, n in cards.items())
    return points or 0


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Refusals:
    """An entry's refusals: as many as an answer lists written out (the last place left for
    one that says how many more there are), any more only counted."""

    def __init__(self, side: int | None) -> None:
        self.side = side
        self.listed: list[Refusal] = []
        self.left_out = 0

    @property
    def full(self) -> bool:
        """Whether a further refusal is only counted (so its words need not be made)."""
        return len(self.listed) >= MAX_ERRORS_LISTED - 1

    def __call__(self, name: str, code: str, /, **values: Any) -> None:
        if self.full:
            self.left_out += 1
        else:
            self.listed.append(Refusal.said(self.side, name, code, **values))

    def count(self) -> None:
        """One more refusal, counted without its words."""
        self.left_out += 1

    def all(self) -> list[Refusal]:
        """The refusals listed, and one that says how many more there are (about no figure)."""
        if not self.left_out:
            return self.listed
        more = Refusal.said(self.side, "", "more_refused", (), count=self.left_out)
        return [*self.listed, more]


def _parse(data: Any, side: int | None) -> DealEntry:
    refuse = _Refusals(side)
    if not isinstance(data, Mapping):
        raise DealRefused([Refusal.said(side, "", "not_entry")])
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name not in ENTRY_FIELDS:
            if refuse.full:
                refuse.count()  # a body of thousands of unknown keys: counted, not each worded
            else:
                refuse(str(name), "unknown_figure", name=name)
        elif name == "went_out":
            if not isinstance(value, bool):
                refuse(name, "went_out_bool", value=repr(value))
            else:
                values[name] = value
        elif name in KIND_FIELDS or name in CARD_FIELDS:
            values[name] = _parse_counts(name, value, refuse)
        elif value is not None or name not in ("melded_points", "leftover_points"):
            if _whole(name, FIELD_LABELS[name], value, refuse):
                values[name] = value
    for points, cards in (("melded_points", "melded_cards"), ("leftover_points", "leftover_cards")):
        if values.get(points) is not None and values.get(cards):
            refuse(cards, "points_or_cards", label=FIELD_LABELS[points])
    if refuse.listed:
        raise DealRefused(refuse.all())
    return DealEntry(**values)


def _whole(name: str, label: str, value: Any, refuse: _Refusals) -> bool:
    if not _is_int(value):
        refuse(name, "not_whole", label=label.capitalize(), value=repr(value))
        return False
    if value < 0:
        refuse(name, "negative", label=label.capitalize(), value=value)
        return False
    if over_ceiling(value):
        refuse(name, "ceiling", label=label.capitalize(), value=value)
        return False
    return True


def _parse_counts(name: str, value: Any, refuse: _Refusals) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        refuse(name, "by_kind", label=FIELD_LABELS[name].capitalize())
        return {}
    universe = COUNTED_KINDS[name]
    labels = {**BOOK_LABELS, **CARD_LABELS, **EXTRA_BONUSES}
    counts: dict[str, int] = {}
    for kind, number in value.items():
        path = f"{name}.{kind}"
        if kind not in universe:
            if refuse.full:
                refuse.count()
            else:
                known = SENTENCES["comma"].join(universe)
                refuse(path, "unknown_kind", kind=kind, label=FIELD_LABELS[name], known=known)
        elif _whole(path, _kind_label(name, labels[kind]), number, refuse):
            counts[kind] = number
    return counts


def _kind_label(name: str, kind: str) -> str:
    if name in ("books", "open_books"):
        return say("label_book", kind=kind, label=FIELD_LABELS[name])
    if name == "bonuses":
        return say("label_bonus", kind=kind)
    return say("label_card", kind=kind, label=FIELD_LABELS[name])
