"""Acceptance: one full game under each of the six presets, entered through the JSON API.

The six games are in _preset_games.py (classic, club, and the shapes they are written in),
_preset_games_family_casual.py and _preset_games_ten_thousand.py: every figure worked out by
hand from /work/shared/rules/VARIANTS.md (never by the engine), each side's lines written as
books, red threes, going out, cards, extras and moved, with the arithmetic beside them.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from _preset_games import CLASSIC, CLUB, LINES, Deal, Game
from _preset_games_family_casual import CASUAL, FAMILY
from _preset_games_ten_thousand import CUTTHROAT, TEN_THOUSAND

GAMES = [CLASSIC, CLUB, FAMILY, CASUAL, TEN_THOUSAND, CUTTHROAT]


def check_deal(state: dict[str, Any], number: int, game: Game, deal: Deal) -> None:
    """The deal's per-side breakdown lines and totals, as worked out by hand."""
    shown = state["deals"][number - 1]
    assert shown["number"] == number
    assert [s["side"] for s in shown["scores"]] == [s["name"] for s in game.sides]
    for side, score, expected in zip(game.sides, shown["scores"], deal.lines, strict=True):
        got = {line: score["breakdown"][line] for line in LINES}
        assert got == expected, f"deal {number}, {side['name']}"
        assert score["total"] == expected["total"], f"deal {number}, {side['name']}"


@pytest.mark.parametrize("game", GAMES, ids=[g.ruleset for g in GAMES])
def test_full_game(client, game: Game):
    """Every deal's lines, the running totals, minimums, the end and the winners."""
    body: dict[str, Any] = {"ruleset": game.ruleset, "sides": game.sides}
    if game.request_decks is not None:
        body["decks"] = game.request_decks
    created = client.post("/api/v1/games", json=body)
    assert created.status_code == 201, created.get_json()
    state = created.get_json()
    game_id = state["id"]
    # Every later request about the game sends the key its creation answered with.
    game_key = {"X-Game-Key": state["key"]}
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", state["key"])
    assert state["ruleset"] == game.ruleset
    assert state["decks"] == game.decks
    assert state["url"] == f"/t/{state['key']}"
    assert state["link"].endswith(state["url"])
    assert [s["total"] for s in state["sides"]] == [0] * len(game.sides)
    assert [s["opening_minimum"] for s in state["sides"]] == game.first_minimums
    assert (state["finished"], state["winners"], state["deals"]) == (False, [], [])

    # The minimums each deal is entered under: the first ones, then each deal's for the next.
    applied = game.first_minimums
    for number, deal in enumerate(game.deals, start=1):
        answer = client.post(
            f"/api/v1/games/{game_id}/deals", json={"scores": deal.scores}, headers=game_key
        )
        assert answer.status_code == 201, (number, answer.get_json())
        state = answer.get_json()
        assert len(state["deals"]) == number
        check_deal(state, number, game, deal)
        shown = state["deals"][number - 1]["scores"]
        assert [s["minimum_applied"] for s in shown] == applied, f"minimums in deal {number}"
        assert [s["total"] for s in state["sides"]] == deal.totals, f"after deal {number}"
        if deal.winners is None:
            assert state["finished"] is False, f"after deal {number}"
            assert state["winners"] == []
            assert [s["next_opening_minimum"] for s in state["sides"]] == deal.minimums, (
                f"minimums after deal {number}"
            )
            assert [s["opening_minimum"] for s in state["sides"]] == deal.minimums
            applied = deal.minimums
        else:
            assert number == len(game.deals), "the game ended early"
            assert state["finished"] is True
            assert state["winners"] == deal.winners

    # What was saved reads back the same, deal by deal.
    saved = client.get(f"/api/v1/games/{game_id}", headers=game_key).get_json()
    assert saved["finished"] is True
    assert saved["winners"] == game.deals[-1].winners
    assert [s["total"] for s in saved["sides"]] == game.deals[-1].totals
    assert [s["players"] for s in saved["sides"]] == [s["players"] for s in game.sides]
    for number, deal in enumerate(game.deals, start=1):
        check_deal(saved, number, game, deal)
        assert saved["deals"][number - 1]["version"] == 1


def test_every_preset_has_an_acceptance_game():
    """The six presets the rule table names are all played above."""
    assert {g.ruleset for g in GAMES} == {
        "classic",
        "club",
        "family",
        "casual",
        "ten-thousand",
        "cutthroat",
    }
