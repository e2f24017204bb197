"""The rule sets, and this API's own OpenAPI document."""

from __future__ import annotations

from flask import abort, jsonify, request, url_for

from scorekeeper import rules as engine
from scorekeeper.web.api.answer_base import answered
from scorekeeper.web.api.answers import RulesetBrief
from scorekeeper.web.api.game_requests import ref
from scorekeeper.web.api.openapi import openapi_document
from scorekeeper.web.api.operations import answer, errors, route
from scorekeeper.web.api.reading import MAX_BRACKETS, MAX_DEPTH


@route(
    "GET",
    "/openapi.json",
    "getOpenapiDocument",
    "This document",
    answers={"200": answer({"type": "object"}, "The OpenAPI document")},
)
def openapi():
    """The OpenAPI document of this API."""
    # What bodies.py allows this request is what it allows every request of this API.
    return jsonify(openapi_document(request.max_content_length, MAX_DEPTH, MAX_BRACKETS))


@route(
    "GET",
    "/rulesets",
    "listRulesets",
    "Every rule set",
    answers={
        "200": answer({"type": "array", "items": ref("RulesetBrief")}, "The presets, in brief")
    },
)
def rulesets():
    """Every preset, in brief."""
    return answered(
        [
            RulesetBrief(
                key=r.key, name=r.name, summary=r.summary, url=url_for(".ruleset", key=r.key)
            )
            for r in engine.PRESETS.values()
        ]
    )


@route(
    "GET",
    "/rulesets/<key>",
    "getRuleset",
    "One rule set with all its parameters",
    answers={
        "200": answer(ref("RuleSet"), "Every parameter of the preset"),
        "404": errors("No rule set with that key"),
    },
)
def ruleset(key: str):
    """One preset with every parameter."""
    if key not in engine.PRESETS:
        abort(404)
    return jsonify(engine.PRESETS[key].to_dict())
