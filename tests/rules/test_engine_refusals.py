"""Entries no honest table could make are refused: reading an entry, and one side's figures."""

import pytest

from scorekeeper.rules import DealEntry, DealRefused, Refusal, Side, check_deal, ruleset

from ._engine_support import NOTHING, teams
from ._refusal_support import E, only, refusals_of

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
