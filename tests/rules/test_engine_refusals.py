"""Entries no honest table could make are refused, each with the side, the figure and why."""

import pytest

from scorekeeper.rules import (
    DealEntry,
    DealRefused,
    Refusal,
    Side,
    check_deal,
    ruleset,
    score_deal,
)

from ._engine_support import NOTHING, teams

E = DealEntry


def refusals_of(key, decks, entries, sides=None):
    """The refusals of one deal; also checks score_deal raises exactly those."""
    rules = ruleset(key)
    sides = sides or teams(len(entries))
    found = check_deal(rules, decks, sides, entries)
    if found:
        with pytest.raises(DealRefused) as refused:
            score_deal(rules, decks, sides, entries)
        assert refused.value.refusals == found
    return found


def only(found):
    """The single refusal of a list that must hold exactly one."""
    assert len(found) == 1, found
    return found[0]


# --- reading an entry --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        pytest.param({"red_threes_down": -1}, "red_threes_down", "cannot be negative", id="neg"),
        pytest.param({"melded_points": -5}, "melded_points", "cannot be negative", id="neg-pts"),
        pytest.param({"books": {"clean": -1}}, "books.clean", "cannot be negative", id="neg-bk"),
        pytest.param(
            {"leftover_cards": {"ace": -2}}, "leftover_cards.ace", "negative", id="neg-card"
        ),
        pytest.param({"melded_points": 12.5}, "melded_points", "whole number", id="float"),
        pytest.param({"red_threes_caught": 1.0}, "red_threes_caught", "whole number", id="1.0"),
        pytest.param({"leftover_points": "40"}, "leftover_points", "whole number", id="str"),
        pytest.param({"books": {"dirty": "2"}}, "books.dirty", "whole number", id="str-book"),
        pytest.param({"red_threes_down": True}, "red_threes_down", "whole number", id="bool"),
        pytest.param(
            {"melded_cards": {"joker": True}}, "melded_cards.joker", "whole number", id="bool-card"
        ),
        pytest.param({"open_book_points": None}, "open_book_points", "whole number", id="None"),
        pytest.param({"red_threes_down": 10**7}, "red_threes_down", "far more", id="huge"),
        pytest.param({"went_out": 1}, "went_out", "true or false", id="went_out-int"),
        pytest.param({"went_out": "yes"}, "went_out", "true or false", id="went_out-str"),
        pytest.param({"score": 5}, "score", "not a figure", id="unknown-field"),
        pytest.param({"books": {"natural": 1}}, "books.natural", "not one of", id="unknown-book"),
        pytest.param(
            {"melded_cards": {"queen": 1}}, "melded_cards.queen", "not one of", id="unknown-card"
        ),
        pytest.param({"books": [1, 2]}, "books", "counted by kind", id="books-list"),
        pytest.param(
            {"melded_points": 50, "melded_cards": {"ace": 1}}, "melded_cards", "not both", id="both"
        ),
    ],
)
def test_from_dict_refuses(data, field, words):
    """Anything but a plain, whole, non-negative figure is refused by name."""
    with pytest.raises(DealRefused) as refused:
        DealEntry.from_dict(data, side=1)
    refusal = only(refused.value.refusals)
    assert refusal.side == 1
    assert refusal.field == field
    assert words in refusal.message


def test_from_dict_refuses_a_non_mapping():
    """An entry that is not a set of named figures is refused as a whole."""
    with pytest.raises(DealRefused) as refused:
        DealEntry.from_dict([1, 2, 3], side=0)
    assert only(refused.value.refusals) == Refusal(
        0, "", "An entry must be a set of named figures."
    )


def test_from_dict_collects_every_problem():
    """Several bad figures: one refusal each."""
    with pytest.raises(DealRefused) as refused:
        DealEntry.from_dict({"red_threes_down": -1, "melded_points": 1.5, "bogus": 0})
    fields = sorted(r.field for r in refused.value.refusals)
    assert fields == ["bogus", "melded_points", "red_threes_down"]
    assert all(r.side is None for r in refused.value.refusals)


def test_from_dict_reads_good_figures():
    """A well-formed entry is read as given; empty points stay unentered."""
    entry = DealEntry.from_dict(
        {
            "books": {"clean": 2, "wild": 1},
            "red_threes_down": 1,
            "went_out": True,
            "melded_points": None,
            "melded_cards": {"joker": 1, "ace": 2},
            "leftover_points": 35,
        }
    )
    assert dict(entry.books) == {"clean": 2, "wild": 1}
    assert entry.went_out is True
    assert entry.melded_points is None
    assert entry.melded(ruleset("classic")) == 90  # 50 + 2×20
    assert entry.leftover(ruleset("classic")) == 35


# --- one side's figures ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "entry", "field"),
    [
        ("classic", E(melded_points=123), "melded_points"),
        ("club", E(leftover_points=7), "leftover_points"),
        ("cutthroat", E(open_books={"clean": 1}, open_book_points=12), "open_book_points"),
    ],
)
def test_card_points_must_be_multiples_of_5(key, entry, field):
    """Every card is worth a multiple of 5, so every card-point figure is one."""
    refusal = only(refusals_of(key, 4, [entry, NOTHING]))
    assert (refusal.side, refusal.field) == (0, field)
    assert "multiple of 5" in refusal.message


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("club", "wild"),
        ("family", "wild"),
        ("classic", "clean_sevens"),
        ("club", "clean_sevens"),
        ("casual", "clean_sevens"),
        ("ten-thousand", "clean_sevens"),
        ("cutthroat", "clean_sevens"),
        ("classic", "black_threes"),
        ("ten-thousand", "black_threes"),
        ("family", "black_threes"),
    ],
)
def test_book_kinds_the_rules_lack(key, kind):
    """A book kind the rule set does not score is refused on the second side."""
    refusal = only(refusals_of(key, 5, [NOTHING, E(books={kind: 1})]))
    assert (refusal.side, refusal.field) == (1, f"books.{kind}")
    assert refusal.message.startswith("B: ")
    assert "have no" in refusal.message


