"""One deal: the sides at the table, the checks an honest entry passes, and its score."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .entry import POINT_FIELDS, DealEntry
from .limits import check_decks
from .refusals import DealRefused, Refusal
from .ruleset import GOING_OUT_ONLY, RuleSet
from .sentences import SENTENCES, both, listed, say
from .terms import BOOK_LABELS, EXTRA_BONUSES, FIELD_LABELS, POINTS_STEP, off_the_step


@dataclass(frozen=True)
class Side:
    """A side at the table: a team, or a single player."""

    name: str
    players: int = 1


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


def check_deal(
    rules: RuleSet, decks: int, sides: Sequence[Side], entries: Sequence[DealEntry]
) -> list[Refusal]:
    """Every reason this deal cannot be saved under these rules; empty when it can."""
    refusals: list[Refusal] = []
    if len(entries) != len(sides):
        return [Refusal.said(None, "scores", "sides_count", ((None, "scores"),), count=len(sides))]
    for index, (side, entry) in enumerate(zip(sides, entries, strict=True)):
        refusals.extend(_check_side(rules, index, side, entry))
    went_out = [i for i, entry in enumerate(entries) if entry.went_out]
    if len(went_out) > 1:
        names = both(sides[i].name for i in went_out)
        at = tuple((i, "went_out") for i in went_out)
        refusals.append(Refusal.said(None, "went_out", "two_went_out", at, names=names))
    refusals.extend(check_decks(rules, decks, entries))
    return refusals


def _check_side(rules: RuleSet, index: int, side: Side, entry: DealEntry) -> list[Refusal]:
    refusals: list[Refusal] = []
    called = rules.called

    def refuse(name: str, code: str, /, **values: Any) -> None:
        refusals.append(Refusal.said(index, name, code, **values).of_side(side.name))

    for name in ("books", "open_books"):
        for kind, count in getattr(entry, name).items():
            if count and kind not in rules.book_bonuses:
                refuse(f"{name}.{kind}", "no_book", called=called, book=BOOK_LABELS[kind])
    if entry.open_books or entry.open_book_points:
        if not rules.open_books_to_other_team:
            name = "open_books" if entry.open_books else "open_book_points"
            refuse(name, "no_open_books", called=called)
    if entry.red_threes_down and rules.red_three_down is None:
        refuse("red_threes_down", "no_red_threes_down", called=called)
    for bonus, count in entry.bonuses.items():
        if count and bonus not in rules.extra_bonuses:
            refuse(f"bonuses.{bonus}", "no_bonus", called=called, bonus=bonus)
        elif count > side.players:
            said = EXTRA_BONUSES[bonus]
            refuse(
                f"bonuses.{bonus}", "bonus_players", count=count, bonus=said, players=side.players
            )
    for name in POINT_FIELDS:
        value = getattr(entry, name)
        if value and off_the_step(value):
            refuse(name, "fives", label=FIELD_LABELS[name], value=value, step=POINTS_STEP)
    threes = (entry.melded_cards or {}).get("black_three", 0)
    if threes and rules.melded_black_threes != "always":
        in_book = entry.books.get("black_threes") and "black_threes" in rules.book_bonuses
        if rules.melded_black_threes == "never" and not in_book:
            refuse("melded_cards.black_three", "threes_never", count=threes, called=called)
        elif not entry.went_out:
            refuse("melded_cards.black_three", "threes_going_out", called=called)
    for kind in GOING_OUT_ONLY:
        if entry.books.get(kind) and kind in rules.book_bonuses and not entry.went_out:
            refuse(f"books.{kind}", "going_out_only", book=BOOK_LABELS[kind])
    if entry.went_out:
        missing = _missing_books(rules, entry)
        if missing:
            needed = _describe(rules.books_to_go_out)
            refuse("went_out", "cannot_go_out", needed=needed, missing=_describe(missing))
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
    return listed(say("books_item", count=n, kind=kind) for kind, n in books.items() if n)


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
    threes = {"down": entry.red_threes_down, "caught": entry.red_threes_caught}
    details = {
        "books": _book_detail(rules, entry.books),
        "red_threes": say("detail_red_threes", **threes) if any(threes.values()) else "",
        "going_out": say("detail_went_out") if entry.went_out else "",
        "cards": say("detail_cards", melded=melded, leftover=leftover),
        "extras": SENTENCES["comma"].join(
            say("detail_bonus", count=n, bonus=EXTRA_BONUSES[b])
            for b, n in entry.bonuses.items()
            if n
        ),
        "moved": "",
    }
    if other is not None and rules.open_books_to_other_team:
        moved = (
            sum(rules.book_bonuses.get(kind, 0) * n for kind, n in other.open_books.items())
            + other.open_book_points
        )
        if moved:
            given = {
                "books": _book_detail(rules, other.open_books),
                "points": other.open_book_points,
            }
            details["moved"] = say("detail_moved", side=other_name, **given)
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
    return SENTENCES["comma"].join(
        say("detail_book", count=n, kind=BOOK_LABELS[kind], bonus=rules.book_bonuses.get(kind, 0))
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
