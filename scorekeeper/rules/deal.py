"""One deal: what each side enters, the checks an honest entry passes, and its score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .limits import CARD_FIELDS, check_decks
from .refusals import DealRefused, Refusal
from .ruleset import GOING_OUT_ONLY, RuleSet
from .terms import (
    BOOK_KINDS,
    BOOK_LABELS,
    CARD_CATEGORIES,
    CARD_LABELS,
    EXTRA_BONUSES,
    FIELD_LABELS,
    MAX_ERRORS_LISTED,
    MAX_FIGURE,
    signed,
)

COUNT_FIELDS = ("red_threes_down", "red_threes_caught")
POINT_FIELDS = ("melded_points", "leftover_points", "open_book_points")
KIND_FIELDS = ("books", "open_books", "bonuses")
POINTS_ENTERED = ("melded_points", "leftover_points")
ENTRY_FIELDS = (*KIND_FIELDS, *COUNT_FIELDS, "went_out", *POINT_FIELDS, *CARD_FIELDS)


@dataclass(frozen=True)
class Side:
    """A side at the table: a team, or a single player."""

    name: str
    players: int = 1


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


@dataclass(frozen=True)
class SideScore:
    """A side's score for one deal, line by line."""

    books: int
    red_threes: int
    going_out: int
    cards: int
    extras: int
    moved: int
    melded: int
    leftover: int
    details: Mapping[str, str]

    @property
    def total(self) -> int:
        """The deal's score: always the sum of its lines."""
        return self.books + self.red_threes + self.going_out + self.cards + self.extras + self.moved

    def breakdown(self) -> dict[str, Any]:
        """The lines as JSON-like data, with a worded detail for each."""
        return {
            "books": self.books,
            "red_threes": self.red_threes,
            "going_out": self.going_out,
            "cards": self.cards,
            "extras": self.extras,
            "moved": self.moved,
            "total": self.total,
            "melded_points": self.melded,
            "leftover_points": self.leftover,
            "details": dict(self.details),
        }


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

    def __call__(self, name: str, message: str) -> None:
        if self.full:
            self.left_out += 1
        else:
            self.listed.append(Refusal(self.side, name, message))

    def count(self) -> None:
        """One more refusal, counted without its words."""
        self.left_out += 1

    def all(self) -> list[Refusal]:
        """The refusals listed, and one that says how many more there are (about no figure)."""
        if not self.left_out:
            return self.listed
        more = f"{self.left_out:,} more of its figures are refused too (not listed one by one)."
        return [*self.listed, Refusal(self.side, "", more, ())]


def _parse(data: Any, side: int | None) -> DealEntry:
    refuse = _Refusals(side)
    if not isinstance(data, Mapping):
        raise DealRefused([Refusal(side, "", "An entry must be a set of named figures.")])
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name not in ENTRY_FIELDS:
            if refuse.full:
                refuse.count()  # a body of thousands of unknown keys: counted, not each worded
            else:
                refuse(str(name), f"'{name}' is not a figure of a deal entry.")
        elif name == "went_out":
            if not isinstance(value, bool):
                refuse(name, f"Went out must be true or false, not {value!r}.")
            else:
                values[name] = value
        elif name in KIND_FIELDS or name in CARD_FIELDS:
            values[name] = _parse_counts(name, value, refuse)
        elif value is not None or name not in ("melded_points", "leftover_points"):
            if _whole(name, FIELD_LABELS[name], value, refuse):
                values[name] = value
    for points, cards in (("melded_points", "melded_cards"), ("leftover_points", "leftover_cards")):
        if values.get(points) is not None and values.get(cards):
            refuse(cards, f"Give {FIELD_LABELS[points]} or count the cards, not both.")
    if refuse.listed:
        raise DealRefused(refuse.all())
    return DealEntry(**values)


def _whole(name: str, label: str, value: Any, refuse: _Refusals) -> bool:
    if not _is_int(value):
        refuse(name, f"{label.capitalize()} must be a whole number, not {value!r}.")
        return False
    if value < 0:
        refuse(name, f"{label.capitalize()} cannot be negative ({value}).")
        return False
    if value > MAX_FIGURE:
        refuse(name, f"{label.capitalize()} of {value:,} is far more than any deal holds.")
        return False
    return True


def _parse_counts(name: str, value: Any, refuse: _Refusals) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        refuse(name, f"{FIELD_LABELS[name].capitalize()} must be counted by kind.")
        return {}
    universe = {
        "books": BOOK_KINDS,
        "open_books": BOOK_KINDS,
        "bonuses": tuple(EXTRA_BONUSES),
        "melded_cards": CARD_CATEGORIES,
        "leftover_cards": CARD_CATEGORIES,
    }[name]
    labels = {**BOOK_LABELS, **CARD_LABELS, **EXTRA_BONUSES}
    counts: dict[str, int] = {}
    for kind, number in value.items():
        path = f"{name}.{kind}"
        if kind not in universe:
            if refuse.full:
                refuse.count()
            else:
                known = ", ".join(universe)
                refuse(path, f"'{kind}' is not one of the {FIELD_LABELS[name]}: {known}.")
        elif _whole(path, _kind_label(name, labels[kind]), number, refuse):
            counts[kind] = number
    return counts


