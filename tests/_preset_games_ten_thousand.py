"""The acceptance games of ten thousand and cutthroat, worked out by hand (as _preset_games.py)."""

from __future__ import annotations

from _preset_games import Deal, Game, lines, teams

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
