"""Every limit from both sides: the figure at the limit is taken, one past it is refused.

A limit tested one way only lets `<` become `<=` unseen. Each case here enters the largest
figure the limit allows, then one more, and the refusal names the figure that is too many.
"""

import dataclasses

import pytest

from scorekeeper.rules import (
    DealEntry,
    DealRefused,
    Side,
    check_deal,
    check_setup,
    ruleset,
)
from scorekeeper.rules.terms import MAX_DECKS, MAX_FIGURE, MAX_NAME, MAX_PLAYERS_PER_SIDE

from ._engine_support import NOTHING, teams

E = DealEntry


# --- setting up a game ---------------------------------------------------------------------


def test_one_to_twenty_decks_start_a_game():
    """1 deck (two single players: 2 × 26 = 52 cards) and 20 decks are taken; 0 and 21 are not."""
    assert MAX_DECKS == 20
    assert check_setup(ruleset("classic"), 1, [Side("Ann"), Side("Bob")]) == []
    assert check_setup(ruleset("classic"), 20, teams(2)) == []


@pytest.mark.parametrize(
    ("key", "most"),
    [("classic", 12), ("club", 12), ("cutthroat", 2)],
)
def test_most_sides(key, most):
    """Twelve sides at most (cutthroat: two); one more is refused, naming the most."""
    rules = ruleset(key)
    table = [Side(f"P{i}") for i in range(most)]
    assert check_setup(rules, rules.decks_for(most), table) == []
    table.append(Side("Late"))
    (refusal,) = check_setup(rules, rules.decks_for(most + 1), table)
    assert (refusal.side, refusal.field) == (None, "sides")
    assert refusal.message == f"The {rules.name} rules take at most {most} sides."


def test_house_rules_are_named_in_a_setup_refusal():
    """Under changed rules a refusal speaks of these house rules, capitalised."""
    (refusal,) = check_setup(ruleset("classic", {"going_out_bonus": 200}), 3, [Side("Ann")])
    assert refusal.message == "These house rules need at least 2 sides."


def test_six_players_a_side_are_the_most():
    """A side of 6 players plays; 7 are refused on that side, naming 1 to 6; 0 too."""
    assert MAX_PLAYERS_PER_SIDE == 6
    rules = ruleset("classic")
    assert check_setup(rules, 6, [Side("Six", 6), Side("Two", 2)]) == []
    found = check_setup(rules, 7, [Side("Seven", 7), Side("None", 0)])
    assert [(r.side, r.field, r.message) for r in found] == [
        (0, "players", "Seven needs 1 to 6 players."),
        (1, "players", "None needs 1 to 6 players."),
    ]


def test_a_nameless_side_is_called_a_side():
    """A blank name and too many players: the players refusal says 'A side'."""
    found = check_setup(ruleset("classic"), 7, [Side("Ann"), Side("  ", 7)])
    assert [(r.side, r.field, r.message) for r in found] == [
        (1, "name", "Side 2 needs a name."),
        (1, "players", "A side needs 1 to 6 players."),
    ]
    found = check_setup(ruleset("club"), 5, [Side("Ann"), Side("", 2)])
    assert [r.message for r in found][-1] == (
        "A side: under the Club individual rules each side is one player."
    )


def test_individual_rules_name_the_side():
    """Club: a side of two is refused by its name, the club's rules named."""
    found = check_setup(ruleset("club"), 5, [Side("Ann"), Side("Pair", 2)])
    assert [(r.side, r.field, r.message) for r in found] == [
        (1, "players", "Pair: under the Club individual rules each side is one player.")
    ]


def test_names_of_sixty_characters_are_the_longest():
    """A name of 60 characters is taken; 61 are refused on that side, naming 60."""
    assert MAX_NAME == 60
    rules = ruleset("classic")
    assert check_setup(rules, 5, [Side("A" * 60, 2), Side("B", 2)]) == []
    found = check_setup(rules, 5, [Side("A", 2), Side("B" * 61, 2)])
    assert [(r.side, r.field, r.message) for r in found] == [
        (1, "name", "Side 2's name is over 60 characters.")
    ]


def test_a_name_is_measured_without_its_spaces():
    """Sixty characters inside spaces are sixty: the spaces around a name do not count."""
    assert check_setup(ruleset("classic"), 5, [Side(" " + "A" * 60 + " ", 2), Side("B", 2)]) == []


