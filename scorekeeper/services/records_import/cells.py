"""One cell at a time: figures, yes or no, names and house rules, each refused with its line
and column."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from scorekeeper.rules import DealEntry, DealRefused
from scorekeeper.rules.terms import MAX_NAME
from scorekeeper.services.names import has_surrogate, name_problem, squeezed
from scorekeeper.services.records import ENTRY_COLUMNS, from_cell
from scorekeeper.services.records_import.refusals import ImportRefused, column_for, show

MAX_DIGITS = 9  # far beyond any honest figure; the engine refuses anything over 1,000,000
# Every house rule of a rule set written out is under 1,000 characters and 3 levels deep
# ({"opening_minimums": [[1, 60], ...]}): these bounds are far beyond, and keep a crafted cell
# from reaching json.loads's recursion (a RecursionError, a 500) or the engine's.
MAX_HOUSE_RULES = 4000
MAX_HOUSE_RULES_DEPTH = 8
YES = ("yes", "true", "1", "y")
NO = ("no", "false", "0", "n", "")
WHOLE = re.compile(r"[0-9]+")


def entry_from_cells(cells: Mapping[str, str], line: int, side: int | None = None) -> DealEntry:
    """An entry from CSV cells (as `entry_cells` writes them), or ImportRefused."""
    data: dict[str, Any] = {}
    for column, name, key in ENTRY_COLUMNS:
        raw = cells.get(column, "").strip()
        if name == "went_out":
            data[name] = read_yes_no(raw, line, column)
            continue
        if not raw:
            continue
        number = read_whole(raw, line, column)
        if key is None:
            data[name] = number
        elif number:  # a count of 0 is no count: the stored entry leaves it out
            data.setdefault(name, {})[key] = number
    try:
        return DealEntry.from_dict(data, side)
    except DealRefused as refused:
        first = refused.refusals[0]
        raise ImportRefused(line, column_for(first.field), str(refused)) from refused


def read_whole(raw: str, line: int, column: str) -> int:
    if raw.startswith("-") and WHOLE.fullmatch(raw[1:]):
        raise ImportRefused(line, column, f"{show(raw)} is negative; figures start at 0.")
    if not WHOLE.fullmatch(raw):
        raise ImportRefused(line, column, f"{show(raw)} is not a whole number.")
    if len(raw.lstrip("0")) > MAX_DIGITS:
        raise ImportRefused(line, column, f"{show(raw)} is far too large.")
    return int(raw)


def read_yes_no(raw: str, line: int, column: str) -> bool:
    answer = raw.strip().lower()
    if answer in YES:
        return True
    if answer in NO:
        return False
    raise ImportRefused(line, column, f"{show(raw)} is not yes or no.")


def read_name(raw: str, line: int, column: str) -> str:
    name = squeezed(from_cell(raw.strip()))
    _visible(name, line, column)
    if len(name) > MAX_NAME:
        raise ImportRefused(line, column, f"{show(name)} is over {MAX_NAME} characters.")
    return name


def read_names(raw: str, line: int, column: str) -> list[str]:
    text = from_cell(raw.strip())
    names = [squeezed(part) for part in text.split(";")] if text.strip() else []
    if any(not name for name in names):
        raise ImportRefused(line, column, f"{show(text)} has a blank name; separate names by ;.")
    for name in names:
        _visible(name, line, column)
        if len(name) > MAX_NAME:
            raise ImportRefused(line, column, f"{show(name)} is over {MAX_NAME} characters.")
    return names


def _visible(name: str, line: int, column: str) -> None:
    """Refuse a name with control, invisible or broken characters (never quoting it)."""
    problem = name_problem(name, f"The {column} cell")
    if problem:
        raise ImportRefused(line, column, problem)


def read_house_rules(raw: str, line: int) -> dict[str, Any]:
    raw = raw.strip()
    if not raw:
        return {}
    if len(raw) > MAX_HOUSE_RULES:
        raise ImportRefused(
            line, "house_rules", f"House rules are over {MAX_HOUSE_RULES:,} characters."
        )
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise ImportRefused(line, "house_rules", f"This is not valid JSON: {exc}.") from None
    except RecursionError:
        value = _TOO_DEEP  # nested past Python's own limit
    if value is _TOO_DEEP or _depth_over(value, MAX_HOUSE_RULES_DEPTH):
        raise ImportRefused(
            line,
            "house_rules",
            f"House rules nest lists or objects over {MAX_HOUSE_RULES_DEPTH} levels deep.",
        )
    if not isinstance(value, dict):
        raise ImportRefused(line, "house_rules", "House rules must be a JSON object, like {}.")
    # A "\ud800" escape is valid JSON but text no page or database can hold: refused here,
    # before the engine's message quotes it.
    if any(has_surrogate(text) for text in _texts(value)):
        broken = "House rules hold broken text (a lone surrogate, \\ud800 to \\udfff)."
        raise ImportRefused(line, "house_rules", broken)
    return value


_TOO_DEEP = object()


def _depth_over(value: Any, limit: int) -> bool:
    """Whether JSON data nests lists or objects deeper than the limit (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def _texts(value: Any) -> list[str]:
    """Every string in JSON data, keys included (called once its depth is known to be small)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for k, v in value.items() for text in (*_texts(k), *_texts(v))]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    return []
