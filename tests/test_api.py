"""The JSON API v1 contract: rule sets, games, deals, corrections and every refusal.

Expected figures are worked out by hand from /work/shared/rules/VARIANTS.md, in comments.
A refused request must leave what is saved exactly as it was: each refusal test reads the
game before and after and compares.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game

PRESET_KEYS = {"classic", "club", "family", "casual", "ten-thousand", "cutthroat"}


def two_teams(first: str = "Ann & Bob", second: str = "Cat & Dan") -> list[dict[str, Any]]:
    """Two sides of two players each."""
    a, b = first.split(" & ")
    c, d = second.split(" & ")
    return [{"name": first, "players": [a, b]}, {"name": second, "players": [c, d]}]


INDIVIDUALS = [{"name": "Ann", "players": ["Ann"]}, {"name": "Cat", "players": ["Cat"]}]


def start(client, ruleset: str, sides=None, **more: Any) -> dict[str, Any]:
    """A new game's state with its key (asserting it was created); club sides are single players."""
    if sides is None:
        sides = INDIVIDUALS if ruleset == "club" else two_teams()
    answer = client.post("/api/v1/games", json={"ruleset": ruleset, "sides": sides, **more})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def game_key(game: dict[str, Any]) -> dict[str, str]:
    """The header every request about the game sends: the key its creation answered with."""
    return {"X-Game-Key": game["key"]}


def post_deal(client, game: dict[str, Any], **request: Any):
    """The answer to entering a deal (request as for the test client: json=, data=, ...)."""
    return client.post(f"/api/v1/games/{game['id']}/deals", headers=game_key(game), **request)


def put_deal(client, game: dict[str, Any], number: int, **request: Any):
    """The answer to correcting deal `number`."""
    return client.put(
        f"/api/v1/games/{game['id']}/deals/{number}", headers=game_key(game), **request
    )


def deal(client, game: dict[str, Any], *scores: dict[str, Any]) -> dict[str, Any]:
    """The state after entering a deal (asserting it was saved)."""
    answer = post_deal(client, game, json={"scores": list(scores)})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def state(client, game: dict[str, Any]) -> dict[str, Any]:
    """The game as saved."""
    answer = client.get(f"/api/v1/games/{game['id']}", headers=game_key(game))
    assert answer.status_code == 200
    return answer.get_json()


def games_saved(client) -> int:
    """How many games the database holds (a game nobody was told the key of is no 404 away)."""
    with client.application.app_context():
        return db.session.scalar(select(func.count()).select_from(Game))


def totals(game: dict[str, Any]) -> list[int]:
    """Each side's running total."""
    return [side["total"] for side in game["sides"]]


def minimums(game: dict[str, Any]) -> list[int]:
    """What each side needs to open next."""
    return [side["opening_minimum"] for side in game["sides"]]


def assert_errors(answer, status: int = 422) -> list[dict[str, Any]]:
    """The refusal's errors, each naming a side, a field and a message."""
    assert answer.status_code == status, answer.get_json()
    errors = answer.get_json()["errors"]
    assert errors, "a refusal must say why"
    for error in errors:
        assert set(error) >= {"side", "field", "message", "inputs"}
        assert error["message"]
        for named in error["inputs"]:
            assert set(named) == {"side", "field", "pointer"}
            assert named["pointer"].startswith("/"), named
    return errors


def pointers(error: dict[str, Any]) -> list[str]:
    """Where in the request body the error's figures are (JSON pointers)."""
    return [named["pointer"] for named in error["inputs"]]


def find(errors: list[dict[str, Any]], side: int | None, field: str) -> dict[str, Any]:
    """The error about this side's field (failing with the list when absent)."""
    for error in errors:
        if error["side"] == side and error["field"] == field:
            return error
    raise AssertionError(f"no error for side {side}, field {field!r}: {errors}")


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


# ------------------------------------------------------------------------- games


def test_create_game_answers_201_with_its_state(client):
    """The new game as the contract shapes it, and the same on a later GET."""
    answer = client.post(
        "/api/v1/games",
        json={"ruleset": "classic", "sides": two_teams(), "decks": 4},
    )
    assert answer.status_code == 201
    created = answer.get_json()
    game_id = created["id"]
    assert isinstance(game_id, int)
    # The secret, told once: the game's path is its private link, and `link` is that in full.
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", created["key"])
    assert created["url"] == f"/t/{created['key']}"
    assert re.fullmatch(r"https?://[^/]+(/.*)?", created["link"])
    assert created["link"].endswith(created["url"])
    assert created["ruleset"] == "classic"
    assert created["decks"] == 4
    assert created["finished"] is False
    assert created["winners"] == []
    assert created["deals"] == []
    # The minimum for the next deal, under its own name and under v1's first one.
    assert created["sides"] == [
        {
            "name": "Ann & Bob",
            "players": ["Ann", "Bob"],
            "total": 0,
            "next_opening_minimum": 50,
            "opening_minimum": 50,
        },
        {
            "name": "Cat & Dan",
            "players": ["Cat", "Dan"],
            "total": 0,
            "next_opening_minimum": 50,
            "opening_minimum": 50,
        },
    ]
    # The rules in force: the preset as it is, with no house rules.
    assert created["house_rules"] == {}
    assert created["rules"] == client.get("/api/v1/rulesets/classic").get_json()
    assert answer.headers["Location"].endswith(f"/api/v1/games/{game_id}")
    # A later GET shows the same state, without the secret (the one asking already has it).
    saved = state(client, created)
    assert saved == {k: v for k, v in created.items() if k not in {"key", "link"}}


