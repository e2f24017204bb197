"""The OpenAPI document: valid, complete for the rule sets, and good enough to make a client.

- It passes openapi-spec-validator.
- Its `RuleSet` schema is made from the engine's dataclass: every field, with its meaning, and
  every preset (and house-ruled ones) validates against it. A field added to `RuleSet` without
  a way to describe it stops the document being made at all.
- Its `HouseRules` schema takes exactly what the engine's checks take: each bound is tried
  against the engine at both ends.
- openapi-python-client makes a client from it without a warning, and that client plays a
  game end to end against the app: start, enter, read, a refusal's pointer, a correction and
  a stale correction's 409.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from scorekeeper.rules import PRESETS, RulesError, RuleSet
from scorekeeper.rules.ruleset import _OVERRIDES, REMOVABLE, RULE_KEYS
from scorekeeper.web.api.openapi import openapi_document
from scorekeeper.web.api.rule_schemas import house_rules_schema

CLIENT_PACKAGE = "handfoot_api_client"


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    """The document as the app serves it (with the limits the app sets)."""
    from scorekeeper import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "doc", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return app.test_client().get("/api/v1/openapi.json").get_json()


def validator(document: dict[str, Any], component: str) -> Draft202012Validator:
    """A JSON Schema validator for one of the document's components."""
    schema = {"$ref": f"#/components/schemas/{component}", "components": document["components"]}
    return Draft202012Validator(schema)


def test_the_document_is_valid_openapi_3_1(document):
    openapi_spec_validator = pytest.importorskip("openapi_spec_validator")
    openapi_spec_validator.validate(document)
    assert document["openapi"] == "3.1.0"


def test_the_limits_the_app_sets_are_documented(document):
    """413 where the app caps a body's size; and without a cap, no 413 is promised."""
    post = document["paths"]["/api/v1/games"]["post"]["responses"]
    assert "262,144 bytes" in post["413"]["description"]  # the API's own, not the upload's
    assert "32 levels" in post["400"]["description"]
    assert "413" not in openapi_document()["paths"]["/api/v1/games"]["post"]["responses"]


# --------------------------------------------------------------------------- RuleSet


def test_every_rule_set_field_is_in_the_schema_with_its_meaning(document):
    """Generated from the dataclass: a field added to RuleSet appears, or this fails."""
    schema = document["components"]["schemas"]["RuleSet"]
    fields = {f.name: f for f in dataclasses.fields(RuleSet)}
    assert set(schema["properties"]) == set(fields)
    assert set(schema["required"]) == set(fields)
    assert schema["additionalProperties"] is False
    for name, field in fields.items():
        assert schema["properties"][name]["description"] == field.metadata["doc"], name


def test_the_rule_set_schema_has_the_right_types(document):
    """Optional numbers, mappings with their known keys, pairs, lists of words and choices."""
    shown = document["components"]["schemas"]["RuleSet"]["properties"]
    assert shown["red_three_down"]["type"] == ["integer", "null"]
    assert shown["card_values"]["additionalProperties"] is False
    assert set(shown["card_values"]["properties"]) == set(RULE_KEYS["card_values"])
    assert shown["opening_minimums"]["items"] == {
        "type": "array",
        "items": {"type": "integer"},
        "minItems": 2,
        "maxItems": 2,
    }
    assert shown["default_decks"]["items"]["maxItems"] == 3
    assert shown["rulings"]["items"] == {"type": "string"}
    assert shown["melded_black_threes"]["enum"] == ["never", "going_out", "always"]
    assert shown["book_counts_as"]["properties"]["clean_sevens"]["enum"] == [
        "clean",
        "dirty",
        "wild",
    ]
    assert shown["house"]["type"] == "boolean"


def test_a_field_of_a_type_the_document_cannot_describe_stops_it():
    """A new kind of field must be taught to web/api/rule_schemas.py, never left out silently."""
    from scorekeeper.web.api import rule_schemas

    with pytest.raises(TypeError, match="RuleSet.odd"):
        rule_schemas._typed(set[int], "odd")
    with pytest.raises(TypeError, match="RuleSet.new_mapping"):
        # A mapping whose keys nobody named: RULE_KEYS must say them.
        rule_schemas._typed(Mapping[str, int], "new_mapping")


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_preset_validates_against_the_rule_set_schema(document, key):
    validator(document, "RuleSet").validate(PRESETS[key].to_dict())


