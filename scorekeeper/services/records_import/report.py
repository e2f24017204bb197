"""What an import added and what it skipped, told to the organiser in a sentence or two."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SkippedGame:
    """A game of the file the club already holds: its reference and its lines in the file."""

    ref: str
    first_line: int
    last_line: int

    def __str__(self) -> str:
        lines = (
            f"line {self.first_line}"
            if self.first_line == self.last_line
            else f"lines {self.first_line}–{self.last_line}"
        )
        return f"game {self.ref}, {lines}"


# A summary names at most this many skipped games, then says how many more; the same for the
# players who became members.
SKIPPED_NAMED = 10
MEMBERS_NAMED = 20


@dataclass(frozen=True)
class ImportReport:
    """What an import added (games, deals, players who became members) and what it skipped."""

    games: int
    deals: int
    members_added: list[str] = field(default_factory=list)
    skipped: list[SkippedGame] = field(default_factory=list)

    def summary(self) -> str:
        """The import in a sentence or two, for the organiser."""
        named = "; ".join(str(game) for game in self.skipped[:SKIPPED_NAMED])
        if len(self.skipped) > SKIPPED_NAMED:
            named += f"; and {len(self.skipped) - SKIPPED_NAMED:,} more"
        if not self.games and self.skipped:
            every = (
                "the file's one game is"
                if len(self.skipped) == 1
                else f"all {len(self.skipped):,} games in the file are"
            )
            return f"Nothing imported: {every} already in the records ({named})."
        done = f"Imported {_count(self.games, 'game')} with {_count(self.deals, 'deal')}."
        if not self.skipped:
            return done
        return (
            f"{done} Skipped {_count(len(self.skipped), 'game')} already in the records ({named})."
        )

    def members_sentence(self) -> str:
        """Who became a member of the club, named ("" if nobody did)."""
        if not self.members_added:
            return ""
        named = ", ".join(self.members_added[:MEMBERS_NAMED])
        if len(self.members_added) > MEMBERS_NAMED:
            named += f" and {len(self.members_added) - MEMBERS_NAMED:,} more"
        return f"New members: {named}."

    def to_dict(self) -> dict[str, Any]:
        """The report as a job keeps it (JSON)."""
        return {
            "games": self.games,
            "deals": self.deals,
            "members_added": list(self.members_added),
            "skipped": [[g.ref, g.first_line, g.last_line] for g in self.skipped],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ImportReport:
        """A report a job kept (`to_dict`)."""
        return cls(
            games=data["games"],
            deals=data["deals"],
            members_added=list(data["members_added"]),
            skipped=[SkippedGame(ref, first, last) for ref, first, last in data["skipped"]],
        )


def _count(number: int, thing: str) -> str:
    return f"{number:,} {thing}{'' if number == 1 else 's'}"
