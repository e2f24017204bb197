"""The acceptance games of family and casual, worked out by hand (see _preset_games.py)."""

from __future__ import annotations

from _preset_games import Deal, Game, lines, teams

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
