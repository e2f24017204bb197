"""Acceptance: one full game under each of the six presets, entered through the JSON API.

Every figure below is worked out by hand from /work/shared/rules/VARIANTS.md (never by the
engine): each side's lines are written as books, red threes, going out, cards, extras and
moved, with the arithmetic in the comment beside them.

    books      = Σ books of each kind × that kind's bonus
    red threes = laid down × value − caught × penalty
    going out  = the bonus, for the side that went out
    cards      = melded card points − points left in hands and feet
    extras     = exact-22 pickups × 100 (casual)
    moved      = the other team's open melds: bonus + card points (cutthroat)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

LINES = ("books", "red_threes", "going_out", "cards", "extras", "moved", "total")


def lines(books=0, red_threes=0, going_out=0, cards=0, extras=0, moved=0, *, total):
    """One side's expected breakdown; the total is written out by hand, never added up here."""
    figures = (books, red_threes, going_out, cards, extras, moved, total)
    return dict(zip(LINES, figures, strict=True))


@dataclass
class Deal:
    """A deal as entered, and what the score sheet must show after it."""

    scores: list[dict[str, Any]]
    lines: list[dict[str, int]]
    totals: list[int]
    # What each side needs to open in the next deal (checked while the game goes on).
    minimums: list[int] | None = None
    # Side names sharing the win once the game is over; None while it goes on.
    winners: list[str] | None = None


@dataclass
class Game:
    """A preset, its sides, the decks it should default to and its deals."""

    ruleset: str
    sides: list[dict[str, Any]]
    decks: int
    first_minimums: list[int]
    deals: list[Deal]
    request_decks: int | None = None


def teams(first: str, second: str) -> list[dict[str, Any]]:
    """Two teams of two, named after their players."""
    a, b = first.split(" & ")
    c, d = second.split(" & ")
    return [{"name": first, "players": [a, b]}, {"name": second, "players": [c, d]}]


# ---------------------------------------------------------------- classic partnership
# Books: clean 500, dirty 300, wild 1,500; red three +100 laid, −100 caught; going out +100
# with 2 clean + 2 dirty + 1 wild. Minimums by deal 50, 90, 120, 150. Four players → 5 decks.
CLASSIC = Game(
    ruleset="classic",
    sides=teams("Ann & Bob", "Cat & Dan"),
    decks=5,  # players + 1 = 4 + 1
    first_minimums=[50, 50],
    deals=[
        Deal(
            scores=[
                {
                    "books": {"clean": 2, "dirty": 2, "wild": 1},
                    "red_threes_down": 2,
                    "went_out": True,
                    "melded_points": 1200,
                    "leftover_points": 0,
                },
                {
                    "books": {"clean": 1, "dirty": 1},
                    "red_threes_down": 1,
                    "red_threes_caught": 1,
                    "melded_points": 600,
                    "leftover_points": 250,
                },
            ],
            lines=[
                # 2×500 + 2×300 + 1×1500 = 3100; 2×100 = 200; out 100; 1200 − 0 = 1200
                lines(3100, 200, 100, 1200, total=4600),
                # 500 + 300 = 800; 100 − 100 = 0; 600 − 250 = 350
                lines(800, 0, 0, 350, total=1150),
            ],
            totals=[4600, 1150],
            minimums=[90, 90],
        ),
        Deal(
            scores=[
                {
                    "books": {"clean": 1, "dirty": 1},
                    "red_threes_down": 1,
                    # counted cards: 2 jokers, 3 twos, 4 aces, 10 eights-to-kings, 6 fours-to-sevens
                    "melded_cards": {
                        "joker": 2,
                        "two": 3,
                        "ace": 4,
                        "eight_to_king": 10,
                        "four_to_seven": 6,
                    },
                    "leftover_cards": {"joker": 1, "ace": 1, "four_to_seven": 2, "black_three": 1},
                },
                {
                    "books": {"clean": 2, "dirty": 2, "wild": 1},
                    "went_out": True,
                    "melded_points": 900,
                },
            ],
            lines=[
                # 800; 1×100; melded 2×50 + 3×20 + 4×20 + 10×10 + 6×5 = 370,
                # left 50 + 20 + 2×5 + 5 = 85 → cards 370 − 85 = 285
                lines(800, 100, 0, 285, total=1185),
                # 3100; out 100; 900
                lines(3100, 0, 100, 900, total=4100),
            ],
            totals=[5785, 5250],  # 4600 + 1185, 1150 + 4100
            minimums=[120, 120],
        ),
        Deal(
            scores=[
                {
                    "books": {"clean": 1},
                    "red_threes_caught": 1,
                    "melded_points": 300,
                    "leftover_points": 150,
                },
                {
                    "books": {"dirty": 1},
                    "red_threes_down": 1,
                    "melded_points": 200,
                    "leftover_points": 200,
                },
            ],
            lines=[
                lines(500, -100, 0, 150, total=550),  # 500 − 100 + (300 − 150)
                lines(300, 100, 0, 0, total=400),  # 300 + 100 + (200 − 200)
            ],
            totals=[6335, 5650],  # 5785 + 550, 5250 + 400
            minimums=[150, 150],
        ),
        Deal(
            scores=[
                {
                    "books": {"dirty": 1},
                    "red_threes_caught": 2,
                    "melded_points": 150,
                    "leftover_points": 400,
                },
                {
                    "books": {"clean": 2, "dirty": 2, "wild": 1},
                    "red_threes_down": 1,
                    "went_out": True,
                    "melded_points": 700,
                },
            ],
            lines=[
                lines(300, -200, 0, -250, total=-150),  # 300 − 2×100 + (150 − 400)
                lines(3100, 100, 100, 700, total=4000),  # 3100 + 100 + 100 + 700
            ],
            totals=[6185, 9650],  # 6335 − 150, 5650 + 4000
            winners=["Cat & Dan"],
        ),
    ],
)

