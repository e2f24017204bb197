"""What every answer of the API is made of: a pydantic model per shape (a game's in answers.py,
a deal's history in history_answers.py, a club's in club_answers.py). Each answer is built as
its model and sent as the JSON the model writes (`answered`), and the document's schemas of the
answers are generated from the same models (`components`), so a shape is declared once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Annotated, Any

from flask import Response, current_app
from pydantic import BaseModel, ConfigDict, SkipValidation, WithJsonSchema
from pydantic.json_schema import models_json_schema

# Where the document keeps its schemas: each model's is listed there under the model's name.
REF_TEMPLATE = "#/components/schemas/{model}"
# A schema of the document's that no answer model declares (the request side's Entry, the
# engine's RuleSet and HouseRules): marked while pydantic writes, made a $ref after (`tidied`),
# since pydantic follows every $ref it meets to a model of its own.
ELSEWHERE = "x-elsewhere"
# The types of a plain figure: one that may be null is written `type: [..., "null"]`.
PLAIN = ("integer", "number", "string", "boolean")


def declared(name: str) -> Any:
    """The JSON object of a schema declared outside the answer models, referred to by `name`."""
    # Not checked again here: the engine wrote it (an entry's or a rule set's to_dict).
    return Annotated[dict[str, Any], SkipValidation, WithJsonSchema({ELSEWHERE: name})]


def optional(*names: str) -> Callable[[dict[str, Any]], None]:
    """A model's schema hook: these fields are in every answer, yet not promised (old names)."""

    def unpromised(schema: dict[str, Any]) -> None:
        schema["required"] = [name for name in schema["required"] if name not in names]

    return unpromised


class Answer(BaseModel):
    """An object the API answers with: every field is in every answer, unless its model says."""

    # `in` is a keyword: a field may be called otherwise, and answer by its alias. A figure
    # no model declares is a mistake of the code building the answer, not sent unseen. A
    # record of the services' whose names are the answer's is read as it is (from_attributes).
    model_config = ConfigDict(
        serialize_by_alias=True, validate_by_name=True, extra="forbid", from_attributes=True
    )


def answered(answer: Answer | Sequence[Answer]) -> Response:
    """An answer (or a list of them) as the API sends it: JSON written by its model."""
    # pydantic's own writer, not jsonify's json module: a game's page of deals in a third of
    # the time, which pays for building the models (the keys in the models' order, not sorted).
    if isinstance(answer, Answer):
        text = answer.model_dump_json()
    else:
        text = "[" + ",".join(each.model_dump_json() for each in answer) + "]"
    return current_app.response_class(text + "\n", mimetype="application/json")


def components(*models: type[Answer]) -> dict[str, dict[str, Any]]:
    """The document's schemas of these models and of every model they hold, by name."""
    _, generated = models_json_schema(
        [(model, "serialization") for model in models], ref_template=REF_TEMPLATE
    )
    shown = {name: tidied(schema) for name, schema in generated.get("$defs", {}).items()}
    for schema in shown.values():
        if "description" in schema:
            # A model's description is its docstring: on one line, as the document writes it.
            schema["description"] = " ".join(schema["description"].split())
    return shown


def tidied(
    schema: Any,
    answer: bool = True,
    parts: dict[str, Any] | None = None,
    named: dict[str, str] | None = None,
) -> Any:
    """A generated schema as the document writes it: no titles (names a client generator would
    make classes of), an answer's defaults dropped and a request's null ones, a nullable figure
    as `type: [..., "null"]`, the schemas declared elsewhere referred to. A request's model
    (`named`, by pydantic's key) is referred to by its name, a part of one (`parts`) written
    out in place."""
    if isinstance(schema, list):
        return [tidied(each, answer, parts, named) for each in schema]
    if not isinstance(schema, dict):
        return schema
    again = {"answer": answer, "parts": parts, "named": named}
    if ELSEWHERE in schema:
        schema = {**schema, "$ref": REF_TEMPLATE.format(model=schema[ELSEWHERE])}
        del schema[ELSEWHERE]
    if not schema.get("$ref", "#").startswith("#"):
        key, rest = schema["$ref"], {k: v for k, v in schema.items() if k != "$ref"}
        inner = {"$ref": REF_TEMPLATE.format(model=named[key])} if key in named else parts[key]
        return {**tidied(inner, **again), **tidied(rest, **again)}
    shown = {
        key: value if key in ("enum", "default", "required") else tidied(value, **again)
        for key, value in schema.items()
        if key != "title"
        and not (key == "default" and (answer or value is None))
        # Forbidden to the code that builds an answer; a client reading one may meet more.
        and not (answer and key == "additionalProperties" and value is False)
    }
    if "properties" in schema:
        shown["properties"] = {k: tidied(v, **again) for k, v in schema["properties"].items()}
    either = shown.get("anyOf", [])
    if len(either) == 2 and either[1] == {"type": "null"} and either[0].get("type") in PLAIN:
        # A plain figure or null: one schema, as JSON Schema writes it.
        kind = shown.pop("anyOf")[0]
        shown = {**kind, **shown, "type": [kind["type"], "null"]}
    return shown
