"""Issue 26: the work any request can cause is bounded before it is done.

An unsigned-in client once made a worker spend 30-42 s and 1.35 GB on one request (a side of
1,150,000 players, answered with 1,150,001 errors), and 12 s on 400,000 unknown keys of a
deal or a line. Here: each body has an allowance it is refused past (413, before it is read),
sides and players are counted before they are read, an answer lists at most
MAX_ERRORS_LISTED errors, a line names its deal, and a line's moment is never after now.
bench/worst_request.py measures what the worst requests left cost.

A line's deal and a line's moment are in test_request_bounds_lines.py.
"""

from __future__ import annotations

import io
import json

import pytest
from _api_support import assert_errors, game_key, post_deal, start, state
from test_api_parts import OUT, STAYED_IN, saved

from scorekeeper.plumbing import bodies
from scorekeeper.rules import PRESETS, DealEntry, DealRefused
from scorekeeper.rules.terms import (
    BOOK_KINDS,
    CARD_CATEGORIES,
    EXTRA_BONUSES,
    MAX_DEVICE_NAME,
    MAX_ERRORS_LISTED,
    MAX_NAME,
    MAX_PLAYERS_PER_SIDE,
    MAX_PLAYERS_TEXT,
    MAX_SIDES,
)
from scorekeeper.services import records_import
from scorekeeper.web.api import MAX_BRACKETS
from scorekeeper.web.forms import MAX_SIDES_ON_FORM

JSON = "application/json"

pytestmark = pytest.mark.usefixtures("quick_hashing")

# A name at its longest, each character one JSON writes as a \\ud83c\\udca1 pair (12 bytes).
LONGEST_NAME = "\U0001f0a1" * MAX_NAME
EVERY_FIGURE = {
    "books": dict.fromkeys(BOOK_KINDS, 1_000_000),
    "open_books": dict.fromkeys(BOOK_KINDS, 1_000_000),
    "bonuses": dict.fromkeys(EXTRA_BONUSES, 1_000_000),
    "red_threes_down": 1_000_000,
    "red_threes_caught": 1_000_000,
    "went_out": True,
    "melded_points": 1_000_000,
    "leftover_points": 1_000_000,
    "open_book_points": 1_000_000,
    "melded_cards": dict.fromkeys(CARD_CATEGORIES, 1_000_000),
    "leftover_cards": dict.fromkeys(CARD_CATEGORIES, 1_000_000),
}


def largest_bodies() -> dict[str, bytes]:
    """The largest body a client of the API sends for each call, as a generous client writes
    it (indented, every character escaped)."""
    rules = max((p.to_dict() for p in PRESETS.values()), key=lambda d: len(json.dumps(d)))
    side = {"name": LONGEST_NAME, "players": [LONGEST_NAME] * MAX_PLAYERS_PER_SIDE}
    shown = {
        "game": {
            "ruleset": "ten-thousand",
            "decks": 20,
            "club": "c" * 40,
            "saved_rules": 10**9 - 1,
            "rules": rules,
            "sides": [side] * MAX_SIDES,
        },
        "deal": {"scores": [EVERY_FIGURE] * MAX_SIDES, "deal": 10**9 - 1, "version": 2**31 - 1},
        "line": {
            "entry": EVERY_FIGURE,
            "deal": 10**9 - 1,
            "sent_by": "\U0001f0a1" * MAX_DEVICE_NAME,
            "entered_at": "2026-04-30T19:05:00.123456+05:30",
        },
    }
    return {what: json.dumps(body, indent=2).encode() for what, body in shown.items()}


def largest_form() -> str:
    """The new game form at its largest: every side named and its players listed at their
    longest in 4-byte characters, percent-encoded, and every house rule."""
    fields = {"ruleset": "ten-thousand", "decks": "20"}
    for index in range(MAX_SIDES_ON_FORM):
        fields[f"side{index}_name"] = "\U0001f0a1" * MAX_NAME
        fields[f"side{index}_players"] = "\U0001f0a1" * MAX_PLAYERS_TEXT
    rules = PRESETS["ten-thousand"].to_dict()
    fields.update({f"rule-{name}": str(value)[:40] for name, value in rules.items()})
    from urllib.parse import urlencode

    return urlencode(fields)


