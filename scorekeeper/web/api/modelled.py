"""A request declared once, as a pydantic model: what the document shows, and what is read.

Pydantic checks only the figures whose refusals this API words itself (`Say`, on the field);
a figure with no words of the API's is skipped (`SkipValidation`, or a bound only `shown`),
for the services and the engine to check in words of their own that name the side and the
figure. A refusal's `errors` come from pydantic's error locations, mapped to the figure (and
the side) the body's pointers lead to (refusals.Body).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.json_schema import models_json_schema
from pydantic_core import PydanticCustomError

from scorekeeper.rules import Refusal
from scorekeeper.web.api.answer_base import tidied

M = TypeVar("M", bound=BaseModel)

# A moment as RFC 3339 writes it (section 5.6): a date, a time, and its offset from UTC
# (stricter than pydantic's own datetime, which takes a moment with no offset).
MOMENT = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2})"
)


class Strict(BaseModel):
    """A request's object: JSON's own types only (no "4" for 4, no true for 1)."""

    model_config = ConfigDict(strict=True, frozen=True)


# Hashed by identity: its `shown` is a dict, and pydantic hashes what a union holds.
@dataclass(frozen=True, eq=False)
class Say:
    """A figure this API checks: the words refusing it, and what the document says of it.

    `words` refuse a value of the wrong type or out of bounds, `missing` one needed and not
    sent, `too_long`/`too_short` a list of the wrong length. Format keys: {shown} (the value's
    repr) and {text} (as written), each cut short; {count} (how many items); {number} (the
    side's, from 1) and {name} (the side's name). `about`: the figure's meaning; `shown`:
    bounds the document shows and the services check, in words of their own.
    """

    words: str
    about: str | None = None
    missing: str | None = None
    too_long: str | None = None
    too_short: str | None = None
    shown: Mapping[str, Any] | None = None

    def said(self, kind: str, value: Any, told: Mapping[str, Any]) -> str:
        """The words for what pydantic found (`kind`: its error's type)."""
        words = getattr(self, kind, None) if kind in ("missing", "too_long", "too_short") else None
        return (words or self.words).format_map(
            {
                "shown": _cut(repr(value), 40),
                "text": _cut(str(value), 20),
                "count": len(value) if isinstance(value, list | dict) else 0,
                **told,
            }
        )

    def __get_pydantic_json_schema__(self, core: Any, handler: Any) -> dict[str, Any]:
        """The figure's schema, with its meaning and the bounds shown."""
        about = {"description": self.about} if self.about else {}
        return {**handler(core), **about, **(self.shown or {})}


def _cut(written: str, most: int) -> str:
    """Text as a refusal quotes it: at most `most` characters, cut with an ellipsis."""
    return written if len(written) <= most else written[: most - 3] + "..."


class Unfit(Exception):
    """Figures of a request that this API refuses before any service reads them."""

    def __init__(self, refusals: list[Refusal]) -> None:
        super().__init__("; ".join(r.message for r in refusals))
        self.refusals = refusals


def read(model: type[M], sent: Any, sides: str | None = None) -> M:
    """The request's figures as `model` reads them; Unfit naming every figure it refuses.

    `sides`: the figure holding one object per side, whose refusals name the side.
    """
    try:
        return model.model_validate(sent)
    except ValidationError as error:
        raise Unfit(_refusals(model, error, sent, sides)) from None


def _refusals(model: type[BaseModel], error: ValidationError, sent: Any, sides: str | None):
    """One refusal for each figure pydantic refused (the first of its errors), in its words."""
    refusals: dict[tuple[int | None, str], Refusal] = {}
    for found in error.errors(include_url=False):
        where, side, told = found["loc"], None, {}
        owner, name = model, str(where[0]) if where else ""
        if sides is not None and where[:1] == (sides,) and len(where) > 2:
            side, name = int(where[1]), str(where[2])
            owner = _item_model(model, sides)
            one = sent[sides][side]
            told = {"number": side + 1, "name": one.get("name") if isinstance(one, dict) else ""}
        # A figure is named as the request names it (its alias: `from`, a Python keyword).
        fields = {field.alias or each: field for each, field in owner.model_fields.items()}
        if (side, name) in refusals or name not in fields:
            continue
        say = next((m for m in fields[name].metadata if isinstance(m, Say)), None)
        if say is None:
            raise TypeError(f"{owner.__name__}.{name} is checked but has no words: add a Say.")
        value = _at(sent, where[:3] if side is not None else where[:1])
        refusals[(side, name)] = Refusal(side, name, say.said(found["type"], value, told))
    return list(refusals.values())


def _item_model(model: type[BaseModel], sides: str) -> type[BaseModel]:
    """The model of one item of the list `sides` (a side of a new game)."""
    (item,) = model.model_fields[sides].annotation.__args__
    return item


def _at(sent: Any, where: tuple[Any, ...]) -> Any:
    """The value sent at a location (None if there is none)."""
    for step in where:
        try:
            sent = sent[step]
        except (KeyError, IndexError, TypeError):
            return None
    return sent


def read_query(model: type[M], args: Mapping[str, str]) -> M:
    """A query string's figures; an empty value is one not sent, but for a figure with a
    default: that one is read as sent (and refused), and only when left out is it the default."""
    fields = {field.alias or name: field for name, field in model.model_fields.items()}
    defaulted = {name for name, field in fields.items() if field.default is not None}
    return read(model, {k: v for k, v in args.items() if v != "" or k in defaulted})


def digits(most: int):
    """A query's whole number as written in digits (no longer than `most` is written); any
    other text is left as text, for the field's strict type to refuse in its words."""

    def whole(text: Any) -> Any:
        if isinstance(text, str) and re.fullmatch(rf"-?[0-9]{{1,{len(str(most))}}}", text):
            return int(text)
        return text

    return whole


def moment(text: Any) -> Any:
    """An RFC 3339 date-time, in UTC (None: not sent); refused if it is none."""
    if text is None:
        return None
    try:
        if isinstance(text, str) and MOMENT.fullmatch(text):
            return datetime.fromisoformat(text.upper()).astimezone(UTC)
    except (ValueError, OverflowError):
        pass  # a 13th month, a 61st second, or a moment before year 1 in UTC
    raise PydanticCustomError("format", "not an RFC 3339 date-time")


def day(text: Any) -> Any:
    """A date written like 2026-04-30 (None: not sent); refused if it is none."""
    if text is None:
        return None
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError):
        raise PydanticCustomError("format", "not a date") from None


def request_schemas(models: dict[str, type[BaseModel]]) -> dict[str, dict[str, Any]]:
    """The document's schemas of the request models, by name; a model one of them holds (a
    side of a new game, an entry's books) is written out in place, as a client names it."""
    _, generated = models_json_schema(
        [(model, "validation") for model in models.values()], ref_template="{model}"
    )
    parts = generated["$defs"]
    named = {model.__name__: name for name, model in models.items()}
    return {named[key]: tidied(parts[key], False, parts, named) for key in named}


def query_parameters(model: type[BaseModel]) -> list[dict[str, Any]]:
    """A query model's figures as the document's parameters, each with its meaning."""
    schema = tidied(model.model_json_schema(by_alias=True), False, {}, {})
    shown = []
    for name, figure in schema["properties"].items():
        words = {"description": figure.pop("description")} if "description" in figure else {}
        needed = {"required": True} if name in schema.get("required", ()) else {}
        shown.append({"name": name, "in": "query", **needed, **words, "schema": figure})
    return shown


def said(model: type[BaseModel], name: str) -> str:
    """A figure's words (its Say), for a view that refuses it as the model would: needed."""
    return next(m for m in model.model_fields[name].metadata if isinstance(m, Say)).words