HOUSE_RULED = [
    ("classic", {"going_out_bonus": 200, "card_values": {"joker": 100}}),
    ("casual", {"extra_bonuses": {"exact_22": None}, "red_three_down": 50}),
    ("ten-thousand", {"opening_minimums": [[-500, 15], [0, 50], [2000, 100]]}),
    ("club", {"opening_minimums": [70, 110], "melded_black_threes": "going_out"}),
    ("family", {"target_score": 5000, "end_after_deals": None, "tie_rule": "play_on"}),
]


@pytest.mark.parametrize(("key", "rules"), HOUSE_RULED, ids=[k for k, _ in HOUSE_RULED])
def test_house_ruled_rule_sets_validate_against_both_schemas(document, key, rules):
    validator(document, "HouseRules").validate(rules)
    changed = PRESETS[key].with_house_rules(rules)
    assert changed.house
    validator(document, "RuleSet").validate(changed.to_dict())


def test_a_rule_set_of_the_wrong_shape_is_invalid(document):
    check = validator(document, "RuleSet")
    good = PRESETS["classic"].to_dict()
    for wrong in (
        {**good, "book_bonuses": {"golden": 100}},
        {**good, "opening_minimums": [[1, 50, 3]]},
        {**good, "minimum_basis": "moon"},
        {**good, "extra": 1},
        {k: v for k, v in good.items() if k != "house"},
    ):
        assert not check.is_valid(wrong), wrong


# --------------------------------------------------------------------------- HouseRules


def test_house_rules_are_exactly_what_a_club_may_change(document):
    schema = document["components"]["schemas"]["HouseRules"]
    assert set(schema["properties"]) == set(PRESETS["classic"].house_rule_fields())
    assert schema["additionalProperties"] is False
    assert "required" not in schema
    assert document["components"]["schemas"]["GameSetup"]["properties"]["rules"]["$ref"].endswith(
        "/HouseRules"
    )


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_every_presets_own_house_rule_values_validate(document, key):
    """A preset's values, written as overrides, are house rules the schema takes."""
    validator(document, "HouseRules").validate(PRESETS[key].house_rule_fields())


def _numbers(schema: dict[str, Any]) -> dict[str, Any]:
    """Where in a house rule's schema its numbers are described (the rule, or its values)."""
    if "properties" in schema:
        return next(iter(schema["properties"].values()))
    return schema


def _accepts(name: str, value: Any, rules: RuleSet = PRESETS["classic"]) -> bool:
    """Whether the engine's own check of this house rule takes the value."""
    try:
        _OVERRIDES[name](rules, name, value)
    except RulesError:
        return False
    return True


@pytest.mark.parametrize("name", sorted(set(_OVERRIDES) - {"opening_minimums"}))
def test_each_house_rule_is_bounded_as_the_engine_bounds_it(name):
    """Both ends of every range are taken, one past either is refused; null only where it may."""
    schema = house_rules_schema()["properties"][name]
    numbers = _numbers(schema)
    kinds = numbers["type"] if isinstance(numbers["type"], list) else [numbers["type"]]

    def value(inner: Any) -> Any:
        # A mapping's value goes under one of its kinds.
        return {next(iter(schema["properties"])): inner} if "properties" in schema else inner

    if "integer" in kinds:
        low, high = numbers["minimum"], numbers["maximum"]
        assert _accepts(name, value(low)) and _accepts(name, value(high))
        assert not _accepts(name, value(low - 1)) and not _accepts(name, value(high + 1))
        # Points in fives are refused at the start of a game, not by the schema: games started
        # before that check may hold other numbers, and their state must still conform.
        assert "multipleOf" not in numbers
    if "string" in kinds:
        for choice in numbers["enum"]:
            assert choice is None or _accepts(name, value(choice))
        assert not _accepts(name, value("moon"))
    if "boolean" in kinds:
        assert _accepts(name, value(True)) and not _accepts(name, value(1))
    assert _accepts(name, value(None)) == ("null" in kinds)
    assert ("null" in kinds and "properties" in schema) == (name in REMOVABLE)
    if "properties" in schema:
        assert not _accepts(name, {"golden": numbers.get("minimum", "clean")})


