"""Property tests: scoring against an independent reference, the physical limits, corrections."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    DealEntry,
    DealRefused,
    GameOver,
    check_deal,
    correct_deal,
    extend,
    play,
    ruleset,
    score_deal,
)

from ._engine_support import teams

QUICK = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# The reference table, copied by hand from VARIANTS.md (not read from the engine).
BOOKS = {
    "classic": {"clean": 500, "dirty": 300, "wild": 1500},
    "club": {"clean": 500, "dirty": 300},
    "family": {"clean": 500, "dirty": 300, "clean_sevens": 1500},
    "casual": {"clean": 500, "dirty": 300, "wild": 300},
    "ten-thousand": {"clean": 500, "dirty": 300, "wild": 1500},
    "cutthroat": {"clean": 500, "dirty": 300, "wild": 1500, "black_threes": 500},
}
RED_DOWN = {
    "classic": 100,
    "club": 100,
    "family": None,
    "casual": None,
    "ten-thousand": 100,
    "cutthroat": 100,
}
RED_CAUGHT = {
    "classic": 100,
    "club": 500,
    "family": 500,
    "casual": 500,
    "ten-thousand": 300,
    "cutthroat": 300,
}
GOING_OUT = {
    "classic": 100,
    "club": 100,
    "family": 0,
    "casual": 100,
    "ten-thousand": 100,
    "cutthroat": 100,
}
NEEDED = {
    "classic": {"clean": 2, "dirty": 2, "wild": 1},
    "club": {"clean": 2, "dirty": 2},
    "family": {"clean": 1, "dirty": 2},
    "casual": {"clean": 2, "dirty": 2},
    "ten-thousand": {"clean": 3, "dirty": 1, "wild": 1},
    "cutthroat": {"clean": 3, "dirty": 1, "wild": 1},
}
EXACT_22 = {"casual": 100}
DECK_PER_CATEGORY = {
    "joker": 2,
    "two": 4,
    "ace": 4,
    "eight_to_king": 24,
    "four_to_seven": 16,
    "black_three": 2,
}
LINE_NAMES = ("books", "red_threes", "going_out", "cards", "extras", "moved")
PLAYERS = 2
ROOMY_DECKS = 20


def fives(most):
    return st.integers(0, most // 5).map(lambda n: n * 5)


@st.composite
def side_entry(draw, key):
    """A legal entry for one side under the preset, with room to spare in 20 decks."""
    # Only the side going out may close a book of black threes (added in scored_deal).
    books = {kind: draw(st.integers(0, 2)) for kind in BOOKS[key] if kind != "black_threes"}
    open_books = {}
    open_points = 0
    if key == "cutthroat":
        open_books = {kind: draw(st.integers(0, 1)) for kind in ("clean", "dirty", "wild")}
        open_points = draw(fives(500))
    return DealEntry(
        books=books,
        red_threes_down=draw(st.integers(0, 5)) if RED_DOWN[key] is not None else 0,
        red_threes_caught=draw(st.integers(0, 5)),
        melded_points=draw(fives(2000)),
        leftover_points=draw(fives(1000)),
        bonuses={"exact_22": draw(st.integers(0, PLAYERS))} if key in EXACT_22 else {},
        open_books=open_books,
        open_book_points=open_points,
    )


@st.composite
def scored_deal(draw):
    key = draw(st.sampled_from(sorted(BOOKS)))
    entries = [draw(side_entry(key)), draw(side_entry(key))]
    goer = draw(st.sampled_from([None, 0, 1]))
    if goer is not None:
        # add what going out needs on top of what the side already holds
        old = entries[goer]
        books = dict(old.books)
        for kind, n in NEEDED[key].items():
            books[kind] = books.get(kind, 0) + n
        if "black_threes" in BOOKS[key]:
            books["black_threes"] = draw(st.integers(0, 1))
        entries[goer] = DealEntry(**{**_fields(old), "books": books, "went_out": True})
    return key, entries


def _fields(entry):
    names = (
        "books red_threes_down red_threes_caught went_out melded_points leftover_points "
        "bonuses open_books open_book_points"
    ).split()
    return {name: getattr(entry, name) for name in names}


def reference(key, entry, other):
    """The deal score of one side worked out from the table above, line by line."""
    books = sum(BOOKS[key][k] * n for k, n in entry.books.items())
    red = entry.red_threes_down * (RED_DOWN[key] or 0) - entry.red_threes_caught * RED_CAUGHT[key]
    out = GOING_OUT[key] if entry.went_out else 0
    cards = entry.melded_points - entry.leftover_points
    extras = EXACT_22.get(key, 0) * entry.bonuses.get("exact_22", 0)
    moved = 0
    if key == "cutthroat":
        moved = sum(BOOKS[key][k] * n for k, n in other.open_books.items()) + other.open_book_points
    return dict(zip(LINE_NAMES, (books, red, out, cards, extras, moved), strict=True))


@QUICK
@given(scored_deal())
def test_total_is_the_sum_of_lines_and_lines_match_the_table(deal):
    """Every line matches the hand-copied table and the total is their sum."""
    key, entries = deal
    scores = score_deal(ruleset(key), ROOMY_DECKS, teams(2, PLAYERS), entries)
    for index, score in enumerate(scores):
        data = score.breakdown()
        expected = reference(key, entries[index], entries[1 - index])
        assert {name: data[name] for name in LINE_NAMES} == expected
        assert data["total"] == sum(expected.values())
        assert data["total"] == sum(data[name] for name in LINE_NAMES)


# --- limits: refused exactly when the decks cannot hold the entry -------------------------


def fields_of(refusals):
    return {r.field for r in refusals}


@QUICK
@given(
    key=st.sampled_from(sorted(BOOKS)),
    decks=st.integers(1, 6),
    counts=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=2, max_size=4),
)
def test_red_threes_refused_iff_over_two_per_deck(key, decks, counts):
    """Red threes laid plus caught over all sides: refused iff more than 2 per deck."""
    if key == "cutthroat":
        counts = counts[:2]
    allowed = RED_DOWN[key] is not None
    entries = [
        DealEntry(red_threes_down=down if allowed else 0, red_threes_caught=caught)
        for down, caught in counts
    ]
    entered = sum(e.red_threes_down + e.red_threes_caught for e in entries)
    found = check_deal(ruleset(key), decks, teams(len(entries)), entries)
    assert ("red_threes" in fields_of(found)) == (entered > 2 * decks)
    assert fields_of(found) <= {"red_threes"}


@QUICK
@given(
    key=st.sampled_from(sorted(BOOKS)),
    decks=st.integers(1, 6),
    points=st.lists(st.tuples(fives(1800), fives(1800), fives(600)), min_size=2, max_size=2),
)
def test_card_points_refused_iff_over_590_per_deck(key, decks, points):
    """Melded plus leftover (plus cutthroat open-book) points: refused iff over 590 per deck."""
    cutthroat = key == "cutthroat"
    entries = [
        DealEntry(melded_points=m, leftover_points=left, open_book_points=o if cutthroat else 0)
        for m, left, o in points
    ]
    entered = sum(m + left + (o if cutthroat else 0) for m, left, o in points)
    found = check_deal(ruleset(key), decks, teams(2), entries)
    assert ("card_points" in fields_of(found)) == (entered > 590 * decks)
    assert fields_of(found) <= {"card_points"}


@QUICK
@given(
    decks=st.integers(1, 4),
    category=st.sampled_from(sorted(DECK_PER_CATEGORY)),
    split=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), min_size=2, max_size=3),
)
def test_card_counts_refused_iff_over_the_decks(decks, category, split):
    """Counted cards of a category, melded and left over by every side: refused iff too many."""
    entries = [
        DealEntry(melded_cards={category: m}, leftover_cards={category: left}) for m, left in split
    ]
    counted = sum(m + left for m, left in split)
    # Black threes melded by count are a house rule here: the preset refuses them outright.
    rules = ruleset("classic", {"melded_black_threes": "always"})
    found = check_deal(rules, decks, teams(len(entries)), entries)
    assert (f"cards.{category}" in fields_of(found)) == (
        counted > DECK_PER_CATEGORY[category] * decks
    )
    # Naturals and wild cards are also limited as a group (44 and 6 to a deck).
    group = {"ace": 44, "eight_to_king": 44, "four_to_seven": 44, "joker": 6, "two": 6}
    over_group = counted > group.get(category, counted) * decks
    assert ("books" in fields_of(found)) == over_group
    assert fields_of(found) <= {f"cards.{category}", "card_points", "books"}


@QUICK
@given(
    decks=st.integers(1, 5),
    books=st.lists(
        st.tuples(st.integers(0, 20), st.integers(0, 12), st.integers(0, 3)), min_size=2, max_size=2
    ),
)
def test_books_refused_iff_the_decks_cannot_hold_them(decks, books):
    """Ten-thousand: wild cards (7/wild, 1/dirty) ≤ 6 per deck; naturals (7/clean, 4/dirty) ≤ 44."""
    entries = [DealEntry(books={"clean": c, "dirty": d, "wild": w}) for c, d, w in books]
    clean = sum(c for c, _, _ in books)
    dirty = sum(d for _, d, _ in books)
    wild = sum(w for _, _, w in books)
    found = check_deal(ruleset("ten-thousand"), decks, teams(2), entries)
    messages = " ".join(r.message for r in found)
    assert ("wild cards needed" in messages) == (7 * wild + dirty > 6 * decks)
    # ten-thousand allows 3 wilds in a dirty book, so each needs at least 7 − 3 = 4 naturals
    assert ("natural cards needed" in messages) == (7 * clean + 4 * dirty > 44 * decks)
    assert fields_of(found) <= {"books"}


# --- corrections undo cleanly -------------------------------------------------------------

GAME_DECKS = 8


@st.composite
def deal_pair(draw):
    def one():
        return DealEntry(
            books={"clean": draw(st.integers(0, 12)), "dirty": draw(st.integers(0, 3))},
            red_threes_caught=draw(st.integers(0, 1)),
            leftover_points=draw(fives(200)),
        )

    return [one(), one()]


@st.composite
def game_and_correction(draw):
    key = draw(st.sampled_from(["classic", "ten-thousand", "family", "cutthroat"]))
    rules = ruleset(key)
    sides = teams(2)
    deals = []
    # build a game deal by deal, stopping where the game ends
    for _ in range(draw(st.integers(1, 6))):
        deals.append(draw(deal_pair()))
        if play(rules, GAME_DECKS, sides, deals).finished:
            break
    number = draw(st.integers(1, len(deals)))
    return key, deals, number, draw(deal_pair())


def snapshot(progress):
    return (
        progress.totals,
        progress.minimums,
        progress.finished,
        progress.winners,
        [(d.totals, d.minimums, [s.total for s in d.scores]) for d in progress.deals],
    )


@QUICK
@given(game_and_correction())
def test_correcting_and_correcting_back_restores_everything(case):
    """Correct deal n, then put it back: every total, minimum and the winners as before."""
    key, deals, number, replacement = case
    rules = ruleset(key)
    sides = teams(2)
    before = play(rules, GAME_DECKS, sides, deals)
    try:
        changed = correct_deal(rules, GAME_DECKS, sides, deals, number, replacement)
    except DealRefused as refused:
        # only possible when the correction would end the game before a later deal
        (refusal,) = refused.refusals
        assert "would end the game after deal" in refusal.message
        assert number < len(deals)
        return
    corrected = [*deals[: number - 1], replacement, *deals[number:]]
    # the change in deal n carries through to the end, unchanged
    old = before.deals[number - 1].scores[0].total
    new = changed.deals[number - 1].scores[0].total
    assert changed.totals[0] - before.totals[0] == new - old
    restored = correct_deal(rules, GAME_DECKS, sides, corrected, number, deals[number - 1])
    assert snapshot(restored) == snapshot(before)


@pytest.mark.parametrize("key", ["classic", "ten-thousand"])
def test_correction_round_trip_example(key):
    """A fixed example of the round trip, so a failure reads plainly."""
    rules = ruleset(key)
    sides = teams(2)
    deals = [[DealEntry(books={"clean": 2}), DealEntry(books={"dirty": 1})]] * 3
    before = play(rules, 5, sides, deals)
    other = [DealEntry(books={"dirty": 2}), DealEntry(books={"clean": 3})]
    changed = correct_deal(rules, 5, sides, deals, 2, other)
    # A: 1000 + 600 + 1000 = 2600; B: 300 + 1500 + 300 = 2100
    assert changed.totals == [2600, 2100]
    back = correct_deal(rules, 5, sides, [deals[0], other, deals[2]], 2, deals[1])
    assert snapshot(back) == snapshot(before)
    assert back.totals == [3000, 900]


# --- one more deal on top of a game equals replaying it -----------------------------------


@QUICK
@given(game_and_correction())
def test_extending_a_game_equals_replaying_it_with_the_deal(case):
    """Scoring only the new deal on the game so far gives what a full replay gives."""
    key, deals, _, new = case
    rules = ruleset(key)
    sides = teams(2)
    so_far = play(rules, GAME_DECKS, sides, deals)
    try:
        replayed = play(rules, GAME_DECKS, sides, [*deals, new])
    except DealRefused as refused:
        with pytest.raises(type(refused)) as extended:
            extend(rules, GAME_DECKS, sides, so_far, new)
        assert [r.message for r in extended.value.refusals] == [r.message for r in refused.refusals]
        return
    assert snapshot(extend(rules, GAME_DECKS, sides, so_far, new)) == snapshot(replayed)


def test_extending_a_finished_game_is_refused_as_game_over():
    """Classic ends after four deals: a fifth on top of them is GameOver, naming the winner."""
    rules = ruleset("classic")
    sides = teams(2)
    deals = [[DealEntry(books={"clean": 2}), DealEntry(books={"dirty": 1})]] * 4
    with pytest.raises(GameOver, match="won after deal 4"):
        extend(rules, 5, sides, play(rules, 5, sides, deals), deals[0])
