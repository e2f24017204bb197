"""Helpers for the JSON API v1 tests: start a game, enter and correct deals, read refusals.

Shared by tests/test_api.py, test_api_games.py, test_api_deals.py, test_api_corrections.py and
test_api_pointers.py (and, through test_api, test_api_parts.py).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game


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
