"""A refusal's words live once (rules/sentences.py): changed there, the server's refusal and
what the server states to the phone (the deal form's `data-stated`, GET .../scorer) change with
them. tests/browser/test_scorer_differential.py shows the phone's scorer fills them in Chromium.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from live_table import start, text, typed_deal

from scorekeeper import rules as engine
from scorekeeper.rules import sentences
from scorekeeper.rules.stated import stated

# The points-in-fives refusal and the way a side names its own, worded anew.
FIVES = "{label} {value} is off the step of {step}, as no card is."
SIDE = "{side} says {why}"


@pytest.fixture
def worded_anew(monkeypatch):
    """Two sentences changed in their one home, as a change of wording would change them."""
    monkeypatch.setitem(sentences.SENTENCES, "fives", FIVES)
    monkeypatch.setitem(sentences.SENTENCES, "side", SIDE)


def test_the_engine_refuses_in_the_words_of_the_home(worded_anew):
    """The engine's refusal is its template filled, with its code and figures as data."""
    rules = engine.PRESETS["club"]
    entries = [engine.DealEntry(melded_points=123), engine.DealEntry()]
    sides = [engine.Side("Ann"), engine.Side("Cat")]
    (refusal,) = engine.check_deal(rules, 2, sides, entries)
    assert refusal.message == "Ann says melded card points 123 is off the step of 5, as no card is."
    assert refusal.code == "fives"
    assert refusal.values == {"label": "melded card points", "value": 123, "step": 5}
    assert refusal.to_dict()["message"] == refusal.message


def test_the_phone_is_stated_the_words_of_the_home(worded_anew):
    """What the server states to the phone carries the template as it now reads."""
    said = stated(engine.PRESETS["club"])["sentences"]
    assert said["fives"] == FIVES and said["side"] == SIDE


def test_the_deal_form_and_the_server_say_the_new_words(client, worded_anew):
    """The form carries the new template to the phone; the server refuses in the same words."""
    game = start(client)
    page = client.get(f"{game.link}/deals/new").get_data(as_text=True)
    carried = json.loads(html.unescape(re.search(r'data-stated="([^"]*)"', page)[1]))
    assert carried["sentences"]["fives"] == FIVES
    assert carried["sentences"]["side"] == SIDE
    assert client.get(f"{game.link}/scorer").get_json()["sentences"]["fives"] == FIVES
    data = typed_deal(client, game)
    data["s0-melded_points"] = "123"
    answer = client.post(f"{game.link}/deals/new", data=data)
    assert "Ann says melded card points 123 is off the step of 5, as no card is." in text(answer)


def test_the_ceiling_is_worded_once_for_a_figure_typed_and_a_figure_sent(client):
    """The form's figure over the ceiling and the engine's share one sentence and one check."""
    game = start(client)
    data = typed_deal(client, game)
    data["s0-melded_points"] = "1000005"
    typed = text(client.post(f"{game.link}/deals/new", data=data))
    assert "Ann: melded card points of 1000005 is far more than any deal holds." in typed
    with pytest.raises(engine.DealRefused) as refused:
        engine.DealEntry.from_dict({"melded_points": 1_000_005})
    assert str(refused.value) == "Melded card points of 1,000,005 is far more than any deal holds."
    assert refused.value.refusals[0].code == "ceiling"
