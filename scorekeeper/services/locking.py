"""When a club's finished game locks (issue 40), and why, in words.

A club's finished game locks once every side has agreed every deal of it (`agreement.py`: a
side's own line, or its tap afterwards), or `Club.lock_after_hours` hours after it ended
(`Game.finished_at`), whichever comes first; 0 hours locks it as soon as it ends. From then on
only an organiser may correct it, giving a reason that its history keeps (`corrections.py`,
`access.needed_to_correct`). Once locked it stays locked: an organiser's correction asks the
sides to agree again, and does not open the game to the table meanwhile. A casual game never
locks.

A deal with no history (kept before history was) counts as agreed, as `agreement.py` has it;
so does one that came in with the club's records (IMPORT): nobody at a table was asked.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from scorekeeper.plumbing.models import DealEvent, Game
from scorekeeper.plumbing.models.history import AGREED, CORRECTION, IMPORT, LINES, QUERIED, WHOLE
from scorekeeper.plumbing.models.times import now as utc_now
from scorekeeper.services.deal_history import day_words, events_of, in_utc

# The most hours a club may wait before its finished games lock (a month).
MOST_HOURS = 720
# How a game came to be locked.
AGREEMENT = "agreement"
HOURS = "hours"
ONLY_ORGANISER = "Only an organiser may correct it now, giving a reason."
# Why a deal counts as agreed with no side's agreement: how it came to be kept.
RECORDS = "records"  # came in with the club's records file
BEFORE_HISTORY = "before"  # kept before deals had a history


@dataclass(frozen=True)
class Lock:
    """A locked club game: since when, and why (every side agreed, or the club's hours)."""

    since: datetime
    why: str
    ended: datetime
    hours: int
    sides: int
    # Each deal's agreement at the lock, by number: when, or how it counts as agreed.
    agreed: dict[int, datetime | str]

    def words(self, number: int | None = None) -> str:
        """Why the game (or its deal `number`) is locked, then who may correct it now: "Deal 3
        of this club game is locked: both sides agreed it on 2 Dec. Only an organiser ..."."""
        return f"{self.reason(number)} {ONLY_ORGANISER}"

    def reason(self, number: int | None = None) -> str:
        """Why it is locked, without who may correct it."""
        what = "This club game" if number is None else f"Deal {number} of this club game"
        if self.why == HOURS:
            return f"{what} is locked: it ended on {day_words(self.ended)}, and {self.rule()}."
        if number is None:
            return (
                f"{what} is locked: {self.who()} agreed every deal of it by "
                f"{day_words(self.since)}."
            )
        agreed = self.agreed.get(number, BEFORE_HISTORY)
        if agreed == RECORDS:
            return f"{what} is locked: it came in with the club's records."
        if isinstance(agreed, datetime):
            return f"{what} is locked: {self.who()} agreed it on {day_words(agreed)}."
        return (
            f"{what} is locked: it was kept before the sides agreed deals at the table, and "
            f"the game ended on {day_words(self.ended)}."
        )

    @property
    def only_organiser(self) -> str:
        """Who may correct it now, in words."""
        return ONLY_ORGANISER

    def who(self) -> str:
        """ "both sides", "all 3 sides"."""
        return "both sides" if self.sides == 2 else f"all {self.sides} sides"

    def rule(self) -> str:
        """The club's rule: "the club locks a finished game 24 hours after it ends"."""
        return hours_rule(self.hours)


def hours_rule(hours: int) -> str:
    """The club's hours in words, as the lock's reason and the settings page say them."""
    if hours == 0:
        return "the club locks a finished game as soon as it ends"
    return f"the club locks a finished game {hours} hour{'s' * (hours != 1)} after it ends"


def rule_words(hours: int) -> str:
    """The whole rule, as the club's settings page says it."""
    return (
        "A finished club game locks once both sides (every side) have agreed every deal, or "
        f"{hours} hour{'s' * (hours != 1)} after it ends, whichever comes first (0: as soon as "
        "it ends). Once locked, only an organiser may correct it, giving a reason that the "
        "deal's history keeps."
    )


def lock_of(
    game: Game, at: datetime | None = None, events: Iterable[DealEvent] | None = None
) -> Lock | None:
    """The game's lock, if it is a club's finished game that has locked by `at` (now); else
    None. One query of the game's history (`events`, if read already), for a club's finished
    game only."""
    if game.club_id is None or game.finished_at is None or game.club is None:
        return None
    at = at or utc_now()
    ended = in_utc(game.finished_at)
    hours = game.club.lock_after_hours
    by_hours = ended + timedelta(hours=hours)
    sides = len(game.sides)
    events = events_of(game) if events is None else events
    agreed_at, agreed = agreed_moment(game, events, sides)
    by_agreement = None if agreed_at is None else max(agreed_at, ended)
    if by_agreement is not None and by_agreement <= at and by_agreement < by_hours:
        return Lock(by_agreement, AGREEMENT, ended, hours, sides, agreed)
    if by_hours <= at:
        return Lock(by_hours, HOURS, ended, hours, sides, agreed)
    return None


def is_locked(game: Game) -> bool:
    """Whether the game is a club's finished game that has locked."""
    return lock_of(game) is not None


def agreed_moment(
    game: Game, events: Iterable[DealEvent], sides: int
) -> tuple[datetime | None, dict[int, datetime | str]]:
    """The first moment every deal of the game, as it then stood, was agreed by every side
    (None if that has not happened), and each deal's agreement at that moment.

    Read from the history in the order it happened: a correction asks the sides again (the
    deal is agreed once every side agrees its new version), a query takes its side's agreement
    back. A deal with no history counts as agreed from the start, as does an imported one.
    """
    numbers = {deal.number for deal in game.deals}
    events = [event for event in events if event.deal_number in numbers]
    legacy = numbers - {event.deal_number for event in events}
    if not events:
        # Kept before history was: agreed, as far as anyone was asked, when it ended.
        ended = game.finished_at
        return (in_utc(ended) if ended is not None and numbers else None), {}
    done: dict[int, datetime | str] = {}
    versions: dict[int, int] = {}
    given: dict[int, set[int]] = {}
    for event in events:
        number = event.deal_number
        if number not in versions:
            # A deal kept before history was, agreed since: asked from its version then.
            versions[number], given[number] = event.deal_version, set()
        if event.kind in (WHOLE, LINES, CORRECTION):
            versions[number], given[number] = event.deal_version, set()
            done.pop(number, None)
        elif event.kind == IMPORT:
            # The club's own records: nobody at a table to ask.
            versions[number], given[number] = event.deal_version, set(range(sides))
            done[number] = RECORDS
        elif event.deal_version != versions.get(number) or event.side_position is None:
            continue  # about a version the deal no longer is
        elif event.kind == AGREED:
            given[number].add(event.side_position)
            if len(given[number] & set(range(sides))) == sides and number not in done:
                done[number] = in_utc(event.at)
        elif event.kind == QUERIED:
            given[number].discard(event.side_position)
            done.pop(number, None)
        if len(done) + len(legacy) == len(numbers):
            return in_utc(event.at), done
    return None, done
