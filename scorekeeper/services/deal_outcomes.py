"""What entering or correcting a deal comes to: one outcome each, which the pages and the API
translate into a page or an answer (services/deals.py and corrections.py return them)."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.plumbing.models import Deal
from scorekeeper.rules import Refusal
from scorekeeper.services.access import Level


@dataclass(frozen=True)
class Saved:
    """The deal was saved (a new deal, or a correction; a correction that changed nothing)."""

    deal: Deal


@dataclass(frozen=True)
class AlreadySaved:
    """A submission whose idempotency key was recorded: that deal stands, nothing more saved."""

    deal: Deal


@dataclass(frozen=True)
class KeyReused:
    """An idempotency key already recorded with other figures: nothing saved, nothing replayed."""

    deal: Deal
    key: str

    @property
    def message(self) -> str:
        """In words for the person, or the client."""
        return (
            f"This Idempotency-Key was already used for different figures: it saved deal "
            f"{self.deal.number}. Nothing was saved; send these figures with a new key if they "
            "are another deal."
        )


@dataclass(frozen=True)
class SavedMeanwhile:
    """Another phone saved the deal this one was entered as; nothing saved."""

    number: int

    @property
    def message(self) -> str:
        """In words for the person, or the client."""
        return (
            f"Another phone saved deal {self.number} a moment ago. Check the scoreboard, "
            "then enter this deal again if it is still missing."
        )


@dataclass(frozen=True)
class ChangedMeanwhile:
    """A correction made to an older version of the deal than the one saved; nothing saved."""

    deal: Deal
    version: int

    @property
    def message(self) -> str:
        """In words for the person, or the client."""
        return (
            f"Deal {self.deal.number} was changed meanwhile (now version {self.deal.version}, "
            f"the correction was made to version {self.version})."
        )


@dataclass(frozen=True)
class LinesArrived:
    """Sides' own lines came in (or changed) after the whole deal's form was opened: nothing saved.

    The person sees them beside their figures, and saves theirs or takes the lines in.
    """

    number: int
    token: str


@dataclass(frozen=True)
class Refused:
    """Figures the rules refuse, or a request that cannot stand; every reason; nothing saved."""

    refusals: list[Refusal]


@dataclass(frozen=True)
class Ended:
    """The game is over: no deal can be added."""

    refusals: list[Refusal]


@dataclass(frozen=True)
class LimitReached:
    """The game holds as many deals as its rules allow: no deal can be added (it is not over)."""

    refusals: list[Refusal]


@dataclass(frozen=True)
class NotAllowed:
    """The visitor's level is below what the action needs."""

    needed: Level


@dataclass(frozen=True)
class Locked:
    """A club's locked game (services/locking.py) corrected from a table's phone: nothing saved.

    `message` says why it is locked and that only an organiser may correct it now.
    """

    message: str


@dataclass(frozen=True)
class NoSuchDeal:
    """A correction of a deal the game does not have."""

    number: int


Outcome = (
    Saved
    | AlreadySaved
    | KeyReused
    | SavedMeanwhile
    | ChangedMeanwhile
    | Refused
    | Ended
    | LimitReached
    | NotAllowed
    | Locked
    | NoSuchDeal
    | LinesArrived
)
