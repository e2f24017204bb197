"""The game's words and the app's limits: each label and each bound, written once.

The engine, the forms, the models, the OpenAPI document and the templates all read these, so
a label or a limit changes in one place. Pure Python, like the rest of the engine.
"""

from __future__ import annotations

from .rounding import Figure, whole

# --- the cards, the books and the bonuses, as a score sheet names them ---------------------

# The card categories a side counts its cards by, in the order a score sheet lists them.
CARD_CATEGORIES: tuple[str, ...] = (
    "joker",
    "two",
    "ace",
    "eight_to_king",
    "four_to_seven",
    "black_three",
)
CARD_LABELS: dict[str, str] = {
    "joker": "jokers",
    "two": "twos",
    "ace": "aces",
    "eight_to_king": "eights to kings",
    "four_to_seven": "fours to sevens",
    "black_three": "black threes",
}

# Every kind of book any rulebook knows; a rule set scores a subset of them.
BOOK_KINDS: tuple[str, ...] = ("clean", "dirty", "wild", "clean_sevens", "black_threes")
BOOK_LABELS: dict[str, str] = {
    "clean": "clean",
    "dirty": "dirty",
    "wild": "wild",
    "clean_sevens": "clean sevens",
    "black_threes": "black threes",
}

# When black threes may be melded, as a rule card and the house-rules form word each choice.
MELDED_BLACK_THREES: dict[str, str] = {
    "never": "Black threes are never melded: they are only discarded or left in a hand or foot",
    "going_out": "Black threes are melded only by the side going out",
    "always": "Black threes may be melded at any time, like other cards",
}
MELDED_BLACK_THREES_LABEL = "Melded black threes"

# Bonuses beyond books, red threes and going out, and what each is paid for.
EXTRA_BONUSES: dict[str, str] = {"exact_22": "picked up exactly 22 cards"}
# The deal form counts how many players earned each bonus.
BONUS_COUNT_LABELS: dict[str, str] = {"exact_22": "Players who picked up exactly 22"}

# The figures of one side's entry, as a refusal names them.
FIELD_LABELS: dict[str, str] = {
    "books": "books",
    "open_books": "open books",
    "bonuses": "bonuses",
    "red_threes_down": "red threes laid down",
    "red_threes_caught": "red threes caught",
    "went_out": "went out",
    "melded_points": "melded card points",
    "leftover_points": "leftover card points",
    "open_book_points": "open book card points",
    "melded_cards": "melded cards",
    "leftover_cards": "leftover cards",
}

# Figures as people read them carry a true minus sign; the JSON API and CSV files, which
# programs read, keep ASCII '-'.
MINUS = "\u2212"


def figure(n: Figure) -> str:
    """A figure as people read it, to the whole, halves up (`rounding.whole`): 1,355 or −35."""
    return f"{whole(n):,}".replace("-", MINUS)


def signed(n: Figure) -> str:
    """A deal's score as people read it, always signed: +1,355, +0 or −35."""
    return f"{whole(n):+,}".replace("-", MINUS)


# A deal's breakdown, line by line, in the order the score sheet shows it (then its total).
BREAKDOWN_LINES: tuple[tuple[str, str], ...] = (
    ("books", "Books"),
    ("red_threes", "Red threes"),
    ("going_out", "Going out"),
    ("cards", "Cards"),
    ("extras", "Extras"),
    ("moved", "From the other team"),
)
# The breakdown's last line: the deal's score, its lines added up.
BREAKDOWN_TOTAL = "Deal total"
# Beside a side's name over its breakdown: the opening minimum that applied to it in the deal.
NEEDED_TO_OPEN = "(needed {minimum} to open)"

# Cards in one standard deck: 52 and two jokers.
DECK_SIZE = 54
# Cards in a book (a book may hold more; it needs this many to close).
BOOK_SIZE = 7

# --- limits: far beyond any real table, so that a typo never reaches the arithmetic --------

