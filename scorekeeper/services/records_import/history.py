"""Each deal's history read from its cell of a deals file, and kept with the imported game
(issue 40).

A deal whose row carries its history comes in with it as written (the same events in the same
order, each deal at the version its history reached), so each side's agreement or query stands
as it did; then every deal gets one `import` event (`deal_history.imported`), the only one of a
deal from a file written before issue 40. Devices are not in the file (they identify a phone):
the events come in without one, but an organiser's stays an organiser's.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from scorekeeper.plumbing.models import DealEvent, Game
from scorekeeper.plumbing.models.history import CORRECTION
from scorekeeper.rules import DealEntry, DealRefused
from scorekeeper.rules.terms import MAX_DEVICE_NAME
from scorekeeper.services import deal_history
from scorekeeper.services.deal_history import BY_ORGANISER
from scorekeeper.services.history_read import KINDS
from scorekeeper.services.names import has_surrogate
from scorekeeper.services.records import FIGURED, HISTORY_COLUMN
from scorekeeper.services.records_import.cells import _TOO_DEEP, _depth_over
from scorekeeper.services.records_import.refusals import ImportRefused, show

# Far beyond any honest deal's: a correction a day for years, a long organiser's reason.
MOST_EVENTS = 1000
MOST_REASON = 2000
MOST_VERSION = 10**6
MOST_TOTAL = 10**9
# An event nests its figures 5 levels deep ([{"after": [{"entry": {"books": {...}}}]}]).
MOST_DEPTH = 8
FIELDS = ("kind", "side", "by", "organiser", "at", "version", "reason", "before", "after")


@dataclass(frozen=True)
class FileEvent:
    """One event of a deal's history as the file gives it (`side` from 0, as stored)."""

    kind: str
    side: int | None
    by: str
    organiser: bool
    at: datetime
    version: int
    reason: str | None
    before: list[dict[str, Any]] | None
    after: list[dict[str, Any]] | None
    # The file left `after` out: what the deal's rows show, or the next correction's `before`.
    after_left_out: bool = False


def read_history(raw: str, line: int) -> list[FileEvent]:
    """A deal's history from its cell, or ImportRefused naming the event and why."""
    try:
        value = json.loads(raw)
    except ValueError as exc:
        raise ImportRefused(line, HISTORY_COLUMN, f"This is not valid JSON: {exc}.") from None
    except RecursionError:
        value = _TOO_DEEP  # nested past Python's own limit
    if value is _TOO_DEEP or _depth_over(value, MOST_DEPTH):
        raise ImportRefused(
            line,
            HISTORY_COLUMN,
            f"A deal's history nests lists or objects over {MOST_DEPTH} levels deep.",
        )
    if not isinstance(value, list) or not value:
        raise ImportRefused(
            line, HISTORY_COLUMN, "A deal's history is a JSON list of its events, like [{...}]."
        )
    if len(value) > MOST_EVENTS:
        raise ImportRefused(
            line, HISTORY_COLUMN, f"A deal's history has over {MOST_EVENTS:,} events."
        )
    return [_event(each, number, line) for number, each in enumerate(value, start=1)]


def _event(value: Any, number: int, line: int) -> FileEvent:
    def refuse(why: str) -> ImportRefused:
        return ImportRefused(line, HISTORY_COLUMN, f"Event {number} of the history {why}")

    if not isinstance(value, dict):
        raise refuse("is not a JSON object.")
    unknown = next((name for name in value if name not in FIELDS), None)
    if unknown is not None:
        raise refuse(f"has {show(unknown)}, which is not a part of an event.")
    kind = value.get("kind")
    if kind not in KINDS:
        raise refuse(f"is of kind {show(str(kind))}; the kinds are {', '.join(KINDS)}.")
    side = value.get("side")
    if side is not None and (not _whole(side) or side < 1):
        raise refuse("names a side that is not a whole number from 1.")
    by = value.get("by")
    if not isinstance(by, str) or len(by) > MAX_DEVICE_NAME or has_surrogate(by):
        raise refuse(f"needs who (by), in at most {MAX_DEVICE_NAME} characters.")
    organiser = value.get("organiser", False)
    if not isinstance(organiser, bool):
        raise refuse("says whether an organiser did it (organiser) other than true or false.")
    version = value.get("version")
    if not _whole(version) or not 1 <= version <= MOST_VERSION:
        raise refuse("needs the deal's version, a whole number from 1.")
    reason = value.get("reason")
    if reason is not None and (
        not isinstance(reason, str) or len(reason) > MOST_REASON or has_surrogate(reason)
    ):
        raise refuse(f"has a reason that is not text of at most {MOST_REASON:,} characters.")
    return FileEvent(
        kind=kind,
        side=None if side is None else side - 1,
        by=by,
        organiser=organiser,
        at=_moment(value.get("at"), refuse),
        version=version,
        reason=reason,
        before=_figures(value.get("before"), "before", refuse),
        after=_figures(value.get("after"), "after", refuse),
        after_left_out="after" not in value and kind in FIGURED,
    )


