"""The groups a club's earlier nights this season seated (issue 38): for each round, everyone at
a table or sitting out, oldest first. A whist schedule goes on from the rounds the same group
played (`night_seating`); the night's page says how tonight's group stands to them
(`night_schedule_words`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from sqlalchemy import or_, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Night, NightPlayer, NightRound, NightTable
from scorekeeper.services.nights import planning


@dataclass(frozen=True)
class Earlier:
    """Each earlier round's date and group (players as the engine names them), oldest first,
    and the name each of those players had at those nights."""

    rounds: tuple[tuple[date, frozenset[str]], ...]
    names: dict[str, str]


def earlier(night: Night, partners: str) -> Earlier:
    """The rounds of the club's earlier nights this season (the season holding the night's
    date, else the 90 days before it) with these partners at the night's shape of tables."""
    club = db.session.get(Club, night.club_id)
    span = planning.history_span(club, night.played_on)
    nights_before = select(Night.id).where(
        Night.club_id == night.club_id,
        Night.played_on >= span.start,
        Night.played_on <= night.played_on,
        Night.partners == partners,
        Night.shape == night.shape,
        or_(Night.played_on < night.played_on, Night.id < night.id),
    )
    keys: dict[int, str] = {}
    names: dict[str, str] = {}
    for pid, member, name in db.session.execute(
        select(NightPlayer.id, NightPlayer.member_id, NightPlayer.name).where(
            NightPlayer.night_id.in_(nights_before)
        )
    ):
        keys[pid] = str(member) if member is not None else planning.GUEST + name
        names[keys[pid]] = name
    rows = db.session.execute(
        select(NightRound.id, Night.played_on, NightRound.sitting_out, NightTable.sides)
        .join(NightTable, NightTable.round_id == NightRound.id)
        .join(Night, Night.id == NightRound.night_id)
        .where(NightRound.night_id.in_(nights_before))
        .order_by(Night.played_on, Night.id, NightRound.number, NightTable.number)
    )
    groups: dict[int, tuple[date, set[str]]] = {}
    for round_id, played_on, out, sides in rows:
        _, group = groups.setdefault(round_id, (played_on, {keys[i] for i in out}))
        group.update(keys[i] for side in sides for i in side)
    return Earlier(tuple((day, frozenset(group)) for day, group in groups.values()), names)
