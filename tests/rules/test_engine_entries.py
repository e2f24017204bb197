"""A side's entry as sent and as stored: each figure read, named when refused, written back."""

import pytest

from scorekeeper.rules import DealEntry, DealRefused, Refusal
from scorekeeper.rules.terms import MAX_ERRORS_LISTED

E = DealEntry


def refused(data, side=None):
    """The refusals of reading `data` as an entry."""
    with pytest.raises(DealRefused) as caught:
        DealEntry.from_dict(data, side)
    return caught.value.refusals


# --- each figure named in words ------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"books": {"clean": -1}}, "books.clean", "Clean books cannot be negative (-1)."),
        (
            {"open_books": {"dirty": -2}},
            "open_books.dirty",
            "Dirty open books cannot be negative (-2).",
        ),
        (
            {"books": {"clean_sevens": 1.5}},
            "books.clean_sevens",
            "Clean sevens books must be a whole number, not 1.5.",
        ),
        (
            {"bonuses": {"exact_22": -1}},
            "bonuses.exact_22",
            "Players who picked up exactly 22 cards cannot be negative (-1).",
        ),
        (
            {"melded_cards": {"ace": -2}},
            "melded_cards.ace",
            "Melded cards: aces cannot be negative (-2).",
        ),
        (
            {"leftover_cards": {"eight_to_king": "3"}},
            "leftover_cards.eight_to_king",
            "Leftover cards: eights to kings must be a whole number, not '3'.",
        ),
        (
            {"books": {"gold": 1}},
            "books.gold",
            "'gold' is not one of the books: clean, dirty, wild, clean_sevens, black_threes.",
        ),
        (
            {"bonuses": {"exact_21": 1}},
            "bonuses.exact_21",
            "'exact_21' is not one of the bonuses: exact_22.",
        ),
        (
            {"melded_cards": {"queen": 1}},
            "melded_cards.queen",
            "'queen' is not one of the melded cards: joker, two, ace, eight_to_king, "
            "four_to_seven, black_three.",
        ),
        ({"bonuses": 3}, "bonuses", "Bonuses must be counted by kind."),
        ({"went_out": "yes"}, "went_out", "Went out must be true or false, not 'yes'."),
        ({"score": 5}, "score", "'score' is not a figure of a deal entry."),
    ],
)
def test_a_refused_figure_is_named_in_words(data, field, message):
    """Each kind of figure refused by its path, in the words a score sheet uses."""
    (refusal,) = refused(data, side=1)
    assert refusal == Refusal(1, field, message)


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (
            {"melded_points": 50, "melded_cards": {"ace": 1}},
            "melded_cards",
            "Give melded card points or count the cards, not both.",
        ),
        (
            {"leftover_points": 5, "leftover_cards": {"four_to_seven": 1}},
            "leftover_cards",
            "Give leftover card points or count the cards, not both.",
        ),
    ],
)
def test_points_or_cards_not_both(data, field, message):
    """Melded or left over: points or cards counted, never both for the same figure."""
    (refusal,) = refused(data)
    assert (refusal.field, refusal.message) == (field, message)


def test_points_and_cards_of_different_figures_go_together():
    """Melded points with leftover cards counted (or the other way round) are read."""
    entry = DealEntry.from_dict({"melded_points": 50, "leftover_cards": {"ace": 1}})
    assert (entry.melded_points, dict(entry.leftover_cards)) == (50, {"ace": 1})
    entry = DealEntry.from_dict({"melded_cards": {"ace": 1}, "leftover_points": 5})
    assert (dict(entry.melded_cards), entry.leftover_points) == ({"ace": 1}, 5)


@pytest.mark.parametrize(
    "data",
    [
        {"melded_points": -5, "melded_cards": {"ace": 1}},
        {"melded_points": "5", "melded_cards": {"ace": 1}},
        {"melded_points": 2_000_000, "melded_cards": {"ace": 1}},
        {"melded_points": 50, "melded_cards": {"ace": -1}},
        {"melded_points": 50, "melded_cards": {"ace": 0.5}},
        {"melded_points": 50, "melded_cards": {"ace": 2_000_000}},
    ],
)
def test_a_refused_figure_is_not_also_counted_twice(data):
    """Points or cards refused as figures are not read, so 'not both' is not said as well."""
    assert len(refused(data)) == 1