def test_opening_minimums_take_either_written_form():
    schema = house_rules_schema()["properties"]["opening_minimums"]
    by_deal, steps = schema["oneOf"]
    assert by_deal["items"]["type"] == "integer" and steps["items"]["type"] == "array"
    assert _accepts("opening_minimums", [50, 90, 120])
    assert _accepts("opening_minimums", [[1, 50], [3, 100]])
    ten_thousand = PRESETS["ten-thousand"]
    assert _accepts("opening_minimums", [[-100_000, 0], [100_000, 100_000]], ten_thousand)
    assert not _accepts("opening_minimums", [50, 90], ten_thousand)  # by total: pairs only


# --------------------------------------------------------------------------- a generated client


def _generator() -> Path:
    pytest.importorskip("openapi_python_client")
    return Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture(scope="module")
def generated(document, tmp_path_factory) -> tuple[Path, str]:
    """A client package made by openapi-python-client from the document; and what it printed."""
    tool = _generator()
    folder = tmp_path_factory.mktemp("client")
    (folder / "openapi.json").write_text(json.dumps(document))
    # No post hooks: they run ruff from PATH, which the test does not need to lint the client.
    (folder / "config.yaml").write_text("post_hooks: []\n")
    run = subprocess.run(
        [
            str(tool),
            "generate",
            "--path",
            "openapi.json",
            "--config",
            "config.yaml",
            "--meta",
            "none",
            "--output-path",
            CLIENT_PACKAGE,
            "--fail-on-warning",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    printed = run.stdout + run.stderr
    assert run.returncode == 0, printed
    return folder, printed


def test_a_client_is_generated_without_a_warning(generated):
    _, printed = generated
    assert "warning" not in printed.lower(), printed
    assert "error" not in printed.lower(), printed
    assert "not in PATH" not in printed, printed


@pytest.fixture
def api_client(generated, app, monkeypatch):
    """A client of the generated package talking to the test app in process; its models and
    operations."""
    folder, _ = generated
    httpx = pytest.importorskip("httpx")  # the generated client's own dependency
    monkeypatch.syspath_prepend(str(folder))
    package = importlib.import_module(CLIENT_PACKAGE)
    transport = httpx.WSGITransport(app=app)
    client = package.Client(base_url="http://scores.test", httpx_args={"transport": transport})
    models = importlib.import_module(f"{CLIENT_PACKAGE}.models")

    def operation(name: str) -> Any:
        """One operation's module (sync, sync_detailed, ...), named after its operationId."""
        return importlib.import_module(f"{CLIENT_PACKAGE}.api.default.{name}")

    return client, models, operation


def test_the_generated_client_plays_a_game(api_client):
    """Start, enter, read, be refused with a pointer, correct, and meet a stale version's 409."""
    client, models, api = api_client

    briefs = api("list_rulesets").sync(client=client)
    assert {b.key.value for b in briefs} == set(PRESETS)
    cutthroat = api("get_ruleset").sync_detailed("cutthroat", client=client)
    # What the client reads is all there is: nothing is left over or lost on the way.
    assert cutthroat.parsed.to_dict() == json.loads(cutthroat.content)

    setup = models.GameSetup(
        ruleset=models.GameSetupRuleset.CLASSIC,
        sides=[
            models.GameSetupSidesItem(name="Ann & Bob", players=["Ann", "Bob"]),
            models.GameSetupSidesItem(name="Cat & Dan", players=["Cat", "Dan"]),
        ],
        rules=models.HouseRules(going_out_bonus=200),
    )
    started = api("start_game").sync_detailed(client=client, body=setup)
    assert started.status_code == 201, started.content
    game_id, key = started.parsed.id, started.parsed.key

    out = models.Entry(
        books=models.EntryBooks(clean=2, dirty=2, wild=1), went_out=True, melded_points=400
    )
    other = models.Entry(books=models.EntryBooks(clean=1), melded_points=200, leftover_points=60)
    entered = api("enter_deal").sync_detailed(
        game_id, client=client, body=models.DealScores(scores=[out, other]), x_game_key=key
    )
    assert entered.status_code == 201, entered.content

    game = api("get_game").sync(game_id, client=client, x_game_key=key)
    # 2×500 + 2×300 + 1500 + out 200 (the house rule) + 400 = 3700; 500 + 200 − 60 = 640
    assert [side.total for side in game.sides] == [3700, 640]
    assert game.rules.going_out_bonus == 200 and game.rules.house is True
    assert game.house_rules.going_out_bonus == 200
    assert [s.minimum_applied for s in game.deals[0].scores] == [50, 50]
    assert [side.next_opening_minimum for side in game.sides] == [90, 90]
    # Every figure the answer holds is one the document names (none left to the catch-all).
    described = [game, *game.sides, *game.deals, *game.deals[0].scores]
    assert [shown.additional_properties for shown in described] == [{}] * len(described)

    threes = models.Entry(melded_cards=models.EntryMeldedCards(black_three=2))
    refused = api("enter_deal").sync_detailed(
        game_id,
        client=client,
        body=models.DealScores(scores=[models.Entry(), threes]),
        x_game_key=key,
    )
    assert refused.status_code == 422
    pointers = [named.pointer for error in refused.parsed.errors for named in error.inputs]
    assert "/scores/1/melded_cards/black_three" in pointers
    assert all(error.additional_properties == {} for error in refused.parsed.errors)

    again = models.DealScores(
        scores=[out, models.Entry(books=models.EntryBooks(clean=2))], version=1
    )
    corrected = api("correct_deal").sync_detailed(
        game_id, 1, client=client, body=again, x_game_key=key
    )
    assert corrected.status_code == 200, corrected.content
    assert corrected.parsed.deals[0].version == 2
    assert [side.total for side in corrected.parsed.sides] == [3700, 1000]

    # Other figures, made to version 1 too: deal 1 is version 2 now.
    other = models.DealScores(
        scores=[out, models.Entry(books=models.EntryBooks(clean=3))], version=1
    )
    stale = api("correct_deal").sync_detailed(game_id, 1, client=client, body=other, x_game_key=key)
    assert stale.status_code == 409
    assert [[n.pointer for n in e.inputs] for e in stale.parsed.errors] == [["/version"]]


def test_the_generated_client_sends_each_sides_line(api_client):
    """Each side's line by the generated client: kept (200, Parts), then saved (201, GameState)."""
    client, models, api = api_client
    setup = models.GameSetup(
        ruleset=models.GameSetupRuleset.CLASSIC,
        sides=[models.GameSetupSidesItem(name="Us"), models.GameSetupSidesItem(name="Them")],
    )
    started = api("start_game").sync(client=client, body=setup)
    game_id, key = started.id, started.key
    ours = models.PartBody(
        entry=models.Entry(books=models.EntryBooks(clean=1), melded_points=200),
        sent_by="Ann",
        deal=1,
    )
    kept = api("send_line").sync_detailed(game_id, 0, client=client, body=ours, x_game_key=key)
    assert kept.status_code == 200, kept.content
    assert (kept.parsed.deal, kept.parsed.saved) == (1, False)
    assert [(p.name, p.in_, p.sent_by) for p in kept.parsed.parts] == [
        ("Us", True, "Ann"),
        ("Them", False, None),
    ]
    assert kept.parsed.parts[0].entry.melded_points == 200
    listed = api("get_lines").sync(game_id, client=client, x_game_key=key)
    assert listed.to_dict() == kept.parsed.to_dict()

    theirs = models.PartBody(entry=models.Entry(books=models.EntryBooks(dirty=1)), deal=1)
    done = api("send_line").sync_detailed(game_id, 1, client=client, body=theirs, x_game_key=key)
    assert done.status_code == 201, done.content
    # 500 + 200 = 700; 300
    assert [side.total for side in done.parsed.sides] == [700, 300]
    assert [p.in_ for p in done.parsed.parts] == [False, False]
