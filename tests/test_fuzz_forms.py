"""The new-game, deal and correction forms and previews, fuzzed: junk gets a 4xx, never a 5xx.

The properties checked, and the strategies: _fuzz_support.py.
"""

from __future__ import annotations

import re

from _fuzz_support import (
    FIGURE_TEXT,
    FUZZ,
    NAME,
    PLAIN_NAME,
    PRESETS,
    TEXT,
    _corrections_unbounded,  # noqa: F401 (autouse: every test here)
    assert_shown_escaped,
    game_api,
    game_opened_by,
    no_server_error,
    row_counts,
    start,
    state,
    totals_add_up,
)
from game_links import link
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import rules as engine
from scorekeeper.services.names import squeezed
from scorekeeper.web.forms import MAX_SIDES_ON_FORM, knob_field

# ------------------------------------------------------------------------------ forms


@FUZZ
@given(data=st.data(), key=st.one_of(*[st.sampled_from(PRESETS)] * 4, TEXT))
def test_new_game_form_any_field(app, client, data, key):
    if key not in engine.PRESETS:
        # No such rule set: the page offers the rule sets, whatever else is sent.
        before = row_counts(app)
        answer = client.post("/games/new", query_string={"ruleset": key}, data={"decks": "2"})
        assert answer.status_code == 200
        assert row_counts(app) == before
        return
    rules = engine.PRESETS[key]
    form: dict[str, str] = {}
    for index in range(MAX_SIDES_ON_FORM + 1):
        # The first two rows are mostly filled in as a table would; the others rarely are.
        if data.draw(st.integers(0, 5), label=f"side {index}") > (4 if index < 2 else 0):
            continue
        plain = PLAIN_NAME.map(lambda name, index=index: f"{name}{index}")
        name = st.one_of(plain, plain, TEXT, st.just("")) if index < 2 else TEXT
        form[f"side{index}_name"] = data.draw(name)
        form[f"side{index}_players"] = data.draw(
            st.just("") | TEXT | st.lists(NAME, max_size=3).map(", ".join)
        )
    if data.draw(st.booleans(), label="decks"):
        form["decks"] = data.draw(FIGURE_TEXT)
    for knob in engine.knobs(rules):
        if data.draw(st.integers(0, 12), label=knob.path) == 0:
            near = st.integers(0, 2 * knob.value + 2).map(str)
            form[knob_field(knob.path)] = data.draw(near | near | FIGURE_TEXT)
    before = row_counts(app)
    answer = client.post(f"/games/new?ruleset={key}", data=form)
    no_server_error(answer)
    if answer.status_code != 302:
        assert answer.status_code == 422
        assert row_counts(app) == before
        assert_shown_escaped(answer.get_data(as_text=True))
        return
    game_id = game_opened_by(app, answer.location)
    game = state(client, game_id)
    rows = []
    for index in range(MAX_SIDES_ON_FORM):
        name = squeezed(form.get(f"side{index}_name", ""))
        listed = [squeezed(p) for p in form.get(f"side{index}_players", "").split(",")]
        players = [p for p in listed if p]
        if name or players:
            rows.append((name or " & ".join(players), players or [name]))
    assert [(s["name"], s["players"]) for s in game["sides"]] == rows
    shown = [name for name, _ in rows] + [p for _, players in rows for p in players]
    assert_shown_escaped(client.get(link(client, game_id)).get_data(as_text=True), *shown)


def deal_fields(client, path: str) -> list[str]:
    page = client.get(path)
    assert page.status_code == 200
    return re.findall(r'name="(s[0-9]+-[a-z_0-9-]+)"', page.get_data(as_text=True))


def _honest_figure(field: str) -> st.SearchStrategy:
    if field.endswith("points"):
        return st.integers(0, 40).map(lambda n: str(n * 5))
    return st.integers(0, 2).map(str)


@st.composite
def deal_form_data(draw, fields: list[str], sides: int) -> dict[str, str]:
    """Half the time what a table would type (card counts left blank), else anything."""
    if draw(st.booleans()):
        typed = [f for f in fields if "_cards-" not in f]
        form = {f: draw(_honest_figure(f)) for f in typed if draw(st.integers(0, 2)) == 0}
        form["went_out"] = ""
        return form
    form = {name: draw(FIGURE_TEXT) for name in fields if draw(st.integers(0, 2)) == 0}
    if draw(st.booleans()):
        form["went_out"] = draw(st.sampled_from([str(i) for i in range(sides)]) | TEXT)
    if draw(st.integers(0, 3)) == 0:
        form[draw(st.sampled_from(["s9-books-clean", "junk", "s0-nothing"]))] = draw(TEXT)
    if draw(st.booleans()):
        form["idempotency_key"] = draw(TEXT | st.just("0" * 32))
    return form


@FUZZ
@given(data=st.data(), key=st.sampled_from(PRESETS))
def test_deal_form_and_preview_any_field(client, data, key):
    game_id = start(client, key)
    fields = deal_fields(client, f"{link(client, game_id)}/deals/new")
    before = state(client, game_id)
    form = data.draw(deal_form_data(fields, 2))
    # The preview never saves, whatever it is sent.
    preview = client.post(f"{link(client, game_id)}/deals/preview", data=form)
    no_server_error(preview)
    assert preview.status_code == 200
    assert state(client, game_id) == before
    answer = client.post(f"{link(client, game_id)}/deals/new", data=form)
    no_server_error(answer)
    after = state(client, game_id)
    if answer.status_code != 302:
        assert answer.status_code == 422
        assert after == before
        return
    assert len(after["deals"]) == 1
    totals_add_up(after)
    assert client.get(answer.location).status_code == 200


VERSION = st.one_of(st.sampled_from(["1", "2", "0", "", "-1", "٣", "²", "9" * 25]), TEXT)


@FUZZ
@given(data=st.data(), key=st.sampled_from(PRESETS), number=st.sampled_from([1, 1, 2]))
def test_correct_deal_form_and_its_preview_any_field(client, data, key, number):
    game_id = start(client, key)
    played = {"books": {"clean": 1}, "melded_points": 150}
    first = game_api(client, "POST", game_id, "/deals", json={"scores": [played, {}]})
    assert first.status_code == 201
    fields = deal_fields(client, f"{link(client, game_id)}/deals/1/edit")
    before = state(client, game_id)
    form = data.draw(deal_form_data(fields, 2))
    form["version"] = data.draw(VERSION, label="version")
    preview = client.post(f"{link(client, game_id)}/deals/1/preview", data=form)
    no_server_error(preview)
    assert state(client, game_id) == before
    answer = client.post(f"{link(client, game_id)}/deals/{number}/edit", data=form)
    no_server_error(answer)
    after = state(client, game_id)
    if answer.status_code != 302:
        assert answer.status_code in (404, 409, 422), answer.status_code
        assert after == before
        return
    totals_add_up(after)
