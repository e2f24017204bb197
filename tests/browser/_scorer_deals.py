"""The deals the phone's scorer is tried on (tests/browser/test_scorer_differential.py): games
seated as each rule set seats them, house rules drawn at random, and each side's figures mostly
such as a table reports, now and then what the engine refuses or what no word of the game names.
"""

from __future__ import annotations

import random
from typing import Any

from scorekeeper import rules as engine
from scorekeeper.rules import RulesError
from scorekeeper.rules.ruleset import GOING_OUT_ONLY
from scorekeeper.rules.terms import BOOK_KINDS, CARD_CATEGORIES

NAMES = ["Us", "Them", "Ann & Bob", "Cat", "Zoë", "O'Brien", "North", "South"]


def house_rules(rng: random.Random, preset: engine.RuleSet) -> engine.RuleSet:
    """A preset with house rules drawn at random, as a club might set them (retried until valid)."""
    fives = [0, 5, 10, 15, 20, 25, 40, 50, 100]
    while True:
        o: dict[str, Any] = {}
        if rng.random() < 0.6:
            o["card_values"] = {c: rng.choice(fives) for c in rng.sample(CARD_CATEGORIES, 3)}
        if rng.random() < 0.6:
            kinds = rng.sample(BOOK_KINDS, rng.randint(1, 3))
            o["book_bonuses"] = {k: rng.choice([None, 0, 100, 300, 500, 750, 2500]) for k in kinds}
        if rng.random() < 0.4:
            o["red_three_down"] = rng.choice([None, 0, 100, 300])
        if rng.random() < 0.3:
            o["red_three_caught"] = rng.choice([0, 100, 500])
        if rng.random() < 0.3:
            o["going_out_bonus"] = rng.choice([0, 100, 250])
        if rng.random() < 0.5:
            o["books_to_go_out"] = {
                "clean": rng.randint(0, 3),
                "dirty": rng.randint(0, 2),
                "wild": rng.randint(0, 1),
            }
        if rng.random() < 0.3:
            o["max_wilds_in_dirty_book"] = rng.randint(0, 6)
        if rng.random() < 0.4:
            o["opening_minimums"] = [
                [start, rng.choice([0, 50, 90, 120, 150, 200])]
                for start, _ in preset.opening_minimums
            ]
        if rng.random() < 0.5:
            o["end_after_deals"] = rng.choice([None, 1, 2, 3, 5])
            o["target_score"] = rng.choice([None, 1_500, 4_000, 10_000])
        if rng.random() < 0.3:
            o["tie_rule"] = rng.choice(["share", "play_on"])
        if rng.random() < 0.3:
            o["melded_black_threes"] = rng.choice(["never", "going_out", "always"])
        if rng.random() < 0.3:
            o["extra_bonuses"] = {"exact_22": rng.choice([None, 0, 100, 200])}
        if rng.random() < 0.2:
            o["deal_limit"] = rng.randint(2, 6)
        try:
            rules = preset.with_house_rules(o)
        except RulesError:
            continue
        if rules.house:
            return rules


def seated(rng: random.Random, rules: engine.RuleSet) -> list[engine.Side]:
    """2 to 6 sides as these rules seat them: individuals, or teams of two or three."""
    most = min(rules.max_sides or 6, 6)
    count = rng.randint(max(2, rules.min_sides), max(most, rules.min_sides))
    names = rng.sample(NAMES, count)
    players = [1 if rules.individuals else rng.choice([1, 2, 2, 3]) for _ in names]
    return [engine.Side(name, n) for name, n in zip(names, players, strict=True)]