def _kind_label(name: str, kind: str) -> str:
    if name in ("books", "open_books"):
        return f"{kind} {FIELD_LABELS[name]}"
    if name == "bonuses":
        return f"players who {kind}"
    return f"{FIELD_LABELS[name]}: {kind}"


def check_deal(
    rules: RuleSet, decks: int, sides: Sequence[Side], entries: Sequence[DealEntry]
) -> list[Refusal]:
    """Every reason this deal cannot be saved under these rules; empty when it can."""
    refusals: list[Refusal] = []
    if len(entries) != len(sides):
        message = f"Enter one score for each of the {len(sides)} sides."
        return [Refusal(None, "scores", message, ((None, "scores"),))]
    for index, (side, entry) in enumerate(zip(sides, entries, strict=True)):
        refusals.extend(_check_side(rules, index, side, entry))
    went_out = [i for i, entry in enumerate(entries) if entry.went_out]
    if len(went_out) > 1:
        names = " and ".join(sides[i].name for i in went_out)
        message = f"Only one side can go out; {names} both did."
        refusals.append(
            Refusal(None, "went_out", message, tuple((i, "went_out") for i in went_out))
        )
    refusals.extend(check_decks(rules, decks, entries))
    return refusals


def _check_side(rules: RuleSet, index: int, side: Side, entry: DealEntry) -> list[Refusal]:
    refusals: list[Refusal] = []
    who = side.name

    def refuse(name: str, message: str) -> None:
        refusals.append(Refusal(index, name, f"{who}: {message}"))

    for name in ("books", "open_books"):
        for kind, count in getattr(entry, name).items():
            if count and kind not in rules.book_bonuses:
                refuse(f"{name}.{kind}", f"{rules.called} have no {BOOK_LABELS[kind]} book.")
    if entry.open_books or entry.open_book_points:
        if not rules.open_books_to_other_team:
            name = "open_books" if entry.open_books else "open_book_points"
            refuse(name, f"open books are not scored under {rules.called}.")
    if entry.red_threes_down and rules.red_three_down is None:
        refuse("red_threes_down", f"red threes cannot be laid down under {rules.called}.")
    for bonus, count in entry.bonuses.items():
        if count and bonus not in rules.extra_bonuses:
            refuse(f"bonuses.{bonus}", f"{rules.called} have no '{bonus}' bonus.")
        elif count > side.players:
            refuse(
                f"bonuses.{bonus}",
                f"{count} players {EXTRA_BONUSES[bonus]}, but the side has {side.players}.",
            )
    for name in POINT_FIELDS:
        value = getattr(entry, name)
        if value and value % 5:
            refuse(name, f"{FIELD_LABELS[name]} of {value} is not a multiple of 5; every card is.")
    threes = (entry.melded_cards or {}).get("black_three", 0)
    if threes and rules.melded_black_threes != "always":
        in_book = entry.books.get("black_threes") and "black_threes" in rules.book_bonuses
        if rules.melded_black_threes == "never" and not in_book:
            refuse(
                "melded_cards.black_three",
                f"{threes} black three{'s' if threes != 1 else ''} melded, but threes cannot be "
                f"melded under {rules.called}: a black three is only discarded, or counted "
                "with the cards left in a hand or foot.",
            )
        elif not entry.went_out:
            refuse(
                "melded_cards.black_three",
                f"black threes can be melded only by the side going out under {rules.called}.",
            )
    for kind in GOING_OUT_ONLY:
        if entry.books.get(kind) and kind in rules.book_bonuses and not entry.went_out:
            refuse(
                f"books.{kind}",
                f"a book of {BOOK_LABELS[kind]} can only be closed by the side going out.",
            )
    if entry.went_out:
        missing = _missing_books(rules, entry)
        if missing:
            needed = _describe(rules.books_to_go_out)
            refuse("went_out", f"cannot go out without {needed}; missing {_describe(missing)}.")
    return refusals


def _missing_books(rules: RuleSet, entry: DealEntry) -> dict[str, int]:
    held: dict[str, int] = {}
    for kind, count in entry.books.items():
        if kind in rules.book_bonuses:
            held[rules.counts_as(kind)] = held.get(rules.counts_as(kind), 0) + count
    return {
        kind: needed - held.get(kind, 0)
        for kind, needed in rules.books_to_go_out.items()
        if needed > held.get(kind, 0)
    }


def _describe(books: Mapping[str, int]) -> str:
    parts = [f"{n} {kind} book{'s' if n != 1 else ''}" for kind, n in books.items() if n]
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


