"""Builders and readers shared by the use-case tests (no use case's own logic in here)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Night
from scorekeeper.rules import DealEntry
from scorekeeper.services import games
from scorekeeper.services.games import SideSetup

# Two players on their own, as club individual seats them.
ANN_AND_CAT = [SideSetup("Ann", ["Ann"]), SideSetup("Cat", ["Cat"])]
# Two partnerships, for the team games.
TEAMS = [SideSetup("Us", ["Ann", "Bob"]), SideSetup("Them", ["Cat", "Dan"])]

ONE_CLEAN = {"books": {"clean": 1}}  # 500 under every preset here
ONE_DIRTY = {"books": {"dirty": 1}}  # 300
NOTHING: dict[str, Any] = {}


def kept(statement: Any) -> list[Any]:
    """The rows the database holds for `statement`, as committed (nothing pending counts).

    What the session has not committed is rolled back first: a use case that forgot to commit
    shows here as having kept nothing.
    """
    db.session.rollback()
    return list(db.session.execute(statement).all())


def kept_one(statement: Any) -> Any:
    """The one row the database holds for `statement`."""
    rows = kept(statement)
    assert len(rows) == 1, rows
    return rows[0]


def how_many(model: Any) -> int:
    """How many rows of a model the database holds, as committed."""
    return kept_one(select(func.count()).select_from(model))[0]


def entries(*scores: dict[str, Any]) -> list[DealEntry]:
    """One deal's entries, one per side, from JSON-like figures."""
    return [DealEntry.from_dict(score, side) for side, score in enumerate(scores)]


def club_game(
    club: Club | None = None,
    *,
    finished: bool,
    sides: list[SideSetup] = ANN_AND_CAT,
    **more: Any,
) -> Game:
    """A club individual game of two (Ann and Cat unless told), in `club` if given.

    Finished: the first side makes a clean book in each of four deals, the second nothing, so
    the first wins 2,000 to 0. Unfinished: deal 1 alone, 500 to 0.
    """
    deals = [entries(ONE_CLEAN, NOTHING)] * (4 if finished else 1)
    return games.record_game("club", sides, deals, club=club, **more)


def end_round(night: Night) -> None:
    """Every table of the night's last round finished (the seating is what is tested, not the
    deals)."""
    db.session.refresh(night)
    for table in night.rounds[-1].tables:
        table.game.finished_at = games.now()
    db.session.commit()
