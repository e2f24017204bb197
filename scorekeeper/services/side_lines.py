"""Each side enters its own line of the next deal, on its own phone, at the same time.

A side's line is kept as that side's part of the next deal (a draft, not a deal). When the last
side's line arrives, the deal is checked as a whole and saved once, by `deals.save_next_deal`
under the lock the line took, whichever phone sent last. Every write to a game's next deal (a
line, or a whole deal from one phone) first locks the game's row, so two last lines arriving at
once on two app processes are taken in turn: the second sees the first and saves the deal; the
deal table's one row per number is the last guard.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import DealPart, Game
from scorekeeper.rules import DealEntry, DealRefused, Refusal
from scorekeeper.services import access, deal_history, deals, games, live, table_news
from scorekeeper.services.names import phone_name


@dataclass(frozen=True)
class Line:
    """One side's line of the next deal as the table sees it: in (with its figures) or not yet."""

    side: int
    name: str
    entry: DealEntry | None = None
    sent_by: str | None = None
    mine: bool = False
    problem: str | None = None
    entered_at: datetime | None = None

    @property
    def is_in(self) -> bool:
        """Whether the side has sent its line."""
        return self.entry is not None

    def as_json(self) -> dict[str, Any]:
        """The line as the API gives it."""
        return {
            "side": self.side,
            "name": self.name,
            "in": self.is_in,
            "sent_by": self.sent_by,
            "mine": self.mine,
            "problem": self.problem,
            "entry": self.entry.to_dict() if self.entry is not None else None,
        }


# --- outcomes (besides deals.Saved, Refused, SavedMeanwhile, Ended, LimitReached, NotAllowed) --


@dataclass(frozen=True)
class LineKept:
    """The side's line is in; the deal waits for the other sides' lines."""

    number: int
    lines: list[Line]


@dataclass(frozen=True)
class LaterLineKept:
    """Another phone sent a line for this side entered later than this one: it stands."""

    line: Line
    number: int
    # When the line refused was entered: the gap is told, not the time (the server knows no
    # phone's time zone).
    yours: datetime

    @property
    def message(self) -> str:
        """In words for the person, or the client."""
        return (
            f"{self.line.sent_by} sent a line for {self.line.name} entered "
            f"{_gap(self.yours, self.line.entered_at)} after yours, so theirs is kept and yours "
            "was not. Send yours again to put it in place of theirs."
        )


def _gap(earlier: datetime, later: datetime | None) -> str:
    """How long after `earlier` `later` was, in the words a person would use."""
    if later is None:
        return "a moment"
    seconds = max(1, round((_aware(later) - _aware(earlier)).total_seconds()))
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60), ("second", 1)):
        if seconds >= size:
            count = seconds // size
            return f"{count} {unit}{'s' * (count != 1)}"
    return "a moment"


@dataclass(frozen=True)
class NoSuchSide:
    """A line for a side the game does not have."""

    side: int


Outcome = deals.Outcome | LineKept | LaterLineKept | NoSuchSide


# --- reading the lines in ------------------------------------------------------------------


def lines_of(game: Game, device: str | None = None) -> list[Line]:
    """Every side's line of the next deal: in, with who sent it, or not yet."""
    number = games.progress_of(game).next_deal
    return lines_from(game, deals.lines_in(game, number), device)


def lines_from(game: Game, rows: Mapping[int, DealPart], device: str | None = None) -> list[Line]:
    """The lines, one per side, from the rows in."""
    lines = []
    for side in game.sides:
        row = rows.get(side.position)
        if row is None:
            lines.append(Line(side.position, side.name))
            continue
        lines.append(
            Line(
                side.position,
                side.name,
                DealEntry.from_dict(row.entry),
                row.sent_by,
                bool(device) and row.device == device,
                row.problem,
                row.entered_at,
            )
        )
    return lines


def running(game: Game, lines: Sequence[Line]) -> list[engine.SideScore]:
    """What each line in so far scores in the deal (a side not in counts as a blank line)."""
    entries = [line.entry or DealEntry() for line in lines]
    rules, sides = games.rules_of(game), games.sides_of(game)
    return engine.score_deal(rules, game.decks, sides, entries, check=False)


# --- sending a line ------------------------------------------------------------------------


