"""Correcting a saved deal: checked against the version the phone corrected, everything after
it recomputed before the game's lock is taken, the table told what changed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import update

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealScore, Game
from scorekeeper.rules import DealEntry, DealRefused, Progress, Refusal
from scorekeeper.services import access, deal_history, figures, games, locking
from scorekeeper.services.access import Level
from scorekeeper.services.deal_outcomes import (
    ChangedMeanwhile,
    LimitReached,
    Locked,
    NoSuchDeal,
    NotAllowed,
    Outcome,
    Refused,
    Saved,
)
from scorekeeper.services.names import cleaned
from scorekeeper.services.table_news import corrected_news, touch

# No deal ever reaches this version; anything beyond is no version this server wrote.
MAX_VERSION = 2**31


def correct_deal(
    game: Game,
    level: Level,
    number: int,
    scores: Any,
    version: Any,
    sent_by: str | None = None,
    reason: Any = None,
) -> Outcome:
    """Replace deal `number` and recompute everything after it, or say why not.

    `version` is the version of the deal the correction was made to (None: any), checked and
    bumped in one statement so that two phones cannot both win. `sent_by` is the correcting
    phone's name, told to the table with what changed ("Ann corrected deal 1: Them ...") and
    kept in the deal's history with the figures before and after. A club's locked game
    (`locking.lock_of`) is an organiser's alone to correct, with a `reason` the history keeps;
    a table's phone is told why it is locked (`Locked`).
    """
    if not 1 <= number <= len(game.deals):
        return NoSuchDeal(number)
    if not access.may_correct(game, level):
        lock = locking.lock_of(game)
        if lock is not None and level >= access.TO_ENTER:
            return Locked(lock.words(number))
        return NotAllowed(access.needed_to_correct(game))
    frozen = correction_refused(game)
    if frozen is not None:
        return LimitReached([frozen])
    refusal = _version_refusal(version, number) or _reason_refusal(game, number, reason)
    if refusal is not None:
        return Refused([refusal])
    deal = game.deals[number - 1]
    if version is not None and not 0 < version < MAX_VERSION:
        return ChangedMeanwhile(deal, version)  # no deal ever had that version
    try:
        entries = games.entries_from(scores, game)
        if [entry.to_dict() for entry in entries] == [score.entry for score in deal.scores]:
            return Saved(deal)  # nothing changes: a resent correction is not a conflict
        # Replayed before the game's lock is taken: other tables' saves never wait for it.
        progress = games.progress_corrected(game, number, entries)
    except DealRefused as exc:
        return Refused(exc.refusals)
    if games.lock_history(game):
        # Another phone saved or corrected a deal since the game was read: everything is
        # checked and replayed again on the deals as they are now (under the lock: rare).
        return correct_deal(game, level, number, scores, version, sent_by, reason)
    bump = update(Deal).where(Deal.id == deal.id)
    if version is not None:
        bump = bump.where(Deal.version == version)
    if (
        db.session.execute(bump.values(version=Deal.version + 1, updated_at=games.now())).rowcount
        != 1
    ):
        db.session.rollback()
        return ChangedMeanwhile(db.session.get(Deal, deal.id), version)
    db.session.refresh(deal, ["version"])
    said = cleaned(reason) if isinstance(reason, str) else ""
    organiser = game.club_id is not None and level >= Level.ORGANISER
    _store(game, deal, entries, progress, sent_by, organiser, said or None)
    return Saved(deal)


def correction_refused(game: Game) -> Refusal | None:
    """Why none of this game's deals may be corrected (it holds more than a game may); or None."""
    return engine.too_long_to_change(games.rules_of(game), len(game.deals))


def _reason_refusal(game: Game, number: int, reason: Any) -> Refusal | None:
    """An organiser's reason that cannot be kept, or none given for a locked game; else None."""
    problem = deal_history.reason_problem(reason)
    if problem is not None:
        return Refusal(None, "reason", problem)
    if isinstance(reason, str) and cleaned(reason):
        return None
    lock = locking.lock_of(game)
    if lock is None:
        return None
    return Refusal(
        None,
        "reason",
        f"{lock.reason(number)} Give a reason for the correction: the deal's history keeps it.",
    )


def _version_refusal(version: Any, number: int) -> Refusal | None:
    """A version that is not a whole number is no version of any deal: refused, plainly."""
    if version is None or (isinstance(version, int) and not isinstance(version, bool)):
        return None
    again = f"open deal {number} again and make the correction there."
    if version == "":
        return Refusal(
            None, "version", f"This correction names no version of deal {number}: {again}"
        )
    shown = repr(version) if len(repr(version)) <= 20 else repr(version)[:17] + "..."
    return Refusal(
        None, "version", f"This correction names version {shown}, which is not a version: {again}"
    )


def _store(
    game: Game,
    deal: Deal,
    entries: Sequence[DealEntry],
    progress: Progress,
    sent_by: str | None = None,
    organiser: bool = False,
    reason: str | None = None,
) -> None:
    """Keep the deal's new figures, the game's with them, and the correction in its history."""
    was = deal_history.figures_saved(deal)
    by_side = {score.side_position: score for score in deal.scores}
    before = {position: row.total for position, row in by_side.items()}
    after = progress.deals[deal.number - 1].scores
    changes = [
        (side.position, side.name, before.get(side.position, 0), score.total)
        for side, score in zip(game.sides, after, strict=True)
        if before.get(side.position, 0) != score.total
    ]
    for side, entry, score in zip(game.sides, entries, after, strict=True):
        row = by_side.get(side.position)
        if row is None:
            row = DealScore(side=side, side_position=side.position, entry={}, total=0)
            deal.scores.append(row)
        row.entry = entry.to_dict()
        row.total = score.total
    kept = deal_history.figures_of(entries, after)
    deal_history.corrected(game, deal, was, kept, sent_by, organiser=organiser, reason=reason)
    figures.keep_side_figures(game, progress, games.entries_of(game))
    game.finished_at = games.finished_when(game, progress, games.now())
    game.updated_at = games.now()
    touch(game.id, corrected_news(deal.number, deal.version, sent_by, changes))
    db.session.commit()
    games.keep_progress(game, progress)
