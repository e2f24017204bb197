"""The phone's scorer (static/scorer.js, scorer_game.js) in real Chromium against the engine.

For every preset, in games without house rules and in games with house rules drawn at random,
at least 1,000 generated deals each (2 to 6 sides, as each rule set seats them): books of every
kind played (and now and then of a kind not played), red threes down and caught, going out
(sometimes two sides at once), card points or card counts (sometimes both, sometimes off the
fives, sometimes more than the decks hold), bonuses and open books where scored. Each deal is
scored by the engine (`games.entries_from`, then `rules.extend`, as the server does) and by the
phone from the same figures, as its form names them; the two must agree on every deal total and
line of the breakdown, the running totals, the next opening minimums, the end and the winners,
and on every refusal (its side, figure, message and the figures it is about). Each game ends
with a correction of one of its deals, replayed by both.

The phone is told nothing but what the server states (`rules.stated`): a rule set's number in
the script would be caught here as soon as a house rule changed it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from scorekeeper import rules as engine
from scorekeeper.rules import DealRefused, RulesError
from scorekeeper.rules.ruleset import GOING_OUT_ONLY
from scorekeeper.rules.stated import stated
from scorekeeper.rules.terms import BOOK_KINDS, CARD_CATEGORIES
from scorekeeper.services import games

# The engine's two scripts, in the order a page loads them (scorer_form.js only draws a form).
SCORER = [
    Path(__file__).resolve().parents[2] / "static" / n for n in ("scorer.js", "scorer_game.js")
]
DEALS_EACH = 1_000  # for each preset, with and without house rules
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
    return d


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


def refusals(exc: DealRefused) -> list[dict]:
    return [r.to_dict() for r in exc.refusals]


def progress_of(progress: engine.Progress) -> dict:
    return {
        "totals": progress.totals,
        "minimums": progress.minimums,
        "finished": progress.finished,
        "winners": progress.winners,
    }


def engine_step(rules, decks, sides, progress, data):
    """What the server makes of one deal's figures: its result and the game after it."""
    table = SimpleNamespace(sides=sides)
    try:
        entries = games.entries_from(data, table)
        after = engine.extend(rules, decks, sides, progress, entries)
    except DealRefused as exc:
        return {"refused": refusals(exc)}, progress, None
    last = after.deals[-1]
    result = {
        "scores": [score.breakdown() for score in last.scores],
        "minimums": last.minimums,
        "warnings": last.warnings,
        **progress_of(after),
    }
    return result, after, entries


def a_game(rng: random.Random, rules: engine.RuleSet) -> tuple[dict, list[dict]]:
    """A game's stated rules and sides, and each deal offered with what the engine made of it."""
    sides = seated(rng, rules)
    decks = rules.decks_for(sum(side.players for side in sides))
    state = {
        **stated(rules),
        "game": {
            "sides": [{"name": s.name, "players": s.players} for s in sides],
            "decks": decks,
            "table": [],
            "first_dealer": 0,
            "deals": [],
        },
    }
    progress = engine.play(rules, decks, sides, [])
    played: list[list[engine.DealEntry]] = []
    steps = []
    for _ in range(rng.randint(3, 9)):
        data = a_deal(rng, rules, sides)
        expected, progress, entries = engine_step(rules, decks, sides, progress, data)
        if entries is not None:
            played.append(entries)
        steps.append({"data": data, "pairs": form_pairs(data), "expected": expected})
        if progress.finished and entries is None:
            break  # one deal offered after the end is enough
    correction = None
    if played:
        number = rng.randint(1, len(played))
        data = a_deal(rng, rules, sides)
        try:
            entries = games.entries_from(data, SimpleNamespace(sides=sides))
            after = engine.correct_deal(rules, decks, sides, played, number, entries)
            expected = progress_of(after)
        except DealRefused as exc:
            expected = {"refused": refusals(exc)}
        correction = {"number": number, "data": data, "expected": expected}
    return {"state": state, "steps": steps, "correction": correction}, steps


def games_for(preset: engine.RuleSet, house: bool, seed: int) -> list[dict]:
    """Games of this preset (each with its own house rules, if `house`) up to DEALS_EACH deals."""
    rng = random.Random(seed)
    found, deals = [], 0
    while deals < DEALS_EACH:
        rules = house_rules(rng, preset) if house else preset
        game, steps = a_game(rng, rules)
        found.append(game)
        deals += len(steps)
    return found


