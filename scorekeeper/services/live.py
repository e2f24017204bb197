"""What every phone at a table polls for: has the game changed, and who is entering a deal.

All of it is read from the database on each request, so any number of app processes behind a
proxy answer alike; nothing is kept inside one process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Row, delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealPart, Entering, Game
from scorekeeper.services import agreement_shown
from scorekeeper.services.names import SOMEONE
from scorekeeper.services.nights import place as night_place
from scorekeeper.services.table_news import news_text, touch

# A phone with the deal form open says so every few seconds (static/app.js); one not heard from
# for this long has put the form away.
FRESH = timedelta(seconds=15)
# Rows this old are swept away when another phone writes.
FORGOTTEN = timedelta(hours=1)
# The most phones a game lists as entering. A real table has one or two at a time; without a
# bound, one script inventing device ids made every phone's poll carry thousands of names.
MAX_ENTERING = 8


@dataclass(frozen=True)
class TableState:
    """A game's state as a polling phone needs it."""

    game_id: int
    club_id: int | None
    version: str
    deals: int
    finished: bool
    # Who else is entering: name, deal, and for how many seconds more the name stays fresh
    # without news (a phone put away says nothing; its name goes from every screen then).
    entering: list[tuple[str, int, int]]
    # The sides' own lines of the next deal that are in (services/side_lines.py): who sent
    # each, whether this phone did, and what the deal meets because of it.
    parts: list[dict[str, Any]] = field(default_factory=list)
    # Changes whenever a line comes in or changes (live.lines_token): the scoreboard then
    # shows the running breakdown again.
    lines: str = ""
    # The last deal saved or corrected (Game.news), told once by each phone (its `key`).
    news: dict[str, Any] | None = None
    # The finished game's next game (Play again): its secret, and who started it.
    next_game: tuple[str, str] | None = None
    # A club night's game: a token that changes whenever what its pages say of the night does
    # (the next round seated, tables finishing: night_place.NightPlace.token), and whether its
    # finished game's phones wait for the next round to be seated (they then ask every second).
    night: str = ""
    waiting: bool = False
    # Changes whenever a side agrees or queries a deal (agreement_shown.answers_token): the
    # scoreboard then shows the marks and questions again; the queries standing, in words.
    answers: str = ""
    queries: list[str] = field(default_factory=list)
    # A deal still waits for a side's answer: the phones keep asking every second.
    asking: bool = False

    def as_json(self, link: Callable[[str], str]) -> dict[str, Any]:
        """The body of the live answer; `link` turns a game's secret into its link."""
        return {
            "game": self.game_id,
            "version": self.version,
            "deals": self.deals,
            "next_deal": self.deals + 1,
            "finished": self.finished,
            "entering": [
                {"name": name, "deal": deal, "fresh_for": fresh_for}
                for name, deal, fresh_for in self.entering
            ],
            "parts": self.parts,
            "lines": self.lines,
            "news": {**self.news, "text": news_text(self.news)} if self.news else None,
            "next_game": (
                {"url": link(self.next_game[0]), "started_by": self.next_game[1]}
                if self.next_game
                else None
            ),
            "night": self.night,
            "waiting": self.waiting,
            "answers": self.answers,
            "queries": self.queries,
            "asking": self.asking,
        }


def lines_token(number: int, rows: Any) -> str:
    """A token that changes whenever a side's line of deal `number` comes in or changes."""
    versions = sorted((row.side_position, row.version) for row in rows)
    return f"{number}:" + ",".join(f"{side}.{version}" for side, version in versions)


def version(deals: int, versions: int) -> str:
    """A token that changes whenever a deal is added or corrected (each correction adds one)."""
    return f"{deals}.{versions}"


def version_of(game: Game) -> str:
    """The token for a game already loaded with its deals."""
    return version(len(game.deals), sum(deal.version for deal in game.deals))


