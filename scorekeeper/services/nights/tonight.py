"""A club's night in progress as its pages lead to it (issue 37): tonight's line on the club's
pages and its new-game form ("Tonight · Round 2 of 3 · 3 tables playing"), the phone's own table
in it, and which of a list of games are a night's tables (their round and table).

Where one game sits in its night, and where its players go next, is `night_place.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date

from sqlalchemy import and_, func, select
from sqlalchemy.orm import aliased

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Night, NightRound, NightTable
from scorekeeper.plumbing.models.times import today
from scorekeeper.services.nights.place import day_of, tables_words


def places_of(game_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
    """Each of these games that is a night's table: (round, table), in one query."""
    ids = list(game_ids)
    if not ids:
        return {}
    rows = db.session.execute(
        select(NightTable.game_id, NightRound.number, NightTable.number)
        .join(NightRound, NightRound.id == NightTable.round_id)
        .where(NightTable.game_id.in_(ids))
    )
    return {game_id: (number, table) for game_id, number, table in rows}


@dataclass(frozen=True)
class Tonight:
    """A club's night in progress, as the club's pages lead to it; `my_table`: the table of
    this phone's game in the round playing, if it kept one (its number and game link)."""

    night_id: int
    played_on: date
    seated: int
    planned: int
    playing: int  # tables of the last round seated still playing
    today: date
    my_table: tuple[int, str] | None = None

    @property
    def words(self) -> str:
        """ "Tonight · Round 2 of 3 · 3 tables playing"."""
        when = (
            "Tonight" if self.played_on == self.today else f"Club night of {day_of(self.played_on)}"
        )
        if self.seated == 0:
            return f"{when} · Round 1 of {self.planned} to seat"
        if self.playing:
            shown = f"{tables_words(self.playing)} playing"
        else:
            shown = "every table has finished"
        return f"{when} · Round {self.seated} of {self.planned} · {shown}"


# The newest nights not ended that tonight's line looks at: a night left unended weeks ago
# (every round played, never ended) is passed over, and one more cannot slow the club's page.
NIGHTS_LOOKED_AT = 5


def tonight(club_id: int, kept: Sequence[str] = ()) -> Tonight | None:
    """The club's newest night in progress (not ended, and not every round planned played), or
    None; with the table of the phone's kept games (`kept`: their secrets) in its round. One
    query, and one more for the phone's table."""
    later, last_t, last_g = aliased(NightRound), aliased(NightTable), aliased(Game)
    seated = select(func.max(later.number)).where(later.night_id == Night.id).scalar_subquery()
    playing = (
        select(func.count())
        .select_from(last_t)
        .join(NightRound, NightRound.id == last_t.round_id)
        .join(last_g, last_g.id == last_t.game_id)
        .where(
            NightRound.night_id == Night.id,
            NightRound.number == seated,
            last_g.finished_at.is_(None),
        )
        .scalar_subquery()
    )
    rows = db.session.execute(
        select(Night.id, Night.played_on, Night.rounds_planned, seated, playing)
        .where(Night.club_id == club_id, Night.finished_at.is_(None))
        .order_by(Night.id.desc())
        .limit(NIGHTS_LOOKED_AT)
    ).all()
    for night_id, played_on, planned, rounds, tables in rows:
        rounds, tables = rounds or 0, tables or 0
        if rounds >= planned and tables == 0:
            continue  # every round played: over, though never ended
        found = Tonight(night_id, played_on, rounds, planned, tables, today())
        if rounds and kept:
            mine = db.session.execute(
                select(NightTable.number, Game.secret)
                .join(NightRound, NightRound.id == NightTable.round_id)
                .join(Game, Game.id == NightTable.game_id)
                .where(
                    and_(NightRound.night_id == night_id, NightRound.number == rounds),
                    Game.secret.in_(list(kept)),
                )
                .order_by(NightTable.number)
            ).first()
            if mine is not None:
                found = replace(found, my_table=(mine[0], mine[1]))
        return found
    return None
