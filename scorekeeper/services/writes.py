"""How many deals, lines and corrections one game and one address may send in a while.

Issue 39: 8 threads correcting deal 1 of a 12-side, 49-deal game without pause made 97
corrections in 20 s and other tables' saves 11x slower at the median (0.056 -> 0.631 s on
PostgreSQL). Every write of a game through its link (a deal entered, a side's line sent, a deal
corrected; page or API) is counted here before the game is read, per game and per address (as
`addresses.counted_as` counts it), in fixed windows (a correction's a minute, an entry's ten):
one `WriteTally` row per game or address and window, raised in one statement, so the allowance
holds across every worker and process. What is counted is what was sent and let through, saved
or not (a correction refused for its figures costs the server as much as one saved).

Past an allowance nothing is read or saved: the caller answers 429 with `TooMany.message` and
`Retry-After` (a page shows the form again with its figures and the message). A refusal is
remembered by the process until its window ends, so a flood of refused writes costs no query.
Windows are fixed (10:00-10:01, 10:01-10:02): at a window's turn a game may send up to twice
its allowance in a short while, which still bounds a flood (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, event, select, text, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session as OrmSession

from scorekeeper.plumbing.addresses import counted_as
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import WriteTally
from scorekeeper.services import creations

log = logging.getLogger(__name__)

# What is counted: a deal corrected, or a deal entered or a side's line of one sent.
CORRECTION = "correction"
ENTRY = "entry"
# Whose: the game written to, and the address it came from.
GAME = "game"
ADDRESS = "address"
# Seconds since 1970, as the windows are counted (a test may stop it).
clock = time.time


@dataclass(frozen=True)
class Allowance:
    """How many writes of one kind one game or one address may send within a window."""

    most: int
    window: timedelta
    # The app.config key (or SCOREKEEPER_<key> in the environment) that changes `most`.
    setting: str
    # What is counted, as the refusal names it: many of them, and one.
    what: str
    one: str


MINUTE, TEN_MINUTES = timedelta(minutes=1), timedelta(minutes=10)
ALLOWANCES: dict[tuple[str, str], Allowance] = {
    # A correction replays the game from the deal corrected (a 12-side game of 90 deals: 0.1 to
    # 0.3 s here), so its window is short and the burst it allows small. A table corrects a deal
    # when a figure was mistyped, a few a game; by hand (open the deal, retype, save) each takes
    # a person 15 s or more. Six in a minute is more than a table ever sends, a phone's outbox
    # sending its queued corrections at once included. The flood made 97 in 20 s.
    (CORRECTION, GAME): Allowance(6, MINUTE, "CORRECTIONS_PER_GAME", "corrections", "correction"),
    # Two tables of a club night on one wifi address correcting six deals each within the same
    # minute; corrections are rare, and a club's evening has a few.
    (CORRECTION, ADDRESS): Allowance(
        12, MINUTE, "CORRECTIONS_PER_ADDRESS", "corrections", "correction"
    ),
    # A game holds at most 100 deals (rules.terms.DEAL_LIMIT), a deal takes minutes to play; a
    # whole paper sheet of 100 deals typed in at once, or a phone's outbox of a whole evening,
    # with a line from each side of a few of them, stays within 150.
    (ENTRY, GAME): Allowance(
        150, TEN_MINUTES, "ENTRIES_PER_GAME", "deals and lines", "deal or line"
    ),
    # 30 tables on one address each sending a deal or six sides' lines every five minutes is
    # 420 in ten minutes; a paper sheet typed in meanwhile still fits.
    (ENTRY, ADDRESS): Allowance(
        600, TEN_MINUTES, "ENTRIES_PER_ADDRESS", "deals and lines", "deal or line"
    ),
}


# The longest window: a row is kept as long again after its own ends.
LONGEST = max(allowance.window for allowance in ALLOWANCES.values())


@dataclass(frozen=True)
class TooMany:
    """A game or an address that has sent its allowance of one kind within the window: nothing
    is read or saved."""

    kind: str
    whose: str  # GAME or ADDRESS
    most: int
    retry_after: int  # seconds until the window ends

    @property
    def message(self) -> str:
        """In plain words: what was limited, and when to try again."""
        allowance = ALLOWANCES[(self.kind, self.whose)]
        who = "This game has had" if self.whose == GAME else "This address has sent"
        most = "a game may" if self.whose == GAME else "one address may send"
        what = allowance.what if self.most != 1 else allowance.one
        return (
            f"{who} {self.most:,} {what} within {window_words(allowance.window)}, the most "
            f"{most}. Nothing was saved: try again in {_wait_words(self.retry_after)}."
        )


def window_words(window: timedelta) -> str:
    """A window as people say it: a minute, 10 minutes."""
    minutes = int(window.total_seconds()) // 60
    return "a minute" if minutes == 1 else f"{minutes} minutes"


def most_of(kind: str, whose: str) -> int:
    """How many of this kind a game or an address may send within its window, as this server is
    set (app config, else the environment, else the allowance above)."""
    allowance = ALLOWANCES[(kind, whose)]
    return creations.as_set(allowance.setting, allowance.most)


# Refusals this process has given, by scope: until their window ends, no count can go down, so
# the next write of the same scope is refused without asking the database.
_refused: dict[str, tuple[float, TooMany]] = {}
_refused_lock = threading.Lock()
# The most scopes remembered (a flood from many addresses must not grow it without end).
REMEMBERED = 10_000


def allow(kind: str, game_id: int, peer: str | None) -> TooMany | None:
    """Count one more `kind` of write to game `game_id` from `peer`, or say why not.

    PostgreSQL: the count is committed at once, in a transaction of its own that does not wait
    for the disk (a count lost with a power cut costs nothing), so no row of it stays locked
    while the write is made; the caller's session must hold nothing unsaved. SQLite, whose
    writes take turns anyway: the count goes with the write's own commit, and a write that
    commits nothing has it committed when the request ends (`keep_uncommitted`). A refusal
    changes nothing.
    """
    now = clock()
    names = {GAME: f"{kind} {GAME} {game_id}", ADDRESS: f"{kind} {ADDRESS} {counted_as(peer)}"}
    scopes = {whose: _scope(name, ALLOWANCES[(kind, whose)], now) for whose, name in names.items()}
    for scope in scopes.values():
        remembered = _remembered(scope[0], now)
        if remembered is not None:
            return remembered
    apart = _dialect() == "postgresql"
    if apart:
        db.session.execute(text("SET LOCAL synchronous_commit TO OFF"))
    counts = _count(list(scopes.values()), now)
    before = _before(list(scopes.values()))
    refused = None
    for whose, (scope, _window, until) in scopes.items():
        most = most_of(kind, whose)
        length = ALLOWANCES[(kind, whose)].window.total_seconds()
        wait = _wait(counts.get(scope, 0), before.get(scope, 0), most, until - length, length, now)
        if wait is not None:
            refused = TooMany(kind, whose, most, max(1, math.ceil(wait - now)))
            _remember(scope, wait, refused)
            # Once a window per process: the operator sees a flood begin (no address logged).
            log.warning("Writes refused: %ss past the allowance of %s %s", kind, _a(whose), whose)
            break
    table = WriteTally.__table__
    if refused is not None:
        # Taken back in the same transaction: the refused write counts for nothing.
        counted = tuple_(table.c.scope, table.c.window).in_([s[:2] for s in scopes.values()])
        db.session.execute(update(table).where(counted).values(count=table.c.count - 1))
    if apart or refused is not None:
        db.session.commit()
    else:
        db.session.info[PENDING] = (list(scopes.values()),)
    return refused


Scope = tuple[str, int, float]  # what is counted, the window's number, when it ends


def _before(scopes: list[Scope]) -> dict[str, int]:
    """Each scope's count in the window before this one."""
    table = WriteTally.__table__
    previous = [(scope, window - 1) for scope, window, _until in scopes]
    query = select(table.c.scope, table.c.count).where(
        tuple_(table.c.scope, table.c.window).in_(previous)
    )
    return {scope: count for scope, count in db.session.execute(query)}


