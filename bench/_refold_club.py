"""bench/refold.py's club: built fast, kept for reuse, folded once (timed), its corrections chosen.

The club is the demo club (`demo.fill_demo`: members, four seasons, a saved rule set, every deal
made up and scored by the engine) of `base` games, then copied, copy after copy: each copy's
games with their sides, players, deals, deal scores and member results, on the same club nights
(as `flask demo --games 10000` spreads its games: 16 months of Tuesdays and Thursdays), then the
nights' sums re-added (`figures.refresh_member_days`). Every stored figure is what the app would
have stored: `flask recompute --dry-run` finds nothing to put right."""

from __future__ import annotations

import cProfile
import io
import itertools
import math
import pstats
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from _serve import init_db
from sqlalchemy import delete, func, insert, select, text

from scorekeeper import create_app, with_driver
from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club as ClubRow
from scorekeeper.plumbing.models import (
    Deal,
    DealScore,
    Game,
    MemberResult,
    Player,
    Rating,
    RatingMark,
    RatingStep,
    Side,
)
from scorekeeper.plumbing.models.games import new_secret
from scorekeeper.services import clubs, figures
from scorekeeper.services import games as games_
from scorekeeper.services.demo import fill_demo
from scorekeeper.services.ratings import folding, kept, refold
from scorekeeper.services.ratings.model import places
from scorekeeper.services.ratings.scopes import ORDER

SLUG = "refold-club"
# PostgreSQL: the database the bench runs on, made in the server of the URL it is given.
RUN = "refold_run"


def bench_app(url: str) -> Any:
    """The app in this process: it folds nothing by itself (the bench folds, timed)."""
    config = {"SQLALCHEMY_DATABASE_URI": with_driver(url), "SECRET_KEY": "bench"}
    return create_app({**config, "RATINGS_FOLD": "off"})


@dataclass
class Club:
    """The built club, as the bench needs it."""

    id: int
    slug: str
    table_code: str
    games: int
    members: list[str]


def club_of(slug: str = SLUG) -> Club:
    """The club as it stands (in an app context)."""
    club = clubs.club_by_slug(slug)
    count = select(func.count()).select_from(Game)
    count = count.where(Game.club_id == club.id, Game.finished_at.is_not(None))
    games = db.session.execute(count).scalar_one()
    members = [m.name for m in club.members]
    return Club(club.id, club.slug, club.table_code, games, members)


def build(url: str, games: int, base_most: int) -> tuple[int, float, float]:
    """The club of about `games` games: `base` made by fill_demo, the rest copies of them.
    Base games, seconds filling and seconds copying."""
    copies = math.ceil(games / base_most)
    base = math.ceil(games / copies)
    app = bench_app(url)
    with app.app_context():
        started = time.perf_counter()
        club_id = fill_demo(SLUG, base).id
        filled = time.perf_counter() - started
        copy_games(club_id, copies - 1)
        copied = time.perf_counter() - started - filled
        db.session.remove()
        db.engine.dispose()
    return base, filled, copied


def copy_games(club_id: int, copies: int) -> None:
    """`copies` copies of the club's games and the rows kept beside them, on the same nights;
    then every night's sums re-added by the app's own `figures.refresh_member_days`."""
    games = select(Game.id).where(Game.club_id == club_id)
    sides = select(Side.id).where(Side.game_id.in_(games))
    deals = select(Deal.id).where(Deal.game_id.in_(games))
    # In the order of their foreign keys.
    wheres = {
        Game: Game.club_id == club_id,
        Side: Side.game_id.in_(games),
        Player: Player.side_id.in_(sides),
        Deal: Deal.game_id.in_(games),
        DealScore: DealScore.deal_id.in_(deals),
        MemberResult: MemberResult.club_id == club_id,
    }
    rows = {
        model: [
            dict(r) for r in db.session.execute(select(model.__table__).where(where)).mappings()
        ]
        for model, where in wheres.items()
    }
    top = {model: db.session.execute(select(func.max(model.id))).scalar() or 0 for model in rows}
    keys = {"game_id": Game, "side_id": Side, "deal_id": Deal}
    for q in range(1, copies + 1):
        for model, base in rows.items():
            copied = []
            for row in base:
                new = {**row, "id": row["id"] + q * top[model]}
                for key, parent in keys.items():
                    if key in new:
                        new[key] = row[key] + q * top[parent]
                if model is Game:
                    new["secret"], new["next_game_id"] = new_secret(), None
                copied.append(new)
            for start in range(0, len(copied), 5_000):
                db.session.execute(insert(model), copied[start : start + 5_000])
        db.session.commit()
    figures.refresh_member_days(club_id)
    db.session.commit()
    if db.engine.dialect.name == "postgresql":
        for model in rows:
            table = model.__tablename__
            serial = f"pg_get_serial_sequence('{table}', 'id')"
            db.session.execute(text(f"SELECT setval({serial}, (SELECT max(id) FROM {table}))"))
        db.session.commit()


