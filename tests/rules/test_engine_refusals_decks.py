"""Entries no honest table could make are refused: what the decks hold, over all sides."""

import pytest

from ._engine_support import NOTHING
from ._refusal_support import E, only, refusals_of

# --- what the decks hold, over all sides together -----------------------------------------


@pytest.mark.parametrize(
    ("decks", "down", "caught", "refused"),
    [
        (1, 1, 1, False),  # 2 ≤ 2
        (1, 2, 1, True),  # 3 > 2
        (3, 3, 3, False),  # 6 ≤ 6
        (3, 3, 4, True),  # 7 > 6
    ],
)
def test_red_threes_within_two_per_deck(decks, down, caught, refused):
    """Red threes laid plus caught, over all sides, at most 2 per deck."""
    entries = [E(red_threes_down=down), E(red_threes_caught=caught)]
    found = refusals_of("classic", decks, entries)
    if refused:
        refusal = only(found)
        assert (refusal.side, refusal.field) == (None, "red_threes")
        held = "1 deck holds" if decks == 1 else f"{decks} decks hold"
        assert refusal.message == f"{down + caught} red threes entered, but {held} {2 * decks}."
        assert refusal.figures == ((0, "red_threes_down"), (1, "red_threes_caught"))
    else:
        assert found == []


@pytest.mark.parametrize(
    ("a", "b", "refused"),
    [
        # 3 decks hold 18 wild cards
        ({"wild": 1, "dirty": 2}, {"wild": 1, "dirty": 2}, False),  # 7+2 + 7+2 = 18
        ({"wild": 1, "dirty": 2}, {"wild": 1, "dirty": 3}, True),  # 7+2 + 7+3 = 19
        ({"dirty": 18}, {}, False),  # 18 × 1
        ({"dirty": 10}, {"dirty": 9}, True),  # 19 × 1
        ({"wild": 2}, {"wild": 1}, True),  # 21
    ],
)
def test_wild_cards_needed_within_six_per_deck(a, b, refused):
    """7 wild cards per wild book and at least 1 per dirty book, at most 6 per deck."""
    found = refusals_of("ten-thousand", 3, [E(books=a), E(books=b)])
    if refused:
        refusal = only(found)
        assert (refusal.side, refusal.field) == (None, "books")
        assert "wild cards needed" in refusal.message
        assert "hold 18" in refusal.message
    else:
        assert found == []


def test_cutthroat_open_books_count_toward_the_limits():
    """Cutthroat, 3 decks: 2 closed wild books + an open one need 21 wild cards (> 18)."""
    entries = [E(books={"wild": 2}), E(open_books={"wild": 1})]
    refusal = only(refusals_of("cutthroat", 3, entries))
    assert refusal.field == "books"
    assert "21 wild cards" in refusal.message


@pytest.mark.parametrize(
    ("key", "clean", "refused"),
    [
        # 2 decks hold 88 naturals and 12 wild cards; 12 dirty books use all 12 wilds.
        ("classic", 4, False),  # at most 2 wilds: 12 dirty × 5 + 4 clean × 7 = 60 + 28 = 88
        ("classic", 5, True),  # 60 + 35 = 95 > 88
        ("club", 5, False),  # at most 3 wilds: 12 dirty × 4 + 5 × 7 = 48 + 35 = 83
        ("club", 6, True),  # 48 + 42 = 90 > 88
    ],
)
def test_naturals_within_44_per_deck(key, clean, refused):
    """7 naturals per clean book, 7 − the wild maximum per dirty book, at most 44 per deck."""
    entries = [E(books={"dirty": 6, "clean": clean}), E(books={"dirty": 6})]
    found = refusals_of(key, 2, entries)
    if refused:
        refusal = only(found)
        assert (refusal.side, refusal.field) == (None, "books")
        assert "natural cards needed" in refusal.message
        assert "hold 88" in refusal.message
    else:
        assert found == []


def test_family_books_of_sevens_need_sevens():
    """Family, 4 decks hold 16 sevens: two books of sevens fit, three (21 sevens) do not."""
    assert refusals_of("family", 4, [E(books={"clean_sevens": 2}), NOTHING]) == []
    refusal = only(
        refusals_of("family", 4, [E(books={"clean_sevens": 2}), E(books={"clean_sevens": 1})])
    )
    assert refusal.field == "books.clean_sevens"
    assert "21 sevens" in refusal.message


