"""The score sheet: games kept in the database, scored by the rules engine.

Pages and the JSON API both come through here, so neither computes a score itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import bindparam, case, delete, event, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import joinedload, make_transient_to_detached, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from . import rules as engine
from .db import db
from .models import (
    RESULT_FIGURES,
    Club,
    Deal,
    DealScore,
    Game,
    MemberDay,
    MemberResult,
    Player,
    Side,
)
from .rules import DealEntry, DealRefused, Progress, Refusal, RulesError, RuleSet
from .rules.game import MAX_NAME

CONTROL_MESSAGE = "Names cannot hold control characters (tabs, line breaks, NUL)."


def has_control(text: str) -> bool:
    """Whether a name holds characters no one types: NUL, tabs, line breaks and the like."""
    return any(ord(c) < 32 or 127 <= ord(c) < 160 for c in text)


class GameRefused(ValueError):
    """A game that cannot start as asked, with every reason."""

    def __init__(self, refusals: list[Refusal]) -> None:
        super().__init__("; ".join(r.message for r in refusals))
        self.refusals = refusals


class StaleDeal(ValueError):
    """A correction made from an older version of the deal than the one saved."""

    def __init__(self, deal: Deal, version: int) -> None:
        super().__init__(
            f"Deal {deal.number} was changed meanwhile (now version {deal.version}, "
            f"the correction was made to version {version})."
        )
        self.deal = deal


class DealClash(ValueError):
    """Another phone saved this deal number first."""

    def __init__(self, number: int) -> None:
        super().__init__(
            f"Another phone saved deal {number} a moment ago. Check the scoreboard, "
            "then enter this deal again if it is still missing."
        )
        self.number = number


@dataclass(frozen=True)
class SideSetup:
    """A side as someone asked for it at the start of a game."""

    name: str
    players: list[str]


def entries_from(scores: Any, game: Game) -> list[DealEntry]:
    """One entry per side from JSON-like data, or DealRefused naming every bad figure."""
    if not isinstance(scores, list):
        raise DealRefused([Refusal(None, "scores", "Give 'scores': one entry per side.")])
    names = [side.name for side in game.sides]
    entries, refusals = [], []
    for index, entry in enumerate(scores):
        try:
            entries.append(DealEntry.from_dict(entry, index))
        except DealRefused as exc:
            who = names[index] if index < len(names) else f"Entry {index + 1}"
            refusals.extend(Refusal(r.side, r.field, f"{who}: {r.message}") for r in exc.refusals)
    if refusals:
        raise DealRefused(refusals)
    return entries


def rules_of(game: Game) -> RuleSet:
    """The game's rule set with its house rules."""
    return engine.ruleset(game.ruleset, game.house_rules or None)


def sides_of(game: Game) -> list[engine.Side]:
    """The game's sides as the engine sees them."""
    return [engine.Side(side.name, max(1, len(side.players))) for side in game.sides]


def entries_of(game: Game) -> list[list[DealEntry]]:
    """Every saved deal's entries, in deal and side order."""
    return [[DealEntry.from_dict(score.entry) for score in deal.scores] for deal in game.deals]


# The replay is kept on the game object, so one request replays a game once however many times
# it asks. The key names every deal's number and version: a new or corrected deal misses it.
_PROGRESS = "_scoresheet_progress"


def _replay_key(game: Game) -> tuple[Any, ...]:
    deals = tuple((deal.number, deal.version) for deal in game.deals)
    return (game.ruleset, repr(game.house_rules), game.decks, len(game.sides), deals)


def progress_of(game: Game) -> Progress:
    """Where the game stands, recomputed from its deals (once per request and deal list)."""
    key = _replay_key(game)
    kept = getattr(game, _PROGRESS, None)
    if kept is not None and kept[0] == key:
        return kept[1]
    progress = engine.play(rules_of(game), game.decks, sides_of(game), entries_of(game))
    _keep_progress(game, progress)
    return progress


