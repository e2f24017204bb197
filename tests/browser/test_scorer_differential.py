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

import pytest

from scorekeeper import rules as engine
from scorekeeper.rules import DealRefused, sentences
from scorekeeper.rules.stated import stated
from scorekeeper.services import games

from ._scorer_deals import a_deal, form_pairs, has_unknown, house_rules, seated

# The engine's two scripts, in the order a page loads them (scorer_form.js only draws a form).
SCORER = [
    Path(__file__).resolve().parents[2] / "static" / n for n in ("scorer.js", "scorer_game.js")
]
DEALS_EACH = 1_000  # for each preset, with and without house rules


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
    if (parsed.unjudged) { throw new S.Unjudged(parsed.unjudged); }
    if (!parsed.entries) { throw new S.Refused(parsed.refusals); }
    return parsed.entries;
  };
  // What the phone cannot judge is left to the server: said so, never scored.
  const unjudged = (problem) => {
    if (problem instanceof S.Unjudged) { return { unjudged: true }; }
    if (!(problem instanceof S.Refused)) { throw problem; }
    return { refused: asRefusals(problem) };
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
      } catch (problem) {
        return unjudged(problem);
      }
    });
    let correction = null;
    if (game.correction) {
      try {
        const entries = entriesOf(state, { data: game.correction.data });
        correction = summary(S.correct(state, played, game.correction.number, entries));
      } catch (problem) {
        correction = unjudged(problem);
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
    """The phone's results for these games, from one call into the page: never a NaN (JSON
    writes one as null, so no figure may be null either)."""
    text = page.evaluate(HARNESS, json.dumps([offered(case) for case in cases]))
    assert "NaN" not in text and "Infinity" not in text
    results = json.loads(text)
    for result in results:
        for found in [*result["steps"], result["correction"] or {}]:
            assert all(isinstance(n, int) for n in figures_in(found)), found
    return results


def figures_in(found: dict) -> list:
    """Every figure of a result: each side's score by line, the minimums and the totals."""
    scores = [v for score in found.get("scores", []) for k, v in score.items() if k != "details"]
    return scores + found.get("minimums", []) + found.get("totals", [])


@pytest.mark.parametrize("house", [False, True], ids=["as-preset", "house-rules"])
@pytest.mark.parametrize("key", sorted(engine.PRESETS))
def test_the_phone_scores_as_the_engine_does(scorer_page, key, house):
    """Every deal's breakdown, totals, minimums, end, winners and refusals agree."""
    seed = sorted(engine.PRESETS).index(key) * 2 + house
    cases = games_for(engine.PRESETS[key], house, seed)
    results = phone_results(scorer_page, cases)
    deals = refused = ended = unjudged = 0
    for number, (case, result) in enumerate(zip(cases, results, strict=True)):
        for step, (offered, theirs) in enumerate(zip(case["steps"], result["steps"], strict=True)):
            expected = json.loads(json.dumps(offered["expected"]))
            where = f"game {number} ({case['state']['called']}), deal offered {step + 1}"
            # A figure the game has no word for is the server's to judge (it refuses it).
            if has_unknown(offered["data"]):
                assert theirs == {"unjudged": True} and "refused" in expected, where
                unjudged += 1
            else:
                assert theirs == expected, f"{where}: {offered['data']}"
            deals += 1
            refused += "refused" in expected
            ended += bool(expected.get("finished"))
        if case["correction"]:
            expected = json.loads(json.dumps(case["correction"]["expected"]))
            if has_unknown(case["correction"]["data"]):
                assert result["correction"] == {"unjudged": True} and "refused" in expected
            else:
                assert result["correction"] == expected, f"game {number}'s correction"
    assert deals >= DEALS_EACH
    # The generated deals reach both roads: deals saved, deals refused, and games that end.
    assert 0.1 * deals < refused < 0.9 * deals, (refused, deals)
    assert ended > 0
    # And now and then a figure the phone cannot judge, left to the server.
    assert unjudged > 0


def test_the_phone_says_a_refusal_in_the_words_the_server_states(scorer_page, monkeypatch):
    """A refusal's words changed in their one home (rules/sentences.py) change the phone's
    too: it fills what the server states, as the engine fills the same template."""
    monkeypatch.setitem(sentences.SENTENCES, "fives", "{label} {value} is off the step of {step}.")
    monkeypatch.setitem(sentences.SENTENCES, "side", "{side} says {why}")
    rules = engine.PRESETS["club"]
    sides = [engine.Side("Ann"), engine.Side("Cat")]
    state = {
        **stated(rules),
        "game": {"sides": [{"name": s.name, "players": 1} for s in sides], "decks": 2},
    }
    data = [{"melded_points": 123}, {}]
    entries = games.entries_from(data, SimpleNamespace(sides=sides))
    (theirs,) = engine.check_deal(rules, 2, sides, entries)
    phone = scorer_page.evaluate(
        """([state, pairs]) => {
          const parsed = window.hfScorer.fromForm(state, pairs, null);
          return window.hfScorer.checkDeal(state, parsed.entries).map((r) => r.message);
        }""",
        [state, form_pairs(data)],
    )
    assert phone == [theirs.message] == ["Ann says melded card points 123 is off the step of 5."]
