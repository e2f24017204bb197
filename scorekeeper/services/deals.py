"""Entering and correcting a deal: one use case each, every check in one place, one outcome.

The deal form and the JSON API both call `enter_deal` and `correct_deal` (corrections.py; its
outcomes in deal_outcomes.py, all importable from here) and only translate
the outcome they get back into a page or an answer; neither checks anything itself.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealPart, DealScore, Game, Side
from scorekeeper.rules import DealEntry, DealLimitReached, DealRefused, Progress, Refusal
from scorekeeper.services import access, deal_history, figures, games
from scorekeeper.services.access import Level
from scorekeeper.services.corrections import correct_deal as correct_deal
from scorekeeper.services.corrections import correction_refused
from scorekeeper.services.deal_outcomes import (
    AlreadySaved as AlreadySaved,
)
from scorekeeper.services.deal_outcomes import (
    ChangedMeanwhile as ChangedMeanwhile,
)
from scorekeeper.services.deal_outcomes import (
    Ended as Ended,
)
from scorekeeper.services.deal_outcomes import (
    KeyReused as KeyReused,
)
from scorekeeper.services.deal_outcomes import (
    LimitReached as LimitReached,
)
from scorekeeper.services.deal_outcomes import (
    LinesArrived as LinesArrived,
)
from scorekeeper.services.deal_outcomes import (
    Locked as Locked,
)
from scorekeeper.services.deal_outcomes import (
    NoSuchDeal as NoSuchDeal,
)
from scorekeeper.services.deal_outcomes import (
    NotAllowed as NotAllowed,
)
from scorekeeper.services.deal_outcomes import (
    Outcome as Outcome,
)
from scorekeeper.services.deal_outcomes import (
    Refused as Refused,
)
from scorekeeper.services.deal_outcomes import (
    Saved as Saved,
)
from scorekeeper.services.deal_outcomes import (
    SavedMeanwhile as SavedMeanwhile,
)
from scorekeeper.services.live import lines_token
from scorekeeper.services.nights import place as night_place
from scorekeeper.services.table_news import saved_news

# An idempotency key: a form's is a FORM_KEY; an API client may choose its own.
KEY = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
KEY_HELP = "Idempotency-Key must be 1 to 64 letters, digits or any of - _ . :"
# The key this app's pages make for themselves (the server's uuid4().hex, a phone's
# hf.freshKey in static/app.js): 32 hex digits. A phone's own id (its `device`) is one too.
FORM_KEY = re.compile(r"[0-9a-f]{32}")


# --- entering the next deal ----------------------------------------------------------------


def enter_deal(
    game: Game,
    level: Level,
    scores: Any,
    key: str | None = None,
    opened_for: int | None = None,
    lines_seen: str | None = None,
    sent_by: str | None = None,
    side: int | None = None,
    device: str | None = None,
) -> Outcome:
    """Score and save the next deal from one entry per side (JSON-like), or say why not.

    `key` makes a resent submission harmless; `opened_for` is the deal number the form was
    opened for, so that a deal another phone saved meanwhile is shown, never saved over;
    `lines_seen` is the token of the sides' own lines the form was opened with (`lines_token`),
    so that a line sent since is shown, never saved over. The sides' lines go with the deal.
    `sent_by` is the saving phone's name, told to the table ("Ann saved deal 3") and kept in
    the deal's history with `device`, the phone's id; `side` the side the phone is on, if it
    says: that side's agreement comes with the deal (deal_history.How).
    """
    if not access.may_enter(game, level):
        return NotAllowed(access.TO_ENTER)
    if key is not None and not KEY.fullmatch(key):
        return Refused([Refusal(None, "Idempotency-Key", KEY_HELP)])
    if side is not None and not 0 <= side < len(game.sides):
        return Refused([_no_such_side(game)])
    device = device if device and FORM_KEY.fullmatch(device) else None
    agreed = () if side is None else ((side, sent_by, device),)
    how = deal_history.How(deal_history.WHOLE, device, agreed)
    sent = request_hash(scores) if key else None
    recorded = deal_with_key(game, key) if key else None
    if recorded is not None:
        return _replayed(recorded, key, sent)
    games.progress_of(game)  # replayed before the lock: under it, only if the deals changed
    lock(game)
    # The same submission may have been saved while this one waited for the lock.
    recorded = deal_with_key(game, key) if key else None
    if recorded is not None:
        return _replayed(recorded, key, sent)
    so_far = games.progress_of(game)
    stale = stale_number(game, so_far, opened_for)
    if stale is not None:
        return stale
    if lines_seen is not None:
        now = lines_token(so_far.next_deal, lines_in(game, so_far.next_deal).values())
        # A form opened before an earlier deal was saved knew of no line of this one.
        if not lines_seen.startswith(f"{so_far.next_deal}:"):
            lines_seen = lines_token(so_far.next_deal, [])
        if now != lines_seen:
            return LinesArrived(so_far.next_deal, now)
    closed = no_deal_now(game, so_far)
    if closed is not None:
        return closed
    return save_next_deal(game, so_far, scores, key, sent, sent_by, how)


def _no_such_side(game: Game) -> Refusal:
    """A phone's side that is none of the game's."""
    last = len(game.sides) - 1
    return Refusal(None, "side", f"side is the side this phone is on, 0 to {last}, or left out.")


def no_deal_now(game: Game, progress: Progress | None = None) -> Ended | LimitReached | None:
    """Why the game takes no deal now, as an outcome (rules.no_deal_now); None while it takes one.

    Every page, form and answer that offers the next deal (or refuses it) asks this.
    """
    progress = progress or games.progress_of(game)
    closed = engine.no_deal_now(games.rules_of(game), games.sides_of(game), progress)
    if isinstance(closed, DealLimitReached):
        return LimitReached(closed.refusals)
    return None if closed is None else Ended(closed.refusals)


def stale_number(
    game: Game,
    so_far: Progress,
    opened_for: int | None,
    line: tuple[int, DealEntry] | None = None,
) -> Refused | SavedMeanwhile | AlreadySaved | None:
    """What a form (or a side's `line`) opened for deal `opened_for` comes to, if not the next.

    A deal the game has not reached is refused; one saved meanwhile is shown, never saved over,
    unless a side's line is sent again after its answer was lost: the deal saved holds that very
    line, so it was saved already. None when `opened_for` is the next deal (or not said).
    """
    if opened_for is None or opened_for == so_far.next_deal:
        return None
    if opened_for > so_far.next_deal:
        return Refused([not_yet(opened_for, so_far.next_deal)])
    if line is not None and 0 < opened_for <= len(game.deals):
        side, entry = line
        deal = game.deals[opened_for - 1]
        sent = {score.side_position: score.entry for score in deal.scores}.get(side)
        if sent == entry.to_dict():
            return AlreadySaved(deal)
    return SavedMeanwhile(opened_for)


def save_next_deal(
    game: Game,
    so_far: Progress,
    scores: Any,
    key: str | None = None,
    sent: str | None = None,
    sent_by: str | None = None,
    how: deal_history.How = deal_history.WHOLE_DEAL,
) -> Outcome:
    """Score the next deal on top of `so_far` and save it, under the lock the caller holds.

    The caller has taken `lock` and made its checks (`stale_number`, `no_deal_now`): a whole
    deal's form (`enter_deal`), or the last side's line of it (`side_lines.send_line`); `how`
    is how it came, for its history.
    """
    try:
        entries = games.entries_from(scores, game)
        # Only the new deal is scored, on top of the game so far (usually replayed already).
        progress = engine.extend(
            games.rules_of(game), game.decks, games.sides_of(game), so_far, entries
        )
    except DealRefused as exc:
        return Refused(exc.refusals)
    try:
        return Saved(_insert_deal(game, entries, progress, key, sent, sent_by, how))
    except IntegrityError:
        # Another request saved a deal meanwhile: the same submission, or another phone's.
        db.session.rollback()
        recorded = deal_with_key(game, key) if key else None
        if recorded is not None:
            return _replayed(recorded, key, sent)
        return SavedMeanwhile(so_far.next_deal)


def form_key(sent: str | None) -> str:
    """The key a page sent, if this app made it (`FORM_KEY`); else a fresh one for the page."""
    return sent if sent and FORM_KEY.fullmatch(sent) else uuid.uuid4().hex


def not_yet(number: int, next_deal: int) -> Refusal:
    """A deal (or a side's line of one) sent for a deal the game has not reached."""
    message = f"There is no deal {number} yet: the next deal is {next_deal}."
    return Refusal(None, "deal", message)


def request_hash(scores: Any) -> str:
    """The digest of the figures, kept beside the key they came with."""
    return games.digest(scores)


def _replayed(recorded: Deal, key: str | None, sent: str | None) -> AlreadySaved | KeyReused:
    """A key seen before: the same figures again are a replay, other figures are refused."""
    # A deal saved before hashes were kept (request_hash NULL) is replayed, as it always was.
    if recorded.request_hash is None or recorded.request_hash == sent or key is None:
        return AlreadySaved(recorded)
    return KeyReused(recorded, key)


def deal_with_key(game: Game, key: str) -> Deal | None:
    """The deal a submission with this idempotency key recorded, if any."""
    # Asked on every save, twice (before the lock and under it), and nearly always None: a
    # plain query for the id, and the deal itself only when there is one.
    found = db.session.execute(_KEYED, {"game_id": game.id, "key": key}).scalar_one_or_none()
    return None if found is None else db.session.get(Deal, found)


# The hottest write's statements, built once (building them anew cost each save more than
# running them): see _insert_deal.
_DEALS, _SCORES, _GAMES = Deal.__table__, DealScore.__table__, Game.__table__
_KEYED = select(_DEALS.c.id).where(
    _DEALS.c.game_id == bindparam("game_id"), _DEALS.c.idempotency_key == bindparam("key")
)
_NEW_DEAL = insert(_DEALS).returning(_DEALS.c.id)
_NEW_SCORES = insert(_SCORES).returning(_SCORES.c.id, sort_by_parameter_order=True)
_GAME_SAVED = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game_id"))
    .values(
        finished_at=bindparam("finished", type_=_GAMES.c.finished_at.type),
        updated_at=bindparam("now", type_=_GAMES.c.updated_at.type),
        live_version=_GAMES.c.live_version + 1,
        news=bindparam("saved_news", type_=_GAMES.c.news.type),
    )
)
_LINES_GONE = delete(DealPart.__table__).where(DealPart.__table__.c.game_id == bindparam("game_id"))
# Each side's figures, one UPDATE run for every side: by the figures' names (always the same).
_SIDES_KEPT: dict[tuple[str, ...], Any] = {}


def _sides_kept(names: tuple[str, ...]) -> Any:
    """The UPDATE that keeps these figures on each side (built once per set of names)."""
    if names not in _SIDES_KEPT:
        sides = Side.__table__
        _SIDES_KEPT[names] = (
            update(sides)
            .where(sides.c.id == bindparam("side_id"))
            .values({name: bindparam(name) for name in names})
        )
    return _SIDES_KEPT[names]


def _insert_deal(
    game: Game,
    entries: Sequence[DealEntry],
    progress: Progress,
    key: str | None,
    sent: str | None = None,
    sent_by: str | None = None,
    how: deal_history.How = deal_history.WHOLE_DEAL,
) -> Deal:
    """Insert a new deal and its scores and history, keep each side's figures, commit.

    The deal, its scores and its history (the entry, and the agreements that came with it) go
    in as three plain INSERTs rather than through the unit of work (which inserts and reads
    back one row at a time): entering a deal is the hottest write.
    The objects are then placed in the session as if loaded, so the game reads as saved.
    """
    now = games.now()
    number = progress.next_deal - 1
    row = {
        "game_id": game.id,
        "number": number,
        "version": 1,
        "idempotency_key": key,
        "request_hash": sent,
    }
    deal_id = db.session.execute(
        _NEW_DEAL, {**row, "created_at": now, "updated_at": now}
    ).scalar_one()
    rows = [
        {
            "deal_id": deal_id,
            "side_id": side.id,
            "side_position": side.position,
            "entry": entry.to_dict(),
            "total": score.total,
        }
        for side, entry, score in zip(game.sides, entries, progress.deals[-1].scores, strict=True)
    ]
    ids = db.session.execute(_NEW_SCORES, rows).scalars()
    after = [{"entry": score["entry"], "total": score["total"]} for score in rows]
    deal_history.entered(game.id, number, how, sent_by, after, now)
    deal = Deal(id=deal_id, **row, created_at=now, updated_at=now)
    scores = [DealScore(id=score_id, **score) for score_id, score in zip(ids, rows, strict=True)]
    for loaded in (deal, *scores):
        make_transient_to_detached(loaded)
        db.session.add(loaded)
    set_committed_value(deal, "scores", scores)
    set_committed_value(game, "deals", [*game.deals, deal])
    # Each side's figures in one UPDATE run for every side, then the game's row.
    kept = figures.side_figures(len(game.sides), progress, games.entries_of(game))
    db.session.execute(
        _sides_kept(tuple(kept[0])),
        [{"side_id": side.id, **f} for side, f in zip(game.sides, kept, strict=True)],
    )
    finished = games.finished_when(game, progress, now)
    news = saved_news(number, sent_by)
    db.session.execute(
        _GAME_SAVED, {"game_id": game.id, "finished": finished, "now": now, "saved_news": news}
    )
    for side, side_figures in zip(game.sides, kept, strict=True):
        for name, value in side_figures.items():
            set_committed_value(side, name, value)
    set_committed_value(game, "finished_at", finished)
    set_committed_value(game, "updated_at", now)
    if progress.finished and game.club_id is not None:
        night_place.touch_round_of(game.id)  # a night's finished tables: one fewer plays
    figures.keep_member_results(game, progress.finished)
    db.session.execute(_LINES_GONE, {"game_id": game.id})
    db.session.commit()
    games.keep_progress(game, progress)
    return deal


# --- the next deal's writers, one at a time; the sides' own lines of it ------------------------


def lock(game: Game) -> None:
    """Take the game's next deal for this transaction: its other writers wait their turn.

    Two last lines (`side_lines.send_line`) arriving at once on two app processes are taken in
    turn and the second sees the first; a deal saved or corrected by another process since the
    game was read is read again (games.lock_history).
    """
    games.lock_history(game)


def lines_in(game: Game, number: int) -> dict[int, DealPart]:
    """The sides' own lines in for deal `number`, by side position."""
    found = db.session.execute(_LINES, {"game_id": game.id, "number": number}).scalars()
    return {row.side_position: row for row in found}


# Asked by every scoreboard and deal page (the next deal's lines): built once.
_LINES = select(DealPart).where(
    DealPart.game_id == bindparam("game_id"), DealPart.deal_number == bindparam("number")
)


# --- what a deal would score ---------------------------------------------------------------


def preview_deal(
    game: Game, entries: Sequence[DealEntry], number: int | None = None
) -> engine.DealResult:
    """The breakdown a deal would get, without saving it (DealRefused if it would be refused)."""
    if number is None:
        so_far = games.progress_of(game)
        rules, sides = games.rules_of(game), games.sides_of(game)
        return engine.extend(rules, game.decks, sides, so_far, entries).deals[-1]
    frozen = correction_refused(game)
    if frozen is not None:
        raise DealRefused([frozen])
    progress = games.progress_corrected(game, number, entries)
    return progress.deals[number - 1]