def _keep_progress(game: Game, progress: Progress) -> None:
    """Remember where the game stands after its current deals, for the rest of the request."""
    setattr(game, _PROGRESS, (_replay_key(game), progress))


def get_game(game_id: int) -> Game | None:
    """A game by id with its sides, players, deals and scores, in two queries; or None."""
    if not 0 < game_id < 2**63:  # beyond any database's integer: no such game
        return None
    # Scoring reads every deal's scores: load them together, not one lazy query per deal. Sides
    # and players join the game's row; deals come in one more query with their scores joined
    # (joining both lists in one query would multiply their rows).
    query = (
        select(Game)
        .where(Game.id == game_id)
        .options(
            joinedload(Game.sides).joinedload(Side.players),
            selectinload(Game.deals).joinedload(Deal.scores),
        )
    )
    return db.session.execute(query).unique().scalar_one_or_none()


def recent_games(*, finished: bool, limit: int = 20) -> Sequence[Game]:
    """Casual games (no club) in progress, or recently finished, newest first."""
    done = Game.finished_at.is_not(None) if finished else Game.finished_at.is_(None)
    query = (
        select(Game)
        .where(done, Game.club_id.is_(None))
        .order_by(Game.updated_at.desc(), Game.id.desc())
        .limit(limit)
        # A list shows every game's sides and totals: load them in one query, not per game.
        .options(selectinload(Game.sides))
    )
    return db.session.execute(query).scalars().all()


def start_game(
    ruleset_key: str,
    sides: Sequence[SideSetup],
    decks: int | None = None,
    house_rules: dict[str, Any] | None = None,
    club: Club | None = None,
    played_on: date | None = None,
    commit: bool = True,
) -> Game:
    """Create a game, or GameRefused saying what is wrong.

    In a club game, a player whose name is a member's is that member; anyone else is a guest.
    """
    if ruleset_key not in engine.PRESETS:
        known = ", ".join(engine.PRESETS)
        raise GameRefused([Refusal(None, "ruleset", f"No rule set '{ruleset_key}'; try {known}.")])
    try:
        rules = engine.ruleset(ruleset_key, house_rules)
    except RulesError as exc:
        raise GameRefused([Refusal(None, "rules", m) for m in exc.messages]) from exc
    players = sum(max(1, len(side.players)) for side in sides)
    if decks is None:
        decks = rules.decks_for(players)
    table = [engine.Side(side.name.strip(), max(1, len(side.players))) for side in sides]
    refusals = engine.check_setup(rules, decks, table)
    seen: set[str] = set()
    for index, side in enumerate(sides):
        if has_control(side.name):
            refusals.append(Refusal(index, "name", CONTROL_MESSAGE))
        # A side given without players plays as its name.
        for name in side.players or [side.name]:
            if has_control(name):
                refusals.append(Refusal(index, "players", CONTROL_MESSAGE))
                break
            if not name.strip() or len(name.strip()) > MAX_NAME:
                refusals.append(
                    Refusal(index, "players", f"{side.name}: each player needs a short name.")
                )
                break
            if name.strip().casefold() in seen:
                refusals.append(
                    Refusal(index, "players", f"{name.strip()} cannot play on two sides.")
                )
            seen.add(name.strip().casefold())
    if refusals:
        raise GameRefused(refusals)
    members = {m.name.casefold(): m for m in club.members} if club else {}
    game = Game(
        ruleset=ruleset_key,
        house_rules=dict(house_rules or {}),
        decks=decks,
        club=club,
        played_on=played_on or _now().date(),
    )
    for position, side in enumerate(sides):
        names = [n.strip() for n in side.players] or [side.name.strip()]
        players = [
            Player(position=i, name=n, member=members.get(n.casefold()))
            for i, n in enumerate(names)
        ]
        game.sides.append(Side(position=position, name=side.name.strip(), players=players))
    db.session.add(game)
    if commit:
        db.session.commit()
    return game