# ---------------------------------------------------------------- club individual
# Books: clean 500, dirty 300, no wild book; red three +100 laid, −500 caught; going out +100
# with 2 clean + 2 dirty. Three individuals → players + 1 = 4 decks. Ends in a shared win.
CLUB = Game(
    ruleset="club",
    sides=[{"name": n, "players": [n]} for n in ("Ann", "Bob", "Cal")],
    decks=4,
    first_minimums=[50, 50, 50],
    deals=[
        Deal(
            scores=[
                {
                    "books": {"clean": 2, "dirty": 2},
                    "red_threes_down": 1,
                    "went_out": True,
                    "melded_points": 500,
                },
                {
                    "books": {"clean": 1, "dirty": 1},
                    "red_threes_caught": 1,
                    "melded_points": 300,
                    "leftover_points": 100,
                },
                {"books": {"dirty": 1}, "melded_points": 200, "leftover_points": 50},
            ],
            lines=[
                lines(1600, 100, 100, 500, total=2300),  # 2×500 + 2×300; +100; out; 500
                lines(800, -500, 0, 200, total=500),  # 500 + 300; −500 caught; 300 − 100
                lines(300, 0, 0, 150, total=450),  # 300; 200 − 50
            ],
            totals=[2300, 500, 450],
            minimums=[90, 90, 90],
        ),
        Deal(
            scores=[
                {"books": {"clean": 1}, "melded_points": 250, "leftover_points": 100},
                {
                    "books": {"clean": 2, "dirty": 2},
                    "red_threes_down": 2,
                    "went_out": True,
                    "melded_points": 600,
                },
                {
                    "books": {"dirty": 1},
                    "red_threes_caught": 1,
                    "melded_points": 150,
                    "leftover_points": 200,
                },
            ],
            lines=[
                lines(500, 0, 0, 150, total=650),  # 500 + (250 − 100)
                lines(1600, 200, 100, 600, total=2500),  # 1600 + 2×100 + 100 + 600
                lines(300, -500, 0, -50, total=-250),  # 300 − 500 + (150 − 200)
            ],
            totals=[2950, 3000, 200],  # 2300 + 650, 500 + 2500, 450 − 250
            minimums=[120, 120, 120],
        ),
        Deal(
            scores=[
                {"books": {"clean": 2, "dirty": 2}, "went_out": True, "melded_points": 450},
                {
                    "books": {"clean": 1, "dirty": 1},
                    "melded_points": 350,
                    "leftover_points": 100,
                },
                {"books": {"clean": 1}, "melded_points": 200},
            ],
            lines=[
                lines(1600, 0, 100, 450, total=2150),
                lines(800, 0, 0, 250, total=1050),
                lines(500, 0, 0, 200, total=700),
            ],
            totals=[5100, 4050, 900],  # 2950 + 2150, 3000 + 1050, 200 + 700
            minimums=[150, 150, 150],
        ),
        Deal(
            scores=[
                {
                    "books": {"dirty": 1},
                    "red_threes_caught": 1,
                    "melded_points": 100,
                    "leftover_points": 150,
                },
                {
                    "books": {"clean": 1, "dirty": 1},
                    "melded_points": 100,
                    "leftover_points": 100,
                },
                {
                    "books": {"clean": 2, "dirty": 2},
                    "red_threes_down": 1,
                    "went_out": True,
                    "melded_points": 300,
                },
            ],
            lines=[
                lines(300, -500, 0, -50, total=-250),  # 300 − 500 + (100 − 150)
                lines(800, 0, 0, 0, total=800),  # 800 + (100 − 100)
                lines(1600, 100, 100, 300, total=2100),
            ],
            # 5100 − 250 = 4850 and 4050 + 800 = 4850: equal highest totals share the win
            totals=[4850, 4850, 3000],
            winners=["Ann", "Bob"],
        ),
    ],
)

