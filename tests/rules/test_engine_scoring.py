"""Scoring one deal under every preset, with figures worked out by hand from VARIANTS.md."""

import pytest

from scorekeeper.rules import PRESETS, ruleset, score_deal

from ._engine_support import lines, teams
from ._scoring_support import E, _b


def test_every_preset_is_present():
    """The six presets of VARIANTS.md, under their keys."""
    assert set(PRESETS) == {"classic", "club", "family", "casual", "ten-thousand", "cutthroat"}
    for key, rules in PRESETS.items():
        assert rules.key == key


# key: (hand, foot, end_after_deals, target, minimum basis, max wilds in a dirty book)
PRESET_TABLE = {
    "classic": (13, 13, 4, None, "deal", 2),
    "club": (11, 11, 4, None, "deal", 3),
    "family": (11, 11, 4, None, "deal", 3),
    "casual": (11, 11, 4, None, "deal", 3),
    "ten-thousand": (13, 13, None, 10_000, "total", 3),
    "cutthroat": (13, 13, None, 10_000, "total", 3),
}


@pytest.mark.parametrize("key", sorted(PRESET_TABLE))
def test_preset_numbers_match_the_table(key):
    """Hand + foot, the end of the game, the minimum basis and the dirty-book wild maximum."""
    rules = ruleset(key)
    hand, foot, deals, target, basis, wilds = PRESET_TABLE[key]
    assert (rules.hand_size, rules.foot_size) == (hand, foot)
    assert rules.end_after_deals == deals
    assert rules.target_score == target
    assert rules.minimum_basis == basis
    assert rules.max_wilds_in_dirty_book == wilds
    assert dict(rules.card_values) == {
        "joker": 50,
        "two": 20,
        "ace": 20,
        "eight_to_king": 10,
        "four_to_seven": 5,
        "black_three": 5,
    }


@pytest.mark.parametrize(
    ("key", "players", "decks"),
    [
        ("classic", 4, 5),  # players + 1 (5 for 4)
        ("classic", 6, 7),
        ("club", 3, 4),
        ("club", 5, 6),
        ("family", 3, 4),  # 4 up to 4 players
        ("family", 4, 4),
        ("family", 5, 5),  # 5 above
        ("family", 6, 5),
        ("casual", 2, 5),  # 5 up to 4 players
        ("casual", 4, 5),
        ("casual", 5, 6),  # 6 above
        ("ten-thousand", 2, 3),  # players − 1, at least 3
        ("ten-thousand", 4, 3),
        ("ten-thousand", 6, 5),
        ("cutthroat", 4, 3),
        ("cutthroat", 6, 5),
    ],
)
def test_default_decks(key, players, decks):
    """The default number of decks for a table of that many players."""
    assert ruleset(key).decks_for(players) == decks


