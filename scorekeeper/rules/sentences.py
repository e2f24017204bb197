"""Every sentence the engine refuses or warns with, once, as a template both languages fill.

The engine fills them here (`say`); the phone's scorer (static/scorer.js `say`) fills the ones
it judges from what the server states (`stated.stated`, the `sentences` the deal form carries),
so no script holds a refusal's words. A template names its figures in braces: `{name}` as it
is, `{name:,}` a number with thousands commas (text is left as typed), and `{name|one|more}`
one word or the other as the figure is 1 or not. Figures are filled in one pass, so a name
typed with braces in it is never read as a template.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

SENTENCES: dict[str, str] = {
    # How a refusal names its side, and how names and books are listed.
    "side": "{side}: {why}",
    "and": " and ",
    "comma": ", ",
    "joined": "; ",
    "books_item": "{count} {kind} book{count||s}",
    # A side's figures as the engine reads them (rules/entry.py).
    "not_entry": "An entry must be a set of named figures.",
    "unknown_figure": "'{name}' is not a figure of a deal entry.",
    "went_out_bool": "Went out must be true or false, not {value}.",
    "not_whole": "{label} must be a whole number, not {value}.",
    "negative": "{label} cannot be negative ({value}).",
    # The figure ceiling, for a figure sent and a figure typed alike.
    "ceiling": "{label} of {value:,} is far more than any deal holds.",
    "typed_not_whole": "{label} must be a whole number of 0 or more, not '{value}'.",
    "by_kind": "{label} must be counted by kind.",
    "unknown_kind": "'{kind}' is not one of the {label}: {known}.",
    "label_book": "{kind} {label}",
    "label_bonus": "players who {kind}",
    "label_card": "{label}: {kind}",
    "points_or_cards": "Give {label} or count the cards, not both.",
    "more_refused": "{count:,} more of its figures are refused too (not listed one by one).",
    # A side's checks (rules/deal.py).
    "sides_count": "Enter one score for each of the {count} sides.",
    "no_book": "{called} have no {book} book.",
    "no_open_books": "open books are not scored under {called}.",
    "no_red_threes_down": "red threes cannot be laid down under {called}.",
    "no_bonus": "{called} have no '{bonus}' bonus.",
    "bonus_players": "{count} players {bonus}, but the side has {players}.",
    "fives": "{label} of {value} is not a multiple of {step}; every card is.",
    "threes_never": "{count} black three{count||s} melded, but threes cannot be melded under "
    "{called}: a black three is only discarded, or counted with the cards left in a hand or foot.",
    "threes_going_out": "black threes can be melded only by the side going out under {called}.",
    "going_out_only": "a book of {book} can only be closed by the side going out.",
    "cannot_go_out": "cannot go out without {needed}; missing {missing}.",
    "two_went_out": "Only one side can go out; {names} both did.",
    # What the decks hold (rules/limits.py): `what` and `why` by the group of cards counted.
    "deck_limit": "{entered:,} {what}, but {decks} deck{decks||s} {decks|holds|hold} "
    "{most:,}{why}.",
    "what": "{label} entered",
    "what_red_threes": "red threes entered",
    "what_card_points": "card points entered",
    "what_wilds": "wild cards needed for the books and the cards counted",
    "what_naturals": "natural cards needed for the books and the cards counted",
    "what_sevens": "sevens needed for books of sevens",
    "why_wilds": " ({size} in each wild book, at least 1 in each dirty book)",
    "why_naturals": " ({size} in each clean book, at least {dirty} in each dirty book)",
    "why_black_three": " (at least {size} in each book of black threes, among those melded)",
    "why_four_to_seven": " ({size} sevens in each book of sevens, among those melded)",
    # A deal's breakdown: each line's detail (rules/deal.py score_side).
    "detail_book": "{count} {kind} \u00d7 {bonus:,}",
    "detail_red_threes": "{down} laid down, {caught} caught",
    "detail_went_out": "went out",
    "detail_cards": "{melded:,} melded \u2212 {leftover:,} left",
    "detail_bonus": "{count} \u00d7 {bonus}",
    "detail_moved": "Open books of {side}: {books} + {points:,} card points",
    # A game (rules/game.py).
    "below_minimum": "{side} melded {melded:,}, below the {needed:,} needed to open: check.",
    "no_longer_adds_up": "Deal {number} no longer adds up: {why}",
    "game_over": "The game is over: {names} won after deal {ended}. No deal can be added.",
    "would_end": "This correction would end the game after deal {ended} ({names} winning), "
    "but {follow} it.",
    "follows_one": "deal {deal} already follows",
    "follows_many": "deals {deal} to {last} already follow",
    "deal_limit": "This game has reached its limit of {most:,} deal{most||s}: no more deals can "
    "be entered. It has not ended by its rules, so it has no winner; start a new game to play on.",
    "over_limit": "This game holds {held:,} deals, more than the {most:,} a game may hold: no more "
    "deals can be entered, and its deals can be read but not corrected. It has not ended by its "
    "rules, so it has no winner; start a new game to play on.",
    "too_long": "This game holds {held:,} deals, more than the {most:,} a game may hold: its "
    "deals can be read but not corrected.",
    # A game's start (rules/game.py check_setup) and a club's house rules (house.py, ruleset.py).
    "too_few_sides": "{called} need at least {count} sides.",
    "too_many_sides": "{called} take at most {count} sides.",
    "decks": "Decks must be a whole number from 1 to {most}.",
    "no_name": "Side {number} needs a name.",
    "long_name": "Side {number}'s name is over {most} characters.",
    "same_name": "Two sides are called {name}.",
    "one_player": "{name}: under {called} each side is one player.",
    "players": "{name} needs 1 to {most} players.",
    "a_side": "A side",
    "deal_fits": "{players} players' hands and feet take {dealt:,} cards ({hand} + {foot} each), "
    "but {decks} deck{decks||s} {decks|holds|hold} {held:,} and the stock needs cards too: {fix}.",
    "fix_decks": "play with at least {needed} decks",
    "fix_players": "even {most} decks are too few: fewer players or smaller hands and feet",
    "house_fives": "{label} must be a multiple of {step}, as every score is, not {value:,}.",
    "card_value_fives": "{label} must be a multiple of {step}, so that card points can be "
    "checked, not {value:,}.",
}

# The sentences the phone's scorer fills itself (static/scorer.js, scorer_game.js), stated with
# the rules: the others are only ever the server's, and a deal form need not carry them.
PHONE: tuple[str, ...] = (
    *("side", "and", "comma", "joined", "books_item", "ceiling", "typed_not_whole"),
    *("points_or_cards", "no_book", "no_open_books", "no_red_threes_down", "no_bonus"),
    *("bonus_players", "fives", "threes_never", "threes_going_out", "going_out_only"),
    *("cannot_go_out", "two_went_out", "deal_limit", "below_minimum", "no_longer_adds_up"),
    *("game_over", "would_end", "follows_one", "follows_many"),
    *(name for name in SENTENCES if name.startswith(("deck_limit", "what", "why_", "detail_"))),
)

_FIGURE = re.compile(r"\{(\w+)(?:(:,)|\|([^|{}]*)\|([^{}]*))?\}")


def fill(template: str, figures: dict[str, Any]) -> str:
    """A template with its figures filled in (static/scorer.js `fill` does the same)."""

    def one(found: re.Match[str]) -> str:
        value = figures[found[1]]
        if found[3] is not None:
            return found[3] if value == 1 else found[4]
        if found[2] and isinstance(value, int):
            return f"{value:,}"
        return str(value)

    return _FIGURE.sub(one, template)


def say(code: str, **figures: Any) -> str:
    """The sentence `code` with these figures: read from its home each time, never kept."""
    return fill(SENTENCES[code], figures)


def listed(parts: Iterable[str]) -> str:
    """Parts listed as a sentence lists them: "a", "a and b", "a, b and c"."""
    items = list(parts)
    head = SENTENCES["comma"].join(items[:-1])
    return head + (SENTENCES["and"] if len(items) > 1 else "") + items[-1]


def both(names: Iterable[str]) -> str:
    """Names joined as one side's or the winners' are: "Us and Them"."""
    return SENTENCES["and"].join(names)


def stated() -> dict[str, str]:
    """The sentences the phone fills, as the server states them to it."""
    return {code: SENTENCES[code] for code in PHONE}
