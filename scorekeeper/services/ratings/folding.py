"""A scope's ratings folded from its games, game by game, and a whole club rebuilt.

A scope's ratings are folded game by game with `model.rate`, from the sides' final totals
(places, ties shared); two guests of one name in one game: the later side's result stands.
Each game rated leaves a step per player (a chart's point) and the scope's ratings after the
last. `refold.py` says when a scope is folded again (from the earliest place that changed) and
writes what is computed here; `recompute_club` rebuilds a club from its games and counts the
rows that differed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Rating, RatingStep, Season
from scorekeeper.services.ratings import model
from scorekeeper.services.ratings.model import Skill
from scorekeeper.services.ratings.plackett_luce import rate_fast
from scorekeeper.services.ratings.played import Played, played_games
from scorekeeper.services.ratings.scopes import Kept, Who, _games_in, partnered, scopes_of

# Stored and recomputed figures closer than this are the same rating (doubles on both
# databases hold the model's figures exactly; the tolerance only forgives a last bit).
TOLERANCE = 1e-9


# --- folding ------------------------------------------------------------------------------


# A step row's columns, in the order `_fold` makes its tuples: a fold makes up to some 130,000
# of them (10,000 games), so they are tuples the driver takes as they are, not dicts.
STEP_COLUMNS = (
    "club_id",
    "scope",
    "position",
    "game_id",
    "member_id",
    "guest",
    "played_on",
    "mu",
    "sigma",
    "partners",
)


def _fold(
    club_id: int, scope: str, games: Sequence[Played], state: dict[Who, Kept], first: int
) -> list[tuple]:
    """Rate each game in turn onto `state` (changed in place); the steps, as rows to insert."""
    steps = []
    new = Kept(model.NEW, 0)
    for position, game in enumerate(games, start=first):
        sides = [side.players for side in game.sides]
        if len(sides) < 2 or not all(sides):
            continue  # nothing a rating can be made from; its place is kept all the same
        before = [[state.get(who, new).skill for who in side] for side in sides]
        # `model.rate`'s arithmetic on plain pairs, without its checks: the sides are a finished
        # game's, two or more, none empty (above).
        after = rate_fast(
            [[(skill.mu, skill.sigma) for skill in side] for side in before],
            model.places([side.final_total for side in game.sides]),
        )
        rated: dict[Who, Kept] = {}
        for whos, skills in zip(sides, after, strict=True):
            for who, (mu, sigma) in zip(whos, skills, strict=True):
                was = state.get(who, new)
                teammates = [w for w in whos if w != who]
                rated[who] = Kept(Skill(mu, sigma), was.games + 1, partnered(was, teammates))
        for who, kept in rated.items():
            state[who] = kept
            skill = kept.skill
            steps.append(
                (club_id, scope, position, game.id, *who, game.played_on)
                + (skill.mu, skill.sigma, kept.partners)
            )
    return steps


# Rows in one INSERT statement on SQLite (PostgreSQL takes them by COPY): 500 rows of 10 columns
# stay well inside its limit on a statement's parameters.
ROWS_A_STATEMENT = 500


def insert_rows(model_: Any, columns: Sequence[str], values: list[tuple]) -> None:
    """Rows inserted in multi-row INSERT statements made here: the ORM's bulk insert spent
    three quarters of a fold's writing preparing them."""
    if not values:
        return
    connection = db.session.connection()
    if connection.dialect.name == "postgresql":
        # COPY: psycopg parses a statement's placeholders again unless it is short, which made
        # a multi-row INSERT's writing cost more than the fold (bench/refold.py's profile).
        cursor = connection.connection.dbapi_connection.cursor()
        with cursor.copy(f"COPY {model_.__tablename__} ({', '.join(columns)}) FROM STDIN") as copy:
            for one in values:
                copy.write_row(one)
        return
    mark = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    if connection.dialect.name == "sqlite" and "played_on" in columns:
        # As SQLAlchemy's Date keeps a day in SQLite: its ISO text.
        at = list(columns).index("played_on")
        values = [(*v[:at], v[at].isoformat(), *v[at + 1 :]) for v in values]
    row = f"({', '.join([mark] * len(columns))})"
    start = f"INSERT INTO {model_.__tablename__} ({', '.join(columns)}) VALUES "
    for first in range(0, len(values), ROWS_A_STATEMENT):
        chunk = values[first : first + ROWS_A_STATEMENT]
        flat = tuple(value for one in chunk for value in one)
        connection.exec_driver_sql(start + ", ".join([row] * len(chunk)), flat)


def insert_steps(steps: list[tuple]) -> None:
    """Steps as `_fold` makes them."""
    insert_rows(RatingStep, STEP_COLUMNS, steps)


def _rows(club_id: int, scope: str, state: dict[Who, Kept]) -> list[dict[str, Any]]:
    return [
        {"club_id": club_id, "scope": scope, "member_id": who[0], "guest": who[1], **_figures(kept)}
        for who, kept in state.items()
    ]