@pytest.mark.parametrize("name", ["melded_points", "leftover_points"])
def test_points_left_blank_are_not_entered(name):
    """Melded or leftover points sent as null: not entered (the cards may be counted)."""
    entry = DealEntry.from_dict({name: None, "went_out": False})
    assert getattr(entry, name) is None


def test_bonuses_are_read_by_kind():
    """Casual's exact-22 bonus, counted by player."""
    assert dict(DealEntry.from_dict({"bonuses": {"exact_22": 2}}).bonuses) == {"exact_22": 2}


def test_counts_sent_as_null_are_empty():
    """A count by kind sent as null counts nothing."""
    entry = DealEntry.from_dict({"books": None, "melded_cards": None})
    assert (dict(entry.books), entry.melded_cards) == ({}, {})


# --- a body of many refusals ---------------------------------------------------------------


def test_the_refusals_listed_stop_at_a_hundred():
    """150 unknown figures: 99 listed one by one, the 100th says how many more (51)."""
    assert MAX_ERRORS_LISTED == 100
    found = refused({f"figure_{i:03}": 1 for i in range(150)}, side=2)
    assert len(found) == 100
    assert found[98] == Refusal(2, "figure_098", "'figure_098' is not a figure of a deal entry.")
    assert found[99] == Refusal(
        2, "", "51 more of its figures are refused too (not listed one by one).", ()
    )
    assert found[99].figures == ()


def test_refusals_of_every_kind_count_toward_the_hundred():
    """Negative counts, unknown kinds and wrong figures past 99 are all counted, not listed."""
    data = {
        "books": {f"kind_{i}": 1 for i in range(60)},
        "melded_cards": {"ace": -1, "two": -1},
        "leftover_cards": {f"card_{i}": 1 for i in range(50)},
        "went_out": "no",
        "red_threes_down": -1,
    }
    found = refused(data)
    assert len(found) == 100
    # 60 + 2 + 50 + 1 + 1 = 114 refused: 99 listed, 15 more counted.
    assert found[-1].message == "15 more of its figures are refused too (not listed one by one)."


def test_exactly_ninety_nine_refusals_are_all_listed():
    """99 refusals fit the list; no 'more' line is added."""
    found = refused({f"figure_{i:03}": 1 for i in range(99)})
    assert len(found) == 99
    assert found[-1].field == "figure_098"


def test_a_thousand_refusals_say_so_with_a_comma():
    """1,099 unknown figures: 99 listed, '1,000 more' counted."""
    found = refused({f"f{i}": 1 for i in range(1099)})
    assert found[-1].message == "1,000 more of its figures are refused too (not listed one by one)."


# --- written back -------------------------------------------------------------------------


def test_an_entry_written_back_keeps_only_what_was_entered():
    """Defaults and zero counts are left out; points of 0 are a figure the side entered."""
    entry = E(
        books={"clean": 2, "dirty": 0},
        red_threes_down=0,
        red_threes_caught=1,
        went_out=False,
        melded_points=0,
        leftover_points=None,
        leftover_cards={"ace": 1, "two": 0},
        bonuses={"exact_22": 0},
    )
    assert entry.to_dict() == {
        "books": {"clean": 2},
        "red_threes_caught": 1,
        "melded_points": 0,
        "leftover_cards": {"ace": 1},
    }


def test_an_entry_written_back_reads_the_same():
    """Every figure set: written back in the order a score sheet lists them, read back equal."""
    entry = E(
        books={"clean": 1},
        open_books={"dirty": 1},
        bonuses={"exact_22": 1},
        red_threes_down=1,
        red_threes_caught=2,
        went_out=True,
        melded_points=120,
        leftover_points=0,
        open_book_points=35,
    )
    data = entry.to_dict()
    assert list(data) == [
        "books",
        "open_books",
        "bonuses",
        "red_threes_down",
        "red_threes_caught",
        "went_out",
        "melded_points",
        "leftover_points",
        "open_book_points",
    ]
    assert data["went_out"] is True
    assert DealEntry.from_dict(data) == entry


def test_a_blank_entry_writes_nothing():
    """Nothing entered: nothing written."""
    assert E().to_dict() == {}
    assert E(melded_cards={"ace": 0}).to_dict() == {}
