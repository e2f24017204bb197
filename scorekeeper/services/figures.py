"""The figures stored beside the deals, so that lists and standings are sums in the database.

A deal's entries are the record; everything here is derived from them by the engine and kept
in step on every save: each deal score's total, each side's figures for the game so far, each
club member's result in a finished game, and each member's sums per club night.
`recompute.py` rebuilds them all from the entries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

from sqlalchemy import case, delete, event, func, insert, select
from sqlalchemy.orm import Session as OrmSession

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import (
    RESULT_FIGURES,
    Club,
    Game,
    MemberDay,
    MemberResult,
    Player,
    Side,
)
from scorekeeper.rules import DealEntry, Progress
from scorekeeper.services import holding
from scorekeeper.services.ratings import kept


def side_figures(
    sides: int, progress: Progress, deals: Sequence[Sequence[DealEntry]]
) -> list[dict[str, Any]]:
    """The engine's figures for each side, as kept on it for standings summed by the database."""
    figures = []
    for index in range(sides):
        entries = [deal[index] for deal in deals]
        figures.append(
            {
                "final_total": progress.totals[index],
                "won": progress.finished and index in progress.winners,
                "deals_played": len(entries),
                "clean_books": sum(e.books.get("clean", 0) for e in entries),
                "dirty_books": sum(e.books.get("dirty", 0) for e in entries),
                "wild_books": sum(e.books.get("wild", 0) for e in entries),
                "special_books": sum(
                    e.books.get("clean_sevens", 0) + e.books.get("black_threes", 0) for e in entries
                ),
                "went_out": sum(1 for e in entries if e.went_out),
                "red_threes_caught": sum(e.red_threes_caught for e in entries),
            }
        )
    return figures


def keep_side_figures(game: Game, progress: Progress, deals: Sequence[Sequence[DealEntry]]) -> None:
    """Copy the engine's figures for each side onto it, and the members' results after them."""
    for side, figures in zip(
        game.sides, side_figures(len(game.sides), progress, deals), strict=True
    ):
        for name, value in figures.items():
            setattr(side, name, value)
    keep_member_results(game, progress.finished)


def keep_member_results(game: Game, finished: bool) -> None:
    """Rewrite the club members' results of this game: finished club games count, others not."""
    if game.club is None:
        return  # only club games keep member results
    if finished or game.finished_at is not None:
        # Finished, corrected while finished, or un-finished: its ratings are folded again.
        kept.game_changed(game)
    # A game from the table link, judged as it first finishes (after the mark above took the
    # club's row: two tables finishing at once are judged in turn): held, it has no results.
    holding.judge(game, finished)
    had_results = bool(game.results)
    game.results.clear()
    if not finished and not had_results:
        return
    nights_to_refresh(game.club, game.played_on)
    for side, player in member_results_of(game, finished):
        figures = {name: getattr(side, name) for name in RESULT_FIGURES}
        game.results.append(
            MemberResult(
                club=game.club,
                member=player.member,
                side=side,
                played_on=game.played_on,
                ruleset=game.ruleset,
                # Through the relationship: a game being recorded has no key on it yet.
                saved_rules_id=game.saved_rules.id if game.saved_rules is not None else 0,
                **figures,
            )
        )


def member_results_of(game: Game, finished: bool) -> list[tuple[Side, Player]]:
    """Who gets a result from this game: each member on a side of a finished club game."""
    if game.club is None or not finished or game.held_from_ratings:
        return []  # a held game counts once confirmed (rating_holds.confirm)
    # member_id first: a stored player's member is then never loaded; a player not yet flushed
    # (a game being recorded) has only its member.
    return [
        (side, player)
        for side in game.sides
        for player in side.players
        if player.member_id is not None or player.member is not None
    ]


# --- a club night's sums, re-added once per commit -----------------------------------------

PENDING_NIGHTS = "member_days_to_refresh"


def nights_to_refresh(club: Club, day: date) -> None:
    """Mark a club night whose member_day rows must be re-added before the next commit."""
    db.session.info.setdefault(PENDING_NIGHTS, set()).add((club, day))


@event.listens_for(OrmSession, "before_commit")
def _refresh_pending_nights(session: OrmSession) -> None:
    """Re-add the marked nights once per commit, so a batch of games costs one pass."""
    pending = session.info.pop(PENDING_NIGHTS, set())
    if not pending:
        return
    session.flush()
    days_by_club: dict[int, set[date]] = {}
    for club, day in pending:
        days_by_club.setdefault(club.id, set()).add(day)
    for club_id, days in days_by_club.items():
        refresh_member_days(club_id, days, session)


@event.listens_for(OrmSession, "after_rollback")
def _forget_pending_nights(session: OrmSession) -> None:
    """Nothing rolled back needs re-adding."""
    session.info.pop(PENDING_NIGHTS, None)


def refresh_member_days(
    club_id: int, days: Iterable[date] | None = None, session: OrmSession | None = None
) -> None:
    """Re-add the club's member results for these days (all days when None)."""
    session = session or db.session
    session.flush()
    where = [MemberDay.club_id == club_id]
    source = [MemberResult.club_id == club_id]
    if days is not None:
        days = sorted(set(days))
        where.append(MemberDay.played_on.in_(days))
        source.append(MemberResult.played_on.in_(days))
    session.execute(delete(MemberDay).where(*where))
    sums = (
        select(
            MemberResult.club_id,
            MemberResult.member_id,
            MemberResult.played_on,
            MemberResult.ruleset,
            MemberResult.saved_rules_id,
            func.count(),
            func.sum(case((MemberResult.won, 1), else_=0)),
            *(func.sum(getattr(MemberResult, name)) for name in RESULT_FIGURES[1:]),
        )
        .where(*source)
        .group_by(
            MemberResult.club_id,
            MemberResult.member_id,
            MemberResult.played_on,
            MemberResult.ruleset,
            MemberResult.saved_rules_id,
        )
    )
    columns = [
        "club_id",
        "member_id",
        "played_on",
        "ruleset",
        "saved_rules_id",
        "games",
        *RESULT_FIGURES,
    ]
    session.execute(insert(MemberDay).from_select(columns, sums))