def _figures(kept: Kept) -> dict[str, Any]:
    """A rating row's figures, as `Rating`'s columns name them."""
    skill = kept.skill
    return {"mu": skill.mu, "sigma": skill.sigma, "games": kept.games, "partners": kept.partners}


def _insert(model_: Any, rows: list[dict[str, Any]]) -> None:
    if rows:
        db.session.execute(insert(model_), rows)


@dataclass
class Writes:
    """What a fold writes, computed before any of it is written (`refold.py` writes it in short
    batches): statements run first (old steps removed), the steps, then each scope's ratings
    put in place at once (removed and inserted, or updated) at the very end."""

    # What goes first: (the model, its conditions), removed in batches by refold.py.
    clear: list[tuple[Any, tuple[Any, ...]]] = field(default_factory=list)
    steps: list[tuple] = field(default_factory=list)
    ratings_clear: list[Any] = field(default_factory=list)
    ratings: list[dict[str, Any]] = field(default_factory=list)
    ratings_updated: list[dict[str, Any]] = field(default_factory=list)

    def run(self) -> None:
        """All of it in the session's transaction (a test, `flask recompute`)."""
        for model_, conditions in self.clear:
            db.session.execute(delete(model_).where(*conditions))
        for statement in self.ratings_clear:
            db.session.execute(statement)
        insert_steps(self.steps)
        _insert(Rating, self.ratings)
        if self.ratings_updated:
            db.session.execute(update(Rating), self.ratings_updated)


def _state_before(club_id: int, scope: str, position: int) -> dict[Who, Kept]:
    """Every player's rating before the game at `position`: their last step before it."""
    who = (RatingStep.member_id, RatingStep.guest)
    ranked = (
        select(
            *who,
            RatingStep.mu,
            RatingStep.sigma,
            RatingStep.partners,
            func.row_number()
            .over(partition_by=who, order_by=RatingStep.position.desc())
            .label("n"),
            func.count().over(partition_by=who).label("games"),
        )
        .where(
            RatingStep.club_id == club_id,
            RatingStep.scope == scope,
            RatingStep.position < position,
        )
        .subquery()
    )
    c = ranked.c
    query = select(c.member_id, c.guest, c.mu, c.sigma, c.games, c.partners)
    rows = db.session.execute(query.where(c.n == 1))
    return {(m, g): Kept(Skill(mu, sigma), n, kept) for m, g, mu, sigma, n, kept in rows}


def refold(
    club_id: int, scope: str, position: int, seasons: Sequence[Season], *, left: bool
) -> Writes:
    """What folding a scope again from the game at `position` on writes, on the ratings before
    it; `left`: a game rated there left its place (corrected, un-finished, deleted), so its
    steps go too. Only reads: nothing is written until the writes are run."""
    writes = Writes()
    conditions = _games_in(club_id, scope, seasons)
    if conditions is None:
        for model_ in (RatingStep, Rating):
            writes.clear.append((model_, (model_.club_id == club_id, model_.scope == scope)))
        return writes
    where = (RatingStep.club_id == club_id, RatingStep.scope == scope)
    last = db.session.execute(select(func.max(RatingStep.position)).where(*where)).scalar() or 0
    if position > last + 1:
        # Games before this place have no steps (played before 0016 made the tables, a fold
        # cut short): folded from the first of them, the ratings read from the steps.
        position, left = last + 1, True
    games = played_games(conditions, position - 1)
    if not left and position > last:
        # The newest game(s): their players' ratings now are the ratings before them.
        _append(writes, club_id, scope, position, games)
        return writes
    writes.clear.append((RatingStep, (*where, RatingStep.position >= position)))
    state = _state_before(club_id, scope, position)
    writes.steps = _fold(club_id, scope, games, state, position)
    writes.ratings_clear.append(
        delete(Rating).where(Rating.club_id == club_id, Rating.scope == scope)
    )
    writes.ratings = _rows(club_id, scope, state)
    return writes


def _append(writes: Writes, club_id: int, scope: str, position: int, games: list[Played]) -> None:
    """Rate the scope's newest games on their players' current ratings, and keep the new ones."""
    players = {who for game in games for side in game.sides for who in side.players}
    members = [m for m, _ in players if m is not None]
    guests = [g for m, g in players if m is None]
    query = select(
        Rating.id, Rating.member_id, Rating.guest, Rating.mu, Rating.sigma, Rating.games
    ).add_columns(Rating.partners)
    query = query.where(
        Rating.club_id == club_id,
        Rating.scope == scope,
        or_(Rating.member_id.in_(members), Rating.guest.in_(guests)),
    )
    ids: dict[Who, int] = {}
    state: dict[Who, Kept] = {}
    for id_, member_id, guest, mu, sigma, games_, partners in db.session.execute(query):
        ids[(member_id, guest)] = id_
        state[(member_id, guest)] = Kept(Skill(mu, sigma), games_, partners)
    before = dict(state)
    writes.steps = _fold(club_id, scope, games, state, position)
    changed = {who: kept for who, kept in state.items() if before.get(who) != kept}
    # One UPDATE run for every rating that was there (by primary key), one INSERT for the new.
    writes.ratings_updated = [
        {"id": ids[who], **_figures(kept)} for who, kept in changed.items() if who in ids
    ]
    writes.ratings = _rows(club_id, scope, {w: k for w, k in changed.items() if w not in ids})


