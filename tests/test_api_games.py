"""The JSON API v1 contract for games: creating one, its decks, house rules and minimums.

Expected figures are worked out by hand from /work/shared/rules/VARIANTS.md, in comments.
A refused game must leave nothing saved: each refusal test counts the games after it.
"""

from __future__ import annotations

import re

import pytest
from _api_support import (
    INDIVIDUALS,
    assert_errors,
    deal,
    games_saved,
    minimums,
    start,
    state,
    totals,
    two_teams,
)

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
            "par": None,
        },
        {
            "name": "Cat & Dan",
            "players": ["Cat", "Dan"],
            "total": 0,
            "next_opening_minimum": 50,
            "opening_minimum": 50,
            "par": None,
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