def test_the_same_name_twice_is_refused_once():
    """Three sides called alike: the second and third are refused; a blank name is no name."""
    found = check_setup(ruleset("classic"), 7, [Side("Ann"), Side("ANN"), Side("ann ")])
    assert [(r.side, r.message) for r in found] == [
        (1, "Two sides are called ANN."),
        (2, "Two sides are called ann."),
    ]


# --- the decks must deal every hand and foot, and leave a stock ------------------------------


def test_hands_and_feet_that_fill_the_decks_exactly_are_refused():
    """Hand 14 + foot 13 for two players is 54 cards: one deck, with no stock left, is refused."""
    rules = ruleset("classic", {"hand_size": 14})
    sides = [Side("Ann"), Side("Bob")]
    (refusal,) = check_setup(rules, 1, sides)
    assert refusal.message == (
        "2 players' hands and feet take 54 cards (14 + 13 each), but 1 deck holds 54 and the "
        "stock needs cards too: play with at least 2 decks."
    )
    assert refusal.figures == ((None, "decks"), (None, "rules.hand_size"))
    assert check_setup(rules, 2, sides) == []
    # One card fewer (13 + 13 = 52 for two) leaves a stock of 2 in one deck.
    assert check_setup(ruleset("classic"), 1, sides) == []


def test_the_most_decks_named_when_they_are_enough():
    """260 + 260 for two players is 1,040 cards: 19 decks (1,026) refused, 20 (1,080) taken."""
    rules = ruleset("classic", {"hand_size": 260, "foot_size": 260})
    sides = [Side("Ann"), Side("Bob")]
    (refusal,) = check_setup(rules, 19, sides)
    assert refusal.message == (
        "2 players' hands and feet take 1,040 cards (260 + 260 each), but 19 decks hold 1,026 "
        "and the stock needs cards too: play with at least 20 decks."
    )
    assert refusal.figures == (
        (None, "decks"),
        (None, "rules.hand_size"),
        (None, "rules.foot_size"),
    )
    assert check_setup(rules, 20, sides) == []


def test_hands_no_deck_count_can_deal():
    """270 + 270 for two players is 1,080 cards: even 20 decks (1,080) are too few."""
    rules = ruleset("classic", {"hand_size": 270, "foot_size": 270})
    (refusal,) = check_setup(rules, 20, [Side("Ann"), Side("Bob")])
    assert refusal.message == (
        "2 players' hands and feet take 1,080 cards (270 + 270 each), but 20 decks hold 1,080 "
        "and the stock needs cards too: even 20 decks are too few: fewer players or smaller "
        "hands and feet."
    )


def test_a_side_of_no_players_still_takes_a_hand():
    """A side entered with 0 players is refused, and still counted as one player's cards."""
    found = check_setup(ruleset("classic"), 1, [Side("Ann"), Side("Bob", 0)])
    assert [(r.side, r.field) for r in found] == [(1, "players")]
    found = check_setup(ruleset("classic"), 1, [Side("Ann"), Side("Bob", 0), Side("Cy", 0)])
    assert [(r.side, r.field) for r in found] == [(None, "decks"), (1, "players"), (2, "players")]
    assert found[0].message.startswith("3 players' hands and feet take 78 cards")


def test_a_rule_set_of_ones_own_is_measured_against_itself():
    """A rule set made by hand (no preset's key): too big a hand names only the decks."""
    rules = dataclasses.replace(ruleset("classic"), key="kitchen", name="Kitchen", hand_size=14)
    (refusal,) = check_setup(rules, 1, [Side("Ann"), Side("Bob")])
    assert refusal.message.startswith("2 players' hands and feet take 54 cards (14 + 13 each)")
    assert refusal.figures == ((None, "decks"),)


def test_preset_hands_name_only_the_decks():
    """Too few decks for a preset's own hands: the refusal is about the decks alone."""
    (refusal,) = check_setup(ruleset("classic"), 1, teams(2, players=2))
    assert refusal.figures == ((None, "decks"),)


# --- one figure of an entry ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["melded_points", "leftover_points", "open_book_points"])
def test_a_million_points_is_the_largest_figure(name):
    """1,000,000 is read; 1,000,005 is refused as more than any deal holds, naming it."""
    assert MAX_FIGURE == 1_000_000
    entry = DealEntry.from_dict({name: 1_000_000})
    assert getattr(entry, name) == 1_000_000
    with pytest.raises(DealRefused) as refused:
        DealEntry.from_dict({name: 1_000_005}, side=0)
    (refusal,) = refused.value.refusals
    label = {
        "melded_points": "Melded card points",
        "leftover_points": "Leftover card points",
        "open_book_points": "Open book card points",
    }[name]
    assert (refusal.side, refusal.field) == (0, name)
    assert refusal.message == f"{label} of 1,000,005 is far more than any deal holds."


