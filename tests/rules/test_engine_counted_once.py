"""A card is counted once: real deals, dealt from real decks, pass the engine's deck limits.

The property: deal the cards of a whole deal out of physical decks (each rank and each wild
card as a deck holds them), build books from those very cards, meld more, leave some in hands
and feet, and enter it all as a side would (cards by count or by points). Any such entry must
pass the engine's checks at the fewest decks that physically hold the cards used: a limit that
refuses it counts some card twice. The cases from the rulebooks and the issue follow.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import PRESETS, DealEntry, RulesError, Side, check_deal, ruleset, score_deal
from scorekeeper.rules.game import check_setup

from ._engine_support import teams

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# What one deck holds of each card, by rank, as a player would sort them (not the engine's).
PER_DECK = {
    **{rank: 4 for rank in ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")},
    "joker": 2,
    "two": 4,
    "black_three": 2,
    "red_three": 2,
}
NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
WILD_CARDS = ("joker", "two")
# How a side counts a card on the score sheet.
CATEGORY = {
    "4": "four_to_seven",
    "5": "four_to_seven",
    "6": "four_to_seven",
    "7": "four_to_seven",
    **{rank: "eight_to_king" for rank in ("8", "9", "10", "J", "Q", "K")},
    "A": "ace",
    "joker": "joker",
    "two": "two",
    "black_three": "black_three",
}
VALUE = {
    "joker": 50,
    "two": 20,
    "ace": 20,
    "eight_to_king": 10,
    "four_to_seven": 5,
    "black_three": 5,
}


def fewest_decks(cards: Counter[str]) -> int:
    """The fewest decks that physically hold these cards."""
    return max([1, *(math.ceil(n / PER_DECK[card]) for card, n in cards.items())])


def counted(cards: Counter[str]) -> dict[str, int]:
    """Cards as a side enters them by count."""
    by_category: Counter[str] = Counter()
    for card, n in cards.items():
        by_category[CATEGORY[card]] += n
    return {c: n for c, n in by_category.items() if n}


def points(cards: Counter[str]) -> int:
    return sum(VALUE[CATEGORY[card]] * n for card, n in cards.items())


@st.composite
def books_of(draw, rules, kind: str, count: int) -> Counter[str]:
    """The cards of `count` books of one kind, as a table would build them."""
    cards: Counter[str] = Counter()
    for _ in range(count):
        if kind == "wild":
            cards.update(draw(st.lists(st.sampled_from(WILD_CARDS), min_size=7, max_size=7)))
        elif kind == "clean":
            cards[draw(st.sampled_from(NATURAL_RANKS))] += 7
        elif kind == "clean_sevens":
            cards["7"] += 7
        elif kind == "black_threes":
            cards["black_three"] += draw(st.integers(7, 8))
        elif kind == "dirty":
            wilds = draw(st.integers(1, rules.max_wilds_in_dirty_book))
            cards[draw(st.sampled_from(NATURAL_RANKS))] += 7 - wilds
            cards.update(
                draw(st.lists(st.sampled_from(WILD_CARDS), min_size=wilds, max_size=wilds))
            )
    return cards


@st.composite
def a_side(draw, rules, going_out: bool):
    """One side's deal: its entry, and every card it used."""
    books: dict[str, int] = {}
    for kind in rules.book_bonuses:
        if kind == "black_threes":
            # Black threes are melded only as the side goes out.
            books[kind] = draw(st.integers(0, 1)) if going_out else 0
        else:
            books[kind] = draw(st.integers(0, 2))
    if going_out:
        # The books the rules ask for before a side may go out.
        held = Counter()
        for kind, n in books.items():
            held[rules.counts_as(kind)] += n
        for needed_kind, needed in rules.books_to_go_out.items():
            if held[needed_kind] < needed:
                kind = next(k for k in rules.book_bonuses if rules.counts_as(k) == needed_kind)
                books[kind] += needed - held[needed_kind]
                held[needed_kind] = needed
    melded: Counter[str] = Counter()
    for kind, n in books.items():
        melded.update(draw(books_of(rules, kind, n)))
    loose = st.sampled_from(NATURAL_RANKS + WILD_CARDS)
    melded.update(draw(st.lists(loose, max_size=12)))
    if going_out and rules.melded_black_threes == "going_out":
        melded["black_three"] += draw(st.integers(0, 2))
    any_card = st.sampled_from((*NATURAL_RANKS, *WILD_CARDS, "black_three"))
    left = Counter(draw(st.lists(any_card, max_size=12)))
    down = draw(st.integers(0, 2)) if rules.red_three_down is not None else 0
    caught = draw(st.integers(0, 2))
    entry: dict = {
        "books": {k: n for k, n in books.items() if n},
        "went_out": going_out,
        "red_threes_down": down,
        "red_threes_caught": caught,
    }
    if draw(st.booleans()):
        entry["melded_cards"] = counted(melded)
    else:
        entry["melded_points"] = points(melded)
    if draw(st.booleans()):
        entry["leftover_cards"] = counted(left)
    else:
        entry["leftover_points"] = points(left)
    used = melded + left + Counter({"red_three": down + caught})
    if rules.open_books_to_other_team and draw(st.booleans()):
        # Melds of 7+ left open: entered apart from the melded cards, counted for the others.
        kind = draw(st.sampled_from(("clean", "dirty")))
        opened = draw(books_of(rules, kind, 1))
        entry["open_books"] = {kind: 1}
        entry["open_book_points"] = points(opened)
        used += opened
    return DealEntry.from_dict(entry), used


