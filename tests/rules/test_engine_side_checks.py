"""One side's own figures checked against its rules, each refusal worded as the table reads it."""

import dataclasses

import pytest

from scorekeeper.rules import DealEntry, Side, check_deal, ruleset

from ._engine_support import NOTHING, teams

E = DealEntry


def side_refusals(key, entry, decks=5, overrides=None):
    """(field, message) of each refusal of side A's entry, B entering nothing."""
    rules = ruleset(key, overrides)
    return [(r.field, r.message) for r in check_deal(rules, decks, teams(2), [entry, NOTHING])]


@pytest.mark.parametrize(
    ("key", "entry", "field", "message"),
    [
        (
            "classic",
            E(melded_points=12),
            "melded_points",
            "A: melded card points of 12 is not a multiple of 5; every card is.",
        ),
        (
            "classic",
            E(leftover_points=3),
            "leftover_points",
            "A: leftover card points of 3 is not a multiple of 5; every card is.",
        ),
        (
            "cutthroat",
            E(open_book_points=7),
            "open_book_points",
            "A: open book card points of 7 is not a multiple of 5; every card is.",
        ),
        (
            "family",
            E(red_threes_down=1),
            "red_threes_down",
            "A: red threes cannot be laid down under the Family rules.",
        ),
        (
            "club",
            E(books={"wild": 1}),
            "books.wild",
            "A: the Club individual rules have no wild book.",
        ),
        (
            "casual",
            E(open_books={"clean": 1}, open_book_points=35),
            "open_books",
            "A: open books are not scored under the Casual rules.",
        ),
        (
            "classic",
            E(bonuses={"exact_22": 1}),
            "bonuses.exact_22",
            "A: the Classic partnership rules have no 'exact_22' bonus.",
        ),
    ],
)
def test_a_side_figure_refused_in_words(key, entry, field, message):
    """The side named first, then what is wrong with which figure under which rules."""
    assert side_refusals(key, entry) == [(field, message)]


def test_open_book_points_alone_are_named_as_points():
    """Open book points without open books: the points are the figure refused."""
    assert side_refusals("classic", E(open_book_points=35)) == [
        ("open_book_points", "A: open books are not scored under the Classic partnership rules.")
    ]


def test_open_books_are_refused_on_their_own_figure():
    """Closed and open books together outside cutthroat: the open books alone are refused."""
    assert side_refusals("classic", E(books={"clean": 1}, open_books={"dirty": 1})) == [
        ("open_books", "A: open books are not scored under the Classic partnership rules.")
    ]


def test_open_books_counted_in_cutthroat():
    """Cutthroat: open books and their points are figures like any other."""
    entry = E(open_books={"clean": 1}, open_book_points=35)
    assert side_refusals("cutthroat", entry) == []


def test_a_kind_counted_zero_is_not_refused():
    """A book kind or bonus the rules lack, entered as 0, is nothing entered."""
    entry = E(books={"wild": 0, "clean_sevens": 0}, open_books={}, bonuses={"exact_22": 0})
    assert side_refusals("club", entry) == []


@pytest.mark.parametrize("points", [0, 5, 1_000])
def test_multiples_of_five_pass(points):
    """0, 5 and 1,000 card points are figures a side can score."""
    entries = [E(melded_points=points), E(leftover_points=points)]
    assert check_deal(ruleset("classic"), 5, teams(2), entries) == []


def test_exact_22_up_to_one_a_player():
    """Casual: a side of two may have two exact-22 pickups; three are refused, naming both."""
    sides = [Side("Pair", 2), Side("Solo")]
    fits = [E(bonuses={"exact_22": 2}), E(bonuses={"exact_22": 1})]
    assert check_deal(ruleset("casual"), 5, sides, fits) == []
    over = [E(bonuses={"exact_22": 2}), E(bonuses={"exact_22": 2})]
    found = check_deal(ruleset("casual"), 5, sides, over)
    assert [(r.side, r.field, r.message) for r in found] == [
        (1, "bonuses.exact_22", "Solo: 2 players picked up exactly 22 cards, but the side has 1.")
    ]


# --- going out -----------------------------------------------------------------------------


def test_going_out_short_of_two_kinds_names_both():
    """Club: one clean and one dirty book are short of one of each, named with 'and'."""
    assert side_refusals("club", E(books={"clean": 1, "dirty": 1}, went_out=True)) == [
        (
            "went_out",
            "A: cannot go out without 2 clean books and 2 dirty books; "
            "missing 1 clean book and 1 dirty book.",
        )
    ]