def test_a_count_by_kind_has_the_same_largest_figure():
    """Books and cards by kind: 1,000,000 read, 1,000,001 refused with the kind named."""
    entry = DealEntry.from_dict({"books": {"clean": 1_000_000}})
    assert dict(entry.books) == {"clean": 1_000_000}
    with pytest.raises(DealRefused) as refused:
        DealEntry.from_dict({"leftover_cards": {"ace": 1_000_001}})
    (refusal,) = refused.value.refusals
    assert refusal.field == "leftover_cards.ace"
    assert refusal.message == "Leftover cards: aces of 1,000,001 is far more than any deal holds."


def test_zero_is_the_least_figure():
    """0 is read; −1 is refused as negative, naming it."""
    assert DealEntry.from_dict({"red_threes_caught": 0}).red_threes_caught == 0
    with pytest.raises(DealRefused) as refused:
        DealEntry.from_dict({"red_threes_caught": -1})
    (refusal,) = refused.value.refusals
    assert refusal.message == "Red threes caught cannot be negative (-1)."


# --- over all sides of one deal ------------------------------------------------------------


def test_wild_cards_six_per_deck():
    """One deck: 6 wild cards (6 dirty books) taken; a seventh is refused, naming the books."""
    rules = ruleset("classic")
    assert check_deal(rules, 1, teams(2), [E(books={"dirty": 5}), E(books={"dirty": 1})]) == []
    # A joker melded may be the dirty book's own wild card; one left over is a seventh.
    assert (
        check_deal(rules, 1, teams(2), [E(books={"dirty": 6}, melded_cards={"joker": 1}), NOTHING])
        == []
    )
    over = [E(books={"dirty": 5}), E(books={"dirty": 1}, leftover_cards={"joker": 1})]
    found = [r for r in check_deal(rules, 1, teams(2), over) if "wild" in r.message]
    assert [(r.field, r.message) for r in found] == [
        (
            "books",
            "7 wild cards needed for the books and the cards counted, but 1 deck holds 6 "
            "(7 in each wild book, at least 1 in each dirty book).",
        )
    ]
    assert found[0].figures == ((0, "books.dirty"), (1, "books.dirty"), (1, "leftover_cards.joker"))


def test_naturals_forty_four_per_deck():
    """One deck: 6 clean books (42) and 2 aces are 44 naturals; a third ace is refused."""
    rules = ruleset("classic")
    at = [E(books={"clean": 6}), E(leftover_cards={"ace": 2})]
    assert check_deal(rules, 1, teams(2), at) == []
    over = [E(books={"clean": 6}), E(leftover_cards={"ace": 3})]
    (refusal,) = check_deal(rules, 1, teams(2), over)
    assert (refusal.field, refusal.message) == (
        "books",
        "45 natural cards needed for the books and the cards counted, but 1 deck holds 44 "
        "(7 in each clean book, at least 5 in each dirty book).",
    )
    assert refusal.figures == ((0, "books.clean"), (1, "leftover_cards.ace"))


def test_books_of_sevens_are_natural_cards():
    """Family, two decks: 11 clean books and a book of sevens are 84 naturals, with 4 aces 88."""
    rules = ruleset("family")
    books = {"clean": 11, "clean_sevens": 1}
    assert check_deal(rules, 2, teams(2), [E(books=books), E(leftover_cards={"ace": 4})]) == []
    over = [E(books=books), E(leftover_cards={"ace": 5})]
    (refusal,) = check_deal(rules, 2, teams(2), over)
    assert refusal.message.startswith("89 natural cards needed")
    assert refusal.figures == (
        (0, "books.clean"),
        (0, "books.clean_sevens"),
        (1, "leftover_cards.ace"),
    )


def test_dirty_books_hold_their_naturals():
    """Club (3 wilds at most), one deck: 11 dirty books hold 44 naturals; with 1 ace, 45."""
    rules = ruleset("club")
    sides = [Side("Ann"), Side("Bob")]
    # 11 dirty books need 11 wild cards too, more than a deck's 6: only the naturals are read.
    at = [r.field for r in check_deal(rules, 1, sides, [E(books={"dirty": 11}), NOTHING])]
    assert at == ["books"]
    found = check_deal(rules, 1, sides, [E(books={"dirty": 11}), E(leftover_cards={"ace": 1})])
    assert [r.message.split(",")[0] for r in found] == [
        "11 wild cards needed for the books and the cards counted",
        "45 natural cards needed for the books and the cards counted",
    ]


