"""Every field of the JSON API v1 fuzzed with Hypothesis: junk gets a 4xx, never a 5xx.

The properties checked, and the strategies: _fuzz_support.py.
"""

from __future__ import annotations

import itertools
from typing import Any
from urllib.parse import quote

from _fuzz_support import (
    FIGURES,
    FUZZ,
    HONEST_ENTRY,
    IMG,
    JUNK,
    LOOKED_UP_JUNK,
    NAME,
    PLAIN_NAME,
    PRESETS,
    SCRIPT,
    TEXT,
    _corrections_unbounded,  # noqa: F401 (autouse: every test here)
    assert_shown_escaped,
    game_api,
    house_rules,
    no_server_error,
    or_junk,
    row_counts,
    scores_for,
    sides_for,
    start,
    state,
    totals_add_up,
)
from game_links import key as game_key
from game_links import link, secret_of
from hypothesis import assume, given
from hypothesis import strategies as st

from scorekeeper import rules as engine
from scorekeeper.rules.entry import ENTRY_FIELDS
from scorekeeper.services.names import squeezed

# ------------------------------------------------------------------------------ JSON API


def test_every_entry_figure_is_fuzzed():
    """A figure added to deal entries gets a strategy here too."""
    assert set(FIGURES) == set(ENTRY_FIELDS)


SIDE = st.one_of(
    st.fixed_dictionaries(
        {"name": or_junk(TEXT)},
        optional={"players": or_junk(st.lists(or_junk(TEXT), max_size=4))},
    ),
    JUNK,
)
# Names a person could type, the awkward ones first: most are accepted, and must show escaped.
TYPED = [SCRIPT, IMG, "'; DROP TABLE game; --", "\u200b", "a\u200bb", "\u202eevil", "🃏🂡"]
TYPED += ["👨‍👩‍👧", "Zoë & Ann", "名前", "Ǆemal", "  padded  ", "%s%n{0}", "O'Brien", "x" * 60]
GOOD_NAME = st.one_of(st.sampled_from(TYPED), PLAIN_NAME, NAME)


@st.composite
def plausible_new_game(draw) -> dict[str, Any]:
    """A body a client could well send: a rule set, two or three named sides, maybe decks."""
    key = draw(st.sampled_from(PRESETS))
    most = min(engine.PRESETS[key].max_sides or 3, 3)
    names = draw(st.lists(GOOD_NAME, min_size=2, max_size=most, unique_by=str.casefold))
    seats = 1 if engine.PRESETS[key].individuals else 3
    sides = [
        {"name": name, "players": draw(st.lists(GOOD_NAME, max_size=seats))}
        if draw(st.booleans())
        else {"name": name}
        for name in names
    ]
    body = {"ruleset": key, "sides": sides}
    if draw(st.booleans()):
        body["decks"] = draw(st.integers(1, 20) | JUNK)
    if draw(st.integers(0, 3)) == 0:
        field = draw(st.sampled_from(["rules", "club", "extra"]))
        body[field] = draw(st.none() | (LOOKED_UP_JUNK if field == "club" else JUNK))
    return body


NEW_GAME = st.one_of(
    plausible_new_game(),
    plausible_new_game(),
    st.fixed_dictionaries(
        {},
        optional={
            "ruleset": or_junk(st.sampled_from(PRESETS)),
            "sides": st.lists(SIDE, max_size=5) | JUNK,
            "decks": or_junk(st.integers(-2, 25)),
            "rules": JUNK,
            "club": LOOKED_UP_JUNK,
            "extra": JUNK,
        },
    ),
)


@FUZZ
@given(body=NEW_GAME)
def test_api_new_game_any_field(app, client, body):
    before = row_counts(app)
    answer = client.post("/api/v1/games", json=body)
    no_server_error(answer)
    if answer.status_code != 201:
        assert answer.status_code in (400, 404, 422), answer.status_code
        assert answer.get_json()["errors"]
        assert row_counts(app) == before
        return
    game = answer.get_json()
    # Told once, to whoever started the game: its secret, and the link that holds it.
    secret = game.pop("key")
    assert game.pop("link").endswith(f"/t/{secret}")
    assert game["url"] == f"/t/{secret}" == link(client, game["id"])
    assert game == state(client, game["id"])
    names = []
    for sent, kept in zip(body["sides"], game["sides"], strict=True):
        players = [squeezed(p) for p in sent.get("players", [])] or [squeezed(sent["name"])]
        assert kept["name"] == squeezed(sent["name"])
        assert kept["players"] == players
        names += [kept["name"], *players]
    assert_shown_escaped(client.get(game["url"]).get_data(as_text=True), *names)