def an_entry(rng: random.Random, rules: engine.RuleSet, players: int, out: bool) -> dict:
    """One side's figures, mostly such as a table reports, now and then what the engine refuses.

    Each figure slips (a book the rules do not score, off the fives, too many...) one time in
    forty, and one side in twelve is greedy (more than the decks may hold), so that every check
    is met but most deals still stand.
    """

    def slip() -> bool:
        return rng.random() < 0.025

    greedy = rng.random() < 0.08
    most = 9 if greedy else 3
    kinds = [k for k in rules.book_bonuses if out or k not in GOING_OUT_ONLY or slip()]
    if slip():
        kinds.append(rng.choice(BOOK_KINDS))
    d: dict[str, Any] = {}
    # Books of sevens, of black threes and of wilds take cards that a deck holds few of.
    books = {
        k: rng.randint(0, most if k in ("clean", "dirty") or greedy else 1)
        for k in kinds
        if rng.random() < 0.7
    }
    if out and not slip():
        for goal, needed in rules.books_to_go_out.items():
            counting = [k for k in rules.book_bonuses if rules.counts_as(k) == goal]
            if needed and counting:
                kind = rng.choice(counting)
                books[kind] = max(books.get(kind, 0), needed)
    if books:
        d["books"] = books
    if (rules.red_three_down is not None or slip()) and rng.random() < 0.4:
        d["red_threes_down"] = rng.randint(0, 6 if greedy else 2)
    if rng.random() < 0.25:
        d["red_threes_caught"] = rng.randint(0, 4 if greedy else 1)
    if out:
        d["went_out"] = True
    threes = rules.melded_black_threes == "always" or (
        rules.melded_black_threes == "going_out" and out
    )
    if rng.random() < 0.65:
        d["melded_points"] = 5 * rng.randint(0, 900 if greedy else 120)
        if rng.random() < 0.7:
            d["leftover_points"] = 5 * rng.randint(0, 60)
        if slip():
            d["melded_points"] += rng.randint(1, 4)
    else:
        high = 30 if greedy else 8
        counted = [c for c in CARD_CATEGORIES if c != "black_three" or threes or slip()]
        d["melded_cards"] = {c: rng.randint(0, high) for c in counted if rng.random() < 0.6}
        if rng.random() < 0.6:
            d["leftover_cards"] = {c: rng.randint(0, 4) for c in rng.sample(CARD_CATEGORIES, 3)}
        if slip():
            d["melded_points"] = 5 * rng.randint(0, 40)
    if rules.extra_bonuses and rng.random() < 0.4:
        d["bonuses"] = {"exact_22": rng.randint(0, players + slip())}
    if rules.open_books_to_other_team and rng.random() < 0.4:
        d["open_books"] = {k: rng.randint(0, 2) for k in rules.book_bonuses if rng.random() < 0.5}
        d["open_book_points"] = 5 * rng.randint(0, 30)
    if slip():
        unknown(rng, d)
    return d


# Figures and kinds no word of the game names: the engine refuses them; the phone cannot judge
# them (its card values have no such card: it would score NaN), so it leaves them to the server.
UNKNOWN = [
    ("melded_cards", "three"),
    ("leftover_cards", "red_three"),
    ("melded_cards", "joker_big"),
    ("books", "natural"),
    ("open_books", "mixed"),
    ("bonuses", "exact_11"),
    ("wild_cards", None),
]


def unknown(rng: random.Random, d: dict) -> None:
    """One figure or kind the game has no word for, as a form could only send it if changed."""
    figure, kind = rng.choice(UNKNOWN)
    if kind is None:
        d[figure] = rng.randint(1, 4)
    else:
        d[figure] = {**d.get(figure, {}), kind: rng.randint(1, 4)}


def a_deal(rng: random.Random, rules: engine.RuleSet, sides: list[engine.Side]) -> list[dict]:
    """Every side's figures; one side goes out, now and then none, or two."""
    outs = {rng.randrange(len(sides))} if rng.random() < 0.85 else set()
    if rng.random() < 0.03:
        outs.add(rng.randrange(len(sides)))
    return [an_entry(rng, rules, side.players, i in outs) for i, side in enumerate(sides)]


def form_pairs(data: list[dict]) -> list[list[str]] | None:
    """The figures as the deal form names and sends them; None where no form could send them."""
    pairs = []
    outs = [i for i, d in enumerate(data) if d.get("went_out")]
    if len(outs) > 1:
        return None
    for i, d in enumerate(data):
        for figure, value in d.items():
            if figure == "went_out":
                continue
            if isinstance(value, dict):
                pairs += [[f"s{i}-{figure}-{kind}", str(n)] for kind, n in value.items()]
            else:
                pairs.append([f"s{i}-{figure}", str(value)])
    pairs.append(["went_out", str(outs[0]) if outs else ""])
    return pairs


def has_unknown(data: Any) -> bool:
    """Whether a deal's figures hold one the game has no word for (`UNKNOWN`)."""
    return any(
        (kind is None and figure in entry) or kind in (entry.get(figure) or {})
        for entry in data
        for figure, kind in UNKNOWN
    )
