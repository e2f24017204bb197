"""Each deal's history (issue 40): written as a deal is entered, corrected or imported, and put
in words for people.

Every way a deal comes to be or changes writes one `DealEvent` in the same transaction as the
deal: a whole deal from one phone (WHOLE), the last side's own line (LINES), a correction
(CORRECTION, with each side's figures before and after, and an organiser's reason), a club's
records file (IMPORT). A side's own line counts as its agreement, and so does a whole deal from
a phone that says which side it is on: each writes an AGREED beside the entry. Agreeing and
querying afterwards are `agreement.py`'s; the API and the club's CSV read the rows through
`events_of` (or `history_read.py`) and put them in words with `words_of`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import bindparam, insert, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealEvent, Game
from scorekeeper.plumbing.models.history import (
    AGREED,
    CORRECTION,
    IMPORT,
    LINES,
    QUERIED,
    WHOLE,
)
from scorekeeper.rules import DealEntry, SideScore
from scorekeeper.rules.terms import signed
from scorekeeper.services.names import phone_name

# How each kind reads in a deal's history ("Entered by Ann, 14:32 UTC, whole deal").
KINDS = {
    WHOLE: "whole deal",
    LINES: "from each side's own line",
    CORRECTION: "corrected",
    IMPORT: "imported",
    AGREED: "agreed",
    QUERIED: "queried",
}
# Who brought a club's records file in: the file names nobody.
IMPORTED_BY = "the club's records"
# Kept as an event's `device` when an organiser (signed in) made it: no phone's id is ever this
# (a phone's is 32 hex digits), so no phone can pass itself off as the organiser.
BY_ORGANISER = "organiser"
# The most characters of an organiser's reason kept (a sentence or two).
MOST_REASON = 500
ARROW = "\u2192"


@dataclass(frozen=True)
class How:
    """How a new deal came in, for its history: the kind, the saving phone, and the sides whose
    agreement came with it (side, who, phone): each side's own line, or the saving phone's side."""

    kind: str = WHOLE
    device: str | None = None
    agreed: tuple[tuple[int, str, str | None], ...] = ()


WHOLE_DEAL = How()


# --- what each side's figures were -----------------------------------------------------------


def figures_of(entries: Sequence[DealEntry], scores: Sequence[SideScore]) -> list[dict[str, Any]]:
    """Each side's entry and total, in the sides' order, as an event keeps them."""
    return [
        {"entry": entry.to_dict(), "total": score.total}
        for entry, score in zip(entries, scores, strict=True)
    ]


def figures_saved(deal: Deal) -> list[dict[str, Any]]:
    """A saved deal's entry and total for each side, in the sides' order."""
    rows = sorted(deal.scores, key=lambda row: row.side_position)
    return [{"entry": dict(row.entry), "total": row.total} for row in rows]


# --- writing ----------------------------------------------------------------------------------

# The hottest write's statement, built once (deals._insert_deal runs it with one row per event).
_NEW_EVENTS = insert(DealEvent.__table__).values(
    game_id=bindparam("game_id"),
    deal_number=bindparam("deal_number"),
    deal_version=bindparam("deal_version"),
    kind=bindparam("kind"),
    side_position=bindparam("side_position"),
    by=bindparam("by"),
    device=bindparam("device"),
    at=bindparam("at"),
    before=bindparam("before", type_=DealEvent.__table__.c.before.type),
    after=bindparam("after", type_=DealEvent.__table__.c.after.type),
    reason=bindparam("reason"),
)


def entered(
    game_id: int,
    number: int,
    how: How,
    by: str | None,
    after: list[dict[str, Any]],
    at: datetime,
) -> None:
    """Write a new deal's entry and the agreements that came with it: one INSERT, no read.

    Run inside the deal's own transaction (deals._insert_deal), which commits it.
    """
    row = {
        "game_id": game_id,
        "deal_number": number,
        "deal_version": 1,
        "kind": how.kind,
        "side_position": None,
        "by": phone_name(by),
        "device": how.device,
        "at": at,
        "before": None,
        "after": after,
        "reason": None,
    }
    agreements = [
        {**row, "kind": AGREED, "side_position": side, "by": phone_name(who), "device": device}
        | {"after": None}
        for side, who, device in how.agreed
    ]
    db.session.execute(_NEW_EVENTS, [row, *agreements])


def corrected(
    game: Game,
    deal: Deal,
    before: list[dict[str, Any]],
    after: list[dict[str, Any]],
    by: str | None,
    *,
    organiser: bool = False,
    reason: str | None = None,
    at: datetime | None = None,
) -> DealEvent:
    """Add a correction's event (the deal's new version, each side's figures before and after,
    an organiser's reason) to the session: the correction commits it."""
    event = DealEvent(
        game_id=game.id,
        deal_number=deal.number,
        deal_version=deal.version,
        kind=CORRECTION,
        side_position=None,
        by=phone_name(by),
        device=BY_ORGANISER if organiser else None,
        before=before,
        after=after,
        reason=reason or None,
    )
    if at is not None:
        event.at = at
    db.session.add(event)
    return event