@pytest.mark.parametrize(
    ("ruleset", "players", "decks"),
    [
        ("classic", [2, 2], 5),  # players + 1 = 4 + 1
        ("classic", [2, 2, 2], 7),  # 6 + 1
        ("club", [1, 1, 1], 4),  # players + 1
        ("family", [2, 2], 4),  # 4 up to 4 players
        ("family", [1, 1, 1, 1, 1], 5),  # 5 above
        ("casual", [1, 1], 5),  # 5 up to 4 players
        ("casual", [3, 3], 6),  # 6 above
        ("ten-thousand", [2, 2], 3),  # players − 1, at least 3
        ("ten-thousand", [3, 3], 5),  # 6 − 1
        ("cutthroat", [1, 1], 3),  # 2 − 1 = 1, but at least 3
    ],
)
def test_default_decks(client, ruleset, players, decks):
    """Decks left out take the preset's default for the table's players."""
    sides = [
        {"name": f"Side {i}", "players": [f"P{i}.{j}" for j in range(n)]}
        for i, n in enumerate(players)
    ]
    assert start(client, ruleset, sides)["decks"] == decks


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"ruleset": "club", "sides": [{"name": "Ann"}]}, "sides", id="one-side"),
        pytest.param({"ruleset": "club", "sides": []}, "sides", id="no-sides"),
        pytest.param({"ruleset": "club"}, "sides", id="sides-missing"),
        pytest.param({"ruleset": "poker", "sides": two_teams()}, "ruleset", id="unknown-ruleset"),
        pytest.param({"sides": two_teams()}, "ruleset", id="ruleset-missing"),
        pytest.param(
            {"ruleset": "classic", "sides": two_teams(), "decks": 0}, "decks", id="0-decks"
        ),
        pytest.param(
            {"ruleset": "classic", "sides": two_teams(), "decks": -2}, "decks", id="negative-decks"
        ),
        pytest.param(
            {"ruleset": "classic", "sides": two_teams(), "decks": "4"}, "decks", id="string-decks"
        ),
        pytest.param(
            {"ruleset": "classic", "sides": two_teams(), "decks": 2.5}, "decks", id="fraction-decks"
        ),
        pytest.param(
            {
                "ruleset": "cutthroat",
                "sides": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
            },
            "sides",
            id="cutthroat-three-sides",
        ),
        pytest.param(
            {"ruleset": "club", "sides": [{"name": "Ann"}, {"name": "ann"}]},
            "name",
            id="same-name-twice",
        ),
        pytest.param(
            {"ruleset": "club", "sides": [{"name": "Ann"}, {"name": "  "}]},
            "name",
            id="blank-name",
        ),
        pytest.param(
            {"ruleset": "club", "sides": [{"name": "Ann"}, {"name": "Bob", "players": "Bob"}]},
            "players",
            id="players-not-a-list",
        ),
        pytest.param({"ruleset": "club", "sides": two_teams()}, "players", id="club-pairs"),
    ],
)
def test_create_game_refusals(client, body, field):
    """A game that cannot start answers 422 naming the field, and nothing is saved."""
    errors = assert_errors(client.post("/api/v1/games", json=body))
    assert field in {e["field"] for e in errors}
    # The database was empty, and still is.
    assert games_saved(client) == 0


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param({"going_out_bonus": -5}, id="negative"),
        pytest.param({"going_out_bonus": "200"}, id="string"),
        pytest.param({"going_out_bonus": 2.5}, id="fraction"),
        pytest.param({"going_out_bonus": True}, id="bool"),
        pytest.param({"book_bonuses": {"clean": "lots"}}, id="string-bonus"),
        pytest.param({"book_bonuses": {"golden": 100}}, id="unknown-book"),
        pytest.param({"book_bonuses": 600}, id="bonuses-not-a-map"),
        pytest.param({"no_such_rule": 1}, id="unknown-rule"),
        pytest.param({"card_values": {"ace": 22}}, id="card-value-not-multiple-of-5"),
        pytest.param({"end_after_deals": None}, id="game-without-end"),
        pytest.param({"books_to_go_out": {"wild": 1}}, id="needs-a-book-club-cannot-score"),
        pytest.param([1, 2], id="not-an-object"),
    ],
)
def test_bad_house_rules_are_422(client, rules):
    """House-rule overrides that cannot be played are refused; no game is saved."""
    errors = assert_errors(
        client.post("/api/v1/games", json={"ruleset": "club", "sides": INDIVIDUALS, "rules": rules})
    )
    assert any(e["field"] == "rules" for e in errors)
    assert games_saved(client) == 0


CLUB_OUT = {"books": {"clean": 2, "dirty": 2}, "went_out": True, "melded_points": 100}