def test_sevens_four_per_deck():
    """Family, 4 decks hold 16 sevens: 14 in two books taken; a third book (21) is refused."""
    rules = ruleset("family")
    assert check_deal(rules, 4, teams(2), [E(books={"clean_sevens": 2}), NOTHING]) == []
    # One deck (4 sevens) cannot hold one book of sevens (7).
    (refusal,) = check_deal(rules, 1, teams(2), [E(books={"clean_sevens": 1}), NOTHING])
    assert refusal.field == "books.clean_sevens"
    assert refusal.message == "7 sevens needed for books of sevens, but 1 deck holds 4."
    assert refusal.figures == ((0, "books.clean_sevens"),)
    # Two decks (8) hold it.
    assert check_deal(rules, 2, teams(2), [E(books={"clean_sevens": 1}), NOTHING]) == []


def test_card_points_name_every_figure_they_count():
    """Cards counted, points entered and cutthroat's open points: each named by the limit."""
    over = [E(melded_cards={"joker": 2, "eight_to_king": 24}), E(leftover_points=255)]
    (refusal,) = check_deal(ruleset("classic"), 1, teams(2), over)
    # 2 × 50 + 24 × 10 = 340 counted, and 255 entered: 595.
    assert refusal.message == "595 card points entered, but 1 deck holds 590."
    assert refusal.figures == ((0, "melded_cards"), (1, "leftover_points"))
    over = [E(melded_points=1000, leftover_cards={"ace": 1}), E(open_book_points=755)]
    found = check_deal(ruleset("cutthroat"), 3, teams(2), over)
    assert [(r.message, r.figures) for r in found] == [
        (
            "1,775 card points entered, but 3 decks hold 1,770.",
            ((0, "melded_points"), (0, "leftover_cards"), (1, "open_book_points")),
        )
    ]


def test_a_deck_is_worth_what_its_cards_are_worth():
    """Fours to sevens at 10 by house rule: a deck holds 590 + 16 × 5 = 670 card points."""
    rules = ruleset("classic", {"card_values": {"four_to_seven": 10}})
    assert check_deal(rules, 1, teams(2), [E(melded_points=670), NOTHING]) == []
    (refusal,) = check_deal(rules, 1, teams(2), [E(melded_points=675), NOTHING])
    assert refusal.message == "675 card points entered, but 1 deck holds 670."


def test_jokers_and_twos_are_counted_apart_from_the_wild_total():
    """One deck: 2 jokers and 4 twos are the deck's 6 wild cards; a fifth two is one too many."""
    rules = ruleset("classic")
    at = [E(melded_cards={"joker": 2, "two": 4}), NOTHING]
    assert check_deal(rules, 1, teams(2), at) == []
    over = [E(melded_cards={"joker": 2, "two": 5}), NOTHING]
    assert [r.field for r in check_deal(rules, 1, teams(2), over)] == ["books", "cards.two"]


def test_aces_and_eights_to_kings_are_counted_each():
    """One deck: 4 aces and 24 eights to kings fit; 5 aces do not, nor 25 eights to kings."""
    rules = ruleset("classic")
    at = [E(melded_cards={"ace": 4, "eight_to_king": 24}), NOTHING]
    assert check_deal(rules, 1, teams(2), at) == []
    aces = [E(melded_cards={"ace": 5}), NOTHING]
    assert [r.field for r in check_deal(rules, 1, teams(2), aces)] == ["cards.ace"]
    high = [E(melded_cards={"eight_to_king": 25}), NOTHING]
    assert [r.field for r in check_deal(rules, 1, teams(2), high)] == ["cards.eight_to_king"]


def test_a_limit_names_the_books_of_each_side():
    """Sevens over the decks: the refusal points at each side's book of sevens, no more."""
    rules = ruleset("family")
    entries = [
        E(books={"clean_sevens": 1}, leftover_cards={"four_to_seven": 3}),
        E(books={"clean_sevens": 1}, melded_cards={"four_to_seven": 7}),
    ]
    (refusal,) = check_deal(rules, 2, teams(2), entries)
    assert (refusal.field, refusal.message) == (
        "books.clean_sevens",
        "14 sevens needed for books of sevens, but 2 decks hold 8.",
    )
    assert refusal.figures == ((0, "books.clean_sevens"), (1, "books.clean_sevens"))
