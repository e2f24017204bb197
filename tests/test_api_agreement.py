"""The API's agreement and query of a saved deal: POST .../deals/<n>/agreement and .../queries."""

from __future__ import annotations

from typing import Any

from _api_support import deal, game_key, put_deal, start

ONE_CLEAN = {"books": {"clean": 1}}


def answer(client, game: dict[str, Any], number: int, what: str, **body: Any):
    return client.post(
        f"/api/v1/games/{game['id']}/deals/{number}/{what}", headers=game_key(game), json=body
    )


def a_game(client) -> dict[str, Any]:
    game = start(client, "club")
    deal(client, game, ONE_CLEAN, {})
    return game


def test_a_side_agrees_with_one_request(client):
    game = a_game(client)
    got = answer(client, game, 1, "agreement", side=1, version=1, by="Cat")
    assert got.status_code == 200, got.get_json()
    body = got.get_json()
    assert body["message"] == "Cat agreed deal 1."
    assert body["agreement"]["sides"][1] == {"side": 1, "name": "Cat", "state": "agreed"}
    assert body["agreement"]["version"] == 1


def test_a_query_stands_with_its_words_until_agreed(client):
    game = a_game(client)
    got = answer(client, game, 1, "queries", side=1, version=1, by="Cat", reason="Too many books")
    assert got.status_code == 200, got.get_json()
    kept = got.get_json()["agreement"]
    assert kept["sides"][1]["state"] == "queried"
    assert kept["queries"] == [{"side": 1, "by": "Cat", "reason": "Too many books"}]
    assert not kept["agreed"]
    live = client.get(f"/t/{game['key']}/live").get_json()
    assert live["queries"] == ["Deal 1 queried by Cat: Too many books"]
    agreed = answer(client, game, 1, "agreement", side=1, version=1).get_json()["agreement"]
    assert agreed["queries"] == [] and agreed["sides"][1]["state"] == "agreed"


def test_a_deal_corrected_since_is_a_409_at_its_version(client):
    game = a_game(client)
    fixed = put_deal(client, game, 1, json={"scores": [{"books": {"dirty": 1}}, {}], "version": 1})
    assert fixed.status_code == 200, fixed.get_json()
    got = answer(client, game, 1, "agreement", side=1, version=1)
    assert got.status_code == 409
    (error,) = got.get_json()["errors"]
    assert error["field"] == "version"
    assert [i["pointer"] for i in error["inputs"]] == ["/version"]
    assert "corrected since" in error["message"]


def test_what_is_not_as_documented_is_a_422_naming_it(client):
    game = a_game(client)
    cases = [
        ({"version": 1}, "side", "/side"),
        ({"side": 0, "version": "one"}, "version", "/version"),
        ({"side": 5, "version": 1}, "side", "/side"),
        ({"side": 0, "version": 1, "reason": "x" * 301}, "reason", "/reason"),
    ]
    for body, field, at in cases:
        got = answer(client, game, 1, "queries", **body)
        assert got.status_code == 422, (body, got.get_json())
        (error,) = got.get_json()["errors"]
        assert error["field"] == field, body
        assert [i["pointer"] for i in error["inputs"]] == [at], body
    reason = answer(client, game, 1, "agreement", side=0, version=1, reason="no")
    assert reason.status_code == 422
    assert reason.get_json()["errors"][0]["field"] == "reason"


def test_no_such_deal_or_key_is_a_404(client):
    game = a_game(client)
    assert answer(client, game, 7, "agreement", side=0, version=1).status_code == 404
    wrong = client.post(
        f"/api/v1/games/{game['id']}/deals/1/agreement",
        headers={"X-Game-Key": "x" * 22},
        json={"side": 0, "version": 1},
    )
    assert wrong.status_code == 404


def test_the_document_declares_both_routes(client):
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    for what in ("agreement", "queries"):
        operation = paths[f"/api/v1/games/{{game_id}}/deals/{{number}}/{what}"]["post"]
        assert set(operation["responses"]) >= {"200", "404", "409", "422"}