def forget_scope(club_id: int, scope: str) -> None:
    """Remove a scope's ratings and steps (a saved rule set deleted: nothing rates within it)."""
    # Without the club's lock: a game of the set finishing at that moment may leave rows in the
    # forgotten scope (nothing reads them; `flask recompute` removes them).
    for model_ in (RatingStep, Rating):
        db.session.execute(delete(model_).where(model_.club_id == club_id, model_.scope == scope))


# --- the whole club -----------------------------------------------------------------------


@dataclass
class _Expected:
    steps: dict[tuple, tuple] = field(default_factory=dict)
    ratings: dict[tuple, tuple] = field(default_factory=dict)
    step_rows: list[tuple] = field(default_factory=list)
    rating_rows: list[dict[str, Any]] = field(default_factory=list)


def _expected(club_id: int, *, compared: bool = True) -> _Expected:
    """Every scope of the club folded from its games, in one pass over them in order; with
    `compared`, keyed as `recompute_club` compares them with what is stored."""
    seasons = list(db.session.execute(select(Season).where(Season.club_id == club_id)).scalars())
    states: dict[str, dict[Who, Kept]] = {}
    counts: dict[str, int] = {}
    found = _Expected()
    for game in played_games([Game.club_id == club_id, Game.finished_at.is_not(None)]):
        for scope in scopes_of(game, seasons):
            counts[scope] = counts.get(scope, 0) + 1
            state = states.setdefault(scope, {})
            found.step_rows += _fold(club_id, scope, [game], state, counts[scope])
    for scope, state in states.items():
        found.rating_rows += _rows(club_id, scope, state)
    if not compared:
        return found
    for _club, scope, position, game_id, member_id, guest, *kept in found.step_rows:
        found.steps[(scope, game_id, member_id, guest)] = (position, *kept)
    for row in found.rating_rows:
        key = (row["scope"], row["member_id"], row["guest"])
        found.ratings[key] = (row["games"], row["mu"], row["sigma"], row["partners"])
    return found


def _same(one: tuple, other: tuple | None) -> bool:
    """Two rows' figures alike: whole figures equal, ratings within the tolerance."""
    if other is None:
        return False
    return all(
        abs(a - b) <= TOLERANCE if isinstance(a, float) else a == b
        for a, b in zip(one, other, strict=True)
    )


def recompute_club(club: Club, *, dry_run: bool = False) -> int:
    """Rebuild a club's ratings and steps from its games; how many stored rows differed."""
    found = _expected(club.id)
    steps = select(
        RatingStep.scope,
        RatingStep.game_id,
        RatingStep.member_id,
        RatingStep.guest,
        RatingStep.position,
        RatingStep.played_on,
        RatingStep.mu,
        RatingStep.sigma,
        RatingStep.partners,
    ).where(RatingStep.club_id == club.id)
    stored_steps = {tuple(r[:4]): tuple(r[4:]) for r in db.session.execute(steps)}
    ratings = select(
        Rating.scope, Rating.member_id, Rating.guest, Rating.games, Rating.mu, Rating.sigma
    ).add_columns(Rating.partners)
    ratings = ratings.where(Rating.club_id == club.id)
    stored_ratings: dict[tuple, tuple] = {}
    twice = 0  # a player kept twice in one scope is a row too many
    for row in db.session.execute(ratings):
        twice += tuple(row[:3]) in stored_ratings
        stored_ratings[tuple(row[:3])] = tuple(row[3:])
    differed = twice
    for stored, expected in ((stored_steps, found.steps), (stored_ratings, found.ratings)):
        differed += sum(not _same(v, stored.get(k)) for k, v in expected.items())
        differed += sum(k not in expected for k in stored)
    differed += max(0, _count(RatingStep, club.id) - len(stored_steps))
    if differed and not dry_run:
        _replace(club.id, found)
    return differed


def _count(model_: Any, club_id: int) -> int:
    query = select(func.count()).select_from(model_).where(model_.club_id == club_id)
    return db.session.execute(query).scalar_one()


def _replace(club_id: int, found: _Expected) -> None:
    rebuilt(club_id, found).run()


def rebuilt(club_id: int, found: _Expected | None = None) -> Writes:
    """What rebuilding every scope of the club from its games writes (a merge, an import)."""
    found = found or _expected(club_id, compared=False)
    clear = [(RatingStep, (RatingStep.club_id == club_id,))]
    ratings_clear = [delete(Rating).where(Rating.club_id == club_id)]
    return Writes(clear, found.step_rows, ratings_clear, found.rating_rows)