def record_game(
    ruleset_key: str,
    sides: Sequence[SideSetup],
    deals: Sequence[Sequence[DealEntry]],
    *,
    decks: int | None = None,
    house_rules: dict[str, Any] | None = None,
    club: Club | None = None,
    played_on: date | None = None,
    commit: bool = True,
) -> Game:
    """A whole game with all its deals at once (an import, the demo club), checked by the engine.

    Raises GameRefused for the setup and DealRefused for a deal, before anything is saved.
    """
    game = start_game(ruleset_key, sides, decks, house_rules, club, played_on, commit=False)
    try:
        progress = engine.play(rules_of(game), game.decks, sides_of(game), deals)
    except DealRefused:
        db.session.expunge(game)
        raise
    for number, entries in enumerate(deals, start=1):
        deal = Deal(number=number, version=1)
        game.deals.append(deal)
        for side, entry, score in zip(
            game.sides, entries, progress.deals[number - 1].scores, strict=True
        ):
            deal.scores.append(
                DealScore(
                    side=side,
                    side_position=side.position,
                    entry=entry.to_dict(),
                    total=score.total,
                )
            )
    _keep_side_figures(game, progress, deals)
    game.finished_at = _now() if progress.finished else None
    if commit:
        db.session.commit()
    return game


def deal_with_key(game: Game, key: str) -> Deal | None:
    """The deal a submission with this idempotency key recorded, if any."""
    query = select(Deal).where(Deal.game_id == game.id, Deal.idempotency_key == key)
    return db.session.execute(query).scalar_one_or_none()


def add_deal(
    game: Game,
    entries: Sequence[DealEntry],
    idempotency_key: str | None = None,
    *,
    key_checked: bool = False,
) -> tuple[Deal, bool]:
    """Score and save the next deal, or DealRefused with nothing saved.

    Returns the deal and whether it is new: a submission whose key was already recorded (a
    double tap, a resent request) gets the deal it recorded, and nothing more is saved.
    """
    if idempotency_key and not key_checked:  # the caller may have looked it up already
        recorded = deal_with_key(game, idempotency_key)
        if recorded is not None:
            return recorded, False
    # The game so far is usually replayed already (the page asked where it stands): score only
    # the new deal on top of it.
    progress = engine.extend(rules_of(game), game.decks, sides_of(game), progress_of(game), entries)
    try:
        deal = _insert_deal(game, entries, progress, idempotency_key)
    except IntegrityError:
        # Another request saved a deal meanwhile: the same submission, or another phone's.
        db.session.rollback()
        recorded = deal_with_key(game, idempotency_key) if idempotency_key else None
        if recorded is not None:
            return recorded, False
        raise DealClash(progress.next_deal - 1) from None
    return deal, True