def score_side(
    rules: RuleSet, entry: DealEntry, other: DealEntry | None = None, other_name: str = ""
) -> SideScore:
    """A side's deal score; `other` is the opposing team whose open books move across."""
    books = sum(rules.book_bonuses.get(kind, 0) * n for kind, n in entry.books.items())
    down = entry.red_threes_down * (rules.red_three_down or 0)
    caught = entry.red_threes_caught * rules.red_three_caught
    melded, leftover = entry.melded(rules), entry.leftover(rules)
    extras = sum(rules.extra_bonuses.get(b, 0) * n for b, n in entry.bonuses.items())
    moved = 0
    details = {
        "books": _book_detail(rules, entry.books),
        "red_threes": (
            f"{entry.red_threes_down} laid down, {entry.red_threes_caught} caught"
            if entry.red_threes_down or entry.red_threes_caught
            else ""
        ),
        "going_out": "went out" if entry.went_out else "",
        "cards": f"{melded:,} melded − {leftover:,} left",
        "extras": ", ".join(f"{n} × {EXTRA_BONUSES[b]}" for b, n in entry.bonuses.items() if n),
        "moved": "",
    }
    if other is not None and rules.open_books_to_other_team:
        moved = (
            sum(rules.book_bonuses.get(kind, 0) * n for kind, n in other.open_books.items())
            + other.open_book_points
        )
        if moved:
            details["moved"] = (
                f"Open books of {other_name}: {_book_detail(rules, other.open_books)}"
                f" + {other.open_book_points:,} card points"
            )
    return SideScore(
        books=books,
        red_threes=down - caught,
        going_out=rules.going_out_bonus if entry.went_out else 0,
        cards=melded - leftover,
        extras=extras,
        moved=moved,
        melded=melded,
        leftover=leftover,
        details=details,
    )


def _book_detail(rules: RuleSet, books: Mapping[str, int]) -> str:
    return ", ".join(
        f"{n} {BOOK_LABELS[kind]} × {rules.book_bonuses.get(kind, 0):,}"
        for kind, n in books.items()
        if n
    )


def score_deal(
    rules: RuleSet,
    decks: int,
    sides: Sequence[Side],
    entries: Sequence[DealEntry],
    check: bool = True,
) -> list[SideScore]:
    """Every side's score for one deal, or DealRefused with every reason (if `check`)."""
    refusals = check_deal(rules, decks, sides, entries) if check else []
    if refusals:
        raise DealRefused(refusals)
    scores = []
    for index, entry in enumerate(entries):
        other = None
        if rules.open_books_to_other_team and len(entries) == 2:
            other = entries[1 - index]
        scores.append(score_side(rules, entry, other, sides[1 - index].name if other else ""))
    return scores


def check_lines(
    rules: RuleSet, decks: int, sides: Sequence[Side], lines: Mapping[int, DealEntry]
) -> list[Refusal]:
    """Every reason the sides' lines in so far cannot stand, whatever the others enter.

    A side whose line is not in yet counts as a blank line: it adds no refusal of its own and
    nothing to any limit (every limit is a most, never a least), so each refusal found now is
    one the whole deal would meet too.
    """
    entries = [lines.get(index, DealEntry()) for index in range(len(sides))]
    return check_deal(rules, decks, sides, entries)


def sides_involved(refusal: Refusal, sides: int) -> set[int]:
    """The sides whose figures a refusal is about (every side, for one about the whole deal)."""
    named = {side for side, _ in refusal.figures if side is not None}
    if refusal.side is not None:
        named.add(refusal.side)
    return named or set(range(sides))


def line_summary(rules: RuleSet, entry: DealEntry) -> str:
    """A side's line in one sentence, as the table reads it back, with what it scores."""
    said = [_book_detail_counts(entry.books)]
    if entry.red_threes_down:
        said.append(f"{entry.red_threes_down} red three{'s' * (entry.red_threes_down != 1)} down")
    if entry.red_threes_caught:
        caught = entry.red_threes_caught
        said.append(f"{caught} red three{'s' * (caught != 1)} caught")
    said.append("went out" if entry.went_out else "")
    said.append(f"{entry.melded(rules):,} melded − {entry.leftover(rules):,} left")
    said.extend(f"{n} × {EXTRA_BONUSES[b]}" for b, n in entry.bonuses.items() if n)
    if entry.open_books or entry.open_book_points:
        open_books = _book_detail_counts(entry.open_books)
        said.append(f"left open: {open_books}, {entry.open_book_points:,} points")
    total = score_side(rules, entry).total
    return " · ".join(part for part in said if part) + f" = {signed(total)}"


def _book_detail_counts(books: Mapping[str, int]) -> str:
    counted = [(kind, n) for kind, n in books.items() if n]
    if not counted:
        return "no books"
    return ", ".join(f"{n} {BOOK_LABELS[kind]} book{'s' * (n != 1)}" for kind, n in counted)