# ---------------------------------------------------------------- family
# Books: clean 500, dirty 300, clean sevens 1,500 (counts as clean to go out); red threes cannot
# be laid down, −500 caught; going out scores 0, needs 1 clean + 2 dirty. Minimums 60, 90, 120,
# 150. Four players → 4 decks.
FAMILY = Game(
    ruleset="family",
    sides=teams("Mum & Dad", "Kim & Lee"),
    decks=4,
    first_minimums=[60, 60],
    deals=[
        Deal(
            scores=[
                # goes out on a book of sevens standing in for the clean book
                {"books": {"clean_sevens": 1, "dirty": 2}, "went_out": True, "melded_points": 400},
                {
                    "books": {"clean": 1},
                    "red_threes_caught": 1,
                    "melded_points": 200,
                    "leftover_points": 150,
                },
            ],
            lines=[
                lines(2100, 0, 0, 400, total=2500),  # 1500 + 2×300; going out 0; 400
                lines(500, -500, 0, 50, total=50),  # 500 − 500 + (200 − 150)
            ],
            totals=[2500, 50],
            minimums=[90, 90],
        ),
        Deal(
            scores=[
                {"books": {"clean": 1}, "melded_points": 150, "leftover_points": 200},
                {
                    "books": {"clean": 1, "clean_sevens": 1, "dirty": 2},
                    "went_out": True,
                    "melded_points": 600,
                },
            ],
            lines=[
                lines(500, 0, 0, -50, total=450),  # 500 + (150 − 200)
                lines(2600, 0, 0, 600, total=3200),  # 500 + 1500 + 2×300; 600
            ],
            totals=[2950, 3250],
            minimums=[120, 120],
        ),
        Deal(
            scores=[
                {"books": {"clean": 1, "dirty": 2}, "went_out": True, "melded_points": 350},
                {
                    "books": {"dirty": 1},
                    "red_threes_caught": 2,
                    "melded_points": 100,
                    "leftover_points": 300,
                },
            ],
            lines=[
                lines(1100, 0, 0, 350, total=1450),  # 500 + 600; 350
                lines(300, -1000, 0, -200, total=-900),  # 300 − 2×500 + (100 − 300)
            ],
            totals=[4400, 2350],  # 2950 + 1450, 3250 − 900
            minimums=[150, 150],
        ),
        Deal(
            scores=[
                {"books": {"dirty": 1}, "melded_points": 200, "leftover_points": 50},
                {"books": {"clean": 2, "dirty": 2}, "went_out": True, "melded_points": 500},
            ],
            lines=[
                lines(300, 0, 0, 150, total=450),
                lines(1600, 0, 0, 500, total=2100),
            ],
            totals=[4850, 4450],  # 4400 + 450, 2350 + 2100
            winners=["Mum & Dad"],
        ),
    ],
)

