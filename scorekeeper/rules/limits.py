"""What no honest entry can exceed: the cards a deal's decks hold, each card counted once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .refusals import Input, Refusal
from .ruleset import RuleSet
from .sentences import SENTENCES, say
from .terms import BOOK_SIZE, CARD_CATEGORIES, CARD_LABELS

if TYPE_CHECKING:
    from .entry import DealEntry

# What one standard 54-card deck holds.
DECK_WILDS = 6
DECK_RED_THREES = 2
DECK_NATURALS = 44
DECK_SEVENS = 4
DECK_CARDS = {
    "joker": 2,
    "two": 4,
    "ace": 4,
    "eight_to_king": 24,
    "four_to_seven": 16,
    "black_three": 2,
}

# The figures of an entry that count cards one by one.
CARD_FIELDS = ("melded_cards", "leftover_cards")
# The card groups the deck limits count, each with what one deck holds and the card
# categories (as cards are counted) that fall in it.
NATURALS = ("ace", "eight_to_king", "four_to_seven")
WILDS = ("joker", "two")


def _book_needs(rules: RuleSet, books: Mapping[str, int]) -> dict[str, int]:
    """The fewest cards of each group that these books hold (books may hold more than 7)."""
    dirty = books.get("dirty", 0)
    return {
        "wilds": BOOK_SIZE * books.get("wild", 0) + dirty,
        "naturals": BOOK_SIZE * (books.get("clean", 0) + books.get("clean_sevens", 0))
        + max(0, BOOK_SIZE - rules.max_wilds_in_dirty_book) * dirty,
        "sevens": BOOK_SIZE * books.get("clean_sevens", 0),
        "black_three": BOOK_SIZE * books.get("black_threes", 0),
    }


# Which book kinds put cards in each group, for naming the figures a limit counted.
GROUP_BOOKS = {
    "wilds": ("wild", "dirty"),
    "naturals": ("clean", "clean_sevens", "dirty"),
    "sevens": ("clean_sevens",),
    "four_to_seven": ("clean_sevens",),
    "black_three": ("black_threes",),
}
# Card categories, as counted, that each group holds; and groups within a category.
GROUP_CARDS = {
    "wilds": WILDS,
    "naturals": NATURALS,
    "sevens": (),
    "black_three": ("black_three",),
    "four_to_seven": ("four_to_seven",),
}


def _side_cards(rules: RuleSet, entry: DealEntry) -> dict[str, int]:
    """The fewest cards of each group and category this side's entry can have used.

    A card is counted once: a closed book's cards are among the melded cards, so the melded
    count of a group is at least what its books hold, never that plus the books. Open melds
    (cutthroat) are entered apart from the melded cards, so theirs are added.
    """
    melded = entry.melded_cards or {}
    left = entry.leftover_cards or {}
    closed = _book_needs(rules, entry.books)
    opened = _book_needs(rules, entry.open_books)
    closed["four_to_seven"] = closed["sevens"]
    opened["four_to_seven"] = opened["sevens"]
    used: dict[str, int] = {}
    for group, cards in GROUP_CARDS.items():
        in_melds = sum(melded.get(c, 0) for c in cards)
        in_hands = sum(left.get(c, 0) for c in cards)
        used[group] = max(closed[group], in_melds) + opened[group] + in_hands
    for category in ("joker", "two", "ace", "eight_to_king"):
        used[category] = melded.get(category, 0) + left.get(category, 0)
    return used


def _group_inputs(index: int, entry: DealEntry, group: str) -> list[Input]:
    """The figures of one side's entry that count toward a group of cards."""
    found: list[Input] = []
    for name in ("books", "open_books"):
        for kind in GROUP_BOOKS.get(group, ()):
            if getattr(entry, name).get(kind):
                found.append((index, f"{name}.{kind}"))
    for name in CARD_FIELDS:
        for category in GROUP_CARDS.get(group, (group,)):
            if (getattr(entry, name) or {}).get(category):
                found.append((index, f"{name}.{category}"))
    return found


def check_decks(rules: RuleSet, decks: int, entries: Sequence[DealEntry]) -> list[Refusal]:
    """The limits no honest entry can exceed, over all sides of one deal together."""
    refusals: list[Refusal] = []
    # What each group's limit says of books' sizes (rules/sentences.py `why_...`).
    sizes = {"size": BOOK_SIZE, "dirty": max(0, BOOK_SIZE - rules.max_wilds_in_dirty_book)}

    def limit(name: str, group: str, entered: int, most: int, at: list[Input], **what: str) -> None:
        if entered > most:
            said = f"what_{group}"
            what_ = say(said, **what) if said in SENTENCES else say("what", **what)
            why = say(f"why_{group}", **sizes) if f"why_{group}" in SENTENCES else ""
            figures = {"entered": entered, "what": what_, "decks": decks, "most": most, "why": why}
            refusals.append(Refusal.said(None, name, "deck_limit", tuple(at), **figures))

    def inputs(*names: str) -> list[Input]:
        return [
            (index, name)
            for index, entry in enumerate(entries)
            for name in names
            if getattr(entry, name)
        ]

    red_threes = sum(e.red_threes_down + e.red_threes_caught for e in entries)
    at = inputs("red_threes_down", "red_threes_caught")
    limit("red_threes", "red_threes", red_threes, DECK_RED_THREES * decks, at)
    used = [_side_cards(rules, entry) for entry in entries]

    def counted(group: str) -> tuple[int, list[Input]]:
        at = [i for index, e in enumerate(entries) for i in _group_inputs(index, e, group)]
        return sum(u[group] for u in used), at

    wilds, at = counted("wilds")
    limit("books", "wilds", wilds, DECK_WILDS * decks, at)
    naturals, at = counted("naturals")
    limit("books", "naturals", naturals, DECK_NATURALS * decks, at)
    sevens, at = counted("sevens")
    limit("books.clean_sevens", "sevens", sevens, DECK_SEVENS * decks, at)
    points = sum(e.melded(rules) + e.leftover(rules) + e.open_book_points for e in entries)
    # 590 with the standard card values; a club's changed values change what a deck is worth.
    deck_points = sum(n * rules.card_values.get(c, 0) for c, n in DECK_CARDS.items())
    at = inputs("melded_points", "leftover_points", "open_book_points", *CARD_FIELDS)
    limit("card_points", "card_points", points, deck_points * decks, at)
    for category in CARD_CATEGORIES:
        total, at = counted(category)
        most = DECK_CARDS[category] * decks
        limit(f"cards.{category}", category, total, most, at, label=CARD_LABELS[category])
    return refusals
