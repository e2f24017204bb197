"""A side's own line of a deal, sent from its phone: what it meets early, and read back."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .deal import Side, check_deal, score_side
from .entry import DealEntry
from .refusals import Refusal
from .ruleset import RuleSet
from .terms import BOOK_LABELS, EXTRA_BONUSES, signed


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
