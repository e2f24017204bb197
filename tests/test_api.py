"""The JSON API v1 contract: rule sets, bodies that are not JSON, unknown games, OpenAPI.

Games, deals, corrections and where refusals point have files of their own beside this one
(test_api_games.py, test_api_deals.py, test_api_corrections.py, test_api_pointers.py); their
helpers are in _api_support.py. Expected figures are worked out by hand from
/work/shared/rules/VARIANTS.md, in comments. A refused request must leave what is saved
exactly as it was: each refusal test reads the game before and after and compares.
"""

from __future__ import annotations

import re

import pytest
from _api_support import (
    assert_errors,
    deal,
    game_key,
    games_saved,
    post_deal,
    put_deal,
    start,
    state,
)

PRESET_KEYS = {"classic", "club", "family", "casual", "ten-thousand", "cutthroat"}


# ------------------------------------------------------------------------- rule sets


def test_rulesets_lists_the_six_presets(client):
    """Each preset by key, with a name."""
    answer = client.get("/api/v1/rulesets")
    assert answer.status_code == 200
    listed = answer.get_json()
    assert {r["key"] for r in listed} == PRESET_KEYS
    assert len(listed) == 6
    assert all(isinstance(r["name"], str) and r["name"] for r in listed)


# The numbers of the rule table, preset by preset.
PRESET_NUMBERS = {
    "classic": {
        "book_bonuses": {"clean": 500, "dirty": 300, "wild": 1500},
        "red_three_down": 100,
        "red_three_caught": 100,
        "going_out_bonus": 100,
        "books_to_go_out": {"clean": 2, "dirty": 2, "wild": 1},
        "max_wilds_in_dirty_book": 2,
        "hand_size": 13,
        "end_after_deals": 4,
        "minimums": [50, 90, 120, 150],
    },
    "club": {
        "book_bonuses": {"clean": 500, "dirty": 300},
        "red_three_down": 100,
        "red_three_caught": 500,
        "going_out_bonus": 100,
        "books_to_go_out": {"clean": 2, "dirty": 2},
        "max_wilds_in_dirty_book": 3,
        "hand_size": 11,
        "end_after_deals": 4,
        "minimums": [50, 90, 120, 150],
    },
    "family": {
        "book_bonuses": {"clean": 500, "dirty": 300, "clean_sevens": 1500},
        "red_three_down": None,
        "red_three_caught": 500,
        "going_out_bonus": 0,
        "books_to_go_out": {"clean": 1, "dirty": 2},
        "max_wilds_in_dirty_book": 3,
        "hand_size": 11,
        "end_after_deals": 4,
        "minimums": [60, 90, 120, 150],
    },
    "casual": {
        "book_bonuses": {"clean": 500, "dirty": 300, "wild": 300},
        "red_three_down": None,
        "red_three_caught": 500,
        "going_out_bonus": 100,
        "books_to_go_out": {"clean": 2, "dirty": 2},
        "max_wilds_in_dirty_book": 3,
        "hand_size": 11,
        "end_after_deals": 4,
        "extra_bonuses": {"exact_22": 100},
        "minimums": [50, 90, 120, 150],
    },
    "ten-thousand": {
        "book_bonuses": {"clean": 500, "dirty": 300, "wild": 1500},
        "red_three_down": 100,
        "red_three_caught": 300,
        "going_out_bonus": 100,
        "books_to_go_out": {"clean": 3, "dirty": 1, "wild": 1},
        "max_wilds_in_dirty_book": 3,
        "hand_size": 13,
        "target_score": 10000,
        "minimums": [50, 90, 120, 150],
        "bands": [0, 1500, 3000, 5000],
    },
    "cutthroat": {
        "book_bonuses": {"clean": 500, "dirty": 300, "wild": 1500, "black_threes": 500},
        "red_three_down": 100,
        "red_three_caught": 300,
        "going_out_bonus": 100,
        "books_to_go_out": {"clean": 3, "dirty": 1, "wild": 1},
        "max_wilds_in_dirty_book": 3,
        "hand_size": 13,
        "target_score": 10000,
        "minimums": [50, 90, 120, 150],
        "bands": [0, 1500, 3000, 5000],
    },
}


@pytest.mark.parametrize("key", sorted(PRESET_NUMBERS))
def test_ruleset_has_the_rule_table_numbers(client, key):
    """Full parameters of one preset match VARIANTS.md."""
    answer = client.get(f"/api/v1/rulesets/{key}")
    assert answer.status_code == 200
    rules = answer.get_json()
    expected = PRESET_NUMBERS[key]
    assert rules["key"] == key
    assert rules["name"]
    for name in (
        "book_bonuses",
        "red_three_down",
        "red_three_caught",
        "going_out_bonus",
        "max_wilds_in_dirty_book",
        "hand_size",
    ):
        assert rules[name] == expected[name], name
    assert rules["foot_size"] == expected["hand_size"]
    needed = {kind: n for kind, n in rules["books_to_go_out"].items() if n}
    assert needed == expected["books_to_go_out"]
    assert {k: v for k, v in (rules.get("extra_bonuses") or {}).items() if v} == expected.get(
        "extra_bonuses", {}
    )
    assert [minimum for _, minimum in rules["opening_minimums"]] == expected["minimums"]
    if "bands" in expected:
        assert [start for start, _ in rules["opening_minimums"]] == expected["bands"]
        assert rules["target_score"] == expected["target_score"]
    else:
        assert rules["end_after_deals"] == expected["end_after_deals"]
    assert rules["card_values"] == {
        "joker": 50,
        "two": 20,
        "ace": 20,
        "eight_to_king": 10,
        "four_to_seven": 5,
        "black_three": 5,
    }