def _insert_deal(
    game: Game, entries: Sequence[DealEntry], progress: Progress, key: str | None
) -> Deal:
    """Insert a new deal and its scores, keep each side's figures, commit.

    The deal and its scores go in as two plain INSERTs rather than through the unit of work
    (which inserts and reads back one row at a time): entering a deal is the hottest write.
    The objects are then placed in the session as if loaded, so the game reads as saved.
    """
    now = _now()
    number = progress.next_deal - 1
    row = {"game_id": game.id, "number": number, "version": 1, "idempotency_key": key}
    deal_id = db.session.execute(
        insert(Deal).values(**row, created_at=now, updated_at=now).returning(Deal.id)
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
    table = DealScore.__table__
    ids = db.session.execute(
        insert(table).returning(table.c.id, sort_by_parameter_order=True), rows
    ).scalars()
    deal = Deal(id=deal_id, **row, created_at=now, updated_at=now)
    scores = [DealScore(id=score_id, **score) for score_id, score in zip(ids, rows, strict=True)]
    for loaded in (deal, *scores):
        make_transient_to_detached(loaded)
        db.session.add(loaded)
    set_committed_value(deal, "scores", scores)
    set_committed_value(game, "deals", [*game.deals, deal])
    # Each side's figures in one UPDATE run for every side, then the game's row.
    sides = Side.__table__
    figures = _side_figures(game, progress, entries_of(game))
    db.session.execute(
        update(sides)
        .where(sides.c.id == bindparam("side_id"))
        .values({name: bindparam(name) for name in figures[0]}),
        [{"side_id": side.id, **f} for side, f in zip(game.sides, figures, strict=True)],
    )
    finished = now if progress.finished else None
    db.session.execute(
        update(Game.__table__)
        .where(Game.__table__.c.id == game.id)
        .values(finished_at=finished, updated_at=now)
    )
    for side, side_figures in zip(game.sides, figures, strict=True):
        for name, value in side_figures.items():
            set_committed_value(side, name, value)
    set_committed_value(game, "finished_at", finished)
    set_committed_value(game, "updated_at", now)
    _keep_member_results(game, progress.finished)
    db.session.commit()
    _keep_progress(game, progress)
    return deal


def correct_deal(
    game: Game, number: int, entries: Sequence[DealEntry], version: int | None = None
) -> Deal:
    """Replace deal `number` and recompute everything after it, or refuse with nothing saved.

    With a version, the correction applies only to that version of the deal (StaleDeal
    otherwise), checked and raised in one statement so that two phones cannot both win.
    """
    deal = game.deals[number - 1]
    if version is not None and not 0 < version < 2**31:
        raise StaleDeal(deal, version)  # no deal ever had that version
    saved = [score.entry for score in deal.scores]
    if [entry.to_dict() for entry in entries] == saved:
        return deal  # nothing changes: a resent correction is not a conflict
    progress = engine.correct_deal(
        rules_of(game), game.decks, sides_of(game), entries_of(game), number, entries
    )
    bump = update(Deal).where(Deal.id == deal.id)
    if version is not None:
        bump = bump.where(Deal.version == version)
    if db.session.execute(bump.values(version=Deal.version + 1, updated_at=_now())).rowcount != 1:
        db.session.rollback()
        raise StaleDeal(db.session.get(Deal, deal.id), version)
    db.session.refresh(deal, ["version"])
    _store(game, deal, entries, progress)
    return deal


def preview_deal(
    game: Game, entries: Sequence[DealEntry], number: int | None = None
) -> engine.DealResult:
    """The breakdown a deal would get, without saving it (DealRefused if it would be refused)."""
    if number is None:
        so_far = progress_of(game)
        return engine.extend(rules_of(game), game.decks, sides_of(game), so_far, entries).deals[-1]
    progress = engine.correct_deal(
        rules_of(game), game.decks, sides_of(game), entries_of(game), number, entries
    )
    return progress.deals[number - 1]


def _store(game: Game, deal: Deal, entries: Sequence[DealEntry], progress: Progress) -> None:
    by_side = {score.side_position: score for score in deal.scores}
    for side, entry, score in zip(
        game.sides, entries, progress.deals[deal.number - 1].scores, strict=True
    ):
        row = by_side.get(side.position)
        if row is None:
            row = DealScore(side=side, side_position=side.position, entry={}, total=0)
            deal.scores.append(row)
        row.entry = entry.to_dict()
        row.total = score.total
    _keep_side_figures(game, progress, entries_of(game))
    game.finished_at = (game.finished_at or _now()) if progress.finished else None
    game.updated_at = _now()
    db.session.commit()
    _keep_progress(game, progress)


def _side_figures(
    game: Game, progress: Progress, deals: Sequence[Sequence[DealEntry]]
) -> list[dict[str, Any]]:
    """The engine's figures for each side, as kept on it for standings summed by the database."""
    figures = []
    for index in range(len(game.sides)):
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


def _keep_side_figures(
    game: Game, progress: Progress, deals: Sequence[Sequence[DealEntry]]
) -> None:
    """Copy the engine's figures for each side onto it, for standings summed by the database."""
    for side, figures in zip(game.sides, _side_figures(game, progress, deals), strict=True):
        for name, value in figures.items():
            setattr(side, name, value)
    _keep_member_results(game, progress.finished)


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
        )
    )
    columns = ["club_id", "member_id", "played_on", "ruleset", "games", *RESULT_FIGURES]
    session.execute(insert(MemberDay).from_select(columns, sums))