# --- the fold of the whole club, timed -----------------------------------------------------


@dataclass
class Spent:
    """Wall and CPU seconds of one part of the fold."""

    wall: float = 0.0
    cpu: float = 0.0
    calls: int = 0


@dataclass
class Folded:
    """What one fold cost, part by part, and what the club holds after it."""

    parts: dict[str, Spent] = field(default_factory=dict)
    longest_batch: float = 0.0
    paused: float = 0.0  # SQLite: the pauses after the batches, so other writers get a turn
    steps: int = 0
    ratings: int = 0
    profile: str = ""


@contextmanager
def _timing(module: Any, name: str, into: dict[str, Spent], label: str) -> Iterator[None]:
    """Time every call of module.name (looked up at call time by its callers)."""
    original = getattr(module, name)
    spent = into.setdefault(label, Spent())

    def timed(*args: Any, **kwargs: Any) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent.wall += time.perf_counter() - wall
            spent.cpu += time.process_time() - cpu
            spent.calls += 1

    setattr(module, name, timed)
    try:
        yield
    finally:
        setattr(module, name, original)


@contextmanager
def _longest_batch(found: Folded) -> Iterator[None]:
    """The longest of refold's write transactions (lease renewed, rows written, committed)."""
    original, clock, slept = refold._batch, refold.time, [0.0]

    def sleep(seconds: float) -> None:
        began = time.perf_counter()
        time.sleep(seconds)
        slept[0] += time.perf_counter() - began

    @contextmanager
    def timed(club_id: int, holder: str) -> Iterator[None]:
        started, before = time.perf_counter(), slept[0]
        with original(club_id, holder):
            yield
        paused = slept[0] - before
        found.paused += paused
        found.longest_batch = max(found.longest_batch, time.perf_counter() - started - paused)

    refold._batch, refold.time = timed, SimpleNamespace(perf_counter=time.perf_counter, sleep=sleep)
    try:
        with (
            _timing(folding, "played_games", found.parts, "compute: reading the games"),
            _timing(refold, "_planned", found.parts, "compute: reads and arithmetic"),
            _timing(refold, "_write", found.parts, "writes (batches)"),
        ):
            yield
    finally:
        refold._batch, refold.time = original, clock


def timed_folds(url: str, marks: dict[str, dict[str, Any]], profile: bool) -> dict[str, Folded]:
    """The club's ratings removed, then for each of `marks` (a mark's columns; `unrated`: the
    game's steps removed first, as a game just finished) the mark written and folded by
    `refold.fold_club` in this process, reads, arithmetic and writes timed apart (the first
    profiled if asked); then the club folded whole again, untimed."""
    found: dict[str, Folded] = {}
    app = bench_app(url)
    with app.app_context():
        club = club_of()
        for model in (RatingStep, Rating, RatingMark):
            db.session.execute(delete(model).where(model.club_id == club.id))
        for title, mark in marks.items():
            if mark.pop("unrated", False):  # as if just finished: its steps not yet written
                db.session.execute(delete(RatingStep).where(RatingStep.game_id == mark["game_id"]))
            db.session.execute(insert(RatingMark).values(club_id=club.id, **mark))
            db.session.commit()
            folded = found[title] = Folded()
            profiler = cProfile.Profile() if profile and len(found) == 1 else None
            with _longest_batch(folded):
                wall, cpu = time.perf_counter(), time.process_time()
                if profiler:
                    profiler.enable()
                refold.fold_club(club.id)
                if profiler:
                    profiler.disable()
                spent = Spent(time.perf_counter() - wall, time.process_time() - cpu, 1)
                folded.parts["the whole of fold_club"] = spent
            if profiler:
                out = io.StringIO()
                pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
                folded.profile = out.getvalue()
            for model, name in ((RatingStep, "steps"), (Rating, "ratings")):
                count = select(func.count()).select_from(model).where(model.club_id == club.id)
                setattr(folded, name, db.session.execute(count).scalar_one())
        db.session.execute(insert(RatingMark).values(club_id=club.id, whole=True))
        db.session.commit()
        refold.fold_club(club.id)  # the ratings right again for what follows (untimed)
        db.session.remove()
        db.engine.dispose()
    return found