def test_unknown_ruleset_is_404(client):
    answer = client.get("/api/v1/rulesets/poker")
    assert answer.status_code == 404
    assert answer.get_json()["errors"]


# ------------------------------------------------------------------------- non-JSON, 404


def test_non_json_bodies_are_415(client):
    """Form posts and plain text are refused before anything else; nothing is saved."""
    answer = client.post("/api/v1/games", data={"ruleset": "club"})
    assert answer.status_code == 415
    assert answer.get_json()["errors"]
    answer = client.post(
        "/api/v1/games",
        data='{"ruleset": "club", "sides": [{"name": "A"}, {"name": "B"}]}',
        content_type="text/plain",
    )
    assert answer.status_code == 415
    assert games_saved(client) == 0

    game = start(client, "club")
    deal(client, game, {"books": {"clean": 1}}, {})
    before = state(client, game)
    answer = post_deal(client, game, data={"scores": "x"})
    assert answer.status_code == 415
    answer = put_deal(client, game, 1, data='{"scores": [{}, {}]}', content_type="text/plain")
    assert answer.status_code == 415
    assert state(client, game) == before


def test_unreadable_json_is_refused(client):
    """JSON that does not parse, or is not an object, is a client error; nothing saved."""
    for data in ("{not json", "[1, 2]", "null"):
        answer = client.post("/api/v1/games", data=data, content_type="application/json")
        assert answer.status_code == 400, data
    assert games_saved(client) == 0


def test_unknown_game_and_deal_are_404(client):
    """Unknown games and deal numbers answer 404 in JSON; so does a game asked without its key."""
    one = {"scores": [{}, {}]}
    # A well-formed key, so that the 404 is for the game, not for a key no game could have.
    guess = {"X-Game-Key": "A" * 22}
    assert client.get("/api/v1/games/999", headers=guess).status_code == 404
    assert client.get("/api/v1/games/999", headers=guess).get_json()["errors"]
    assert client.get("/api/v1/games/" + "9" * 40, headers=guess).status_code == 404
    assert client.post("/api/v1/games/999/deals", json=one, headers=guess).status_code == 404
    assert client.put("/api/v1/games/999/deals/1", json=one, headers=guess).status_code == 404
    game = start(client, "club")
    # A real game's key opens only that game; the game itself opens only with it.
    unknown = {**game, "id": 999}
    assert client.get("/api/v1/games/999", headers=game_key(game)).status_code == 404
    assert post_deal(client, unknown, json=one).status_code == 404
    assert put_deal(client, unknown, 1, json=one).status_code == 404
    for headers in ({}, guess, {"X-Game-Key": game["key"].swapcase()}):
        answer = client.get(f"/api/v1/games/{game['id']}", headers=headers)
        assert answer.status_code == 404, headers
        assert answer.get_json()["errors"]
        answer = client.post(f"/api/v1/games/{game['id']}/deals", json=one, headers=headers)
        assert answer.status_code == 404, headers
    assert state(client, game)["deals"] == []
    assert put_deal(client, game, 1, json=one).status_code == 404
    deal(client, game, {}, {})
    for number in (0, 2):
        answer = put_deal(client, game, number, json=one)
        assert answer.status_code == 404, number
    assert len(state(client, game)["deals"]) == 1


# ------------------------------------------------------------------------- errors about no figure


def test_errors_about_no_figure_of_the_body_have_no_inputs(client):
    """A header, the query, a missing game, a body that is not JSON: inputs []."""
    game = start(client, "club")
    path = f"/api/v1/games/{game['id']}/deals"
    headers = {**game_key(game), "Idempotency-Key": "k-1"}
    assert client.post(path, json={"scores": [{}, {}]}, headers=headers).status_code == 201
    reused = client.post(path, json={"scores": [{"books": {"clean": 1}}, {}]}, headers=headers)
    answers = [
        (reused, 422),
        (client.get(f"/api/v1/games/{game['id']}?deals_from=x", headers=game_key(game)), 422),
        (client.get("/api/v1/games/999", headers=game_key(game)), 404),
        (client.get("/api/v1/games/not-a-number"), 404),
        (client.get("/api/v1/rulesets/poker"), 404),
        (post_deal(client, game, data="{}", content_type="text/plain"), 415),
        (post_deal(client, game, data="[" * 40 + "]" * 40, content_type="application/json"), 400),
    ]
    for answer, status in answers:
        assert [e["inputs"] for e in assert_errors(answer, status)] == [[]], answer.get_json()


# ------------------------------------------------------------------------- OpenAPI


def test_openapi_document_lists_every_path(client):
    """An OpenAPI 3.1 document covering each route of the API with its method."""
    answer = client.get("/api/v1/openapi.json")
    assert answer.status_code == 200
    document = answer.get_json()
    assert document["openapi"].startswith("3.1")
    assert document["info"]["title"]
    listed = {
        (re.sub(r"\{[^}]+\}", "{}", path), method.lower())
        for path, item in document["paths"].items()
        for method in item
        if method.lower() in {"get", "post", "put", "patch", "delete"}
    }
    assert listed >= {
        ("/api/v1/rulesets", "get"),
        ("/api/v1/rulesets/{}", "get"),
        ("/api/v1/games", "post"),
        ("/api/v1/games/{}", "get"),
        ("/api/v1/games/{}/deals", "post"),
        ("/api/v1/games/{}/deals/{}", "put"),
    }
    deals = document["paths"]
    deal_post = next(v for k, v in deals.items() if k.endswith("/deals"))["post"]
    assert {"201", "409", "422"} <= set(deal_post["responses"])
