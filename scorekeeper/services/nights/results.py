"""A club's nights as its records keep them (issue 29): every night asked, each ranked by the
night's own standings under its own rule (`night_ranking.standings`, the one ranking of a
night), in two queries whatever the number of nights (one when there are none).

The club's history lists its finished nights, a member's page the nights they played and the
standings count night wins; which nights they ask is theirs to say (`services/standings.py`
turns its filters into the conditions on `Night` given here).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.sql.elements import ColumnElement

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night, NightPlayer, NightRound
from scorekeeper.services.games.words import rules_called
from scorekeeper.services.nights.board import night_done, rounds_from, tables_of
from scorekeeper.services.nights.ranking import Standing, standings


@dataclass(frozen=True)
class NightResult:
    """One night as the records show it: when, its rules, its rounds, its standings."""

    id: int
    played_on: date
    ruleset: str
    rules_name: str | None
    rounds: int  # rounds seated
    done: bool  # as its page says it (`night_board.night_done`)
    standings: tuple[Standing, ...]
    members: tuple[tuple[str, int], ...]  # (name that night, member id) of its members

    @property
    def rules(self) -> str:
        """The night's rules as the club calls them."""
        return rules_called(self.rules_name, self.ruleset)

    @property
    def ranked(self) -> tuple[Standing, ...]:
        """The players ranked: those who played a game (under the night's rule: here for
        enough of its rounds, under "half")."""
        return tuple(s for s in self.standings if s.rank is not None)

    @property
    def played(self) -> tuple[Standing, ...]:
        """The players with a game counted, ranked or not (the history's count of players)."""
        return tuple(s for s in self.standings if s.games)

    @property
    def winners(self) -> tuple[str, ...]:
        """Who ranked first (several if they shared first place)."""
        return tuple(s.name for s in self.standings if s.rank == 1)

    def line_of(self, member_id: int) -> Standing | None:
        """A member's line of the night's standings (None if they were not there)."""
        name = next((n for n, m in self.members if m == member_id), None)
        return next((s for s in self.standings if s.name == name), None)

    def winning_members(self) -> set[int]:
        """The member ids of those who ranked first (a guest has none)."""
        first = set(self.winners)
        return {m for n, m in self.members if n in first}


def nights_within(club_id: int, conditions: Sequence[ColumnElement[bool]]) -> list[NightResult]:
    """The club's nights that meet `conditions` (on `Night`'s columns), newest first, each
    ranked; in two queries (their players, then every table's sides), one if there are none."""
    players = db.session.execute(
        select(
            Night.id,
            Night.played_on,
            Night.ruleset,
            Night.rules_name,
            Night.rounds_planned,
            Night.sit_out,
            Night.ranking,
            Night.finished_at,
            NightPlayer.id,
            NightPlayer.member_id,
            NightPlayer.name,
        )
        .outerjoin(NightPlayer, NightPlayer.night_id == Night.id)
        .where(Night.club_id == club_id, *conditions)
        .order_by(Night.played_on.desc(), Night.id.desc(), NightPlayer.id)
    ).all()
    if not players:
        return []
    tables = db.session.execute(
        tables_of(NightRound.night_id)
        .join(Night, Night.id == NightRound.night_id)
        .where(Night.club_id == club_id, *conditions)
    ).all()
    rows: dict[int, list[Any]] = defaultdict(list)
    for row in tables:
        rows[row[0]].append(row[1:])
    nights: dict[int, list[Any]] = {}
    for night_id, *night, player_id, member_id, name in players:
        kept = nights.setdefault(night_id, [night, []])
        if player_id is not None:
            kept[1].append((player_id, member_id, name))
    return [_ranked(night_id, *kept, rows[night_id]) for night_id, kept in nights.items()]


def _ranked(night_id: int, night: list[Any], players: list[Any], rows: list[Any]) -> NightResult:
    played_on, ruleset, rules_name, planned, sit_out, ranking, finished_at = night
    played = rounds_from(rows, {p: name for p, _, name in players})
    return NightResult(
        night_id,
        played_on,
        ruleset,
        rules_name,
        len(played),
        night_done(finished_at is not None, played, planned),
        standings([name for _, _, name in players], sit_out, played, ranking=ranking),
        tuple((name, m) for _, m, name in players if m is not None),
    )


def night_wins(nights: Iterable[NightResult]) -> Counter[int]:
    """Per member id, the finished nights at which they ranked first; a first place shared
    counts for each who shares it."""
    wins: Counter[int] = Counter()
    for night in nights:
        if night.done:
            wins.update(night.winning_members())
    return wins