@pytest.mark.parametrize(
    ("ruleset", "rules", "entry", "expected"),
    [
        pytest.param(
            "club",
            {"going_out_bonus": 200, "book_bonuses": {"clean": 600}},
            CLUB_OUT,
            # 2×600 + 2×300 = 1800; out 200; 100
            {"books": 1800, "going_out": 200, "cards": 100, "total": 2100},
            id="club-going-out-200-clean-600",
        ),
        pytest.param(
            "club",
            None,
            CLUB_OUT,
            # preset: 2×500 + 2×300 = 1600; out 100; 100
            {"books": 1600, "going_out": 100, "cards": 100, "total": 1800},
            id="club-preset",
        ),
        pytest.param(
            "family",
            {"red_three_caught": 200},
            {"red_threes_caught": 2, "melded_points": 50},
            {"red_threes": -400, "cards": 50, "total": -350},  # −2×200 + 50
            id="family-caught-200",
        ),
        pytest.param(
            "casual",
            {"extra_bonuses": {"exact_22": 150}},
            {"bonuses": {"exact_22": 2}},
            {"extras": 300, "total": 300},  # 2 × 150
            id="casual-exact-22-150",
        ),
        pytest.param(
            "classic",
            {"card_values": {"joker": 100}},
            {"melded_cards": {"joker": 2, "ace": 1}},
            {"cards": 220, "total": 220},  # 2×100 + 20
            id="classic-joker-100",
        ),
    ],
)
def test_house_rules_change_the_score(client, ruleset, rules, entry, expected):
    """A game started with overrides scores by them."""
    more = {"rules": rules} if rules else {}
    game = start(client, ruleset, **more)
    after = deal(client, game, entry, {})
    breakdown = after["deals"][0]["scores"][0]["breakdown"]
    assert {line: breakdown[line] for line in expected} == expected
    assert totals(after)[0] == expected["total"]


def test_house_rule_minimums_and_length(client):
    """A two-deal club game with its own minimums ends after deal 2."""
    game = start(
        client, "club", rules={"end_after_deals": 2, "opening_minimums": [70, 110, 130, 160]}
    )
    assert minimums(game) == [70, 70]
    after = deal(client, game, {"books": {"clean": 1}}, {})
    assert minimums(after) == [110, 110]
    assert after["finished"] is False
    after = deal(client, game, {}, {"books": {"dirty": 1}})
    assert after["finished"] is True
    assert after["winners"] == ["Ann"]  # 500 against 300


def test_more_deals_than_the_schedule_repeat_its_last_minimum(client):
    """Classic played over six deals: deals 5 and 6 need 150 like deal 4."""
    game = start(client, "classic", rules={"end_after_deals": 6})
    seen = [minimums(game)]
    for _ in range(5):
        seen.append(minimums(deal(client, game, {"books": {"clean": 1}}, {})))
    assert seen == [[50, 50], [90, 90], [120, 120], [150, 150], [150, 150], [150, 150]]
    last = deal(client, game, {}, {})
    assert (last["finished"], last["winners"]) == (True, ["Ann & Bob"])  # 2500 against 0


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


# ------------------------------------------------------------------------- refused deals