@st.composite
def a_deal(draw):
    key = draw(st.sampled_from(sorted(PRESETS)))
    rules = ruleset(key)
    sides = 2 if rules.max_sides == 2 else draw(st.integers(2, 3))
    out = draw(st.one_of(st.none(), st.integers(0, sides - 1)))
    played = [draw(a_side(rules, going_out=i == out)) for i in range(sides)]
    return rules, [entry for entry, _ in played], sum((used for _, used in played), Counter())


@SETTINGS
@given(a_deal())
def test_a_real_deal_passes_at_the_fewest_decks_that_hold_it(deal):
    """Whatever was physically dealt and melded passes the limits: no card is counted twice."""
    rules, entries, used = deal
    decks = fewest_decks(used)
    assert check_deal(rules, decks, teams(len(entries)), entries) == []


# --- the rulebook cases ----------------------------------------------------------------------

# Cutthroat, 4 decks: 3 clean (one of them the black threes) + dirty + wild, going out, every
# melded card counted; the seven black threes of the book are the seven melded black threes.
CUTTHROAT_OUT = {
    "books": {"clean": 2, "black_threes": 1, "dirty": 1, "wild": 1},
    "went_out": True,
    "melded_cards": {"black_three": 7, "joker": 4, "two": 4, "ace": 14, "eight_to_king": 14},
}


@pytest.mark.parametrize("decks", [4, 5, 7])
def test_black_threes_book_counted_with_the_melded_black_threes(decks):
    """4,135 = books 3,300 + going out 100 + cards 735, at 4 decks as at 7."""
    entries = [DealEntry.from_dict(CUTTHROAT_OUT), DealEntry(melded_points=100)]
    first, second = score_deal(ruleset("cutthroat"), decks, teams(2), entries)
    assert (first.books, first.going_out, first.cards) == (3300, 100, 735)
    assert (first.total, second.total) == (4135, 100)


def test_nine_black_threes_do_not_fit_four_decks():
    """The book's seven and two more left over are nine: four decks hold eight."""
    other = DealEntry(leftover_cards={"black_three": 2})
    found = check_deal(
        ruleset("cutthroat"), 4, teams(2), [DealEntry.from_dict(CUTTHROAT_OUT), other]
    )
    assert [(r.field, r.message.split(",")[0]) for r in found] == [
        ("cards.black_three", "9 black threes entered")
    ]
    assert set(found[0].figures) == {
        (0, "books.black_threes"),
        (0, "melded_cards.black_three"),
        (1, "leftover_cards.black_three"),
    }


@pytest.mark.parametrize(
    ("books", "melded", "left", "decks", "refused"),
    [
        # a wild book's 7 wild cards are among the 7 counted: 1 deck short (6), 2 decks fit
        ({"wild": 1}, {"joker": 2, "two": 5}, {}, 2, False),
        # and a joker left over is an eighth wild card: still fits 2 decks (12)
        ({"wild": 1}, {"joker": 2, "two": 5}, {"joker": 1}, 2, False),
        # two wild books (14) and nothing else: 3 decks hold 18
        ({"wild": 2}, {"joker": 4, "two": 10}, {}, 3, False),
        # the dirty book's wild card is one of the counted twos
        ({"dirty": 1, "clean": 1}, {"two": 1, "ace": 13}, {}, 4, False),
        # clean books of sevens: their 14 sevens are among the 14 fours-to-sevens counted
        ({"clean_sevens": 2}, {"four_to_seven": 14}, {}, 4, False),
        # 4 decks hold 16 sevens: two books of sevens and 3 fours-to-sevens left are fine
        ({"clean_sevens": 2}, {"four_to_seven": 14}, {"four_to_seven": 3}, 4, False),
        # but 4 fours-to-sevens melded besides the books' 14 sevens, and 16 left over: 34 > 32
        ({"clean_sevens": 2}, {"four_to_seven": 18}, {"four_to_seven": 16}, 2, True),
    ],
)
def test_each_book_kind_counted_once(books, melded, left, decks, refused):
    """Clean, sevens, dirty and wild books: their cards are the melded cards, not more."""
    key = "family" if "clean_sevens" in books else "classic"
    entry = DealEntry(books=books, melded_cards=melded, leftover_cards=left or None)
    found = check_deal(ruleset(key), decks, teams(2), [entry, DealEntry()])
    assert bool(found) == refused, [r.message for r in found]


def test_casual_wild_book_as_dirty_counted_once():
    """Casual scores a wild book as dirty; its seven wild cards are still the counted ones."""
    entry = DealEntry(books={"wild": 1}, melded_cards={"joker": 3, "two": 4})
    (score, _) = score_deal(ruleset("casual"), 2, teams(2), [entry, DealEntry()])
    assert score.books == 300
    assert score.melded == 3 * 50 + 4 * 20