def _whole(value: Any) -> bool:
    return type(value) is int


def _moment(value: Any, refuse: Any) -> datetime:
    """An ISO 8601 moment (one with no zone is UTC, as every moment is kept)."""
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise refuse("needs when (at), written as ISO 8601: 2026-12-02T14:05:00+00:00.") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _figures(value: Any, name: str, refuse: Any) -> list[dict[str, Any]] | None:
    """Each side's entry and total before or after, checked as an entry is; None if none."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise refuse(f"has {name} that is not a list of each side's figures.")
    figures = []
    for side, each in enumerate(value, start=1):
        if not isinstance(each, dict) or set(each) - {"entry", "total"}:
            raise refuse(f"has {name} figures of side {side} that are not an entry and a total.")
        total = each.get("total")
        if not _whole(total) or abs(total) > MOST_TOTAL:
            raise refuse(f"has a {name} total of side {side} that is not a whole number.")
        entry = each.get("entry")
        if not isinstance(entry, dict):
            raise refuse(f"has a {name} entry of side {side} that is not an object.")
        try:
            DealEntry.from_dict(entry, side - 1)
        except (DealRefused, TypeError, ValueError) as refused:
            raise refuse(f"has a {name} entry of side {side} refused: {refused}") from None
        figures.append({"entry": entry, "total": total})
    return figures


def check_history(events: list[FileEvent], sides: int, line: int, deal: str) -> None:
    """Refuse a history naming a side the game has not, or figures of another number of sides."""
    for number, event in enumerate(events, start=1):
        if event.side is not None and event.side >= sides:
            raise ImportRefused(
                line, HISTORY_COLUMN, f"Event {number} of {deal} names side {event.side + 1}."
            )
        for figures in (event.before, event.after):
            if figures is not None and len(figures) != sides:
                raise ImportRefused(
                    line,
                    HISTORY_COLUMN,
                    f"Event {number} of {deal} has figures of {len(figures)} sides, not {sides}.",
                )


def keep_history(game: Game, histories: dict[int, list[FileEvent]]) -> None:
    """Add the imported game's history to the session (`deal_history.imported`): each deal's
    from the file first, at the version it reached, then the import's own event."""
    kept: dict[int, list[DealEvent]] = {}
    for deal in game.deals:
        events = histories.get(deal.number)
        if not events:
            continue
        deal.version = max(event.version for event in events)
        afters = _afters(events, deal_history.figures_saved(deal))
        kept[deal.number] = [
            DealEvent(
                deal_version=event.version,
                kind=event.kind,
                side_position=event.side,
                by=event.by,
                device=BY_ORGANISER if event.organiser else None,
                at=event.at,
                before=event.before,
                after=after,
                reason=event.reason,
            )
            for event, after in zip(events, afters, strict=True)
        ]
    deal_history.imported(game, history=kept)


def _afters(events: list[FileEvent], current: list[dict[str, Any]]) -> list[Any]:
    """Each event's `after`, those the file left out put back (as `records.history_cell` left
    them out): the deal's figures as saved, or the next correction's `before`."""
    expected = current
    afters: list[Any] = []
    for event in reversed(events):
        afters.append(expected if event.after_left_out else event.after)
        if event.kind == CORRECTION and event.before is not None:
            expected = event.before
    return afters[::-1]
