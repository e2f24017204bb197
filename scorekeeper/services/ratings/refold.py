"""A club's marks folded into its ratings, after the saves that marked them committed.

`fold_club` takes the club's lease (`RatingFold`: one folder a club at a time, across every
process and host), reads the marks, works out each scope's earliest changed place, computes
the whole fold in memory (`folding.py`: reads only), then writes it in short transactions of
at most `BATCH` rows, the scope's ratings put in place and the marks it folded deleted in the
last. No save waits on it: a save writes no rating row and takes no lock the fold holds; a
save meanwhile leaves a mark of its own, folded in the next pass.

A fold cut short (the process killed) leaves its marks: the next fold, here or in another
process once the lease has run out, folds them again from the same places; steps a cut-short
fold wrote past its place are removed or found to end early (`folding.refold`'s guard).
"""

from __future__ import annotations

import logging
import os
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from flask import current_app
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.plumbing.db import db, reading_only
from scorekeeper.plumbing.models import Game, Rating, RatingFold, RatingMark, RatingStep, Season
from scorekeeper.plumbing.models.times import now
from scorekeeper.services.ratings.folding import Writes, insert_steps, rebuilt, refold
from scorekeeper.services.ratings.scopes import _before, _games_in, scopes_of

log = logging.getLogger(__name__)

# Rows written in one transaction: short enough that another table's save (on SQLite, any
# writer) waits a few milliseconds for it at most.
BATCH = 2_000
# How long a folder holds a club without renewing (each batch renews it): a folder killed
# mid-fold holds its club this long, then the next fold takes it over. Well above the longest
# compute before a pass's first write (26-43 s for 10,000 games on a loaded 2-core machine,
# bench/refold.py): a lease that ran out then was taken over and that work lost.
LEASE_SECONDS = 120
# More games than this marked at once (an import, many corrections queued): the club is folded
# whole in one pass, cheaper than place by place.
MOST_ONE_BY_ONE = 8


def lease_seconds() -> float:
    """The lease: the app's `RATINGS_FOLD_LEASE` or `SCOREKEEPER_RATINGS_FOLD_LEASE` (a test's
    short one), else `LEASE_SECONDS`."""
    return float(_setting("RATINGS_FOLD_LEASE") or LEASE_SECONDS)


def batch_rows() -> int:
    """Rows a transaction writes: `RATINGS_FOLD_BATCH` (a test's small one), else `BATCH`."""
    return int(_setting("RATINGS_FOLD_BATCH") or BATCH)


def _setting(name: str) -> str | float | None:
    return current_app.config.get(name) or os.environ.get(f"SCOREKEEPER_{name}")


def marked_clubs() -> list[int]:
    """Every club with marks not yet folded, the longest waiting first."""
    query = (
        select(RatingMark.club_id).group_by(RatingMark.club_id).order_by(func.min(RatingMark.id))
    )
    return list(db.session.execute(query).scalars())


class LeaseLost(Exception):
    """The club's lease ran out while this folder computed, and another took it over."""


def fold_club(club_id: int) -> bool:
    """Fold the club's marks until none is left; False if another folder holds the club."""
    holder = secrets.token_hex(16)
    if not _take(club_id, holder):
        return False
    try:
        while True:
            with reading_only():
                marks = list(db.session.execute(_marks(club_id)).scalars())
                if not marks:
                    return True
                # Read first: a rollback expires them, and reading one again would begin a
                # transaction that writes (SQLite: the write lock, held meanwhile).
                mark_ids = [mark.id for mark in marks]
                writes, resolved = _planned(club_id, marks)
            db.session.rollback()  # the reading transaction ends before the first write
            _write(club_id, holder, writes, mark_ids, resolved)
    except LeaseLost:
        # Nothing of this pass was written past the batch that found it out: the new holder
        # folds the same marks.
        log.warning("Folding club %s: its lease was taken over; the new holder folds it", club_id)
        return False
    finally:
        _let_go(club_id, holder)


def _marks(club_id: int) -> Any:
    return select(RatingMark).where(RatingMark.club_id == club_id).order_by(RatingMark.id)