@pytest.mark.parametrize(
    ("key", "decks", "a", "b", "refused"),
    [
        ("classic", 2, E(melded_points=600), E(leftover_points=580), False),  # 1180 ≤ 1180
        ("classic", 2, E(melded_points=600), E(leftover_points=585), True),  # 1185 > 1180
        ("club", 1, E(melded_points=590), NOTHING, False),
        ("club", 1, E(melded_points=300, leftover_points=295), NOTHING, True),  # 595 > 590
        # cutthroat counts open-book points too: 1000 + 775 = 1775 > 1770 for 3 decks
        (
            "cutthroat",
            3,
            E(melded_points=1000),
            E(open_books={"clean": 1}, open_book_points=775),
            True,
        ),
        (
            "cutthroat",
            3,
            E(melded_points=1000),
            E(open_books={"clean": 1}, open_book_points=770),
            False,
        ),
        # counted: 2 jokers (100) + 24 eights to kings (240) + 255 entered = 595 > 590
        (
            "classic",
            1,
            E(melded_cards={"joker": 2, "eight_to_king": 24}),
            E(melded_points=255),
            True,
        ),
    ],
)
def test_card_points_within_590_per_deck(key, decks, a, b, refused):
    """Melded plus leftover card points over all sides, at most 590 per deck."""
    found = [r for r in refusals_of(key, decks, [a, b]) if r.field == "card_points"]
    if refused:
        refusal = only(found)
        assert refusal.side is None
        assert f"{'holds' if decks == 1 else 'hold'} {590 * decks:,}" in refusal.message
    else:
        assert found == []


PER_DECK = {
    "joker": 2,
    "two": 4,
    "ace": 4,
    "eight_to_king": 24,
    "four_to_seven": 16,
    "black_three": 2,
}


# What each category is called, and why a book's cards may be among it.
CATEGORY_WORDS = {
    "joker": ("jokers", ""),
    "two": ("twos", ""),
    "ace": ("aces", ""),
    "eight_to_king": ("eights to kings", ""),
    "four_to_seven": ("fours to sevens", " (7 sevens in each book of sevens, among those melded)"),
    "black_three": (
        "black threes",
        " (at least 7 in each book of black threes, among those melded)",
    ),
}


@pytest.mark.parametrize("category", sorted(PER_DECK))
@pytest.mark.parametrize("decks", [1, 3])
def test_card_counts_within_each_category(category, decks):
    """Counted cards of a category over all sides, melded and left over, within the decks."""
    most = PER_DECK[category] * decks
    rules_key = "classic"
    # split across both sides, melded by one and left over by the other
    half = most // 2
    # Threes are never melded under these rules: black threes are counted as left over.
    where = "leftover_cards" if category == "black_three" else "melded_cards"
    fits = [E(**{where: {category: half}}), E(leftover_cards={category: most - half})]
    assert refusals_of(rules_key, decks, fits) == []
    over = [E(**{where: {category: half}}), E(leftover_cards={category: most - half + 1})]
    found = [r for r in refusals_of(rules_key, decks, over) if r.field.startswith("cards.")]
    refusal = only(found)
    assert (refusal.side, refusal.field) == (None, f"cards.{category}")
    label, why = CATEGORY_WORDS[category]
    held = "1 deck holds" if decks == 1 else f"{decks} decks hold"
    assert refusal.message == f"{most + 1} {label} entered, but {held} {most}{why}."
    assert refusal.figures == ((0, f"{where}.{category}"), (1, f"leftover_cards.{category}"))


def test_black_threes_book_uses_seven_black_threes():
    """Cutthroat: a book of black threes uses 7 of the 2 per deck, counted once."""
    book = {"clean": 3, "black_threes": 1, "dirty": 1, "wild": 1}
    # 4 decks hold 8: the book's seven (melded, counted or not) and one more left over fit
    fits = [E(books=book, went_out=True, melded_cards={"black_three": 7}), NOTHING]
    assert refusals_of("cutthroat", 4, fits) == []
    fits = [E(books=book, went_out=True), E(leftover_cards={"black_three": 1})]
    assert refusals_of("cutthroat", 4, fits) == []
    # A book of eight black threes is all 8
    fits = [E(books=book, went_out=True, melded_cards={"black_three": 8}), NOTHING]
    assert refusals_of("cutthroat", 4, fits) == []
    # 7 + 2 = 9 > 8
    over = [
        E(books=book, went_out=True, melded_cards={"black_three": 7}),
        E(leftover_cards={"black_three": 2}),
    ]
    refusal = only(refusals_of("cutthroat", 4, over))
    assert refusal.field == "cards.black_three"
    assert "9 black threes entered" in refusal.message
    assert "at least 7 in each book of black threes" in refusal.message
    assert set(refusal.figures) == {
        (0, "books.black_threes"),
        (0, "melded_cards.black_three"),
        (1, "leftover_cards.black_three"),
    }
    # 3 decks hold only 6: a book of black threes alone is impossible
    refusal = only(refusals_of("cutthroat", 3, [E(books=book, went_out=True), NOTHING]))
    assert refusal.field == "cards.black_three"


def test_black_threes_book_only_for_the_side_going_out():
    """Cutthroat: black threes meld only when going out, so only that side holds the book."""
    refusal = only(refusals_of("cutthroat", 4, [E(books={"black_threes": 1}), NOTHING]))
    assert (refusal.side, refusal.field) == (0, "books.black_threes")
    assert "only be closed by the side going out" in refusal.message


def test_every_reason_is_given_at_once():
    """Several problems in one deal: every one is reported."""
    entries = [
        E(books={"wild": 1}, melded_points=13, red_threes_down=3),
        E(red_threes_caught=3, went_out=True),
    ]
    found = refusals_of("club", 2, entries)
    assert {(r.side, r.field) for r in found} == {
        (0, "books.wild"),
        (0, "melded_points"),
        (1, "went_out"),
        (None, "red_threes"),
    }