# ---------------------------------------------------------------- casual
# Books: clean 500, dirty 300, wild 300 (counts as dirty to go out); red threes cannot be laid
# down, −500 caught; going out +100 with 2 clean + 2 dirty; +100 per player who picked up
# exactly 22. Four players → 5 decks.
CASUAL = Game(
    ruleset="casual",
    sides=teams("Ann & Bob", "Cat & Dan"),
    decks=5,
    first_minimums=[50, 50],
    deals=[
        Deal(
            scores=[
                # the wild book stands in for the second dirty book
                {
                    "books": {"clean": 2, "dirty": 1, "wild": 1},
                    "went_out": True,
                    "melded_points": 500,
                    "bonuses": {"exact_22": 2},
                },
                {
                    "books": {"clean": 1},
                    "red_threes_caught": 1,
                    "melded_points": 250,
                    "leftover_points": 100,
                    "bonuses": {"exact_22": 1},
                },
            ],
            lines=[
                # 2×500 + 300 + 300 = 1600; out 100; 500; 2 × 100 exact 22
                lines(1600, 0, 100, 500, 200, total=2400),
                # 500; −500; 250 − 100 = 150; 1 × 100
                lines(500, -500, 0, 150, 100, total=250),
            ],
            totals=[2400, 250],
            minimums=[90, 90],
        ),
        Deal(
            scores=[
                {"books": {"dirty": 1}, "melded_points": 200, "leftover_points": 150},
                {
                    "books": {"clean": 2, "dirty": 2},
                    "went_out": True,
                    "melded_points": 700,
                    "bonuses": {"exact_22": 1},
                },
            ],
            lines=[
                lines(300, 0, 0, 50, total=350),
                lines(1600, 0, 100, 700, 100, total=2500),
            ],
            totals=[2750, 2750],  # 2400 + 350, 250 + 2500
            minimums=[120, 120],
        ),
        Deal(
            scores=[
                {"books": {"clean": 2, "dirty": 2}, "went_out": True, "melded_points": 300},
                {"red_threes_caught": 2, "melded_points": 100, "leftover_points": 250},
            ],
            lines=[
                lines(1600, 0, 100, 300, total=2000),
                lines(0, -1000, 0, -150, total=-1150),  # −2×500 + (100 − 250)
            ],
            totals=[4750, 1600],
            minimums=[150, 150],
        ),
        Deal(
            scores=[
                {
                    "books": {"clean": 1},
                    "melded_points": 150,
                    "leftover_points": 100,
                    "bonuses": {"exact_22": 2},
                },
                {"books": {"clean": 3, "dirty": 2}, "went_out": True, "melded_points": 800},
            ],
            lines=[
                lines(500, 0, 0, 50, 200, total=750),
                lines(2100, 0, 100, 800, total=3000),  # 3×500 + 2×300; out; 800
            ],
            totals=[5500, 4600],  # 4750 + 750, 1600 + 3000
            winners=["Ann & Bob"],
        ),
    ],
)

# ---------------------------------------------------------------- ten thousand
# Books: clean 500, dirty 300, wild 1,500; red three +100 laid, −300 caught; going out +100 with
# 3 clean + 1 dirty + 1 wild. Minimum by running total: <1,500 → 50, 1,500–2,995 → 90,
# 3,000–4,995 → 120, ≥5,000 → 150. Four players → players − 1 = 3 decks. Runs past 10,000
# through a tie (another deal is played).
TEN_THOUSAND = Game(
    ruleset="ten-thousand",
    sides=teams("Ann & Bob", "Cat & Dan"),
    decks=3,
    first_minimums=[50, 50],
    deals=[
        Deal(
            scores=[
                {"books": {"clean": 1, "dirty": 1}, "melded_points": 700},
                {"books": {"clean": 1, "dirty": 1}, "melded_points": 700, "leftover_points": 5},
            ],
            lines=[
                lines(800, 0, 0, 700, total=1500),
                lines(800, 0, 0, 695, total=1495),
            ],
            totals=[1500, 1495],
            minimums=[90, 50],  # 1,500 is in the 90 band; 1,495 still below it
        ),
        Deal(
            scores=[
                {
                    "books": {"clean": 3, "dirty": 1, "wild": 1},
                    "went_out": True,
                    "melded_points": 95,
                },
                {
                    "books": {"clean": 2, "dirty": 1},
                    "red_threes_down": 1,
                    "red_threes_caught": 1,
                    "melded_points": 400,
                },
            ],
            lines=[
                lines(3300, 0, 100, 95, total=3495),  # 3×500 + 300 + 1500; out; 95
                lines(1300, -200, 0, 400, total=1500),  # 2×500 + 300; 100 − 300; 400
            ],
            totals=[4995, 2995],  # 1500 + 3495, 1495 + 1500
            minimums=[120, 90],  # top of the 120 band; top of the 90 band
        ),
        Deal(
            scores=[
                {
                    "books": {"clean": 1},
                    "red_threes_caught": 1,
                    "melded_points": 105,
                    "leftover_points": 300,
                },
                {"books": {"dirty": 1}, "red_threes_caught": 1, "melded_points": 5},
            ],
            lines=[
                lines(500, -300, 0, -195, total=5),  # 500 − 300 + (105 − 300)
                lines(300, -300, 0, 5, total=5),  # 300 − 300 + 5
            ],
            totals=[5000, 3000],
            minimums=[150, 120],  # 5,000 → 150; 3,000 → 120
        ),
        Deal(
            scores=[
                {
                    "books": {"clean": 3, "dirty": 1, "wild": 1},
                    "red_threes_down": 2,
                    "went_out": True,
                    "melded_points": 600,
                },
                {"books": {"clean": 1, "dirty": 2}, "melded_points": 300, "leftover_points": 150},
            ],
            lines=[
                lines(3300, 200, 100, 600, total=4200),
                lines(1100, 0, 0, 150, total=1250),  # 500 + 2×300; 300 − 150
            ],
            totals=[9200, 4250],
            minimums=[150, 120],
        ),
        Deal(
            scores=[
                {"books": {"clean": 1, "dirty": 1}, "melded_points": 200, "leftover_points": 50},
                {
                    "books": {"clean": 3, "dirty": 1, "wild": 2},
                    "red_threes_down": 1,
                    "went_out": True,
                    "melded_points": 900,
                },
            ],
            lines=[
                lines(800, 0, 0, 150, total=950),
                # 3×500 + 300 + 2×1500 = 4800; +100; out 100; 900
                lines(4800, 100, 100, 900, total=5900),
            ],
            # 9200 + 950 = 10150 = 4250 + 5900: past 10,000 but tied, so the game goes on
            totals=[10150, 10150],
            minimums=[150, 150],
        ),
        Deal(
            scores=[
                {"books": {"clean": 1}, "melded_points": 100},
                {"books": {"dirty": 1}, "melded_points": 50, "leftover_points": 100},
            ],
            lines=[
                lines(500, 0, 0, 100, total=600),
                lines(300, 0, 0, -50, total=250),
            ],
            totals=[10750, 10400],
            winners=["Ann & Bob"],
        ),
    ],
)