def _wait(count: int, before: int, most: int, start: float, length: float, now: float):
    """When one more write may be let through, if this one (the `count`th of its window, with
    `before` in the window before) may not; None if it may.

    The windows slide, as near as two counts tell: the window before counts for the part of it
    still within the last `length` seconds (`before` spread evenly over it), so no burst of twice
    the allowance comes at a window's turn.
    """
    gone = (now - start) / length  # how far into this window: the part of the last one gone
    if count + before * (1 - gone) <= most:
        return None
    if count <= most:
        # Later in this window, when enough of the last one has slid out.
        return start + length * (1 - (most - count) / before)
    # In the next window, when enough of this one (without this write) has slid out.
    kept = count - 1
    return start + length * (2 - min(1, (most - 1) / kept)) if kept else start + length


def _scope(name: str, allowance: Allowance, now: float) -> Scope:
    """The scope's window now: its number, and when it ends (seconds since 1970)."""
    length = allowance.window.total_seconds()
    window = int(now // length)
    return name, window, (window + 1) * length


def _count(scopes: list[Scope], now: float) -> dict[str, int]:
    """Raise each scope's count in its window by one, in one statement: the counts now."""
    table = WriteTally.__table__
    rows = [
        {"scope": scope, "window": window, "count": 1, "until": datetime.fromtimestamp(until, UTC)}
        for scope, window, until in scopes
    ]
    # The rows go as parameters, SQLAlchemy sending them as one multi-row INSERT still: a
    # statement holding its rows (`.values(rows)`) is compiled afresh on every write.
    counts = {scope: count for scope, count in db.session.execute(_UPSERTS[_dialect()], rows)}
    if 1 in counts.values():
        # A window begun: the windows that ended before the last one are forgotten (once a
        # window, per scope); the last one still counts in part (_wait).
        ended = datetime.fromtimestamp(now - LONGEST.total_seconds(), UTC)
        db.session.execute(delete(table).where(table.c.until < ended))
    return counts


def _upsert(insert) -> object:
    table = WriteTally.__table__
    return (
        insert(table)
        .on_conflict_do_update(
            index_elements=[table.c.scope, table.c.window], set_={"count": table.c.count + 1}
        )
        .returning(table.c.scope, table.c.count)
    )


# Each dialect's count-raising statement, built once (it runs on every write).
_UPSERTS = {"postgresql": _upsert(postgresql.insert), "sqlite": _upsert(sqlite.insert)}

# The count of a write not yet committed (SQLite): session.info's key.
PENDING = "write_tally_pending"


@event.listens_for(OrmSession, "after_commit")
def _kept(session: OrmSession) -> None:
    """The write committed, and its count with it (unless a rollback took the count before)."""
    pending = session.info.get(PENDING)
    if pending is not None and len(pending) == 1:
        del session.info[PENDING]


@event.listens_for(OrmSession, "after_rollback")
def _lost(session: OrmSession) -> None:
    """The count went with the rollback: `keep_uncommitted` counts it again."""
    pending = session.info.get(PENDING)
    if pending is not None:
        session.info[PENDING] = (pending[0], True)


def keep_uncommitted() -> None:
    """At the end of a request: a write let through that committed nothing (refused for its
    figures, changed meanwhile, failed) is counted all the same, in a transaction of its own."""
    if not db.session.registry.has():
        return  # the request never used the database
    pending = db.session.info.pop(PENDING, None)
    if pending is None:
        return
    try:
        db.session.rollback()
        db.session.info.pop(PENDING, None)
        _count(pending[0], clock())
        db.session.commit()
    except Exception:  # noqa: BLE001 - a count lost must not turn an answer into an error
        log.exception("A write's count could not be kept")
        db.session.rollback()


def _a(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def remembered(kind: str, game_id: int, peer: str | None) -> TooMany | None:
    """This process's refusal of one more `kind` to the game from `peer`, while it lasts: asks
    nothing of the database (a flood of refused writes answered before it waits for anything)."""
    now = clock()
    for scope in (f"{kind} {GAME} {game_id}", f"{kind} {ADDRESS} {counted_as(peer)}"):
        refused = _remembered(scope, now)
        if refused is not None:
            return refused
    return None


def _remembered(scope: str, now: float) -> TooMany | None:
    """This process's refusal of `scope`, while its window lasts, with the wait now left."""
    with _refused_lock:
        kept = _refused.get(scope)
        if kept is None:
            return None
        until, refused = kept
        if until <= now:
            del _refused[scope]
            return None
    return TooMany(refused.kind, refused.whose, refused.most, max(1, math.ceil(until - now)))


def _remember(scope: str, until: float, refused: TooMany) -> None:
    with _refused_lock:
        if len(_refused) >= REMEMBERED:
            _refused.clear()  # forgetting only costs a query per scope
        _refused[scope] = (until, refused)


def forget_refusals() -> None:
    """Forget this process's refusals (tests that change the allowances or the clock)."""
    with _refused_lock:
        _refused.clear()


def _dialect() -> str:
    return db.session.get_bind().dialect.name


def _wait_words(seconds: int) -> str:
    """A wait as people say it: 40 seconds, 7 minutes (rounded up)."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = -(-seconds // 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