@pytest.mark.parametrize("key", ["family", "casual"])
def test_red_three_cannot_be_laid_down(key):
    """Family and casual: red threes are never laid face up."""
    refusal = only(refusals_of(key, 5, [E(red_threes_down=1), NOTHING]))
    assert (refusal.side, refusal.field) == (0, "red_threes_down")
    assert "cannot be laid down" in refusal.message


def test_only_one_side_can_go_out():
    """Two sides claiming to go out are refused for the whole deal, naming both."""
    books = {"clean": 2, "dirty": 2}
    refusal = only(
        refusals_of("club", 6, [E(books=books, went_out=True), E(books=books, went_out=True)])
    )
    assert (refusal.side, refusal.field) == (None, "went_out")
    assert "Only one side can go out" in refusal.message
    assert "A and B" in refusal.message


@pytest.mark.parametrize(
    ("key", "books", "missing"),
    [
        ("classic", {"clean": 2, "dirty": 2}, "missing 1 wild book"),
        ("classic", {"clean": 3, "dirty": 1, "wild": 1}, "missing 1 dirty book"),  # extra clean
        ("classic", {"clean": 4, "dirty": 2}, "missing 1 wild book"),  # extra clean, no wild
        ("classic", {}, "missing 2 clean books, 2 dirty books and 1 wild book"),
        ("club", {"clean": 3, "dirty": 1}, "missing 1 dirty book"),
        ("club", {"clean": 1, "dirty": 3}, "missing 1 clean book"),
        ("family", {"clean": 3, "dirty": 1}, "missing 1 dirty book"),
        ("family", {"clean_sevens": 2, "dirty": 1}, "missing 1 dirty book"),
        ("family", {"dirty": 2}, "missing 1 clean book"),
        ("casual", {"clean": 2, "dirty": 1}, "missing 1 dirty book"),
        ("casual", {"clean": 4, "wild": 1}, "missing 1 dirty book"),
        ("ten-thousand", {"clean": 4, "wild": 1}, "missing 1 dirty book"),
        ("ten-thousand", {"clean": 3, "dirty": 3}, "missing 1 wild book"),
        ("ten-thousand", {"clean": 2, "dirty": 1, "wild": 1}, "missing 1 clean book"),
        ("cutthroat", {"clean": 1, "black_threes": 1, "dirty": 1, "wild": 1}, "missing 1 clean"),
    ],
)
def test_going_out_without_the_required_books(key, books, missing):
    """The refusal names the books still missing; clean books never stand in for others."""
    refusal = only(refusals_of(key, 5, [E(books=books, went_out=True), NOTHING]))
    assert (refusal.side, refusal.field) == (0, "went_out")
    assert "cannot go out" in refusal.message
    assert missing in refusal.message


def test_classic_missing_wild_book_message():
    """The whole message names what is needed and what is missing."""
    refusal = only(
        refusals_of("classic", 5, [E(books={"clean": 2, "dirty": 2}, went_out=True), NOTHING])
    )
    assert refusal.message == (
        "A: cannot go out without 2 clean books, 2 dirty books and 1 wild book; "
        "missing 1 wild book."
    )


def test_open_books_do_not_count_toward_going_out():
    """Cutthroat: a side's own open books are not closed books for going out."""
    entry = E(books={"clean": 3, "dirty": 1}, open_books={"wild": 1}, went_out=True)
    refusal = only(refusals_of("cutthroat", 5, [entry, NOTHING]))
    assert "missing 1 wild book" in refusal.message


def test_exact_22_at_most_once_per_player():
    """Casual: three exact-22 pickups for a side of two players is refused."""
    sides = [Side("Pair", 2), Side("Trio", 3)]
    found = refusals_of(
        "casual", 5, [E(bonuses={"exact_22": 3}), E(bonuses={"exact_22": 3})], sides
    )
    refusal = only(found)
    assert (refusal.side, refusal.field) == (0, "bonuses.exact_22")
    assert "3 players" in refusal.message and "the side has 2" in refusal.message


@pytest.mark.parametrize("key", ["classic", "club", "family", "ten-thousand", "cutthroat"])
def test_exact_22_outside_casual(key):
    """Only casual knows the exact-22 bonus."""
    refusal = only(refusals_of(key, 5, [E(bonuses={"exact_22": 1}), NOTHING]))
    assert (refusal.side, refusal.field) == (0, "bonuses.exact_22")
    assert "no 'exact_22' bonus" in refusal.message


@pytest.mark.parametrize("key", ["classic", "club", "family", "casual", "ten-thousand"])
@pytest.mark.parametrize(
    ("entry", "field"),
    [
        (E(open_books={"clean": 1}), "open_books"),
        (E(open_book_points=50), "open_book_points"),
    ],
)
def test_open_books_only_in_cutthroat(key, entry, field):
    """Open books and their points are refused outside cutthroat."""
    refusal = only(refusals_of(key, 5, [NOTHING, entry]))
    assert (refusal.side, refusal.field) == (1, field)
    assert "open books are not scored" in refusal.message


def test_one_entry_per_side():
    """Two sides but one entry: refused before anything else."""
    found = check_deal(ruleset("classic"), 5, teams(2), [NOTHING])
    assert [(r.side, r.field) for r in found] == [(None, "scores")]
    assert found[0].message == "Enter one score for each of the 2 sides."
    # About the scores as a whole, not one side's figure.
    assert found[0].figures == ((None, "scores"),)


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
