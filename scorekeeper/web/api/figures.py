"""A figure of a request, declared once: as the OpenAPI document shows it, and as it is read.

A figure's `schema` is what the document says of it. Its `words` are the refusals this API
gives itself: one for each keyword of the schema it checks, tried in order; the keywords with
no words (a name's length, the decks a game can hold, every figure of a deal's entry) are for
the services and the engine to check, in words of their own that name the side and the figure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from copy import copy
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from scorekeeper.rules import Refusal

# A moment as RFC 3339 writes it (section 5.6): a date, a time, and its offset from UTC.
MOMENT = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2})"
)
# The JSON type of each Python value a body parses to (bool first: it is an int to Python).
JSON_TYPES: tuple[tuple[type, str], ...] = (
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
    (type(None), "null"),
)


def _moment(text: str) -> datetime | None:
    """An RFC 3339 date-time, in UTC; None if it is none."""
    try:
        if MOMENT.fullmatch(text):
            return datetime.fromisoformat(text.upper()).astimezone(UTC)
    except (ValueError, OverflowError):
        pass  # a 13th month, a 61st second, or a moment before year 1 in UTC
    return None


def _date(text: str) -> date | None:
    """A date written like 2026-04-30; None if it is none."""
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


# The formats the API reads, each to the value it stands for (None: not of the format).
FORMATS: dict[str, Callable[[str], Any]] = {"date-time": _moment, "date": _date}


def json_type(value: Any) -> str:
    """The JSON type of a parsed value."""
    return next(name for kind, name in JSON_TYPES if isinstance(value, kind))


def _types(schema: Mapping[str, Any]) -> list[str]:
    """The JSON types a schema takes (its `type`, one or a list)."""
    kinds = schema["type"]
    return kinds if isinstance(kinds, list) else [kinds]


def _keeps(keyword: str, schema: Mapping[str, Any], value: Any) -> bool:
    """Whether a value keeps one keyword of a schema; as JSON Schema has it, a bound holds only
    for values of its kind (a list's length for a list, a number's least for a number)."""
    bound = schema[keyword]
    number = json_type(value) in ("integer", "number")
    match keyword:
        case "type":
            return json_type(value) in _types(schema)
        case "minimum":
            return not number or value >= bound
        case "maximum":
            return not number or value <= bound
        case "minItems":
            return not isinstance(value, list) or len(value) >= bound
        case "maxItems":
            return not isinstance(value, list) or len(value) <= bound
        case "maxProperties":
            return not isinstance(value, dict) or len(value) <= bound
        case "items":
            return not isinstance(value, list) or all(_keeps("type", bound, v) for v in value)
        case "format":
            return not isinstance(value, str) or FORMATS[bound](value) is not None
    raise ValueError(f"The API checks no '{keyword}' itself: teach web/api/figures.py it.")


def _shown(value: Any, most: int, text: Callable[[Any], str]) -> str:
    """A value as a refusal quotes it: at most `most` characters, cut with an ellipsis."""
    written = text(value)
    return written if len(written) <= most else written[: most - 3] + "..."


@dataclass(frozen=True)
class Figure:
    """One figure of a request body or query: its schema, and the words refusing it.

    `words` maps a keyword of the schema ("type", "maxItems", ..., or "required") to the
    refusal's words, a format string given the schema's keywords ({maxItems}), the value as
    sent ({shown}: its repr, {text}: as written, each cut short; {count}: how many items),
    and whatever the reader tells ({number}, {name}).
    """

    schema: dict[str, Any]
    words: dict[str, str] = field(default_factory=dict)
    required: bool = False

    def __post_init__(self) -> None:
        for keyword in self.words:
            # Words for a keyword the document does not show would refuse what it allows.
            if keyword != "required" and keyword not in self.schema:
                raise ValueError(f"Words for '{keyword}', which the figure's schema lacks.")

    def problem(self, value: Any, written: Any = None, **told: Any) -> str | None:
        """Why this API refuses a value sent (None: it takes it, as far as it checks itself);
        `written`: the value as the request wrote it, if read from text."""
        for keyword, refusal in self.words.items():
            if keyword != "required" and not _keeps(keyword, self.schema, value):
                return self.say(refusal, value if written is None else written, **told)
        return None

    def unsent(self, needed: bool = False, **told: Any) -> str | None:
        """Why this API refuses the figure not being sent (None: it may be left out);
        `needed`: the request needs it, though the schema leaves it out of `required`."""
        refusal = self.words.get("required", self.words.get("type"))
        return self.say(refusal, None, **told) if (self.required or needed) and refusal else None

    def say(self, refusal: str, value: Any, **told: Any) -> str:
        """The refusal's words, told the schema's bounds, the value and what the reader tells."""
        known = {k: v for k, v in self.schema.items() if isinstance(v, int | str)}
        return refusal.format_map(
            {
                **known,
                "shown": _shown(value, 40, repr),
                "text": _shown(value, 20, str),
                "count": len(value) if isinstance(value, list | dict) else 0,
                **told,
            }
        )

    def value(self, sent: Any) -> Any:
        """The value a sent figure stands for (a moment, a date): as sent, for most."""
        if isinstance(sent, str) and "format" in self.schema:
            return FORMATS[self.schema["format"]](sent)
        return sent


class Unfit(Exception):
    """Figures of a request that this API refuses before any service reads them."""

    def __init__(self, refusals: list[Refusal]) -> None:
        super().__init__("; ".join(r.message for r in refusals))
        self.refusals = refusals


MISSING = object()  # a figure not sent at all


@dataclass(frozen=True)
class Shape:
    """An object a request sends (a body, a side of one, a query): its figures, by name.

    A figure sent empty (null in a body, an empty value in a query) is one not sent, but for a
    figure with a default: that one is read as sent, and only when left out is it the default.
    """

    figures: dict[str, Figure]
    description: str | None = None
    closed: bool = False  # no figure but these (additionalProperties: false)
    query: bool = False  # a query string's: every value is text, numbers written in digits

    def read(
        self, sent: Any, name: str, /, side: int | None = None, needed: bool = False, **told: Any
    ) -> Any:
        """The figure `name` of what was sent (None if not sent); Unfit if this API refuses it.

        `side`: the side the object is of (its refusal names the side), if it is one side's;
        `needed`: this request needs the figure, though others may leave it out.
        """
        figure = self.figures[name]
        value = sent.get(name, MISSING) if isinstance(sent, Mapping) else MISSING
        empty = value in ("", None) if self.query else value is None
        if value is MISSING or (empty and "default" not in figure.schema):
            if "default" in figure.schema:
                return copy(figure.schema["default"])
            problem, value = figure.unsent(needed, **told), None
        elif self.query:
            written, value = value, _from_text(figure.schema, value)
            problem = figure.problem(value, written, **told)
        else:
            problem = figure.problem(value, **told)
        if problem is not None:
            raise Unfit([Refusal(side, name, problem)])
        return None if value is None else figure.value(value)

    def schema(self) -> dict[str, Any]:
        """The object's JSON schema, as the document shows it."""
        schema: dict[str, Any] = {"type": "object"}
        if self.description:
            schema["description"] = self.description
        required = [name for name, figure in self.figures.items() if figure.required]
        if required:
            schema["required"] = required
        schema["properties"] = {name: figure.schema for name, figure in self.figures.items()}
        if self.closed:
            schema["additionalProperties"] = False
        return schema

    def parameters(self) -> list[dict[str, Any]]:
        """A query's figures as the document's parameters, each with its meaning."""
        shown = []
        for name, figure in self.figures.items():
            schema = dict(figure.schema)
            described = (
                {"description": schema.pop("description")} if "description" in schema else {}
            )
            required = {"required": True} if figure.required else {}
            shown.append({"name": name, "in": "query", **required, **described, "schema": schema})
        return shown


def _from_text(schema: Mapping[str, Any], text: str) -> Any:
    """A query's value as its schema's type: a whole number, when written as one in digits
    (no longer than the schema's maximum is written); else the text, to be refused."""
    if "integer" in _types(schema):
        digits = len(str(schema.get("maximum", 10**18)))
        if re.fullmatch(rf"-?[0-9]{{1,{digits}}}", text):
            return int(text)
    return text