def api_paths(client) -> dict[str, tuple[str, str, dict[str, str]]]:
    """Each call of the API that reads a body: its method, its path and its headers."""
    game = start(client, "classic")
    assert post_deal(client, game, json={"scores": [OUT, STAYED_IN]}).status_code == 201
    base = f"/api/v1/games/{game['id']}"
    return {
        "game": ("POST", "/api/v1/games", {}),
        "deal": ("POST", f"{base}/deals", game_key(game)),
        "correction": ("PUT", f"{base}/deals/1", game_key(game)),
        "line": ("PUT", f"{base}/deals/next/parts/0", game_key(game)),
    }


# --------------------------------------------------------------------------- body allowances


def test_the_largest_bodies_a_client_sends_are_a_quarter_of_the_allowance_at_most():
    """The allowance is four times the largest legitimate body: no client ever meets it."""
    for what, body in largest_bodies().items():
        assert len(body) * 4 <= bodies.MAX_JSON_BODY, (what, len(body))
    assert len(largest_form()) * 4 <= bodies.MAX_FORM_BODY, len(largest_form())


@pytest.mark.parametrize("call", ["game", "deal", "correction", "line"])
def test_a_json_body_past_the_apis_allowance_is_413_naming_it(client, call):
    """Under the app's 6 MB but past the API's own allowance: refused before it is read."""
    method, path, headers = api_paths(client)[call]
    # A side of 60,000 players: before, the game's was read and answered with an error each.
    players = json.dumps({"sides": [{"name": "A", "players": ["ab"] * 60_000}, {"name": "B"}]})
    assert bodies.MAX_JSON_BODY < len(players) < 6 * 1024 * 1024
    answer = client.open(
        path, method=method, data=players, headers=headers, content_type="application/json"
    )
    errors = assert_errors(answer, 413)
    assert [(e["field"], e["inputs"]) for e in errors] == [("body", [])]
    assert f"over {bodies.MAX_JSON_BODY:,} bytes" in errors[0]["message"]
    assert saved(client)["parts"] == {}