# (key, decks, sides, entries, expected breakdown of each side)
CASES = [
    pytest.param(
        "classic",
        5,
        teams(2),
        [
            E(
                books={"clean": 2, "dirty": 2, "wild": 1},
                red_threes_down=1,
                went_out=True,
                melded_points=480,
                leftover_points=0,
            ),
            E(
                books={"clean": 1, "dirty": 1},
                red_threes_caught=1,
                melded_points=200,
                leftover_points=135,
            ),
        ],
        [
            # 2 clean×500 + 2 dirty×300 + 1 wild×1500 = 3100; 1 red three ×100;
            # going out 100; 480 melded − 0 = 480: 3100 + 100 + 100 + 480 = 3780
            _b(3100, 100, 100, 480, 0, 0, 3780),
            # 500 + 300 = 800; 1 caught × −100; 200 − 135 = 65: 800 − 100 + 65 = 765
            _b(800, -100, 0, 65, 0, 0, 765),
        ],
        id="classic: 3100+100+100+480=3780 / 800-100+65=765",
    ),
    pytest.param(
        "club",
        5,
        teams(3, players=1),
        [
            E(
                books={"clean": 2, "dirty": 2},
                red_threes_down=2,
                went_out=True,
                melded_points=355,
            ),
            E(books={"clean": 1}, red_threes_caught=1, melded_points=120, leftover_points=45),
            E(red_threes_caught=2, leftover_points=210),
        ],
        [
            # 2×500 + 2×300 = 1600; 2 red ×100 = 200; out 100; 355: total 2255
            _b(1600, 200, 100, 355, 0, 0, 2255),
            # 500; 1 caught × −500; 120 − 45 = 75: 500 − 500 + 75 = 75
            _b(500, -500, 0, 75, 0, 0, 75),
            # 2 caught × −500 = −1000; 0 − 210: −1210
            _b(0, -1000, 0, -210, 0, 0, -1210),
        ],
        id="club: 1600+200+100+355=2255 / 500-500+75=75 / -1000-210=-1210",
    ),
    pytest.param(
        "family",
        4,
        teams(2),
        [
            E(
                books={"clean_sevens": 1, "dirty": 2},
                went_out=True,
                melded_points=400,
                leftover_points=0,
            ),
            E(
                books={"clean": 2, "dirty": 1},
                red_threes_caught=1,
                melded_points=250,
                leftover_points=60,
            ),
        ],
        [
            # clean sevens 1500 (counting as the clean book to go out) + 2×300 = 2100;
            # going out 0 in family; 400 melded: 2100 + 0 + 400 = 2500
            _b(2100, 0, 0, 400, 0, 0, 2500),
            # 2×500 + 300 = 1300; caught −500; 250 − 60 = 190: 1300 − 500 + 190 = 990
            _b(1300, -500, 0, 190, 0, 0, 990),
        ],
        id="family: 1500+600+0+400=2500 / 1300-500+190=990",
    ),
    pytest.param(
        "casual",
        5,
        teams(2, players=2),
        [
            E(
                books={"clean": 2, "dirty": 1, "wild": 1},
                went_out=True,
                melded_points=300,
                bonuses={"exact_22": 2},
            ),
            E(
                books={"clean": 1},
                red_threes_caught=1,
                melded_points=100,
                leftover_points=75,
                bonuses={"exact_22": 1},
            ),
        ],
        [
            # 2×500 + 1 dirty×300 + 1 wild scored as dirty ×300 = 1600 (and the wild book is
            # the second dirty book to go out); out 100; 300; exact-22 2×100:
            # 1600 + 100 + 300 + 200 = 2200
            _b(1600, 0, 100, 300, 200, 0, 2200),
            # 500 − 500 + (100 − 75) + 100 = 125
            _b(500, -500, 0, 25, 100, 0, 125),
        ],
        id="casual: 1600+100+300+200=2200 / 500-500+25+100=125",
    ),
    pytest.param(
        "ten-thousand",
        3,
        teams(2),
        [
            E(
                books={"clean": 3, "dirty": 1, "wild": 1},
                red_threes_down=2,
                went_out=True,
                melded_points=560,
            ),
            E(
                books={"clean": 1, "dirty": 1},
                red_threes_caught=1,
                melded_points=200,
                leftover_points=95,
            ),
        ],
        [
            # 3×500 + 300 + 1500 = 3300; 2×100; out 100; 560: 3300 + 200 + 100 + 560 = 4160
            _b(3300, 200, 100, 560, 0, 0, 4160),
            # 800; caught −300; 200 − 95 = 105: 800 − 300 + 105 = 605
            _b(800, -300, 0, 105, 0, 0, 605),
        ],
        id="ten-thousand: 3300+200+100+560=4160 / 800-300+105=605",
    ),
    pytest.param(
        "cutthroat",
        4,
        teams(2),
        [
            E(
                books={"clean": 2, "black_threes": 1, "dirty": 1, "wild": 1},
                red_threes_down=1,
                went_out=True,
                melded_points=500,
            ),
            E(
                books={"clean": 1},
                red_threes_caught=1,
                melded_points=150,
                leftover_points=80,
                open_books={"clean": 1, "dirty": 1},
                open_book_points=190,
            ),
        ],
        [
            # 2×500 + black threes 500 (the third clean book to go out) + 300 + 1500 = 3300;
            # 100; out 100; 500; moved from B's open books 500 + 300 + 190 card points = 990:
            # 3300 + 100 + 100 + 500 + 990 = 4990
            _b(3300, 100, 100, 500, 0, 990, 4990),
            # 500 − 300 + (150 − 80) = 270; its open books score nothing for it
            _b(500, -300, 0, 70, 0, 0, 270),
        ],
        id="cutthroat: 3300+100+100+500+990=4990 / 500-300+70=270",
    ),
]


@pytest.mark.parametrize(("key", "decks", "sides", "entries", "expected"), CASES)
def test_deal_breakdown(key, decks, sides, entries, expected):
    """Every line of every side's breakdown matches the hand-worked figures."""
    scores = score_deal(ruleset(key), decks, sides, entries)
    assert [lines(s) for s in scores] == expected


def test_cutthroat_open_books_move_both_ways():
    """Each team's moved line holds the other team's open books and their card points."""
    entries = [
        E(books={"clean": 1}, melded_points=100, open_books={"dirty": 1}, open_book_points=85),
        E(books={"dirty": 1}, melded_points=90, open_books={"wild": 1}, open_book_points=240),
    ]
    a, b = score_deal(ruleset("cutthroat"), 4, teams(2), entries)
    # A receives B's open wild book: 1500 + 240 = 1740; total 500 + 100 + 1740 = 2340
    assert (a.moved, a.total) == (1740, 2340)
    # B receives A's open dirty book: 300 + 85 = 385; total 300 + 90 + 385 = 775
    assert (b.moved, b.total) == (385, 775)
    assert "Open books of A:" in b.breakdown()["details"]["moved"]


def test_ten_thousand_moves_nothing():
    """Outside cutthroat nothing moves between teams."""
    entries = [E(books={"clean": 1}), E(books={"dirty": 1})]
    scores = score_deal(ruleset("ten-thousand"), 3, teams(2), entries)
    assert [s.moved for s in scores] == [0, 0]
    assert [s.total for s in scores] == [500, 300]
