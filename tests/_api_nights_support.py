"""Helpers for the club night API tests: open a night, seat its rounds, read its refusals.

Shared by tests/test_api_nights.py and test_api_night_refusals.py; the night pages' tests
reach them through test_api_nights, as they always have.
"""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator
from night_club import TWELVE
from test_clubs import SLUG

from scorekeeper.services import clubs

NIGHTS = f"/api/v1/clubs/{SLUG}/nights"
PLAYED = {"books": {"clean": 1}}


def matches(document: dict[str, Any], component: str, value: Any) -> None:
    """The value is what the document's schema says."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": document["components"]}
    Draft202012Validator(schema).validate(value)


def ids(app, slug: str = SLUG) -> dict[str, int]:
    with app.app_context():
        return {m.name: m.id for m in clubs.club_by_slug(slug).members}


def table_code(app, slug: str = SLUG) -> dict[str, str]:
    with app.app_context():
        return {"X-Table-Code": clubs.club_by_slug(slug).table_code}


def start(app, olga, names=TWELVE, **more) -> Any:
    """Tonight's night opened through the API: the answer."""
    body = {"members": [ids(app)[n] for n in names], "ruleset": "classic", "rounds": 2, **more}
    return olga.post(NIGHTS, json=body)


def started(app, olga, **more) -> dict[str, Any]:
    answer = start(app, olga, **more)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def seat(olga, night: dict[str, Any], number: int):
    return olga.post(f"{night['url']}/rounds", json={"round": number})


def finish(client, night: dict[str, Any], code: dict[str, str]) -> None:
    """Every table of the last round plays its 4 deals through the API, as its phones would."""
    for table in night["rounds"][-1]["tables"]:
        game = table["game"]
        headers = {"X-Game-Key": game["key"], **code}
        for _ in range(4):
            saved = client.post(
                f"/api/v1/games/{game['id']}/deals", json={"scores": [PLAYED, {}]}, headers=headers
            )
            assert saved.status_code == 201, saved.get_json()


def error(answer, status: int) -> dict[str, Any]:
    """The answer's only error, once its status is as expected."""
    assert answer.status_code == status, answer.get_json()
    (only,) = answer.get_json()["errors"]
    return only


def pointers(answer) -> list[str]:
    return [i["pointer"] for e in answer.get_json()["errors"] for i in e["inputs"]]