# Runs every game in the page: the phone's results, alike in shape to the engine's, so that
# Python compares them. In and out as JSON text: Playwright carries one string far faster than
# the same data as objects.
HARNESS = """text => {
  const S = window.hfScorer;
  const cases = JSON.parse(text);
  const asRefusals = (refused) => refused.refusals.map((r) => ({
    side: r.side, field: r.field, message: r.message,
    inputs: S.figures(r).map((f) => ({ side: f[0], field: f[1] })),
  }));
  const summary = (p) => ({ totals: p.totals, minimums: p.minimums, finished: p.finished,
                            winners: p.winners });
  const entriesOf = (state, step) => {
    const parsed = step.pairs ? S.fromForm(state, step.pairs, null) : S.parse(state, step.data);
    if (!parsed.entries) { throw new S.Refused(parsed.refusals); }
    return parsed.entries;
  };
  const results = cases.map((game) => {
    const state = game.state;
    let progress = S.play(state, []);
    const played = [];
    const steps = game.steps.map((step) => {
      try {
        const entries = entriesOf(state, step);
        progress = S.extend(state, progress, entries);
        played.push(entries);
        const last = progress.deals[progress.deals.length - 1];
        return { scores: last.scores, minimums: last.minimums, warnings: last.warnings,
                 ...summary(progress) };
      } catch (refused) {
        if (!(refused instanceof S.Refused)) { throw refused; }
        return { refused: asRefusals(refused) };
      }
    });
    let correction = null;
    if (game.correction) {
      try {
        const entries = S.parse(state, game.correction.data);
        if (!entries.entries) { throw new S.Refused(entries.refusals); }
        correction = summary(S.correct(state, played, game.correction.number, entries.entries));
      } catch (refused) {
        if (!(refused instanceof S.Refused)) { throw refused; }
        correction = { refused: asRefusals(refused) };
      }
    }
    return { steps, correction };
  });
  return JSON.stringify(results);
}"""


@pytest.fixture(scope="module")
def scorer_page(browser):
    """A blank page with the phone's scorer loaded, as a phone runs it (no server needed)."""
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<!doctype html><title>scorer</title>")
    for script in SCORER:
        page.add_script_tag(content=script.read_text())
    yield page
    context.close()


def offered(case: dict) -> dict:
    """What the phone is given of a game: the stated rules and each deal's figures, no answer."""
    correction = case["correction"]
    return {
        "state": case["state"],
        "steps": [{"data": step["data"], "pairs": step["pairs"]} for step in case["steps"]],
        "correction": correction and {"number": correction["number"], "data": correction["data"]},
    }


def phone_results(page, cases: list[dict]) -> list[dict]:
    """The phone's results for these games, from one call into the page."""
    return json.loads(page.evaluate(HARNESS, json.dumps([offered(case) for case in cases])))


@pytest.mark.parametrize("house", [False, True], ids=["as-preset", "house-rules"])
@pytest.mark.parametrize("key", sorted(engine.PRESETS))
def test_the_phone_scores_as_the_engine_does(scorer_page, key, house):
    """Every deal's breakdown, totals, minimums, end, winners and refusals agree."""
    seed = sorted(engine.PRESETS).index(key) * 2 + house
    cases = games_for(engine.PRESETS[key], house, seed)
    results = phone_results(scorer_page, cases)
    deals = refused = ended = 0
    for number, (case, result) in enumerate(zip(cases, results, strict=True)):
        for step, (offered, theirs) in enumerate(zip(case["steps"], result["steps"], strict=True)):
            expected = json.loads(json.dumps(offered["expected"]))
            where = f"game {number} ({case['state']['called']}), deal offered {step + 1}"
            assert theirs == expected, f"{where}: {offered['data']}"
            deals += 1
            refused += "refused" in expected
            ended += bool(expected.get("finished"))
        if case["correction"]:
            expected = json.loads(json.dumps(case["correction"]["expected"]))
            assert result["correction"] == expected, f"game {number}'s correction"
    assert deals >= DEALS_EACH
    # The generated deals reach both roads: deals saved, deals refused, and games that end.
    assert 0.1 * deals < refused < 0.9 * deals, (refused, deals)
    assert ended > 0