@FUZZ
@given(
    key=st.sampled_from(PRESETS),
    names=st.lists(GOOD_NAME, min_size=2, max_size=3),
    players=st.lists(st.lists(GOOD_NAME, max_size=3), min_size=3, max_size=3),
)
def test_api_names_come_back_exactly_and_escaped(client, key, names, players):
    """Side and player names of any kind: kept as sent (spaces squeezed), shown escaped."""
    sides = [{"name": name, "players": players[i]} for i, name in enumerate(names)]
    answer = client.post("/api/v1/games", json={"ruleset": key, "sides": sides})
    no_server_error(answer)
    if answer.status_code != 201:
        assert answer.status_code == 422
        return
    game = answer.get_json()
    shown = []
    for sent, kept in zip(sides, game["sides"], strict=True):
        assert kept["name"] == squeezed(sent["name"])
        assert kept["players"] == ([squeezed(p) for p in sent["players"]] or [kept["name"]])
        shown += [kept["name"], *kept["players"]]
    assert_shown_escaped(client.get(game["url"]).get_data(as_text=True), *shown)


@FUZZ
@given(data=st.data(), key=st.sampled_from(PRESETS))
def test_api_house_rules_any_value(app, client, data, key):
    rules = data.draw(house_rules(key))
    before = row_counts(app)
    body = {"ruleset": key, "sides": sides_for(key), "rules": rules}
    answer = client.post("/api/v1/games", json=body)
    no_server_error(answer)
    if answer.status_code != 201:
        assert answer.status_code == 422
        assert row_counts(app) == before
        return
    game = answer.get_json()
    assert game["house_rules"] == rules
    # A game under any accepted house rules can be shown, read and played.
    game_id = game["id"]
    for path in ("", "/rules", "/deals/new"):
        assert client.get(f"{link(client, game_id)}{path}").status_code == 200
    no_server_error(client.post(f"{link(client, game_id)}/deals/preview", data={}))
    played = game_api(client, "POST", game_id, "/deals", json={"scores": [{}, {}]})
    no_server_error(played)
    assert client.get(link(client, game_id)).status_code == 200


@FUZZ
@given(data=st.data(), key=st.sampled_from(PRESETS), sides=st.sampled_from([2, 3]))
def test_api_deal_any_entry(app, client, data, key, sides):
    rules = engine.PRESETS[key]
    if sides > (rules.max_sides or sides):
        sides = rules.max_sides
    game_id = start(client, key, sides)
    before = state(client, game_id)
    body = data.draw(
        or_junk(st.fixed_dictionaries({"scores": scores_for(sides)}, optional={"version": JUNK})),
        label="body",
    )
    key_header = data.draw(st.none() | st.from_regex(r"[ -~]{0,70}", fullmatch=True))
    headers = {} if key_header is None else {"Idempotency-Key": key_header}
    answer = game_api(client, "POST", game_id, "/deals", json=body, headers=headers)
    no_server_error(answer)
    after = state(client, game_id)
    if answer.status_code != 201:
        assert answer.status_code in (400, 409, 415, 422), answer.status_code
        assert answer.get_json()["errors"]
        assert after == before
        return
    assert answer.get_json() == after
    assert len(after["deals"]) == 1
    totals_add_up(after)
    # What was saved, sent back as a correction of the same version, changes nothing.
    deal = after["deals"][0]
    resent = {"scores": [s["entry"] for s in deal["scores"]], "version": deal["version"]}
    again = game_api(client, "PUT", game_id, "/deals/1", json=resent)
    assert again.status_code == 200, again.get_json()
    assert state(client, game_id) == after
    assert client.get(link(client, game_id)).status_code == 200