def test_a_book_the_rules_do_not_score_does_not_count_toward_going_out():
    """Family has no black threes book: one entered is refused and is not the clean book needed."""
    entry = E(books={"black_threes": 1, "dirty": 2}, went_out=True)
    assert side_refusals("family", entry) == [
        ("books.black_threes", "A: the Family rules have no black threes book."),
        (
            "went_out",
            "A: cannot go out without 1 clean book and 2 dirty books; missing 1 clean book.",
        ),
    ]


def test_a_book_the_rules_do_not_score_is_refused_once():
    """Family, a black threes book by a side not going out: refused as unscored, nothing more."""
    assert side_refusals("family", E(books={"black_threes": 1})) == [
        ("books.black_threes", "A: the Family rules have no black threes book."),
    ]


def test_only_the_side_going_out_is_held_to_the_books():
    """Classic: a side holding no books that does not go out is not refused."""
    assert side_refusals("classic", E(books={"clean": 1})) == []


# --- melded black threes --------------------------------------------------------------------


@pytest.mark.parametrize(("threes", "said"), [(1, "1 black three"), (2, "2 black threes")])
def test_black_threes_melded_where_they_never_are(threes, said):
    """Classic: melded black threes are refused, counted in the words."""
    assert side_refusals("classic", E(melded_cards={"black_three": threes})) == [
        (
            "melded_cards.black_three",
            f"A: {said} melded, but threes cannot be melded under the Classic partnership "
            "rules: a black three is only discarded, or counted with the cards left in a hand "
            "or foot.",
        )
    ]


def test_black_threes_melded_when_always_allowed():
    """A house rule letting black threes be melded at any time: nothing refused."""
    entry = E(melded_cards={"black_three": 2})
    assert side_refusals("classic", entry, overrides={"melded_black_threes": "always"}) == []


# Classic with a book of black threes added by house rule, black threes still never melded
# otherwise: the book's threes are melded, by the side going out only.
BLACK_THREES_BOOK = {"book_bonuses": {"black_threes": 500}}
OUT = {"clean": 2, "dirty": 2, "wild": 1}


def test_a_book_of_black_threes_lets_the_side_going_out_meld_them():
    """The book held and going out: its black threes are melded, not refused."""
    entry = E(books={**OUT, "black_threes": 1}, went_out=True, melded_cards={"black_three": 7})
    assert side_refusals("classic", entry, overrides=BLACK_THREES_BOOK) == []


def test_a_book_of_black_threes_is_closed_only_going_out():
    """The book held by a side not going out: both its threes and the book are refused."""
    entry = E(books={"black_threes": 1}, melded_cards={"black_three": 7})
    assert side_refusals("classic", entry, overrides=BLACK_THREES_BOOK) == [
        (
            "melded_cards.black_three",
            "A: black threes can be melded only by the side going out under these house rules.",
        ),
        (
            "books.black_threes",
            "A: a book of black threes can only be closed by the side going out.",
        ),
    ]


def test_without_the_book_black_threes_are_never_melded():
    """Black threes melded without their book, even by the side going out: refused."""
    entry = E(books=OUT, went_out=True, melded_cards={"black_three": 2})
    found = side_refusals("classic", entry, overrides=BLACK_THREES_BOOK)
    assert [field for field, _ in found] == ["melded_cards.black_three"]
    assert found[0][1].startswith("A: 2 black threes melded, but threes cannot be melded")


def test_a_book_the_rules_lack_does_not_let_threes_be_melded():
    """Classic as published has no black threes book: holding one does not lift the ruling."""
    entry = E(books={**OUT, "black_threes": 1}, went_out=True, melded_cards={"black_three": 7})
    fields = [field for field, _ in side_refusals("classic", entry)]
    assert fields == ["books.black_threes", "melded_cards.black_three"]


def test_ten_thousand_black_threes_melded_going_out():
    """Ten-thousand: the side going out may meld black threes; any other is refused."""
    out = E(books={"clean": 3, "dirty": 1, "wild": 1}, went_out=True)
    going = dataclasses.replace(out, melded_cards={"black_three": 2})
    assert side_refusals("ten-thousand", going) == []
    assert side_refusals("ten-thousand", E(melded_cards={"black_three": 2})) == [
        (
            "melded_cards.black_three",
            "A: black threes can be melded only by the side going out under the Ten thousand "
            "rules.",
        )
    ]