def _keep_member_results(game: Game, finished: bool) -> None:
    """Rewrite the club members' results of this game: finished club games count, others not."""
    if game.club is None:
        return  # only club games keep member results
    had_results = bool(game.results)
    game.results.clear()
    if not finished and not had_results:
        return
    nights_to_refresh(game.club, game.played_on)
    if not finished:
        return
    for side in game.sides:
        figures = {name: getattr(side, name) for name in RESULT_FIGURES}
        for player in side.players:
            if player.member is not None:
                game.results.append(
                    MemberResult(
                        club=game.club,
                        member=player.member,
                        side=side,
                        played_on=game.played_on,
                        ruleset=game.ruleset,
                        **figures,
                    )
                )


def _now() -> datetime:
    return datetime.now(UTC)


def game_state(game: Game, progress: Progress | None = None) -> dict[str, Any]:
    """The game as the JSON API shows it."""
    progress = progress or progress_of(game)
    return {
        "id": game.id,
        "url": f"/games/{game.id}",
        "ruleset": game.ruleset,
        "house_rules": game.house_rules or {},
        "decks": game.decks,
        "finished": progress.finished,
        "winners": [game.sides[i].name for i in progress.winners],
        "next_deal": None if progress.finished else progress.next_deal,
        "sides": [
            {
                "name": side.name,
                "players": [p.name for p in side.players],
                "total": total,
                "opening_minimum": minimum,
            }
            for side, total, minimum in zip(
                game.sides, progress.totals, progress.minimums, strict=True
            )
        ],
        "deals": [
            {
                "number": deal.number,
                "version": deal.version,
                "warnings": result.warnings,
                "scores": [
                    {
                        "side": side.name,
                        "total": score.total,
                        "running_total": running,
                        "opening_minimum": minimum,
                        "breakdown": score.breakdown(),
                        "entry": row.entry,
                    }
                    for side, score, running, minimum, row in zip(
                        game.sides,
                        result.scores,
                        result.totals,
                        result.minimums,
                        deal.scores,
                        strict=True,
                    )
                ],
            }
            for deal, result in zip(game.deals, progress.deals, strict=True)
        ],
    }


__all__ = [
    "DealClash",
    "DealRefused",
    "GameRefused",
    "SideSetup",
    "StaleDeal",
    "GameSummary",
    "add_deal",
    "changed_rules",
    "summary",
    "correct_deal",
    "entries_from",
    "game_state",
    "get_game",
    "preview_deal",
    "record_game",
    "progress_of",
    "recent_games",
    "rules_of",
    "start_game",
]


@dataclass(frozen=True)
class GameSummary:
    """A line for a list of games."""

    game: Game
    rules: RuleSet
    sides: list[tuple[str, int]]
    deals: int
    finished: bool


def summary(game: Game) -> GameSummary:
    """A game in brief, from the totals the engine left on its sides."""
    return GameSummary(
        game=game,
        rules=rules_of(game),
        sides=[(side.name, side.final_total) for side in game.sides],
        deals=game.sides[0].deals_played if game.sides else 0,
        finished=game.finished_at is not None,
    )


def changed_rules(game: Game) -> list[tuple[str, int, int]]:
    """The house rules of a game: (what, the preset's number, the game's number)."""
    preset = {k.path: k for k in engine.knobs(engine.PRESETS[game.ruleset])}
    played = {k.path: k for k in engine.knobs(rules_of(game))}
    return [
        (knob.label, preset[path].value if path in preset else 0, knob.value)
        for path, knob in played.items()
        if path not in preset or preset[path].value != knob.value
    ]