@FUZZ
@given(
    data=st.data(),
    key=st.sampled_from(PRESETS),
    number=st.sampled_from([1, 1, 1, 1, 2, 2, 0, 3, 2**63, 10**25]),
)
def test_api_correct_deal_any_entry(client, data, key, number):
    game_id = start(client, key)
    played = {"books": {"clean": 1}, "melded_points": 150}
    first = game_api(client, "POST", game_id, "/deals", json={"scores": [played, {}]})
    assert first.status_code == 201, first.get_json()
    game_api(client, "POST", game_id, "/deals", json={"scores": [{}, played]})
    before = state(client, game_id)
    honest = st.fixed_dictionaries(
        {"scores": st.lists(HONEST_ENTRY, min_size=2, max_size=2)},
        optional={"version": st.integers(0, 3)},
    )
    any_figures = st.fixed_dictionaries(
        {"scores": scores_for(2)},
        optional={"version": or_junk(st.integers(0, 3))},
    )
    body = data.draw(st.one_of(honest, honest, any_figures, JUNK), label="body")
    answer = game_api(client, "PUT", game_id, f"/deals/{number}", json=body)
    no_server_error(answer)
    after = state(client, game_id)
    if answer.status_code != 200:
        assert answer.status_code in (400, 404, 409, 415, 422), answer.status_code
        assert after == before
        return
    assert answer.get_json() == after
    assert len(after["deals"]) == len(before["deals"])
    totals_add_up(after)


RAW_BODIES = [b"", b"null", b"[]", b"[{}]", b"7", b'"text"', b"NaN", b"{", b"\xff\xfe", b"{}"]
RAW_BODIES += [b'{"scores": NaN}', b'{"scores": [Infinity, -Infinity]}', b'{"sides": 1e999}']


@FUZZ
@given(
    raw=st.sampled_from(RAW_BODIES) | st.binary(max_size=40),
    content_type=st.sampled_from(
        ["application/json", "text/plain", "application/json; charset=latin-1", None]
    ),
    target=st.sampled_from(["POST /api/v1/games", "POST deals", "PUT deals/1"]),
)
def test_api_bodies_that_are_not_json_objects(app, client, raw, content_type, target):
    game_id = start(client, "classic")
    game_api(client, "POST", game_id, "/deals", json={"scores": [{}, {}]})
    before, rows = state(client, game_id), row_counts(app)
    method, path = {
        "POST /api/v1/games": ("POST", "/api/v1/games"),
        "POST deals": ("POST", f"/api/v1/games/{game_id}/deals"),
        "PUT deals/1": ("PUT", f"/api/v1/games/{game_id}/deals/1"),
    }[target]
    headers = {} if target == "POST /api/v1/games" else game_key(client, game_id)
    answer = client.open(path, method=method, data=raw, content_type=content_type, headers=headers)
    no_server_error(answer)
    if target != "POST /api/v1/games":
        assert answer.status_code != 404  # the game is found: only its body may be refused
    if answer.status_code >= 400:
        assert answer.is_json and answer.get_json()["errors"]
        assert state(client, game_id) == before and row_counts(app) == rows


# Each example guesses from an address of its own: 20 misses from one address within 10 minutes
# are refused (429) before the next guess is even looked up (scorekeeper/services/links.py).
GUESSERS = itertools.count()
GUESS = st.one_of(TEXT, st.from_regex(r"[A-Za-z0-9_-]{22}", fullmatch=True))


@FUZZ
@given(
    link_guess=GUESS,
    key_guess=st.one_of(st.from_regex(r"[ -~]{0,70}", fullmatch=True), GUESS.filter(str.isascii)),
    path=st.sampled_from(["", "/rules", "/deals/new", "/deals/1/edit", "/live"]),
)
def test_a_wrong_link_or_game_key_finds_nothing(app, client, link_guess, key_guess, path):
    """Any link but the game's, any X-Game-Key but its secret: a 404 that tells nothing."""
    game_id = start(client, "classic")
    secret = secret_of(app, game_id)
    assume(secret not in (link_guess, key_guess.strip()))
    phone = app.test_client()
    phone.environ_base["REMOTE_ADDR"] = f"198.51.100.{next(GUESSERS) % 250}"
    page = phone.get(f"/t/{quote(link_guess, safe='')}{path}")
    no_server_error(page)
    assert page.status_code == 404, page.status_code
    api = phone.get(f"/api/v1/games/{game_id}", headers={"X-Game-Key": key_guess})
    no_server_error(api)
    assert api.status_code == 404, api.status_code
    for answer in (page, api):
        shown = answer.get_data(as_text=True)
        assert secret not in shown and "A0" not in shown and "T0" not in shown