# ---------------------------------------------------------------- cutthroat
# As ten thousand (−300 caught), plus a black-threes book (500, counts as clean to go out) and
# open melds of 7+ moving to the other team: their bonus and their card points. Played with
# 4 decks so that a book of 7 black threes fits (2 per deck).
CUTTHROAT = Game(
    ruleset="cutthroat",
    sides=teams("Ann & Bob", "Cat & Dan"),
    decks=4,
    request_decks=4,
    first_minimums=[50, 50],
    deals=[
        Deal(
            scores=[
                {
                    "books": {"clean": 3, "dirty": 1, "wild": 1},
                    "red_threes_down": 1,
                    "went_out": True,
                    "melded_points": 700,
                },
                {
                    "books": {"clean": 1},
                    "red_threes_caught": 2,
                    "melded_points": 200,
                    "leftover_points": 300,
                    "open_books": {"dirty": 1},
                    "open_book_points": 100,
                },
            ],
            lines=[
                # 3300; +100; out; 700; moved: Cat & Dan's open dirty 300 + 100 card points
                lines(3300, 100, 100, 700, 0, 400, total=4600),
                # 500; −2×300; 200 − 300; their open meld counts for the others, not for them
                lines(500, -600, 0, -100, 0, 0, total=-200),
            ],
            totals=[4600, -200],
            minimums=[120, 50],  # a negative total needs the lowest minimum
        ),
        Deal(
            scores=[
                {
                    "books": {"clean": 1},
                    "melded_points": 300,
                    "leftover_points": 100,
                    "open_books": {"clean": 1},
                    "open_book_points": 200,
                },
                {
                    # goes out with 2 clean + a book of black threes standing in for the third
                    "books": {"clean": 2, "black_threes": 1, "dirty": 1, "wild": 1},
                    "red_threes_down": 1,
                    "went_out": True,
                    "melded_points": 600,
                },
            ],
            lines=[
                lines(500, 0, 0, 200, 0, 0, total=700),
                # 2×500 + 500 + 300 + 1500 = 3300; +100; out; 600; moved 500 + 200
                lines(3300, 100, 100, 600, 0, 700, total=4800),
            ],
            totals=[5300, 4600],  # 4600 + 700, −200 + 4800
            minimums=[150, 120],
        ),
        Deal(
            scores=[
                {
                    "books": {"clean": 3, "dirty": 1, "wild": 1},
                    "red_threes_down": 2,
                    "went_out": True,
                    "melded_points": 900,
                },
                {
                    "books": {"dirty": 1},
                    "melded_points": 100,
                    "leftover_points": 200,
                    "open_books": {"wild": 1},
                    "open_book_points": 350,
                },
            ],
            lines=[
                # 3300; 2×100; out; 900; moved: open wild 1500 + 350
                lines(3300, 200, 100, 900, 0, 1850, total=6350),
                lines(300, 0, 0, -100, 0, 0, total=200),
            ],
            totals=[11650, 4800],  # 5300 + 6350 passes 10,000 alone
            winners=["Ann & Bob"],
        ),
    ],
)

