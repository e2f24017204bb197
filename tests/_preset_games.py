"""The acceptance games of classic and club, and the shapes every preset's game is written in.

test_api_presets.py plays one full game under each of the six presets; the games are here and
in _preset_games_family_casual.py and _preset_games_ten_thousand.py. Every figure is worked out
by hand from /work/shared/rules/VARIANTS.md (never by the engine): each side's lines are written
as books, red threes, going out, cards, extras and moved, with the arithmetic in the comment
beside them.

    books      = Σ books of each kind × that kind's bonus
    red threes = laid down × value − caught × penalty
    going out  = the bonus, for the side that went out
    cards      = melded card points − points left in hands and feet
    extras     = exact-22 pickups × 100 (casual)
    moved      = the other team's open melds: bonus + card points (cutthroat)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