MAX_FIGURE = 1_000_000  # any one figure of a deal entry
# Every card is worth a multiple of this, so every score moves in it: a points figure (a side's
# card points, a house rule's bonus, penalty, minimum or target) off the step is a typo.
POINTS_STEP = 5


def over_ceiling(value: int | str) -> bool:
    """Whether a figure (a number, or the digits as typed) is past MAX_FIGURE: the one check of
    the ceiling. Typed digits longer than the ceiling's never reach int() (a pasted wall)."""
    if isinstance(value, str):
        return len(value) > len(str(MAX_FIGURE)) or int(value) > MAX_FIGURE
    return value > MAX_FIGURE


def off_the_step(value: int) -> bool:
    """Whether a points figure is off the step every card's points move in (POINTS_STEP)."""
    return value % POINTS_STEP != 0


MAX_RULE_NUMBER = 100_000  # any one number of a house rule
MAX_DECKS = 20
MAX_DEALS = 50  # a game that ends after a number of deals
# How many deals a game may hold at all, whatever its end: a game that never ends (all-zero
# deals under a target score) must not grow until every request replaying it is slow. Saving or
# correcting a deal replays the game so far while other tables' saves wait their turn, so this
# bounds what one game can cost the others (issue 26: at 1,000 deals of 12 sides a correction of
# deal 1 took 1 s, and six at once held other tables' saves up for 8 s). No real game comes near
# it: a game to 10,000 points takes some 6 to 20 deals, a game of N deals ends after at most
# MAX_DEALS (50), and 100 leaves room for a long night of ties played on.
DEAL_LIMIT = 100
# The most a house rule may set that to: the same ceiling, so a house rule may only lower it.
# Games and saved rule sets from before (a house rule could say up to 1,000) are read held to it
# (`ruleset.held_to_ceilings`): such a game takes no more deals, and one already holding more
# deals than this takes no correction either, but opens and reads as it did.
MAX_DEAL_LIMIT = DEAL_LIMIT
# The JSON API lists a game's deals this many to an answer (`next` links to the following
# ones), as the scoreboard does: every answer to a save or a correction of the longest game
# listed all its deals with their breakdowns (547 KB at 100 deals of 12 sides, issue 26).
DEALS_PER_PAGE = 20
# The scoreboard page shows a game's newest deals this many at a time, with a link to earlier
# ones: every deal of a real game (6 to 20 deals to 10,000 points) on one page, and a page of the
# longest game (12 sides, each deal's breakdown folded in) lists 126 KB of deals, not 630 KB.
SCOREBOARD_DEALS = 20
MAX_SIDES = 12
MAX_PLAYERS_PER_SIDE = 6
# The most refusals one answer lists: every figure of a deal of three sides (29 a side), each
# wrong, and more. Past it a refusal is counted, not written: a body of 400,000 unknown keys
# once cost 12 s and a 62 MB answer listing each.
MAX_ERRORS_LISTED = 100

# Names: sides, players, members, seasons and organisers' usernames.
MAX_NAME = 60
# What joins partners' names into their side's name when nobody typed one ("Ann & Bob"): the
# new-game form, a night's tables and its results, a balanced game's sides, a member renamed.
PARTNERS = " & "
MIN_USERNAME = 3
MAX_CLUB_NAME = 80
# A club's web address (/clubs/<slug>): the form, the check (services/clubs.SLUG) and the column.
MIN_SLUG = 2
MAX_SLUG = 40
# A comma-separated list of a side's players, as typed on the new-game form.
MAX_PLAYERS_TEXT = 300
# What a phone entering a deal calls itself, shown to the table.
MAX_DEVICE_NAME = 40
MIN_PASSWORD = 10
MAX_PASSWORD = 200

CONTROL_MESSAGE = "Names cannot hold control characters (tabs, line breaks, NUL)."


def has_control(text: str) -> bool:
    """Whether a name holds characters no one types: NUL, tabs, line breaks and the like."""
    return any(ord(c) < 32 or 127 <= ord(c) < 160 for c in text)


# The table sizes a rule card (and a club's saved rule set) describes, each with its hands.
PLAYER_COUNTS = range(2, 9)
