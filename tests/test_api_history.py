"""Each deal's history and agreement in the game's API answer and its OpenAPI document (issue 40).

The answer's deals carry `history` (who, how, when, the figures before and after a correction,
an organiser's reason; never a phone's device id) and `agreement` (each side's state on the
deal's current version, its queries), and the answer validates against the document's own
GameState schema. Events are written here as the history's owners write them (`DealEvent`
rows), so that what the answer shows is known to the figure.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import openapi_spec_validator
import pytest
from _api_support import deal, put_deal, start, state
from jsonschema import Draft202012Validator

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import DealEvent
from scorekeeper.plumbing.models.history import AGREED, QUERIED
from scorekeeper.services.deal_history import BY_ORGANISER

PHONE = "0123456789abcdef0123456789abcdef"  # a phone's id: never shown
AT = datetime(2026, 12, 2, 14, 32, tzinfo=UTC)
NOTHING = {"entry": {}, "total": 0}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    """The document as the app serves it."""
    from scorekeeper import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "doc", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return app.test_client().get("/api/v1/openapi.json").get_json()


def validate(document: dict[str, Any], component: str, answer: dict[str, Any]) -> None:
    """The answer holds to the document's schema (every error listed if not)."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": document["components"]}
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(answer)]
    assert errors == []


def add_events(app, game_id: int, *events: dict[str, Any]) -> None:
    """Write events to a game's history as its owners write them."""
    with app.app_context():
        for event in events:
            db.session.add(DealEvent(game_id=game_id, device=PHONE, at=AT, **event))
        db.session.commit()


def corrected_game(client) -> dict[str, Any]:
    """A club game of two deals, the first corrected once (its version 2)."""
    game = start(client, "club")
    deal(client, game, {"books": {"clean": 1}}, {})
    deal(client, game, {}, {"books": {"dirty": 1}})
    answer = put_deal(client, game, 1, json={"version": 1, "scores": [{"books": {"clean": 2}}, {}]})
    assert answer.status_code == 200, answer.get_json()
    return game


def test_the_answer_carries_each_deals_history_and_agreement(app, client, document):
    game = corrected_game(client)
    add_events(
        app,
        game["id"],
        {"deal_number": 1, "deal_version": 2, "kind": AGREED, "side_position": 0, "by": "Ann"},
        {
            "deal_number": 1,
            "deal_version": 2,
            "kind": QUERIED,
            "side_position": 1,
            "by": "Cat",
            "reason": "Was that book clean?",
        },
        # An agreement of the deal as it stood before the correction no longer counts.
        {"deal_number": 2, "deal_version": 1, "kind": AGREED, "side_position": 1, "by": "Cat"},
    )
    answer = client.get(f"/api/v1/games/{game['id']}", headers={"X-Game-Key": game["key"]})
    assert answer.status_code == 200
    shown = answer.get_json()
    validate(document, "GameState", shown)
    first, second = shown["deals"]
    assert first["version"] == 2
    # The correction the API made: the figures before and after, each side's total.
    correction = next(e for e in first["history"] if e["kind"] == "correction")
    assert correction["version"] == 2 and correction["side"] is None
    assert [s["total"] for s in correction["before"]] == [500, 0]
    assert [s["total"] for s in correction["after"]] == [1000, 0]
    assert correction["after"][0]["entry"] == {"books": {"clean": 2}}
    assert correction["organiser"] is False
    # The side's answers, oldest first, after it; when, in ISO 8601.
    assert first["history"][-2:] == [
        {
            "kind": "agreed",
            "by": "Ann",
            "organiser": False,
            "at": "2026-12-02T14:32:00+00:00",
            "side": 0,
            "version": 2,
            "reason": None,
            "before": None,
            "after": None,
        },
        {
            "kind": "queried",
            "by": "Cat",
            "organiser": False,
            "at": "2026-12-02T14:32:00+00:00",
            "side": 1,
            "version": 2,
            "reason": "Was that book clean?",
            "before": None,
            "after": None,
        },
    ]
    assert first["agreement"] == {
        "version": 2,
        "agreed": False,
        "sides": [
            {"side": 0, "name": "Ann", "state": "agreed"},
            {"side": 1, "name": "Cat", "state": "queried"},
        ],
        "queries": [{"side": 1, "by": "Cat", "reason": "Was that book clean?"}],
    }
    assert second["history"][-1]["kind"] == "agreed"
    # No phone's id anywhere in the answer: it identifies a phone.
    assert PHONE not in answer.get_data(as_text=True)
    assert all("device" not in event for d in shown["deals"] for event in d["history"])