def test_a_json_body_sent_without_a_length_is_refused_once_past_the_allowance(client):
    """Sent in chunks, with no Content-Length to judge it by: refused as it runs past."""
    method, path, headers = api_paths(client)["deal"]
    stream = io.BytesIO(b'{"scores": [' + b"{}," * 200_000 + b"{}]}")
    answer = client.open(
        path,
        method=method,
        input_stream=stream,
        headers={**headers, "Transfer-Encoding": "chunked", "Content-Type": "application/json"},
        # As gunicorn says of a chunked body: it ends where the client ends it.
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert_errors(answer, 413)
    assert state(client, {"id": 1, "key": headers["X-Game-Key"]})["deals_total"] == 1


def test_a_form_past_the_form_allowance_is_413_and_shown_as_a_page(client):
    """A page's form past its allowance (urlencoded forms have no part count to stop them)."""
    fields = "a&" * (bodies.MAX_FORM_BODY // 2 + 1)
    answer = client.post(
        "/games/new?ruleset=classic", data=fields, content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 413
    assert "far more than a score sheet needs" in answer.get_data(as_text=True)


def test_the_largest_new_game_form_is_read(client):
    answer = client.post(
        "/games/new?ruleset=ten-thousand",
        data=largest_form(),
        content_type="application/x-www-form-urlencoded",
    )
    # Read and judged (its names at their longest are refused by the form), not refused unread.
    assert answer.status_code == 422, answer.status_code


@pytest.fixture
def club(client) -> str:
    """A signed-in organiser's club; its slug."""
    signed_up = client.post("/signup", data={"username": "org", "password": "Kept-for-records-9"})
    assert signed_up.status_code == 302
    assert client.post("/clubs/new", data={"name": "Club", "slug": "club"}).status_code == 302
    return "club"


def test_the_records_upload_still_takes_a_file_larger_than_any_form(client, club):
    """The one route with the app's 6 MB: a CSV (here 1 MB of it) in a multipart form."""
    text = "not,a,records,file\n" + "x" * (1024 * 1024)
    upload = {"file": (io.BytesIO(text.encode()), "deals.csv")}
    answer = client.post(f"/clubs/{club}/import", data=upload, content_type="multipart/form-data")
    assert answer.status_code == 422  # read, and refused for what it holds, not its size
    assert "Nothing was imported" in answer.get_data(as_text=True)


def test_a_records_file_past_its_limit_is_told_in_words_not_413(client, club):
    """The body's limit is the file's and room for its form (`bodies.MAX_UPLOAD`): a file one
    byte over the import's limit reaches the import, which says the file is too large."""
    assert bodies.MAX_UPLOAD == bodies.MAX_RECORDS_FILE + bodies.UPLOAD_FORM_ROOM
    assert records_import.MAX_BYTES == bodies.MAX_RECORDS_FILE
    text = "x" * (bodies.MAX_RECORDS_FILE + 1)
    upload = {"file": (io.BytesIO(text.encode()), "deals.csv")}
    answer = client.post(f"/clubs/{club}/import", data=upload, content_type="multipart/form-data")
    assert answer.status_code == 422
    assert "The file is over 5 MB; split it into smaller files." in answer.get_data(as_text=True)


def test_the_records_upload_takes_only_a_multipart_form(client, club):
    """The same size urlencoded is no upload: the form's allowance holds."""
    fields = "a=" + "x" * (1024 * 1024)
    answer = client.post(
        f"/clubs/{club}/import", data=fields, content_type="application/x-www-form-urlencoded"
    )
    assert answer.status_code == 413


def test_the_openapi_document_gives_the_apis_own_allowance(client):
    document = client.get("/api/v1/openapi.json").get_json()
    answers = document["paths"]["/api/v1/games"]["post"]["responses"]
    assert f"{bodies.MAX_JSON_BODY:,} bytes" in answers["413"]["description"]


def test_a_body_of_too_many_lists_is_400_before_it_is_parsed(client):
    """Within the allowance, 80,000 empty lists once cost 0.3-0.6 s to parse and walk."""
    method, path, headers = api_paths(client)["deal"]
    body = '{"scores": [' + ",".join(["[]"] * 80_000) + "]}"
    assert len(body) < bodies.MAX_JSON_BODY
    answer = client.open(path, method=method, data=body, headers=headers, content_type=JSON)
    errors = assert_errors(answer, 400)
    assert [(e["field"], e["inputs"]) for e in errors] == [("body", [])]
    assert errors[0]["message"].startswith(f"The body holds more than {MAX_BRACKETS:,} [ and {{")


def test_the_largest_game_is_read_even_with_every_name_of_brackets(client):
    sides = [{"name": "[" * MAX_NAME, "players": ["{" * MAX_NAME] * MAX_PLAYERS_PER_SIDE}]
    body = json.dumps({"ruleset": "classic", "sides": sides * MAX_SIDES})
    assert body.count("[") + body.count("{") <= MAX_BRACKETS
    answer = client.post("/api/v1/games", data=body, content_type=JSON)
    assert answer.status_code == 422  # read: refused for its names, not its brackets
    assert "more than" not in answer.get_json()["errors"][0]["message"]


# --------------------------------------------------------------------------- sides and players


def test_more_sides_than_a_game_holds_are_one_refusal_none_read(client):
    # Before: 5,000 errors, one for each side without a name.
    answer = client.post("/api/v1/games", json={"ruleset": "classic", "sides": [{}] * 5_000})
    errors = assert_errors(answer)
    assert [(e["message"], e["inputs"][0]["pointer"]) for e in errors] == [
        (f"A game has at most {MAX_SIDES} sides, not 5,000.", "/sides")
    ]


def test_more_players_than_a_side_holds_are_one_refusal_for_that_side(client):
    # Before: the same player 20,000 times was 20,000 errors (cannot play on two sides).
    sides = [{"name": "A", "players": ["Ann"] * 20_000}, {"name": "B", "players": ["Bob"] * 7}]
    answer = client.post("/api/v1/games", json={"ruleset": "classic", "sides": sides})
    errors = assert_errors(answer)
    assert [(e["side"], e["inputs"][0]["pointer"]) for e in errors] == [
        (0, "/sides/0/players"),
        (1, "/sides/1/players"),
    ]
    assert (
        errors[0]["message"]
        == f"Side 1 has 20,000 players: a side has 1 to {MAX_PLAYERS_PER_SIDE}."
    )


def test_more_scores_than_the_game_has_sides_are_one_refusal_none_read(client):
    game = start(client, "classic")
    answer = post_deal(client, game, json={"scores": [{"nope": 1}] * 5_000})
    errors = assert_errors(answer)
    assert [(e["message"], e["inputs"][0]["pointer"]) for e in errors] == [
        ("Enter one score for each of the 2 sides, not 5,000.", "/scores")
    ]


# --------------------------------------------------------------------------- errors listed


def test_the_engine_counts_unknown_keys_past_the_cap_rather_than_word_each():
    keys = {f"key{n}": 1 for n in range(5_000)}
    with pytest.raises(DealRefused) as refused:
        DealEntry.from_dict({**keys, "books": {f"kind{n}": 1 for n in range(300)}}, 0)
    listed = refused.value.refusals
    # As many as an answer lists, the last of them saying how many more.
    assert len(listed) == MAX_ERRORS_LISTED
    assert listed[0].message == "'key0' is not a figure of a deal entry."
    left = 5_000 + 300 - (MAX_ERRORS_LISTED - 1)
    assert (
        listed[-1].message
        == f"{left:,} more of its figures are refused too (not listed one by one)."
    )
    assert listed[-1].figures == ()


@pytest.mark.parametrize("call", ["deal", "correction", "line"])
def test_an_answer_lists_at_most_the_cap_and_counts_the_rest(client, call):
    """Before: 8,000 unknown keys were 8,000 errors (400,000 made a 62 MB answer)."""
    method, path, headers = api_paths(client)[call]
    many = {f"k{n}": 0 for n in range(8_000)}
    body = {"entry": many, "deal": 2} if call == "line" else {"scores": [many, many]}
    answer = client.open(path, method=method, json=body, headers=headers)
    errors = assert_errors(answer)
    assert len(errors) == MAX_ERRORS_LISTED
    assert errors[0]["inputs"][0]["pointer"] == ("/entry/k0" if call == "line" else "/scores/0/k0")
    # Each entry's last refusal listed counts the rest of its keys.
    assert errors[-1]["message"].endswith(
        "7,901 more of its figures are refused too (not listed one by one)."
    )
    if call == "line":
        assert "errors_left_out" not in answer.get_json()
    else:
        # The second entry's refusals are past the cap: counted, not listed.
        assert answer.get_json()["errors_left_out"] == MAX_ERRORS_LISTED
    assert len(answer.data) < 20_000


def test_more_house_rules_than_a_club_can_change_are_one_refusal_none_read(client):
    # Before: 3,000 errors, one for each rule no club can change.
    rules = {f"rule{n}": 1 for n in range(3_000)}
    answer = client.post(
        "/api/v1/games",
        json={"ruleset": "classic", "sides": [{"name": "A"}, {"name": "B"}], "rules": rules},
    )
    errors = assert_errors(answer)
    assert [(e["field"], e["inputs"][0]["pointer"]) for e in errors] == [("rules", "/rules")]
    assert errors[0]["message"].endswith("not 3,000.")


def test_a_house_rule_refused_many_times_lists_at_most_the_cap(client):
    # Before: one error for each of 3,000 card kinds that are not cards.
    rules = {"card_values": {f"kind{n}": 5 for n in range(3_000)}}
    answer = client.post(
        "/api/v1/games",
        json={"ruleset": "classic", "sides": [{"name": "A"}, {"name": "B"}], "rules": rules},
    )
    errors = assert_errors(answer)
    assert len(errors) == MAX_ERRORS_LISTED
    left = 3_000 - (MAX_ERRORS_LISTED - 1)
    assert errors[-1]["message"] == f"{left:,} more house rules are refused too (not listed)."
    assert "errors_left_out" not in answer.get_json()


def test_a_few_errors_are_all_listed_with_nothing_left_out(client):
    game = start(client, "classic")
    answer = post_deal(client, game, json={"scores": [{"nope": 1}, {"books": {"odd": 1}}]})
    assert len(assert_errors(answer)) == 2
    assert "errors_left_out" not in answer.get_json()
