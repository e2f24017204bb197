"""What the table is shown of each deal's agreement (issue 40): what a phone is asked to agree
or query, the queries standing on every phone of the table and, for a club night's game, on the
organiser's night page and board; every word of it. The answers themselves: agreement.py."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealEvent, Game, Side
from scorekeeper.plumbing.models.history import AGREED, QUERIED
from scorekeeper.services.agreement import (
    AGREES,
    QUERIES,
    WAITING,
    DealAgreement,
    agreement_from,
)
from scorekeeper.services.names import SOMEONE

# --- what each phone is asked, and what the table and the night are told ---------------------

# A side's state in words, as the scoreboard says it.
STATE_WORDS = {AGREES: "agreed", QUERIES: "queried", WAITING: "to agree"}


@dataclass(frozen=True)
class ToAnswer:
    """A deal a side is asked to agree or query, on that side's phones."""

    number: int
    version: int
    side: int
    name: str
    state: str


def to_answer(game: Game, agreements: Iterable[DealAgreement], side: int | None) -> list[ToAnswer]:
    """The deals `side` has not agreed (every side's, for a phone on no side), newest first."""
    asked = []
    for deal in sorted(agreements, key=lambda a: -a.number):
        for position, state in enumerate(deal.sides):
            if state != AGREES and side in (None, position):
                name = game.sides[position].name
                asked.append(ToAnswer(deal.number, deal.version, position, name, state))
    return asked


def states_words(game: Game, deal: DealAgreement) -> str:
    """ "Us agreed · Them to agree"."""
    return " · ".join(
        f"{side.name} {STATE_WORDS[state]}"
        for side, state in zip(game.sides, deal.sides, strict=False)
    )


@dataclass(frozen=True)
class OpenQuery:
    """A side's query of a deal as it stands: shown to the table, and to a club's organiser."""

    game_id: int
    number: int
    side: int
    name: str
    by: str
    reason: str | None

    @property
    def words(self) -> str:
        """ "Deal 3 queried by Linda & Sue (Linda): the melds look wrong"."""
        return f"Deal {self._said}"

    def for_organiser(self, table: int) -> str:
        """ "Table 2 asks for the organiser: deal 3 queried by Linda & Sue"."""
        return f"Table {table} asks for the organiser: deal {self._said}"

    @property
    def _said(self) -> str:
        who = f" ({self.by})" if self.by and self.by not in (SOMEONE, self.name) else ""
        said = f": {self.reason}" if self.reason else ""
        return f"{self.number} queried by {self.name}{who}{said}"


def open_queries(game_ids: Iterable[int]) -> dict[int, list[OpenQuery]]:
    """Each game's queries of its deals as they stand (a later agreement or a correction ends
    one), in one query for any number of games."""
    ids = list(game_ids)
    if not ids:
        return {}
    rows = db.session.execute(
        select(
            DealEvent.game_id,
            DealEvent.deal_number,
            DealEvent.side_position,
            DealEvent.kind,
            DealEvent.by,
            DealEvent.reason,
            Side.name,
        )
        .join(
            Deal,
            (Deal.game_id == DealEvent.game_id)
            & (Deal.number == DealEvent.deal_number)
            & (Deal.version == DealEvent.deal_version),
        )
        .join(
            Side, (Side.game_id == DealEvent.game_id) & (Side.position == DealEvent.side_position)
        )
        .where(DealEvent.game_id.in_(ids), DealEvent.kind.in_((AGREED, QUERIED)))
        .order_by(DealEvent.id)
    ).all()
    latest: dict[tuple[int, int, int], OpenQuery | None] = {}
    for game_id, number, side, kind, by, reason, name in rows:
        asked = OpenQuery(game_id, number, side, name, by, reason)
        latest[game_id, number, side] = asked if kind == QUERIED else None
    found: dict[int, list[OpenQuery]] = {}
    for key in sorted(k for k, q in latest.items() if q is not None):
        found.setdefault(key[0], []).append(latest[key])  # type: ignore[arg-type]
    return found


def answers_token(game_id: int) -> str:
    """A token that changes whenever a side of the game agrees or queries a deal."""
    newest = db.session.execute(
        select(func.max(DealEvent.id)).where(
            DealEvent.game_id == game_id, DealEvent.kind.in_((AGREED, QUERIED))
        )
    ).scalar_one()
    return str(newest or "")


def still_asking(game_id: int) -> bool:
    """Whether a deal of the game still waits for a side's answer (or stands queried): its
    phones then keep asking every second, so a query reaches the table within 2 seconds."""
    deals = db.session.execute(
        select(Deal.number, Deal.version).where(Deal.game_id == game_id).order_by(Deal.number)
    ).all()
    if not deals:
        return False
    sides = db.session.execute(
        select(func.count(Side.id)).where(Side.game_id == game_id)
    ).scalar_one()
    events = db.session.execute(
        select(
            DealEvent.deal_number,
            DealEvent.deal_version,
            DealEvent.kind,
            DealEvent.side_position,
            DealEvent.by,
            DealEvent.reason,
        )
        .where(DealEvent.game_id == game_id)
        .order_by(DealEvent.id)
    ).all()
    return not all(deal.agreed for deal in agreement_from(deals, sides, events))


# What the scoreboard says around the deals asked and the queries standing.
ASK_EVERY_SIDE = "Agree the deals"
ASK_EVERY_SIDE_HINT = "Answer for your own side: this phone is on that side from then on."
ASK_SIDE = "Deals for {name} to agree"
ASK_SIDE_HINT = "Look at each deal, then agree it with one tap, or query it."
ORGANISER_ASKED = "The organiser is asked to look at it."
TALK_IT_OVER = "Talk it over: correct the deal, or agree it as it stands."