def test_a_deal_agreed_by_every_side_is_agreed_and_an_organisers_correction_says_so(
    app, client, document
):
    game = corrected_game(client)
    add_events(
        app,
        game["id"],
        {
            "deal_number": 1,
            "deal_version": 3,
            "kind": "correction",
            "by": "Olga",
            "before": [
                {"entry": {"books": {"clean": 2}}, "total": 1000},
                {"entry": {}, "total": 0},
            ],
            "after": [{"entry": {"books": {"clean": 3}}, "total": 1500}, {"entry": {}, "total": 0}],
            "reason": "Scorer misread the sheet",
        },
        {"deal_number": 1, "deal_version": 2, "kind": AGREED, "side_position": 0, "by": "Ann"},
        {"deal_number": 1, "deal_version": 2, "kind": AGREED, "side_position": 1, "by": "Cat"},
    )
    with app.app_context():  # the organiser's event: its device marks it
        event = db.session.query(DealEvent).filter_by(game_id=game["id"], by="Olga").one()
        event.device = BY_ORGANISER
        db.session.commit()
    shown = state(client, game)
    validate(document, "GameState", shown)
    first = shown["deals"][0]
    olga = next(e for e in first["history"] if e["by"] == "Olga")
    assert olga["organiser"] is True and olga["reason"] == "Scorer misread the sheet"
    assert [s["side"] for s in olga["after"]] == [0, 1]
    # Both sides agreed version 2, the deal as it stands.
    assert first["agreement"]["agreed"] is True
    assert [s["state"] for s in first["agreement"]["sides"]] == ["agreed", "agreed"]
    assert first["agreement"]["queries"] == []


def test_a_deal_with_no_history_counts_as_agreed(app, client, document):
    """A deal kept before history was: nobody was asked, so nobody is waiting."""
    game = start(client, "club")
    deal(client, game, {"books": {"clean": 1}}, {})
    with app.app_context():
        db.session.query(DealEvent).filter_by(game_id=game["id"]).delete()
        db.session.commit()
    shown = state(client, game)
    validate(document, "GameState", shown)
    assert shown["deals"][0]["history"] == []
    assert shown["deals"][0]["agreement"]["agreed"] is True


def test_every_answer_with_the_game_carries_them(client, document):
    """The deal's own answer (201) and a page of deals further on carry history too."""
    game = start(client, "club")
    saved = deal(client, game, {"books": {"clean": 1}}, {})
    validate(document, "GameState", saved)
    assert {"history", "agreement"} <= set(saved["deals"][0])
    later = client.get(
        f"/api/v1/games/{game['id']}?deals_from=2", headers={"X-Game-Key": game["key"]}
    )
    assert later.status_code == 200 and later.get_json()["deals"] == []


def test_the_document_declares_history_and_agreement(document):
    openapi_spec_validator.validate(document)
    schemas = document["components"]["schemas"]
    deals = schemas["GameState"]["properties"]["deals"]["items"]
    assert deals == {"$ref": "#/components/schemas/GameDeal"}
    deal_item = schemas["GameDeal"]
    assert {"history", "agreement"} <= set(deal_item["required"])
    assert deal_item["properties"]["history"]["items"] == {"$ref": "#/components/schemas/DealEvent"}
    assert deal_item["properties"]["agreement"] == {"$ref": "#/components/schemas/DealAgreement"}
    event = schemas["DealEvent"]
    assert event["properties"]["kind"]["enum"] == [
        "whole",
        "lines",
        "correction",
        "import",
        "agreed",
        "queried",
    ]
    assert "device" not in event["properties"]
    assert set(event["required"]) == {
        "kind",
        "by",
        "organiser",
        "at",
        "side",
        "version",
        "reason",
        "before",
        "after",
    }
    states = schemas["SideAgreement"]["properties"]["state"]["enum"]
    assert states == ["agreed", "queried", "waiting"]
    assert set(schemas["DealAgreement"]["required"]) == {"version", "agreed", "sides", "queries"}
    # A wrong answer is caught by the schema: a state it does not know.
    validator = Draft202012Validator(
        {"$ref": "#/components/schemas/SideAgreement", "components": document["components"]}
    )
    assert not validator.is_valid({"side": 0, "name": "Ann", "state": "maybe"})