# --- black threes melded -----------------------------------------------------------------------


@pytest.mark.parametrize("key", ["classic", "club", "family", "casual"])
def test_black_threes_never_melded_where_the_rulebook_forbids_it(key):
    """Threes are only discarded: a melded black three is refused, with the reason."""
    entry = DealEntry(melded_cards={"black_three": 2, "ace": 3})
    (refusal,) = check_deal(ruleset(key), 5, teams(2), [entry, DealEntry()])
    assert (refusal.side, refusal.field) == (0, "melded_cards.black_three")
    assert f"cannot be melded under the {PRESETS[key].name} rules" in refusal.message
    # Left in a hand or foot, they are just cards.
    left = DealEntry(leftover_cards={"black_three": 2})
    assert check_deal(ruleset(key), 5, teams(2), [left, DealEntry()]) == []


def test_a_house_rule_lets_black_threes_be_melded():
    """The house rule 'always' lifts the ruling; the refusal speaks of these house rules."""
    entry = DealEntry(melded_cards={"black_three": 2, "ace": 3})
    allowed = ruleset("club", {"melded_black_threes": "always"})
    (score, _) = score_deal(allowed, 5, teams(2), [entry, DealEntry()])
    assert score.melded == 2 * 5 + 3 * 20
    changed = ruleset("club", {"going_out_bonus": 200})
    (refusal,) = check_deal(changed, 5, teams(2), [entry, DealEntry()])
    assert "cannot be melded under these house rules" in refusal.message


@pytest.mark.parametrize("key", ["ten-thousand", "cutthroat"])
def test_black_threes_melded_only_by_the_side_going_out(key):
    """Ten-thousand's rulebook: black threes can be melded only when going out."""
    rules = ruleset(key)
    out = {"clean": 3, "dirty": 1, "wild": 1}
    going = DealEntry(books=out, went_out=True, melded_cards={"black_three": 3, "joker": 8})
    assert check_deal(rules, 5, teams(2), [going, DealEntry()]) == []
    staying = DealEntry(melded_cards={"black_three": 3})
    (refusal,) = check_deal(rules, 5, teams(2), [going, staying])
    assert (refusal.side, refusal.field) == (1, "melded_cards.black_three")
    assert "only by the side going out" in refusal.message


# --- house rules held to what a score sheet can reach ------------------------------------------


@pytest.mark.parametrize(
    ("overrides", "path"),
    [
        ({"going_out_bonus": 103}, "rules.going_out_bonus"),
        ({"book_bonuses": {"clean": 502}}, "rules.book_bonuses.clean"),
        ({"red_three_down": 99}, "rules.red_three_down"),
        ({"red_three_caught": 301}, "rules.red_three_caught"),
        ({"opening_minimums": [50, 92, 120, 150]}, "rules.opening_minimums.1"),
        ({"target_score": 10_001}, "rules.target_score"),
    ],
)
def test_house_rule_points_move_in_fives(overrides, path):
    """Every card is worth a multiple of 5, so a bonus, penalty or minimum off it is a typo."""
    key = "ten-thousand" if "target_score" in overrides else "classic"
    rules = ruleset(key, overrides)
    found = check_setup(rules, 5, teams(2))
    assert [r.figures for r in found] == [((None, path),)]
    assert "must be a multiple of 5" in found[0].message
    value = next(iter(overrides.values()))
    if isinstance(value, int):
        assert f"not {value:,}" in found[0].message


def test_a_preset_starts_without_a_refusal():
    """Every preset, at its own default decks, for tables of 2 to 12 players."""
    for rules in PRESETS.values():
        for players in range(2, 13):
            if rules.max_sides == 2:
                table = [Side("A", players - players // 2), Side("B", players // 2)]
            else:
                table = [Side(f"P{i}", 1) for i in range(players)]
            decks = rules.decks_for(players)
            assert check_setup(rules, decks, table) == [], (rules.key, players)


def test_decks_must_hold_every_hand_and_foot():
    """Four players with 13 + 13 take 104 cards: one deck (54) cannot deal them, two can."""
    rules = ruleset("classic")
    table = teams(2, players=2)
    (refusal,) = check_setup(rules, 1, table)
    assert refusal.field == "decks"
    assert "104 cards" in refusal.message and "at least 2 decks" in refusal.message
    assert check_setup(rules, 2, table) == []
    # Bigger feet by house rule: the refusal names the changed number too, and only that.
    big = ruleset("classic", {"foot_size": 40})
    (refusal,) = check_setup(big, 3, table)
    assert refusal.figures == ((None, "decks"), (None, "rules.foot_size"))


def test_the_default_decks_rise_to_hold_the_hands():
    """Family's default of 5 decks cannot deal 13 players 22 cards each: it rises to 6."""
    rules = ruleset("family")
    assert rules.decks_for(12) == 5
    assert rules.decks_for(13) == 6


def test_unknown_choice_for_black_threes_is_refused():
    with pytest.raises(RulesError, match="melded_black_threes must be one of never, going_out"):
        ruleset("classic", {"melded_black_threes": "sometimes"})
