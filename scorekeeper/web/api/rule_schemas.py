"""The schemas of a rule set and of house rules, made from the engine's `RuleSet` dataclass.

Its fields, their types and the meaning each carries are the engine's: a rule added there
appears in the document without a word written twice, and a field of a type this module cannot
describe stops the document being made.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from typing import Any, Union, get_args, get_origin, get_type_hints

from scorekeeper.rules import PRESETS, RuleSet
from scorekeeper.rules.ruleset import (
    GOING_OUT_KINDS,
    MINIMUM_BASES,
    REMOVABLE,
    RULE_BOUNDS,
    RULE_KEYS,
    TIE_RULES,
)
from scorekeeper.rules.terms import MAX_RULE_NUMBER, MELDED_BLACK_THREES

# The choices each worded rule (or a mapping's values) takes, each from its home in the engine.
RULE_CHOICES: dict[str, tuple[str, ...]] = {
    "key": tuple(PRESETS),
    "minimum_basis": MINIMUM_BASES,
    "tie_rule": TIE_RULES,
    "melded_black_threes": tuple(MELDED_BLACK_THREES),
    "book_counts_as": GOING_OUT_KINDS,
}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with null allowed beside it."""
    shown = {**schema, "type": [schema["type"], "null"]}
    if "enum" in schema:
        shown["enum"] = [*schema["enum"], None]
    return shown


def _typed(hint: Any, name: str, *, house: bool = False) -> dict[str, Any]:
    """The JSON schema of a RuleSet field's type; `house`: as a house rule overrides it."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType) and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        return _nullable(_typed(inner, name, house=house))
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        if not house:
            return {"type": "integer"}
        # Points must also be multiples of 5 (refused with 422 otherwise); the schema does not
        # say so with multipleOf, because games started before that check may hold others.
        low, high = RULE_BOUNDS.get(name, (0, MAX_RULE_NUMBER))
        return {"type": "integer", "minimum": low, "maximum": high}
    if hint is str:
        choices = RULE_CHOICES.get(name.partition(".")[0])
        return {"type": "string", **({"enum": list(choices)} if choices else {})}
    if origin is Mapping and name in RULE_KEYS:
        value = _typed(args[1], f"{name}.*", house=house)
        if house and name in REMOVABLE:
            value = _nullable(value)
        return {
            "type": "object",
            "properties": {key: value for key in RULE_KEYS[name]},
            "additionalProperties": False,
        }
    if origin is tuple and args[-1:] == (Ellipsis,):
        return {"type": "array", "items": _typed(args[0], name, house=house)}
    if origin is tuple and len(set(args)) == 1:
        # A fixed number of numbers of one kind; the field's description says which is which.
        # (Not prefixItems: schemathesis 4 cannot check an answer against it, and
        # openapi-python-client refuses the `items: false` that would close it.)
        return {
            "type": "array",
            "items": _typed(args[0], name, house=house),
            "minItems": len(args),
            "maxItems": len(args),
        }
    raise TypeError(
        f"RuleSet.{name}: no JSON schema for {hint!r}; teach web/api/rule_schemas.py it."
    )


def ruleset_schema() -> dict[str, Any]:
    """Every field of a rule set as the API shows it, each with its meaning."""
    hints = get_type_hints(RuleSet)
    fields = dataclasses.fields(RuleSet)
    return {
        "type": "object",
        "description": "A rule set: every number and choice of one rulebook, as the engine "
        "scores by it",
        "required": [f.name for f in fields],
        "properties": {
            f.name: {**_typed(hints[f.name], f.name), "description": f.metadata["doc"]}
            for f in fields
        },
        "additionalProperties": False,
    }


def _minimums_schema() -> dict[str, Any]:
    """The two ways a house rule writes an opening-minimum schedule."""
    minimum = {"type": "integer", "minimum": 0, "maximum": MAX_RULE_NUMBER}
    # A step's "from" may be a negative total (a side below 0); its minimum may not.
    number = {"type": "integer", "minimum": -MAX_RULE_NUMBER, "maximum": MAX_RULE_NUMBER}
    return {
        "oneOf": [
            {
                "type": "array",
                "minItems": 1,
                "items": minimum,
                "description": "Minimums by deal: the first for deal 1, the next for deal 2, "
                "and so on; the last holds for every deal after. Only where the rule set's "
                "minimum_basis is 'deal'.",
            },
            {
                "type": "array",
                "minItems": 1,
                "items": {"type": "array", "items": number, "minItems": 2, "maxItems": 2},
                "description": "[from, minimum] steps in rising order, each from once: from a "
                "deal number, or from a running total where minimum_basis is 'total' (which "
                "may be negative); each step holds until the next. A minimum is 0 or more, "
                "a multiple of 5.",
            },
        ]
    }


def house_rules_schema() -> dict[str, Any]:
    """The rules a club may change (RuleSet.house_rule_fields), each as an override takes it."""
    hints = get_type_hints(RuleSet)
    docs = {f.name: f.metadata["doc"] for f in dataclasses.fields(RuleSet)}
    some_rules = next(iter(PRESETS.values()))
    properties: dict[str, Any] = {}
    for name in some_rules.house_rule_fields():
        if name == "opening_minimums":
            schema = _minimums_schema()
        else:
            schema = _typed(hints[name], name, house=True)
        words = docs[name]
        if name in RULE_KEYS:
            words += ". Only the kinds given change; the others keep the rule set's value"
        if name in REMOVABLE:
            words += "; null takes a kind out (it is then not played)"
        properties[name] = {**schema, "description": words}
    return {
        "type": "object",
        "description": "House rules: changes to the preset, each optional; what is not given "
        "keeps the preset's value. Points are multiples of 5, as every card is.",
        "properties": properties,
        "additionalProperties": False,
    }