def table_state(game_id: int, device: str | None, now: datetime | None = None) -> TableState | None:
    """The game's version and who else is entering its current deal; None if no such game.

    Nine small queries (after the one that opened the link: four, and five for the sides'
    agreements and queries), and one more for a club game (its place in a night), no ORM
    objects. Asked only when
    the game's live version moved on since the phone's last answer (web/live.py).
    """
    now = now or datetime.now(UTC)
    if not 0 < game_id < 2**63:  # beyond any database's integer: no such game
        return None
    after = aliased(Game)
    game = db.session.execute(
        select(Game.club_id, Game.finished_at, Game.news, Game.next_started_by, after.secret)
        .outerjoin(after, after.id == Game.next_game_id)
        .where(Game.id == game_id)
    ).one_or_none()
    if game is None:
        return None
    deals, versions = db.session.execute(
        select(func.count(Deal.id), func.coalesce(func.sum(Deal.version), 0)).where(
            Deal.game_id == game_id
        )
    ).one()
    # Only the deal still to be entered counts: a phone still typing a deal saved meanwhile
    # learns so on its own page.
    query = (
        select(Entering.name, Entering.deal_number, Entering.seen_at)
        .where(
            Entering.game_id == game_id,
            Entering.seen_at >= now - FRESH,
            Entering.deal_number > deals,
        )
        .order_by(Entering.deal_number, Entering.name)
        .limit(MAX_ENTERING)
    )
    if device:
        query = query.where(Entering.device != device)
    entering = [
        (name, number, _fresh_for(seen_at, now))
        for name, number, seen_at in db.session.execute(query)
    ]
    finished = game.finished_at is not None
    lines = select(
        DealPart.side_position,
        DealPart.version,
        DealPart.sent_by,
        DealPart.device,
        DealPart.problem,
    ).where(DealPart.game_id == game_id, DealPart.deal_number == deals + 1)
    rows = db.session.execute(lines.order_by(DealPart.side_position)).all()
    parts = [
        {
            "side": row.side_position,
            "sent_by": row.sent_by,
            "mine": bool(device) and row.device == device,
            "problem": row.problem,
        }
        for row in rows
    ]
    state = version(deals, versions)
    place = night_place.live_place(game_id) if game.club_id is not None else None
    return TableState(
        game_id,
        game.club_id,
        state,
        deals,
        finished,
        entering,
        parts,
        lines_token(deals + 1, rows),
        game.news,
        (game.secret, game.next_started_by or SOMEONE) if game.secret else None,
        place.token if place else "",
        place.waiting if place else False,
        agreement_shown.answers_token(game_id),
        [q.words for q in agreement_shown.open_queries([game_id]).get(game_id, [])],
        agreement_shown.still_asking(game_id),
    )


def _fresh_for(seen_at: datetime, now: datetime) -> int:
    """Whole seconds until a phone last heard at `seen_at` is no longer listed as entering."""
    if seen_at.tzinfo is None:  # SQLite hands back naive UTC
        seen_at = seen_at.replace(tzinfo=UTC)
    return max(1, int((seen_at + FRESH - now).total_seconds() + 0.999))


def game_row(game_id: int) -> Row[tuple[int | None, datetime | None]] | None:
    """The game's club and end, without loading the game; None if no such game."""
    if not 0 < game_id < 2**63:  # beyond any database's integer: no such game
        return None
    query = select(Game.club_id, Game.finished_at).where(Game.id == game_id)
    return db.session.execute(query).one_or_none()


def say_entering(game_id: int, device: str, name: str, deal_number: int) -> bool:
    """Record that this phone has the form for this deal open, now.

    False, and nothing recorded, for a new phone when the game already lists `MAX_ENTERING`.
    """
    now = datetime.now(UTC)
    values = {"name": name, "deal_number": deal_number, "seen_at": now}
    # Every word from an entering phone is news to the table (its name stays fresh).
    touch(game_id)
    db.session.execute(delete(Entering).where(Entering.seen_at < now - FORGOTTEN))
    # This game's quiet phones are listed no more: their rows go now, so that the game's rows
    # are the phones it lists, and a quiet phone's place is free for another.
    db.session.execute(
        delete(Entering).where(Entering.game_id == game_id, Entering.seen_at < now - FRESH)
    )
    changed = db.session.execute(
        update(Entering)
        .where(Entering.game_id == game_id, Entering.device == device)
        .values(**values)
    )
    if changed.rowcount == 0:
        count = select(func.count()).select_from(Entering).where(Entering.game_id == game_id)
        if db.session.execute(count).scalar_one() >= MAX_ENTERING:
            db.session.commit()
            return False
        try:
            with db.session.begin_nested():
                db.session.add(Entering(game_id=game_id, device=device, **values))
        except IntegrityError:
            # The same phone's previous word arrived at the same moment: say it again over it.
            db.session.execute(
                update(Entering)
                .where(Entering.game_id == game_id, Entering.device == device)
                .values(**values)
            )
    db.session.commit()
    return True


def stop_entering(game_id: int, device: str, commit: bool = True) -> None:
    """This phone has left the deal form (saved, sent its line, or gone back).

    `commit=False` leaves it to the caller's transaction (a line kept: side_lines.send_line).
    """
    gone = db.session.execute(
        delete(Entering).where(Entering.game_id == game_id, Entering.device == device)
    )
    if gone.rowcount:
        touch(game_id)
    if commit:
        db.session.commit()
