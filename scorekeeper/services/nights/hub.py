"""A club's nights in one place (issue 37): the night in progress first, then the past ones.

The hub page (`web/nights/hub.py`) and the new-night form ask it which night still plays
("Tonight · Round 2 of 3"), so a second night is opened only on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Night
from scorekeeper.services.nights.results import NightResult, nights_within
from scorekeeper.services.nights.tonight import NIGHTS_LOOKED_AT

# How many past nights the hub lists; the club's history lists every one.
PAST_LISTED = 10


@dataclass(frozen=True)
class InProgress:
    """A night not yet over: which, when, its rules and where its rounds stand."""

    id: int
    played_on: date
    seated: int  # rounds seated so far
    planned: int
    rules: str

    def words(self, today: date) -> str:
        """ "Tonight · Round 2 of 3", or "Tonight · Round 1 of 3 to seat" before any."""
        when = "Tonight" if self.played_on == today else self.played_on.strftime("%-d %B %Y")
        if self.seated == 0:
            return f"{when} · Round 1 of {self.planned} to seat"
        return f"{when} · Round {self.seated} of {self.planned}"


@dataclass(frozen=True)
class Nights:
    """The club's nights as the hub shows them: those in progress (newest first), the past."""

    in_progress: tuple[InProgress, ...]
    past: tuple[NightResult, ...]


def nights_of_club(club: Club) -> Nights:
    """The club's newest nights sorted into in progress and past (the newest `PAST_LISTED` that
    ranked someone), in three queries at most: a club's years of nights are its history's to
    list, not every visit's to rank."""
    newest = (
        select(Night.id)
        .where(Night.club_id == club.id)
        .order_by(Night.played_on.desc(), Night.id.desc())
        .limit(PAST_LISTED + NIGHTS_LOOKED_AT)
    )
    found = nights_within(club.id, [Night.id.in_(newest)])
    going = [n for n in found if not n.done]
    planned = _planned([n.id for n in going])
    return Nights(
        tuple(InProgress(n.id, n.played_on, n.rounds, planned[n.id], n.rules) for n in going),
        tuple(n for n in found if n.done and n.ranked)[:PAST_LISTED],
    )


def in_progress(club: Club) -> tuple[InProgress, ...]:
    """The club's nights not yet over, newest first."""
    return nights_of_club(club).in_progress


def _planned(ids: list[int]) -> dict[int, int]:
    """The rounds each night planned (NightResult does not carry them)."""
    if not ids:
        return {}
    rows = db.session.execute(select(Night.id, Night.rounds_planned).where(Night.id.in_(ids)))
    return {night_id: planned for night_id, planned in rows}