GAMES = [CLASSIC, CLUB, FAMILY, CASUAL, TEN_THOUSAND, CUTTHROAT]


def check_deal(state: dict[str, Any], number: int, game: Game, deal: Deal) -> None:
    """The deal's per-side breakdown lines and totals, as worked out by hand."""
    shown = state["deals"][number - 1]
    assert shown["number"] == number
    assert [s["side"] for s in shown["scores"]] == [s["name"] for s in game.sides]
    for side, score, expected in zip(game.sides, shown["scores"], deal.lines, strict=True):
        got = {line: score["breakdown"][line] for line in LINES}
        assert got == expected, f"deal {number}, {side['name']}"
        assert score["total"] == expected["total"], f"deal {number}, {side['name']}"


@pytest.mark.parametrize("game", GAMES, ids=[g.ruleset for g in GAMES])
def test_full_game(client, game: Game):
    """Every deal's lines, the running totals, minimums, the end and the winners."""
    body: dict[str, Any] = {"ruleset": game.ruleset, "sides": game.sides}
    if game.request_decks is not None:
        body["decks"] = game.request_decks
    created = client.post("/api/v1/games", json=body)
    assert created.status_code == 201, created.get_json()
    state = created.get_json()
    game_id = state["id"]
    # Every later request about the game sends the key its creation answered with.
    game_key = {"X-Game-Key": state["key"]}
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", state["key"])
    assert state["ruleset"] == game.ruleset
    assert state["decks"] == game.decks
    assert state["url"] == f"/t/{state['key']}"
    assert state["link"].endswith(state["url"])
    assert [s["total"] for s in state["sides"]] == [0] * len(game.sides)
    assert [s["opening_minimum"] for s in state["sides"]] == game.first_minimums
    assert (state["finished"], state["winners"], state["deals"]) == (False, [], [])

    # The minimums each deal is entered under: the first ones, then each deal's for the next.
    applied = game.first_minimums
    for number, deal in enumerate(game.deals, start=1):
        answer = client.post(
            f"/api/v1/games/{game_id}/deals", json={"scores": deal.scores}, headers=game_key
        )
        assert answer.status_code == 201, (number, answer.get_json())
        state = answer.get_json()
        assert len(state["deals"]) == number
        check_deal(state, number, game, deal)
        shown = state["deals"][number - 1]["scores"]
        assert [s["minimum_applied"] for s in shown] == applied, f"minimums in deal {number}"
        assert [s["total"] for s in state["sides"]] == deal.totals, f"after deal {number}"
        if deal.winners is None:
            assert state["finished"] is False, f"after deal {number}"
            assert state["winners"] == []
            assert [s["next_opening_minimum"] for s in state["sides"]] == deal.minimums, (
                f"minimums after deal {number}"
            )
            assert [s["opening_minimum"] for s in state["sides"]] == deal.minimums
            applied = deal.minimums
        else:
            assert number == len(game.deals), "the game ended early"
            assert state["finished"] is True
            assert state["winners"] == deal.winners

    # What was saved reads back the same, deal by deal.
    saved = client.get(f"/api/v1/games/{game_id}", headers=game_key).get_json()
    assert saved["finished"] is True
    assert saved["winners"] == game.deals[-1].winners
    assert [s["total"] for s in saved["sides"]] == game.deals[-1].totals
    assert [s["players"] for s in saved["sides"]] == [s["players"] for s in game.sides]
    for number, deal in enumerate(game.deals, start=1):
        check_deal(saved, number, game, deal)
        assert saved["deals"][number - 1]["version"] == 1


def test_every_preset_has_an_acceptance_game():
    """The six presets the rule table names are all played above."""
    assert {g.ruleset for g in GAMES} == {
        "classic",
        "club",
        "family",
        "casual",
        "ten-thousand",
        "cutthroat",
    }