# (ruleset, scores, side, field, words the message must contain)
REFUSALS = [
    pytest.param(
        "classic", [{"red_threes_caught": -1}, {}], 0, "red_threes_caught", ["negative"], id="neg"
    ),
    pytest.param(
        "classic", [{"melded_points": -5}, {}], 0, "melded_points", ["negative"], id="neg-points"
    ),
    pytest.param(
        "classic", [{}, {"books": {"clean": -1}}], 1, "books.clean", ["negative"], id="neg-books"
    ),
    pytest.param(
        "classic", [{"melded_points": 102.5}, {}], 0, "melded_points", ["whole"], id="fraction"
    ),
    pytest.param(
        "classic", [{}, {"books": {"dirty": 1.5}}], 1, "books.dirty", ["whole"], id="frac-books"
    ),
    pytest.param(
        "classic", [{"melded_points": "100"}, {}], 0, "melded_points", ["whole"], id="str-points"
    ),
    pytest.param(
        "classic", [{"books": {"clean": "2"}}, {}], 0, "books.clean", ["whole"], id="str-books"
    ),
    pytest.param(
        "classic", [{"red_threes_down": True}, {}], 0, "red_threes_down", ["whole"], id="bool"
    ),
    pytest.param(
        "classic", [{"went_out": "yes"}, {}], 0, "went_out", ["true or false"], id="str-went-out"
    ),
    pytest.param(
        "classic",
        [{"melded_points": 123}, {}],
        0,
        "melded_points",
        ["123", "multiple of 5"],
        id="points-not-multiple-of-5",
    ),
    pytest.param(
        "family",
        [{}, {"leftover_points": 7}],
        1,
        "leftover_points",
        ["multiple of 5"],
        id="leftover-not-multiple-of-5",
    ),
    pytest.param("club", [{"books": {"wild": 1}}, {}], 0, "books.wild", ["wild"], id="club-wild"),
    pytest.param(
        "family",
        [{"books": {"wild": 1}}, {}],
        0,
        "books.wild",
        ["wild"],
        id="family-wild",
    ),
    pytest.param(
        "classic",
        [{"books": {"clean_sevens": 1}}, {}],
        0,
        "books.clean_sevens",
        ["clean sevens"],
        id="classic-sevens",
    ),
    pytest.param(
        "family",
        [{"red_threes_down": 1}, {}],
        0,
        "red_threes_down",
        ["laid down"],
        id="family-red-three-down",
    ),
    pytest.param(
        "casual",
        [{"red_threes_down": 1}, {}],
        0,
        "red_threes_down",
        ["laid down"],
        id="casual-red-three-down",
    ),
    pytest.param(
        "classic",
        [
            {"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True},
            {"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True},
        ],
        None,
        "went_out",
        ["one side", "Ann & Bob", "Cat & Dan"],
        id="two-went-out",
    ),
    pytest.param(
        "classic",
        [{"books": {"clean": 2, "dirty": 1}, "went_out": True}, {}],
        0,
        "went_out",
        ["1 dirty book", "1 wild book"],
        id="classic-out-without-dirty-and-wild",
    ),
    pytest.param(
        "club",
        [{"books": {"clean": 1, "dirty": 2}, "went_out": True}, {}],
        0,
        "went_out",
        ["1 clean book"],
        id="club-out-without-clean",
    ),
    pytest.param(
        "family",
        [{}, {"books": {"clean": 3, "dirty": 1}, "went_out": True}],
        1,
        "went_out",
        ["1 dirty book"],
        id="family-extra-clean-is-not-dirty",
    ),
    pytest.param(
        "ten-thousand",
        [{"books": {"clean": 5, "dirty": 1}, "went_out": True}, {}],
        0,
        "went_out",
        ["1 wild book"],
        id="ten-thousand-out-without-wild",
    ),
    pytest.param(
        "classic",  # 4 players → 5 decks hold 2 × 5 = 10 red threes
        [{"red_threes_down": 6}, {"red_threes_caught": 5}],
        None,
        "red_threes",
        ["11", "10"],
        id="red-threes-over-2-per-deck",
    ),
    pytest.param(
        "ten-thousand",  # 3 decks hold 6 × 3 = 18 wild cards; 3 wild books need 21
        [{"books": {"wild": 2}}, {"books": {"wild": 1}}],
        None,
        "books",
        ["21", "18"],
        id="wild-cards-over-6-per-deck",
    ),
    pytest.param(
        "classic",  # 5 decks hold 2 × 5 = 10 jokers
        [{"melded_cards": {"joker": 6}}, {"leftover_cards": {"joker": 5}}],
        None,
        "cards.joker",
        ["11", "10"],
        id="jokers-over-2-per-deck",
    ),
    pytest.param(
        "ten-thousand",  # 3 decks hold 590 × 3 = 1,770 card points
        [{"melded_points": 1000}, {"melded_points": 775}],
        None,
        "card_points",
        ["1,775", "1,770"],
        id="card-points-over-590-per-deck",
    ),
    pytest.param(
        "classic",  # 5 decks hold 44 × 5 = 220 naturals; 32 clean books need 224
        [{"books": {"clean": 20}}, {"books": {"clean": 12}}],
        None,
        "books",
        ["224", "220"],
        id="naturals-over-44-per-deck",
    ),
    pytest.param(
        "family",  # 4 decks hold 16 sevens; 3 books of sevens need 21
        [{"books": {"clean_sevens": 2}}, {"books": {"clean_sevens": 1}}],
        None,
        "books.clean_sevens",
        ["21", "16"],
        id="sevens-over-4-per-deck",
    ),
    pytest.param(
        "cutthroat",  # 3 decks hold 6 black threes; a book of them needs 7
        [{"books": {"black_threes": 1}, "went_out": False}, {}],
        None,
        "cards.black_three",
        ["7", "6"],
        id="black-threes-over-2-per-deck",
    ),
    pytest.param(
        "cutthroat",  # open melds count toward the limits: 3 open wild books need 21 of 18
        [{"open_books": {"wild": 2}}, {"open_books": {"wild": 1}}],
        None,
        "books",
        ["21", "18"],
        id="open-wild-books-over-the-decks",
    ),
    pytest.param(
        "cutthroat",  # open-meld card points count toward the 590 × 3 = 1,770 too
        [{"melded_points": 1000}, {"open_books": {"dirty": 1}, "open_book_points": 775}],
        None,
        "card_points",
        ["1,775", "1,770"],
        id="open-book-points-over-590-per-deck",
    ),
    pytest.param(
        "cutthroat",
        [{}, {"open_books": {"dirty": 1}, "open_book_points": 83}],
        1,
        "open_book_points",
        ["multiple of 5"],
        id="open-book-points-not-multiple-of-5",
    ),
    pytest.param(
        "classic",
        [{"melded_points": 10**30}, {}],
        0,
        "melded_points",
        ["far more"],
        id="absurd-figure",
    ),
    pytest.param("classic", [{}], None, "scores", ["2"], id="one-entry-for-two-sides"),
    pytest.param("classic", [{}, {}, {}], None, "scores", ["2"], id="three-entries"),
    pytest.param("classic", {"a": {}}, None, "scores", [], id="scores-not-a-list"),
    pytest.param("classic", None, None, "scores", [], id="scores-missing"),
    pytest.param("classic", [{"points": 5}, {}], 0, "points", ["points"], id="unknown-figure"),
    pytest.param(
        "classic", [{"books": {"golden": 1}}, {}], 0, "books.golden", ["golden"], id="unknown-book"
    ),
    pytest.param(
        "classic",
        [{"melded_points": 100, "melded_cards": {"ace": 5}}, {}],
        0,
        "melded_cards",
        ["not both"],
        id="points-and-cards",
    ),
    pytest.param(
        "ten-thousand",
        [{"open_books": {"dirty": 1}}, {}],
        0,
        "open_books",
        ["open"],
        id="open-books-outside-cutthroat",
    ),
    pytest.param(
        "classic",
        [{"bonuses": {"exact_22": 1}}, {}],
        0,
        "bonuses.exact_22",
        ["exact_22"],
        id="exact-22-outside-casual",
    ),
    pytest.param(
        "casual",  # a side of 2 players: the bonus counts at most twice
        [{"bonuses": {"exact_22": 3}}, {}],
        0,
        "bonuses.exact_22",
        ["3", "2"],
        id="exact-22-more-than-players",
    ),
]


@pytest.mark.parametrize(("ruleset", "scores", "side", "field", "words"), REFUSALS)
def test_refused_deal_is_422_and_saves_nothing(client, ruleset, scores, side, field, words):
    """Each refusal names the side and figure, explains itself, and keeps what was saved."""
    game = start(client, ruleset)
    deal(client, game, {"books": {"clean": 1}, "melded_points": 100}, {"melded_points": 50})
    before = state(client, game)
    body = {} if scores is None else {"scores": scores}
    errors = assert_errors(post_deal(client, game, json=body))
    message = find(errors, side, field)["message"]
    for word in words:
        assert word in message, (word, message)
    assert state(client, game) == before


@pytest.mark.parametrize(
    ("ruleset", "decks", "scores"),
    [
        pytest.param(
            "classic", 5, [{"red_threes_down": 5}, {"red_threes_caught": 5}], id="10-red-threes"
        ),
        pytest.param(
            "classic",
            5,
            [{"melded_cards": {"joker": 6}}, {"leftover_cards": {"joker": 4}}],
            id="10-jokers",
        ),
        pytest.param(
            "classic", 5, [{"melded_points": 2000}, {"leftover_points": 950}], id="2950-points"
        ),
        pytest.param(
            "classic",
            5,
            [{"books": {"wild": 4}}, {"books": {"dirty": 2}}],  # 4×7 + 2×1 = 30 wild cards
            id="30-wild-cards",
        ),
        pytest.param(
            "classic",
            5,
            [{"books": {"clean": 30}}, {"books": {"dirty": 2}}],  # 30×7 + 2×5 = 220 naturals
            id="220-naturals",
        ),
        pytest.param(
            "cutthroat",
            4,
            [
                {
                    "books": {"clean": 2, "black_threes": 1, "dirty": 1, "wild": 1},
                    "went_out": True,
                },
                {"leftover_cards": {"black_three": 1}},  # 7 + 1 = 8 black threes
            ],
            id="8-black-threes",
        ),
    ],
)
def test_figures_at_the_physical_limit_are_accepted(client, ruleset, decks, scores):
    """The limits are what the decks hold: reaching them exactly is an honest entry."""
    game = start(client, ruleset, decks=decks)
    answer = post_deal(client, game, json={"scores": scores})
    assert answer.status_code == 201, answer.get_json()


def test_black_threes_book_without_going_out_is_refused(client):
    """Cutthroat: a side that did not go out cannot hold a closed book of black threes."""
    game = start(client, "cutthroat", decks=4)
    before = state(client, game)
    answer = post_deal(client, game, json={"scores": [{"books": {"black_threes": 1}}, {}]})
    errors = assert_errors(answer)
    assert any(e["side"] == 0 and "black_threes" in (e["field"] or "") for e in errors)
    assert state(client, game) == before


def test_every_figure_of_every_side_is_named_at_once(client):
    """Several bad figures are all reported, each with its side and field."""
    game = start(client, "classic")
    errors = assert_errors(
        post_deal(client, game, json={"scores": [{"melded_points": -5}, {"books": {"dirty": "x"}}]})
    )
    find(errors, 0, "melded_points")
    find(errors, 1, "books.dirty")
    assert state(client, game)["deals"] == []


def test_finished_game_refuses_a_deal_with_409(client):
    """After the fourth deal no deal is added, and nothing changes."""
    game = start(client, "club")
    for _ in range(3):
        deal(client, game, {"books": {"clean": 1}}, {})
    final = deal(client, game, {}, {"books": {"dirty": 1}})
    assert final["finished"] is True
    assert final["winners"] == ["Ann"]  # 3 × 500 = 1500 against 300
    before = state(client, game)
    answer = post_deal(client, game, json={"scores": [{"books": {"clean": 1}}, {}]})
    errors = assert_errors(answer, 409)
    assert any("over" in e["message"] for e in errors)
    assert state(client, game) == before


def test_finished_ten_thousand_game_refuses_a_deal_with_409(client):
    """Past 10,000 alone the game is over; a further deal is 409."""
    game = start(client, "ten-thousand", decks=10)
    # 3×500 + 300 + 6×1500 = 10800; out 100 → 10,900 (42 + 1 wild cards of 60)
    over = deal(client, game, {"books": {"clean": 3, "dirty": 1, "wild": 6}, "went_out": True}, {})
    assert totals(over) == [10900, 0]
    assert (over["finished"], over["winners"]) == (True, ["Ann & Bob"])
    before = state(client, game)
    assert_errors(post_deal(client, game, json={"scores": [{}, {}]}), 409)
    assert state(client, game) == before


# ------------------------------------------------------------------------- corrections


def test_correction_recomputes_later_totals(client):
    """Correcting deal 1 of three changes every total after it; later deals stay as entered."""
    game = start(client, "classic")
    deal(client, game, {"books": {"clean": 1}, "melded_points": 100}, {"melded_points": 50})
    deal(client, game, {"books": {"dirty": 1}}, {"books": {"clean": 1}})
    third = deal(
        client, game, {"melded_points": 20}, {"books": {"dirty": 1}, "leftover_points": 100}
    )
    # 600 + 300 + 20 = 920; 50 + 500 + 200 = 750
    assert totals(third) == [920, 750]
    answer = put_deal(
        client,
        game,
        1,
        json={"scores": [{"books": {"clean": 2}, "melded_points": 100}, {"melded_points": 50}]},
    )
    assert answer.status_code == 200, answer.get_json()
    corrected = answer.get_json()
    first = corrected["deals"][0]
    assert first["version"] == 2
    assert first["scores"][0]["breakdown"]["books"] == 1000
    assert first["scores"][0]["total"] == 1100  # 2×500 + 100
    # 1100 + 300 + 20 = 1420; 750 unchanged
    assert totals(corrected) == [1420, 750]
    assert [d["version"] for d in corrected["deals"]] == [2, 1, 1]
    assert [s["total"] for s in corrected["deals"][1]["scores"]] == [300, 500]
    assert [s["total"] for s in corrected["deals"][2]["scores"]] == [20, 200]
    assert state(client, game) == corrected


def test_correction_recomputes_later_minimums(client):
    """Ten thousand: a corrected deal 1 moves a side into the next band."""
    game = start(client, "ten-thousand")
    deal(client, game, {"books": {"clean": 1, "dirty": 1}}, {})
    second = deal(client, game, {"books": {"dirty": 1}}, {})
    assert totals(second) == [1100, 0]  # 800 + 300
    assert minimums(second) == [50, 50]
    answer = put_deal(
        client, game, 1, json={"scores": [{"books": {"clean": 2, "dirty": 1}}, {}], "version": 1}
    )
    assert answer.status_code == 200
    # 1300 + 300 = 1600 → from 1,500 the side needs 90
    assert totals(answer.get_json()) == [1600, 0]
    assert minimums(answer.get_json()) == [90, 50]


def test_stale_version_is_409_and_saves_nothing(client):
    """A correction made to version 1 after it became version 2 is refused."""
    game = start(client, "club")
    deal(client, game, {"books": {"clean": 1}}, {})
    fresh = put_deal(client, game, 1, json={"scores": [{"books": {"clean": 2}}, {}], "version": 1})
    assert fresh.status_code == 200
    assert fresh.get_json()["deals"][0]["version"] == 2
    before = state(client, game)
    stale = put_deal(client, game, 1, json={"scores": [{"books": {"dirty": 1}}, {}], "version": 1})
    errors = assert_errors(stale, 409)
    assert any("version" in (e["field"] or "") or "version" in e["message"] for e in errors)
    after = state(client, game)
    assert after == before
    assert totals(after) == [1000, 0]  # still the 2 clean books


def test_bad_version_is_refused(client):
    game = start(client, "club")
    deal(client, game, {}, {})
    before = state(client, game)
    answer = put_deal(
        client, game, 1, json={"scores": [{"books": {"clean": 1}}, {}], "version": "one"}
    )
    errors = assert_errors(answer, 422)
    assert [e["field"] for e in errors] == ["version"]
    assert state(client, game) == before


def test_refused_correction_is_422_and_saves_nothing(client):
    """A correction with a bad figure is refused like a new deal."""
    game = start(client, "club")
    deal(client, game, {"books": {"clean": 1}}, {})
    before = state(client, game)
    answer = put_deal(client, game, 1, json={"scores": [{"books": {"wild": 1}}, {}]})
    find(assert_errors(answer), 0, "books.wild")
    assert state(client, game) == before


def test_correction_that_would_end_the_game_early_is_422(client):
    """Ten thousand: deal 1 corrected past 10,000 would end the game before deals 2 and 3."""
    game = start(client, "ten-thousand", decks=10)
    deal(client, game, {"books": {"clean": 1}}, {})
    deal(client, game, {}, {"books": {"dirty": 1}})
    deal(client, game, {"books": {"dirty": 1}}, {})
    before = state(client, game)
    answer = put_deal(
        client,
        game,
        1,
        # 3×500 + 300 + 6×1500 + out 100 = 10,900
        json={"scores": [{"books": {"clean": 3, "dirty": 1, "wild": 6}, "went_out": True}, {}]},
    )
    errors = assert_errors(answer)
    message = " ".join(e["message"] for e in errors)
    assert "deal 1" in message
    assert "2" in message and "3" in message
    assert state(client, game) == before


def test_correction_reopens_a_finished_game(client):
    """Ten thousand: a total corrected back under 10,000 reopens the game for more deals."""
    game = start(client, "ten-thousand", decks=10)
    over = deal(client, game, {"books": {"clean": 3, "dirty": 1, "wild": 6}, "went_out": True}, {})
    assert over["finished"] is True
    answer = put_deal(client, game, 1, json={"scores": [{"books": {"clean": 1}}, {}]})
    assert answer.status_code == 200
    reopened = answer.get_json()
    assert (reopened["finished"], reopened["winners"]) == (False, [])
    assert totals(reopened) == [500, 0]
    assert deal(client, game, {}, {"books": {"dirty": 1}})["deals"][1]["number"] == 2


def test_correction_to_a_tie_past_10000_reopens_the_game(client):
    """Ten thousand: equal highest totals past 10,000 play another deal."""
    game = start(client, "ten-thousand", decks=20)
    full = {"books": {"clean": 3, "dirty": 1, "wild": 6}}
    over = deal(client, game, {**full, "went_out": True}, {})
    assert (over["finished"], totals(over)) == (True, [10900, 0])
    answer = put_deal(
        client,
        game,
        1,
        # 10800 + out 100 = 10,900 against 10800 + 100 card points = 10,900
        json={"scores": [{**full, "went_out": True}, {**full, "melded_points": 100}]},
    )
    assert answer.status_code == 200
    tied = answer.get_json()
    assert totals(tied) == [10900, 10900]
    assert (tied["finished"], tied["winners"]) == (False, [])
    assert minimums(tied) == [150, 150]


def test_correction_can_make_a_shared_win(client):
    """Four-deal game: a corrected last deal that ties the totals shares the win."""
    game = start(client, "classic")
    for _ in range(3):
        deal(client, game, {"books": {"clean": 1}}, {"books": {"clean": 1}})
    final = deal(client, game, {"books": {"dirty": 1}}, {})
    assert (final["finished"], final["winners"]) == (True, ["Ann & Bob"])  # 1800 against 1500
    answer = put_deal(
        client, game, 4, json={"scores": [{"books": {"dirty": 1}}, {"books": {"dirty": 1}}]}
    )
    assert answer.status_code == 200
    tied = answer.get_json()
    assert totals(tied) == [1800, 1800]
    assert (tied["finished"], tied["winners"]) == (True, ["Ann & Bob", "Cat & Dan"])


def test_a_finished_games_deal_can_still_be_corrected(client):
    """Corrections stay open after the end; the winner follows the new totals."""
    game = start(client, "club")
    for _ in range(3):
        deal(client, game, {}, {})
    deal(client, game, {"books": {"clean": 1}}, {})
    answer = put_deal(
        client, game, 4, json={"scores": [{}, {"books": {"clean": 1}, "melded_points": 5}]}
    )
    assert answer.status_code == 200
    assert answer.get_json()["winners"] == ["Cat"]  # 505 against 0


# ------------------------------------------------------------------------- rules and minimums


def test_state_shows_the_rules_in_force(client):
    """`rules` is the preset with the game's house rules applied; `house_rules` as sent."""
    sent = {
        "going_out_bonus": 200,
        "book_bonuses": {"wild": None},
        "books_to_go_out": {"wild": 0},
        "melded_black_threes": "always",
    }
    game = start(client, "classic", rules=sent)
    preset = client.get("/api/v1/rulesets/classic").get_json()
    assert game["house_rules"] == sent
    expected = {
        **preset,
        "going_out_bonus": 200,
        "book_bonuses": {"clean": 500, "dirty": 300},  # the wild book taken out
        "books_to_go_out": {"clean": 2, "dirty": 2, "wild": 0},
        "book_counts_as": {"clean": "clean", "dirty": "dirty"},
        "melded_black_threes": "always",
        "house": True,
    }
    assert game["rules"] == expected
    assert state(client, game)["rules"] == expected


def test_minimum_applied_in_a_deal_and_the_next_one_on_each_side(client):
    """A deal shows the minimum that applied in it; a side, the one for the next deal."""
    game = start(client, "classic")
    first = deal(client, game, {"books": {"clean": 1}}, {})
    second = deal(client, game, {}, {})
    # Classic goes by the deal's number: 50 in deal 1, 90 in deal 2, 120 in deal 3.
    assert [s["minimum_applied"] for s in first["deals"][0]["scores"]] == [50, 50]
    assert [s["next_opening_minimum"] for s in first["sides"]] == [90, 90]
    assert [s["minimum_applied"] for s in second["deals"][1]["scores"]] == [90, 90]
    assert [s["next_opening_minimum"] for s in second["sides"]] == [120, 120]
    # v1's opening_minimum is the same figure as each: applied in deals, next in sides.
    for shown in second["deals"]:
        assert [s["opening_minimum"] for s in shown["scores"]] == [
            s["minimum_applied"] for s in shown["scores"]
        ]
    assert minimums(second) == [s["next_opening_minimum"] for s in second["sides"]]


# ------------------------------------------------------------------------- where refusals point


@pytest.mark.parametrize(
    ("ruleset", "decks", "scores", "field", "expected"),
    [
        pytest.param(
            "classic",
            None,
            [{"melded_points": -5}, {}],
            "melded_points",
            ["/scores/0/melded_points"],
            id="a-sides-figure",
        ),
        pytest.param(
            "classic",
            None,
            [{}, {"books": {"clean": -1}}],
            "books.clean",
            ["/scores/1/books/clean"],
            id="a-kind-inside-a-figure",
        ),
        pytest.param(
            "classic",
            None,
            [{}, {"melded_cards": {"black_three": 2}}],
            "melded_cards.black_three",
            ["/scores/1/melded_cards/black_three"],
            id="black-threes-melded-where-they-cannot-be",
        ),
        pytest.param(
            "classic",
            4,
            [{"melded_cards": {"joker": 6}}, {"leftover_cards": {"joker": 4}}],
            "cards.joker",
            ["/scores/0/melded_cards/joker", "/scores/1/leftover_cards/joker"],
            id="a-limit-over-the-deal-names-every-figure-that-counted",
        ),
        pytest.param(
            "classic",
            4,
            [{"red_threes_down": 5}, {"red_threes_caught": 4}],
            "red_threes",
            ["/scores/0/red_threes_down", "/scores/1/red_threes_caught"],
            id="red-threes-over-the-decks",
        ),
        pytest.param(
            "classic",
            None,
            [{"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True}]
            + [{"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True}],
            "went_out",
            ["/scores/0/went_out", "/scores/1/went_out"],
            id="two-sides-went-out",
        ),
        pytest.param("classic", None, [{}], "scores", ["/scores"], id="too-few-scores"),
        pytest.param("classic", None, "all", "scores", ["/scores"], id="scores-not-a-list"),
        pytest.param(
            "classic", None, [{"a/b~c": 1}, {}], "a/b~c", ["/scores/0/a~1b~0c"], id="escaped"
        ),
        pytest.param(
            "classic",
            None,
            [{"books.clean": 1}, {}],
            "books.clean",
            ["/scores/0/books.clean"],
            id="a-key-with-a-dot-is-one-key",
        ),
        pytest.param(
            "classic",
            None,
            [{"books": {"x.y/z": 1}}, {}],
            "books.x.y/z",
            ["/scores/0/books/x.y~1z"],
            id="an-unknown-kind",
        ),
    ],
)
def test_a_refused_deal_points_at_each_figure(client, ruleset, decks, scores, field, expected):
    """Each error's inputs are JSON pointers into the body as sent, to every figure at fault."""
    game = start(client, ruleset, **({"decks": decks} if decks else {}))
    errors = assert_errors(post_deal(client, game, json={"scores": scores}))
    error = next(e for e in errors if e["field"] == field)
    assert pointers(error) == expected
    # The same pointers for a correction of a deal.
    deal(client, game, {}, {})
    corrected = assert_errors(put_deal(client, game, 1, json={"scores": scores}))
    assert pointers(next(e for e in corrected if e["field"] == field)) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(
            {"ruleset": "club", "sides": [{"name": "Ann"}, {"name": "  "}]},
            ["/sides/1/name"],
            id="a-sides-name",
        ),
        pytest.param(
            {"ruleset": "club", "sides": [{"name": "Ann"}, {"name": "Bob", "players": "Bob"}]},
            ["/sides/1/players"],
            id="players-not-a-list",
        ),
        pytest.param(
            {"ruleset": "club", "sides": INDIVIDUALS, "decks": "4"}, ["/decks"], id="decks"
        ),
        pytest.param({"sides": INDIVIDUALS}, ["/ruleset"], id="no-ruleset"),
        pytest.param(
            {"ruleset": "poker", "sides": INDIVIDUALS}, ["/ruleset"], id="no-such-ruleset"
        ),
        pytest.param({"ruleset": "club", "sides": INDIVIDUALS[:1]}, ["/sides"], id="one-side"),
        pytest.param(
            {"ruleset": "club", "sides": INDIVIDUALS, "rules": {"going_out_bonus": 102}},
            ["/rules/going_out_bonus"],
            id="a-bonus-off-the-fives",
        ),
        pytest.param(
            {"ruleset": "club", "sides": INDIVIDUALS, "rules": {"opening_minimums": [52, 90]}},
            ["/rules/opening_minimums/0"],
            id="a-minimum-off-the-fives",
        ),
        pytest.param(
            {"ruleset": "club", "sides": INDIVIDUALS, "rules": {"no_such_rule": 1}},
            ["/rules/no_such_rule"],
            id="an-unknown-rule",
        ),
        pytest.param(
            {
                "ruleset": "classic",
                "sides": two_teams(),
                "decks": 2,
                "rules": {"hand_size": 40, "foot_size": 40},
            },
            ["/decks", "/rules/hand_size", "/rules/foot_size"],
            id="decks-too-few-for-the-hands",
        ),
    ],
)
def test_a_refused_game_points_at_each_figure(client, body, expected):
    """A new game's refusals point into its body: a side's figure, decks, a house rule."""
    errors = assert_errors(client.post("/api/v1/games", json=body))
    assert expected in [pointers(e) for e in errors], errors
    assert games_saved(client) == 0


def test_a_stale_version_points_at_version_and_other_conflicts_at_nothing(client):
    """The 409 of a stale correction names /version; a game over or a key reused, no figure."""
    game = start(client, "club", rules={"end_after_deals": 1})
    deal(client, game, {"books": {"clean": 1}}, {})
    fresh = put_deal(client, game, 1, json={"scores": [{"books": {"clean": 2}}, {}], "version": 1})
    assert fresh.status_code == 200
    stale = assert_errors(put_deal(client, game, 1, json={"scores": [{}, {}], "version": 1}), 409)
    assert [e["inputs"] for e in stale] == [
        [{"side": None, "field": "version", "pointer": "/version"}]
    ]
    not_a_version = assert_errors(
        put_deal(client, game, 1, json={"scores": [{}, {}], "version": "2"})
    )
    assert [pointers(e) for e in not_a_version] == [["/version"]]
    over = assert_errors(post_deal(client, game, json={"scores": [{}, {}]}), 409)
    assert [e["inputs"] for e in over] == [[]]


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


def test_a_correction_that_would_end_the_game_early_is_422_about_no_figure(client):
    """Refused for what it would do to the deals after it: 422, and no figure to blame."""
    game = start(client, "ten-thousand", decks=10)
    deal(client, game, {"books": {"clean": 1}}, {})
    deal(client, game, {}, {"books": {"dirty": 1}})
    over = {"books": {"clean": 3, "dirty": 1, "wild": 6}, "went_out": True}
    errors = assert_errors(put_deal(client, game, 1, json={"scores": [over, {}]}))
    assert [e["inputs"] for e in errors] == [[]]
    assert "already follow" in errors[0]["message"]


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