def recomputed(url: str) -> tuple[int, int, float]:
    """`recompute_club(dry_run=True)`: rows differing from a fold from scratch, rows compared,
    seconds taken."""
    app = bench_app(url)
    with app.app_context():
        club = db.session.get(ClubRow, club_of().id)
        started = time.perf_counter()
        differed = kept.recompute_club(club, dry_run=True)
        took = time.perf_counter() - started
        rows = sum(
            db.session.execute(
                select(func.count()).select_from(m).where(m.club_id == club.id)
            ).scalar_one()
            for m in (RatingStep, Rating)
        )
        db.session.rollback()
        db.session.remove()
        db.engine.dispose()
    return differed, rows, took


# --- corrections that change a game's result ------------------------------------------------


@dataclass
class Correction:
    """Deal 1 of an old game, corrected so that its places change."""

    game_id: int
    secret: str
    place: int  # in the order of play of the club's games (1: the oldest)
    body: dict[str, Any]
    before: list[int]
    after: list[int]


def newest_game(url: str) -> int:
    """The club's newest finished game in the order of play."""
    app = bench_app(url)
    with app.app_context():
        query = select(Game.id).where(Game.club_id == club_of().id, Game.finished_at.is_not(None))
        found = db.session.execute(query.order_by(*(o.desc() for o in ORDER)).limit(1)).scalar()
        db.session.remove()
        db.engine.dispose()
    return found


def corrections(url: str, count: int) -> list[Correction]:
    """The `count` oldest games (in the order of play) whose deal 1, its sides' entries in
    another order (or another deal's), the rules take and its places change; with the body."""
    app = bench_app(url)
    chosen: list[Correction] = []
    with app.app_context():
        club_id = club_of().id
        query = select(Game.id).where(Game.club_id == club_id, Game.finished_at.is_not(None))
        ids = list(db.session.execute(query.order_by(*ORDER).limit(20 * count + 500)).scalars())
        for place, game_id in enumerate(ids, start=1):
            game = db.session.get(Game, game_id)
            rules, sides = games_.rules_of(game), games_.sides_of(game)
            entries = games_.entries_of(game)
            before = places(engine.play(rules, game.decks, sides, entries, check=False).totals)
            orders = list(itertools.islice(itertools.permutations(range(len(sides))), 24))
            # Deal 1's entries in another order, else another deal's as deal 1.
            for swapped in ([deal[k] for k in order] for deal in entries for order in orders):
                try:
                    after = engine.correct_deal(rules, game.decks, sides, entries, 1, swapped)
                except engine.DealRefused:
                    continue
                if after.finished and places(after.totals) != before:
                    reason = "A locked game (issue 40): checked against the score sheet."
                    body = {"scores": [e.to_dict() for e in swapped], "reason": reason}
                    chosen.append(
                        Correction(game_id, game.secret, place, body, before, places(after.totals))
                    )
                    break
            if len(chosen) == count:
                break
        db.session.remove()
        db.engine.dispose()
    return chosen


# --- the database: built, or a kept one reused ----------------------------------------------


def prepared(url: str, games: int, base: int, how: Any) -> tuple[str, str]:
    """The club built (or a kept one copied) in a database of its own: its URL, and what was done
    (`how`: keep, reuse and the SQLite cache folder)."""
    name = f"refold_{games}_{base}"
    if url.startswith("sqlite:///"):
        kept_file = Path(how.cache) / f"{name}.sqlite"
        if how.reuse and kept_file.exists():
            shutil.copy(kept_file, url.removeprefix("sqlite:///"))
            init_db(url)  # brought up to the migrations' head
            return url, f"reused {kept_file}"
        done = _built(url, games, base)
        if how.keep:
            shutil.copy(url.removeprefix("sqlite:///"), kept_file)
            done += f"; kept as {kept_file}"
        return url, done
    from scale import connect, database_url, drop, exists

    run_url = database_url(url, RUN)
    with connect(url) as admin:
        drop(admin, RUN)
        if how.reuse and exists(admin, name):
            admin.execute(f'CREATE DATABASE {RUN} TEMPLATE "{name}"')
            init_db(run_url)
            return run_url, f"reused the template database {name}"
        admin.execute(f"CREATE DATABASE {RUN}")
    done = _built(run_url, games, base)
    if how.keep:
        with connect(url) as admin:
            drop(admin, name)
            admin.execute(f'CREATE DATABASE "{name}" TEMPLATE {RUN}')
        done += f"; kept as the template database {name}"
    return run_url, done


def _built(url: str, games: int, base_most: int) -> str:
    init_db(url)
    base, filled, copied = build(url, games, base_most)
    return f"built: {base} games by demo.fill_demo in {filled:.1f} s, the copies in {copied:.1f} s"


def finished_with(app: Any, url: str) -> None:
    """Let the database go (PostgreSQL: the bench's own database dropped, from `url`'s)."""
    with app.app_context():
        db.engine.dispose()
    if not url.startswith("sqlite:///"):
        from scale import connect, drop

        with connect(url) as admin:
            drop(admin, RUN)
