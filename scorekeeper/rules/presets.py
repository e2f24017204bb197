"""One preset per rulebook, in our own words; numbers from the shared rule table."""

from __future__ import annotations

from .ruleset import RuleSet, held_to_ceilings

STANDARD_CARDS = {
    "joker": 50,
    "two": 20,
    "ace": 20,
    "eight_to_king": 10,
    "four_to_seven": 5,
    "black_three": 5,
}
BY_DEAL = ((1, 50), (2, 90), (3, 120), (4, 150))
BY_TOTAL = ((0, 50), (1500, 90), (3000, 120), (5000, 150))

# Rulings the rulebooks leave open; each is shown on the rule card of every preset.
COMMON_RULINGS = (
    "Only one side can go out in a deal, and it must hold the books these rules require.",
    "Melded points below the opening minimum are saved as entered, with a warning: "
    "the table decides.",
    "Red threes and book bonuses never count toward the opening minimum.",
    "A corrected deal recomputes every later total, minimum and the winner.",
    "A card is counted once: the cards of a book are among the melded cards counted for it, "
    "never added to them, when the deck limits are checked.",
    "The decks must hold every player's hand and foot with cards left for the stock; the "
    "default number of decks rises to the fewest that do.",
    "Every card is worth a multiple of 5, so bonuses, penalties, opening minimums and targets "
    "move in fives too: a house rule off that step is refused as a typo.",
)
FOUR_DEAL_RULINGS = (
    "After the last deal the highest total wins; equal highest totals share the win.",
    "With more deals than the schedule lists, its last minimum repeats.",
)
TEN_THOUSAND_RULINGS = (
    "The game ends after the deal in which a side reaches the target, once one side alone "
    "has the highest total; equal highest totals play another deal.",
    "A negative running total needs the lowest minimum.",
    "Black threes are melded only by the side going out, as the rulebook says: melded black "
    "threes entered for any other side are refused.",
)

CLASSIC = RuleSet(
    key="classic",
    name="Classic partnership",
    summary="The widely published partnership game: wild books required to go out.",
    rulebook="classic-partnership.txt",
    sides_note="Partnerships: two teams of two or three, or three teams of two. "
    "Individuals may play too.",
    card_values=STANDARD_CARDS,
    book_bonuses={"clean": 500, "dirty": 300, "wild": 1500},
    max_wilds_in_dirty_book=2,
    red_three_down=100,
    red_three_caught=100,
    going_out_bonus=100,
    books_to_go_out={"clean": 2, "dirty": 2, "wild": 1},
    minimum_basis="deal",
    opening_minimums=BY_DEAL,
    end_after_deals=4,
    target_score=None,
    default_decks=((1, 1, 1),),
    hand_size=13,
    foot_size=13,
    discard_pickup="Take the top seven cards of the discard pile.",
    rulings=COMMON_RULINGS + FOUR_DEAL_RULINGS,
)

CLUB = RuleSet(
    key="club",
    name="Club individual",
    summary="A community club's game: every player for themselves, no wild books.",
    rulebook="club-individual.txt",
    sides_note="Individuals: each player's melds are their own.",
    individuals=True,
    card_values=STANDARD_CARDS,
    book_bonuses={"clean": 500, "dirty": 300},
    max_wilds_in_dirty_book=3,
    red_three_down=100,
    red_three_caught=500,
    going_out_bonus=100,
    books_to_go_out={"clean": 2, "dirty": 2, "wild": 0},
    minimum_basis="deal",
    opening_minimums=BY_DEAL,
    end_after_deals=4,
    target_score=None,
    default_decks=((1, 1, 1),),
    hand_size=11,
    foot_size=11,
    discard_pickup="Take the top seven cards, and only once the pile holds seven.",
    rulings=COMMON_RULINGS + FOUR_DEAL_RULINGS,
)

FAMILY = RuleSet(
    key="family",
    name="Family",
    summary="A household game: a clean book of sevens is worth 1,500; red threes only hurt.",
    rulebook="family.txt",
    sides_note="Teams with four or six players; individuals with three or five.",
    card_values=STANDARD_CARDS,
    book_bonuses={"clean": 500, "dirty": 300, "clean_sevens": 1500},
    max_wilds_in_dirty_book=3,
    red_three_down=None,
    red_three_caught=500,
    going_out_bonus=0,
    books_to_go_out={"clean": 1, "dirty": 2, "wild": 0},
    minimum_basis="deal",
    opening_minimums=((1, 60), (2, 90), (3, 120), (4, 150)),
    end_after_deals=4,
    target_score=None,
    default_decks=((1, 0, 4), (5, 0, 5)),
    hand_size=11,
    foot_size=11,
    discard_pickup="Take the top seven cards (all of them if fewer).",
    rulings=COMMON_RULINGS
    + FOUR_DEAL_RULINGS
    + (
        "The rulebook names no bonus for going out: it scores 0.",
        "A clean book of sevens counts as a clean book toward going out.",
    ),
)

