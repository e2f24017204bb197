"""What the phone's scorer cannot judge, it leaves to the server (issue 40): never a NaN.

A card class, a book, a bonus or a figure no word of the game names, a figure that is no whole
number in bounds, an entry that is no set of figures, a deal with another number of sides than
the game's: the engine refuses each in words the phone does not copy. The phone says it cannot
judge them (scorer.js parse `unjudged`, scorer_game.js Unjudged), scores none of them, and a deal
waiting to send with such figures is counted by the server once sent, the deals behind it not
counted on the phone meanwhile. tests/browser/test_scorer_differential.py meets such figures
among its generated deals too.
"""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from scorekeeper import rules as engine
from scorekeeper.rules import DealRefused
from scorekeeper.rules.stated import stated
from scorekeeper.services import games

from .test_scorer_differential import scorer_page  # noqa: F401 (the fixture)

RULES = engine.PRESETS["classic"]
SIDES = [engine.Side("Us", 2), engine.Side("Them", 2)]
STATE = {
    **stated(RULES),
    "game": {
        "sides": [{"name": s.name, "players": s.players} for s in SIDES],
        "decks": RULES.decks_for(4),
        "table": ["Ann", "Cat", "Bob", "Dan"],
        "first_dealer": 0,
        "deals": [],
    },
}
OUT = {"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True, "melded_points": 300}

CANNOT_JUDGE = {
    "a card class no form has": [{**OUT, "melded_points": None, "melded_cards": {"three": 2}}, {}],
    "a leftover card class": [OUT, {"leftover_cards": {"red_three": 1}}],
    "a book no rule set knows": [{**OUT, "books": {**OUT["books"], "natural": 1}}, {}],
    "an open book no rule set knows": [OUT, {"open_books": {"mixed": 1}}],
    "a bonus no rule set knows": [OUT, {"bonuses": {"exact_11": 1}}],
    "a figure no entry has": [OUT, {"wild_cards": 3}],
    "a negative figure": [OUT, {"melded_points": -5}],
    "a figure in halves": [OUT, {"melded_points": 2.5}],
    "a figure as words": [OUT, {"melded_points": "seventy"}],
    "a figure past any deal": [OUT, {"melded_points": 10**12}],
    "went out as a word": [{**OUT, "went_out": "yes"}, {}],
    "counts that are no set": [OUT, {"books": [2, 2]}],
    "an entry that is no set": [OUT, "all of it"],
    "three sides for two": [OUT, {}, {}],
}

JUDGED = """([state, cases]) => {
  const S = window.hfScorer;
  return JSON.stringify(Object.fromEntries(Object.entries(cases).map(([name, data]) => {
    const parsed = S.parse(state, data);
    let scored = null;
    // Scored anyway, each entry taken as it is: never a figure that is not a number.
    if (Array.isArray(data) && data.length === 2 && data.every((d) => d && typeof d === "object")) {
      try { scored = S.scoreDeal(state, data.map(S.entry), false).map((s) => s.total); }
      catch (problem) { scored = problem instanceof S.Unjudged ? "unjudged" : String(problem); }
    }
    return [name, { unjudged: !!parsed.unjudged, entries: parsed.entries, scored: scored }];
  })));
}"""


def engine_refuses(data: list) -> bool:
    """Whether the server refuses these figures (as it saves a deal: games.entries_from)."""
    try:
        entries = games.entries_from(data, SimpleNamespace(sides=SIDES))
        progress = engine.play(RULES, STATE["game"]["decks"], SIDES, [])
        engine.extend(RULES, STATE["game"]["decks"], SIDES, progress, entries)
    except DealRefused:
        return True
    return False


@pytest.mark.parametrize("name", sorted(CANNOT_JUDGE))
def test_the_engine_refuses_what_the_phone_cannot_judge(name):
    assert engine_refuses(CANNOT_JUDGE[name]), name


def test_the_phone_leaves_what_it_cannot_judge_to_the_server(scorer_page):  # noqa: F811
    text = scorer_page.evaluate(JUDGED, [STATE, CANNOT_JUDGE])
    assert "NaN" not in text
    found = json.loads(text)
    for name, judged in found.items():
        assert judged["unjudged"] and judged["entries"] is None, name
        # Scored regardless of the parse, each total is a number (JSON writes a NaN as null),
        # or the phone says it cannot judge it: a card class with no value is never a figure.
        assert judged["scored"] in (None, "unjudged") or all(
            isinstance(n, (int, float)) for n in judged["scored"]
        ), (name, judged)
    assert found["a card class no form has"]["scored"] == "unjudged"


WAITING = """([state, bodies]) => {
  const S = window.hfScorer;
  const items = bodies.map((body, i) => ({ key: "k" + i, url: "/t/x/deals/new", number: i + 1,
                                           body: new URLSearchParams(body).toString() }));
  const game = S.withWaiting(state, items);
  return JSON.stringify({ rows: game.rows, totals: game.progress.totals, next: game.next,
                          deals: game.progress.deals.length });
}"""


def test_a_deal_waiting_that_the_phone_cannot_judge_holds_those_behind_it(scorer_page):  # noqa: F811
    out = {"went_out": "0", "s0-books-clean": "2", "s0-books-dirty": "2", "s0-books-wild": "1"}
    bodies = [
        {**out, "s0-melded_points": "300"},
        # A card class the form has no field for: not scored here, sent for the server to judge.
        {**out, "s1-melded_cards-three": "2"},
        {**out, "s0-melded_points": "100"},
    ]
    text = scorer_page.evaluate(WAITING, [STATE, bodies])
    assert "NaN" not in text and "null" not in text.replace('"after":null', "")
    game = json.loads(text)
    first, unjudged, behind = game["rows"]
    assert first["counted"] and first["number"] == 1
    assert unjudged["unjudged"] and not unjudged.get("counted") and unjudged["number"] == 2
    assert behind["after"] == 2 and not behind.get("counted") and behind["number"] == 3
    # The totals count deal 1 only; the next deal is 4, as the server will number it.
    assert game["deals"] == 1 and all(isinstance(n, int) for n in game["totals"])
    assert game["next"] == 4
