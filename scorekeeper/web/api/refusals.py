"""A refusal as the API answers it: every figure refused, why, and where it is in the body."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NoReturn

from flask import abort, jsonify, make_response

from scorekeeper.rules import Refusal
from scorekeeper.rules.terms import MAX_ERRORS_LISTED


@dataclass(frozen=True)
class Body:
    """A request body's shape, as far as an error's pointers lead into it."""

    sides: str  # the list holding one object per side (with `one`: the one side's object)
    fields: tuple[str, ...]  # the figures of the request as a whole
    nested: tuple[str, ...] = ()  # a side's figures that hold named counts ("books.clean")
    one: int | None = None  # a body holding one side's figures alone: that side's index

    def pointer(self, side: int | None, field: str, sent: Any = None) -> str | None:
        """The JSON pointer (RFC 6901) to a figure a refusal names, in the body as sent.

        None for another side's figure in a body of one side's figures: it is not in the body.
        """
        if side is None:
            return pointer(*field.split(".")) if field else ""
        if self.one is not None and side != self.one:
            return None
        head, dot, rest = field.partition(".")
        if self.one is None:
            place: tuple[str | int, ...] = (self.sides, side)
            entry = _item(sent, self.sides, side)
        else:
            place, entry = (self.sides,), sent.get(self.sides) if isinstance(sent, dict) else None
        # A key the client wrote with a dot in it is one key, not a kind inside a figure.
        literal = isinstance(entry, dict) and field in entry
        path = [head, rest] if dot and head in self.nested and not literal else [field]
        return pointer(*place, *(p for p in path if p))

    def of(self, side: int) -> Body:
        """This body as one side's: pointers lead to its figures, another side's to none."""
        return replace(self, one=side)


def pointer(*tokens: str | int) -> str:
    """A JSON pointer to the value these keys and indexes lead to, each escaped (RFC 6901)."""
    return "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)


def _item(sent: Any, name: str, index: int) -> Any:
    """The body's `name`[index], if the body has one."""
    items = sent.get(name) if isinstance(sent, dict) else None
    return items[index] if isinstance(items, list) and 0 <= index < len(items) else None


def refused(refusals: list[Refusal], status: int = 422, into: Body | None = None, sent: Any = None):
    """A 422 (or the given status) naming every refused figure and where it is in the body.

    `into` is the shape of the body the refusals are about (None: they are about no figure of
    a body, but a header, the query or the game); `sent` is the body itself.
    """
    listed = refusals[:MAX_ERRORS_LISTED]
    answer: dict[str, Any] = {"errors": [_error(r, into, sent) for r in listed]}
    if len(refusals) > len(listed):
        # Only the first are written out: a body refused a million times answers in a few KB.
        answer["errors_left_out"] = len(refusals) - len(listed)
    return jsonify(answer), status


def _error(refusal: Refusal, into: Body | None, sent: Any) -> dict[str, Any]:
    """One refusal as the API answers it: the engine's words, and a pointer for each input."""
    if into is None:
        return {**refusal.to_dict(), "inputs": []}
    figures = refusal.figures
    if refusal.inputs is None and refusal.side is None:
        # A refusal of a figure of the whole request (decks, version) is about that figure.
        figures = ((None, refusal.field),) if refusal.field in into.fields else ()
    # Another side's figure is in no body of one side's line: left out (the message names it).
    inputs = [
        {"side": side, "field": name, "pointer": at}
        for side, name in figures
        if (at := into.pointer(side, name, sent)) is not None
    ]
    return {**refusal.to_dict(), "inputs": inputs}


def stop(
    refusals: list[Refusal], status: int = 422, into: Body | None = None, sent: Any = None
) -> NoReturn:
    """Stop the request with `refused`'s answer."""
    abort(make_response(refused(refusals, status, into, sent)))