CASUAL = RuleSet(
    key="casual",
    name="Casual",
    summary="A relaxed game with five or more decks and 100 for picking up exactly 22 cards.",
    rulebook="casual.txt",
    sides_note="Partners with four or six players; individuals with two or three.",
    card_values=STANDARD_CARDS,
    book_bonuses={"clean": 500, "dirty": 300, "wild": 300},
    book_counts_as={"wild": "dirty"},
    max_wilds_in_dirty_book=3,
    red_three_down=None,
    red_three_caught=500,
    going_out_bonus=100,
    books_to_go_out={"clean": 2, "dirty": 2, "wild": 0},
    extra_bonuses={"exact_22": 100},
    minimum_basis="deal",
    opening_minimums=BY_DEAL,
    end_after_deals=4,
    target_score=None,
    default_decks=((1, 0, 5), (5, 0, 6)),
    hand_size=11,
    foot_size=11,
    discard_pickup="Take the top five cards, holding a natural pair of the top card.",
    rulings=COMMON_RULINGS
    + FOUR_DEAL_RULINGS
    + (
        "A wild book is scored as a dirty book (300) and counts as one toward going out.",
        "The exact-22 bonus counts at most once for each player of a side.",
    ),
)

TEN_THOUSAND = RuleSet(
    key="ten-thousand",
    name="Ten thousand",
    summary="Play deal after deal until a team reaches 10,000; minimums rise with the score.",
    rulebook="ten-thousand-and-cutthroat.txt",
    sides_note="Two teams.",
    card_values=STANDARD_CARDS,
    book_bonuses={"clean": 500, "dirty": 300, "wild": 1500},
    max_wilds_in_dirty_book=3,
    red_three_down=100,
    red_three_caught=300,
    going_out_bonus=100,
    books_to_go_out={"clean": 3, "dirty": 1, "wild": 1},
    minimum_basis="total",
    opening_minimums=BY_TOTAL,
    end_after_deals=None,
    target_score=10_000,
    tie_rule="play_on",
    melded_black_threes="going_out",
    default_decks=((1, 1, -1),),
    min_default_decks=3,
    hand_size=13,
    foot_size=13,
    discard_pickup="Take the whole discard pile.",
    open_melds="A meld of seven or more left open earns no book bonus: enter only closed books.",
    rulings=COMMON_RULINGS + TEN_THOUSAND_RULINGS,
)

CUTTHROAT = RuleSet(
    key="cutthroat",
    name="Cutthroat",
    summary="Ten thousand with a sting: melds of seven left open go to the other team.",
    rulebook="ten-thousand-and-cutthroat.txt (Cutthroat)",
    sides_note="Exactly two teams.",
    card_values=STANDARD_CARDS,
    book_bonuses={"clean": 500, "dirty": 300, "wild": 1500, "black_threes": 500},
    max_wilds_in_dirty_book=3,
    red_three_down=100,
    red_three_caught=300,
    going_out_bonus=100,
    books_to_go_out={"clean": 3, "dirty": 1, "wild": 1},
    minimum_basis="total",
    opening_minimums=BY_TOTAL,
    end_after_deals=None,
    target_score=10_000,
    tie_rule="play_on",
    melded_black_threes="going_out",
    default_decks=((1, 1, -1),),
    min_default_decks=3,
    hand_size=13,
    foot_size=13,
    max_sides=2,
    open_books_to_other_team=True,
    discard_pickup="Take the whole pile; one matching card and a wild card suffice.",
    open_melds="At the end of a deal every open meld of seven or more goes to the other team "
    "as a closed book: its bonus and its card points.",
    rulings=COMMON_RULINGS
    + TEN_THOUSAND_RULINGS
    + ("A book of seven or more black threes, closed when going out, counts as a clean book.",),
)

PRESETS: dict[str, RuleSet] = {
    rules.key: rules for rules in (CLASSIC, CLUB, FAMILY, CASUAL, TEN_THOUSAND, CUTTHROAT)
}


def ruleset(key: str, house_rules: dict | None = None) -> RuleSet:
    """A preset by key, with a club's house rules applied (KeyError for an unknown key)."""
    return PRESETS[key].with_house_rules(house_rules)


def saved_ruleset(key: str, house_rules: dict | None = None) -> RuleSet:
    """A saved game's or rule set's rules: as `ruleset`, read held to today's ceilings."""
    return PRESETS[key].with_house_rules(held_to_ceilings(house_rules))