def _planned(club_id: int, rows: Sequence[RatingMark]) -> tuple[list[Writes], list[dict[str, Any]]]:
    """What folding these marks writes (the whole club, or each scope from its place), and the
    marks saying where from."""
    game_ids = {mark.game_id for mark in rows if mark.game_id is not None}
    if any(mark.whole for mark in rows) or len(game_ids) > MOST_ONE_BY_ONE:
        return [rebuilt(club_id)], [{"club_id": club_id, "whole": True}]
    seasons = list(db.session.execute(select(Season).where(Season.club_id == club_id)).scalars())
    places: dict[str, int] = {}
    left: set[str] = set()

    def at(scope: str, place: int, *, gone: bool) -> None:
        places[scope] = min(place, places.get(scope, place))
        if gone:
            left.add(scope)

    for mark in rows:
        if mark.scope is not None and mark.place is not None:
            at(mark.scope, mark.place, gone=True)
    for game_id in sorted(game_ids):
        # Where it was rated (its steps), and where it is rated now.
        steps = select(RatingStep.scope, func.min(RatingStep.position))
        steps = steps.where(RatingStep.game_id == game_id).group_by(RatingStep.scope)
        for scope, place in db.session.execute(steps):
            at(scope, place, gone=True)
        game = db.session.get(Game, game_id)
        if game is None or game.finished_at is None or game.club_id != club_id:
            continue
        for scope in scopes_of(game, seasons):
            ahead = select(func.count()).select_from(Game)
            ahead = ahead.where(*(_games_in(club_id, scope, seasons) or []), _before(game))
            at(scope, db.session.execute(ahead).scalar_one() + 1, gone=False)
    planned = [
        refold(club_id, scope, place, seasons, left=scope in left)
        for scope, place in sorted(places.items())
    ]
    # Where this pass folds from, kept as marks of their own in its first write: should it be
    # cut short, the next fold starts there, whatever steps this one had removed by then.
    resolved = [
        {"club_id": club_id, "whole": False, "scope": scope, "place": place}
        for scope, place in places.items()
    ]
    return planned, resolved


def _write(
    club_id: int,
    holder: str,
    planned: list[Writes],
    mark_ids: list[int],
    resolved: list[dict[str, Any]],
) -> None:
    """The fold's rows in short transactions; the ratings and the marks' end in the last."""
    with _batch(club_id, holder):
        for row in resolved:
            mark = RatingMark(**row)
            db.session.add(mark)
            db.session.flush()
            mark_ids = [*mark_ids, mark.id]
    for writes in planned:
        for model_, conditions in writes.clear:
            _delete_in_batches(club_id, holder, model_, conditions)
        for rows in _batches(writes.steps):
            with _batch(club_id, holder):
                insert_steps(rows)
    with _batch(club_id, holder):
        for writes in planned:
            for statement in writes.ratings_clear:
                db.session.execute(statement)
            for rows in _batches(writes.ratings):
                db.session.execute(insert(Rating), rows)
            if writes.ratings_updated:
                db.session.execute(update(Rating), writes.ratings_updated)
        db.session.execute(delete(RatingMark).where(RatingMark.id.in_(mark_ids)))


def _delete_in_batches(club_id: int, holder: str, model_: Any, conditions: Any) -> None:
    """Old rows removed a batch at a time, each batch its own short transaction."""
    size = batch_rows()
    while True:
        with _batch(club_id, holder):
            some = select(model_.id).where(*conditions).limit(size).scalar_subquery()
            gone = db.session.execute(delete(model_).where(model_.id.in_(some))).rowcount
        if gone < size:
            return


def _batches(rows: list[Any]) -> list[list[Any]]:
    size = batch_rows()
    return [rows[start : start + size] for start in range(0, len(rows), size)]


@contextmanager
def _batch(club_id: int, holder: str) -> Iterator[None]:
    """One short write transaction, in this process's writers' turn, the lease renewed in it
    (`LeaseLost` if another folder holds it now). On SQLite a pause as long as the batch took
    follows, so other tables' saves waiting for the one write lock get their turn."""
    began = time.perf_counter()
    with _writers_turn():
        try:
            until = now() + timedelta(seconds=lease_seconds())
            renewed = db.session.execute(
                update(RatingFold)
                .where(RatingFold.club_id == club_id, RatingFold.holder == holder)
                .values(until=until)
            ).rowcount
            if renewed != 1:
                raise LeaseLost(club_id)
            yield
            db.session.commit()
        except BaseException:
            db.session.rollback()
            raise
    if db.session.get_bind().dialect.name == "sqlite":
        time.sleep(time.perf_counter() - began)


@contextmanager
def _writers_turn() -> Iterator[None]:
    """This process's one writer at a time on SQLite (db.one_writer_at_a_time), if it keeps one."""
    turn: Callable[[], Any] | None = current_app.extensions.get("writers_turn")
    if turn is None:
        yield
        return
    with turn():
        yield


def _take(club_id: int, holder: str) -> bool:
    """Take the club's lease if nobody holds it (or theirs ran out)."""
    moment = now()
    until = moment + timedelta(seconds=lease_seconds())
    try:
        taken = db.session.execute(
            update(RatingFold)
            .where(RatingFold.club_id == club_id, RatingFold.until < moment)
            .values(until=until, holder=holder)
        ).rowcount
        if not taken:
            db.session.execute(
                insert(RatingFold).values(club_id=club_id, until=until, holder=holder)
            )
        db.session.commit()
        return True
    except IntegrityError:
        db.session.rollback()  # held by another folder, whose lease still runs
        return False


def _let_go(club_id: int, holder: str) -> None:
    """Give the lease back at once (if still ours), so the next fold need not wait for it."""
    db.session.rollback()
    mine = (RatingFold.club_id == club_id, RatingFold.holder == holder)
    db.session.execute(delete(RatingFold).where(*mine))
    db.session.commit()


def fold_every_club() -> int:
    """Fold every club with marks (at start, `flask fold`); how many clubs were folded."""
    folded = 0
    for club_id in marked_clubs():
        db.session.rollback()
        folded += fold_club(club_id)
    return folded