def send_line(
    game: Game,
    level: access.Level,
    side: int,
    data: Any,
    *,
    opened_for: int,
    device: str | None = None,
    sent_by: str | None = None,
    entered_at: datetime | None = None,
) -> Outcome:
    """Keep one side's line of the next deal, and save the deal when it is the last one in.

    `opened_for` is the deal the line was entered for: a line for a deal saved meanwhile is
    never kept for the next one. `sent_by` is the sending phone's name (`names.phone_name`
    cleans it). `entered_at` is when the phone says it was entered, taken as now if it is later
    than now.
    """
    sent_by = phone_name(sent_by)
    if not access.may_enter(game, level):
        return deals.NotAllowed(access.TO_ENTER)
    if not 0 <= side < len(game.sides):
        return NoSuchSide(side)
    name = game.sides[side].name
    try:
        entry = DealEntry.from_dict(data, side)
    except DealRefused as exc:
        return deals.Refused([r.of_side(name) for r in exc.refusals])
    deals.lock(game)
    so_far = games.progress_of(game)
    stale = deals.stale_number(game, so_far, opened_for, (side, entry))
    if stale is not None:
        return stale
    closed = deals.no_deal_now(game, so_far)
    if closed is not None:
        return closed
    number = so_far.next_deal
    # No line is entered after it arrives: a moment ahead of the server's clock (a phone's
    # clock running fast, or a client's choosing) counts as now, so it cannot outlast a line
    # sent after it.
    now = games.now()
    when = now if entered_at is None else min(entered_at, now)
    rows = deals.lines_in(game, number)
    current = rows.get(side)
    if current is not None:
        same = current.entry == entry.to_dict()
        if same and current.device == device and current.problem is None:
            return LineKept(number, lines_from(game, rows, device))  # the same line again
        if _aware(current.entered_at) > when:
            if same or (device and current.device == device):
                return LineKept(number, lines_from(game, rows, device))  # nothing newer here
            return LaterLineKept(lines_from(game, rows, device)[side], number, when)
    lines = {position: DealEntry.from_dict(row.entry) for position, row in rows.items()}
    lines[side] = entry
    refusals = engine.check_lines(games.rules_of(game), game.decks, games.sides_of(game), lines)
    _flag(rows, refusals, len(game.sides), side)
    mine = [r for r in refusals if side in engine.sides_involved(r, len(game.sides))]
    if mine:
        table_news.touch(game.id)
        db.session.commit()  # the other sides' flags; this line is not kept
        return deals.Refused(mine)
    _keep(game, rows, side, entry, device, sent_by, when, number)
    if device:
        # Its line is in: the table stops seeing this phone as entering the deal.
        live.stop_entering(game.id, device, commit=False)
    if len(rows) < len(game.sides):
        table_news.touch(game.id)
        db.session.commit()
        return LineKept(number, lines_from(game, rows, device))
    # The last line: the whole deal, saved once under the lock taken above, its deal number and
    # end checked there already (saving it deletes the lines).
    scores = [rows[s.position].entry for s in game.sides]
    # Each side's own line is its agreement, by whoever sent it (deal_history).
    agreed = tuple(
        (s.position, rows[s.position].sent_by, rows[s.position].device) for s in game.sides
    )
    how = deal_history.How(deal_history.LINES, device, agreed)
    outcome = deals.save_next_deal(game, so_far, scores, sent_by=sent_by, how=how)
    if not isinstance(outcome, deals.Saved):
        db.session.rollback()  # the lines checked out, so this is not expected: nothing half-kept
    return outcome


def _aware(moment: datetime) -> datetime:
    """SQLite gives back a naive time for what was stored as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=games.now().tzinfo)


def _flag(
    rows: Mapping[int, DealPart], refusals: Sequence[Refusal], sides: int, sender: int
) -> None:
    """Mark each other side's line with what the deal meets because of it (or clear it)."""
    for position, row in rows.items():
        if position == sender:
            continue
        said = [r.message for r in refusals if position in engine.sides_involved(r, sides)]
        problem = " ".join(said) or None
        if problem != row.problem:
            row.problem = problem
            row.version += 1


def _keep(
    game: Game,
    rows: dict[int, DealPart],
    side: int,
    entry: DealEntry,
    device: str | None,
    sent_by: str,
    when: datetime,
    number: int,
) -> DealPart:
    """Put the side's line in (in place of its earlier one); flushed, not committed."""
    row = rows.get(side)
    if row is None:
        # A line left from a deal since saved goes: one row per side.
        db.session.execute(
            delete(DealPart).where(DealPart.game_id == game.id, DealPart.side_position == side)
        )
        row = DealPart(game_id=game.id, side_position=side, version=0)
        db.session.add(row)
        rows[side] = row
    row.deal_number = number
    row.entry = entry.to_dict()
    row.sent_by = sent_by
    row.device = device
    row.entered_at = when
    row.version = (row.version or 0) + 1
    row.problem = None
    db.session.flush()
    return row
