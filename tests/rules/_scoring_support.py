"""Helpers shared by the scoring tests (test_engine_scoring*.py): an entry, a breakdown."""

from scorekeeper.rules import DealEntry


def _b(books, red_threes, going_out, cards, extras, moved, total):
    return {
        "books": books,
        "red_threes": red_threes,
        "going_out": going_out,
        "cards": cards,
        "extras": extras,
        "moved": moved,
        "total": total,
    }


E = DealEntry