def imported(
    game: Game,
    by: str = IMPORTED_BY,
    history: Mapping[int, Iterable[DealEvent]] | None = None,
    at: datetime | None = None,
) -> None:
    """Add a club's imported game's history to the session (the import commits it).

    Every deal gets one IMPORT event with its figures. `history` (by deal number) is what the
    file carried of a deal's life before it was exported (`records_import/history.py` reads
    it): those events are kept first, in their order, with this game's id. A game just built
    by `games.record_game` has no id yet: it is flushed first, once.
    """
    if game.id is None:
        db.session.flush()
    for deal in game.deals:
        for kept in (history or {}).get(deal.number, ()):
            kept.game_id, kept.deal_number = game.id, deal.number
            db.session.add(kept)
        event = DealEvent(
            game_id=game.id,
            deal_number=deal.number,
            deal_version=deal.version,
            kind=IMPORT,
            side_position=None,
            by=phone_name(by),
            after=figures_saved(deal),
        )
        if at is not None:
            event.at = at
        db.session.add(event)


def reason_problem(reason: Any) -> str | None:
    """Why an organiser's reason cannot be kept (not text, or too long); None if it can."""
    if reason is None:
        return None
    if not isinstance(reason, str):
        return "reason is the organiser's reason for the correction, in words (text)."
    if len(reason.strip()) > MOST_REASON:
        return (
            f"reason is at most {MOST_REASON:,} characters (this one has "
            f"{len(reason.strip()):,}): say it shorter."
        )
    return None


# --- reading ------------------------------------------------------------------------------------


def events_of(game: Game, number: int | None = None) -> list[DealEvent]:
    """The game's history (or deal `number`'s), in the order it happened: one query."""
    query = select(DealEvent).where(DealEvent.game_id == game.id)
    if number is not None:
        query = query.where(DealEvent.deal_number == number)
    return list(db.session.execute(query.order_by(DealEvent.id)).scalars())


def in_utc(moment: datetime) -> datetime:
    """A moment SQLite gave back without its zone is UTC (every moment is kept in UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


# --- in words ---------------------------------------------------------------------------------


def when(moment: datetime, day: date | None = None) -> str:
    """ "14:32 UTC" on `day` (the deal's first day), else "2 Dec, 14:40 UTC"."""
    moment = in_utc(moment)
    time = f"{moment:%H:%M} UTC"
    return time if moment.date() == day else f"{moment.day} {moment:%b}, {time}"


def day_words(moment: datetime) -> str:
    """ "2 Dec" (the year too if it is not this one's)."""
    moment = in_utc(moment)
    this_year = datetime.now(UTC).year
    return f"{moment.day} {moment:%b}" + (f" {moment.year}" if moment.year != this_year else "")


def _who(event: DealEvent) -> str:
    return f"{event.by} (organiser)" if event.device == BY_ORGANISER else event.by


def changes_words(
    names: Sequence[str], before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]
) -> str:
    """ "Them +1,355 → +1,390" for each side whose total moved; else what changed."""
    moved = [
        f"{name} {signed(was['total'])} {ARROW} {signed(now['total'])}"
        for name, was, now in zip(names, before, after, strict=False)
        if was.get("total") != now.get("total")
    ]
    if moved:
        return ", ".join(moved)
    changed = [
        name
        for name, was, now in zip(names, before, after, strict=False)
        if was.get("entry") != now.get("entry")
    ]
    if changed:
        return f"{' and '.join(changed)}: figures changed, totals as they were"
    return "nothing changed"


def words_of(event: DealEvent, names: Sequence[str], day: date | None = None) -> str:
    """One event in words: "Entered by Ann, 14:32 UTC, whole deal", "Corrected by Bob,
    14:40 UTC: Them +1,355 → +1,390", "Agreed by Cat for Them, 14:41 UTC".

    `names` are the game's sides' names in order; `day` the deal's first day (its time alone
    is said on that day).
    """
    at = when(event.at, day)
    side = names[event.side_position] if event.side_position is not None else None
    for_side = f" for {side}" if side is not None and side != event.by else ""
    kind = event.kind
    if kind in (WHOLE, LINES):
        return f"Entered by {_who(event)}, {at}, {KINDS[kind]}"
    if kind == CORRECTION:
        said = f"Corrected by {_who(event)}, {at}"
        if event.before is not None and event.after is not None:
            said += f": {changes_words(names, event.before, event.after)}"
        return said + (f". Reason: {event.reason}" if event.reason else "")
    if kind == IMPORT:
        return f"Imported from {event.by}, {at}"
    if kind == AGREED:
        return f"Agreed by {_who(event)}{for_side}, {at}"
    if kind == QUERIED:
        said = f": {event.reason}" if event.reason else ""
        return f"Queried by {_who(event)}{for_side}, {at}{said}"
    return f"{event.kind.capitalize()} by {_who(event)}, {at}"


def history_words(game: Game, events: Iterable[DealEvent] | None = None) -> dict[int, list[str]]:
    """Each deal's history in words, by deal number (deals with none are left out): the deal's
    details page shows them. `events`: the game's, if read already (else one query)."""
    names = [side.name for side in game.sides]
    by_deal: dict[int, list[DealEvent]] = {}
    for event in events_of(game) if events is None else events:
        by_deal.setdefault(event.deal_number, []).append(event)
    return {
        number: [words_of(event, names, in_utc(found[0].at).date()) for event in found]
        for number, found in by_deal.items()
    }
