"""Ratings kept beside the games, in step with them: derived data, like `figures.py`'s.

The order of play: a club's finished games by the day played (`played_on`), then the moment
each finished (`finished_at`), then the game's id; a game entered late with an earlier day is
rated in its place among them. Casual games (no club) are never rated.

Each finished club game is rated in every scope it belongs to: "all", "season:<id>" for each
season whose dates hold its day, "rules:<preset key>" and "saved:<saved rule set id>" (when
it started from one). A scope's ratings are folded game by game with `model.rate`, from the
side's final totals (places, ties shared). A member is rated as themselves, a guest by the
name they played under (two guests of one name in one game: the later side's result stands).

Kept in step in the saving transaction: `figures.keep_member_results` (every save that
finishes, corrects or un-finishes a club game), `games.delete_game`, `clubs.merge_members`,
`clubs.add_season` and `clubs.delete_saved_rules` mark what changed; once per commit
(`before_commit`) each marked scope is folded again from the earliest place that changed. The
newest game finishing, the common case, reads its players' ratings and appends its steps.
`recompute_club` rebuilds a club from its games and counts the rows that differed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Literal, NamedTuple, overload

from sqlalchemy import and_, delete, event, func, insert, inspect, or_, select, update
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import selectinload

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Member, Rating, RatingStep, Season, Side
from scorekeeper.services.ratings import model
from scorekeeper.services.ratings.model import Skill

ALL = "all"
SEASON = "season:"
RULES = "rules:"
SAVED = "saved:"
# Stored and recomputed figures closer than this are the same rating (doubles on both
# databases hold the model's figures exactly; the tolerance only forgives a last bit).
TOLERANCE = 1e-9
# More games than this changed in one commit (an import, the demo club): the club is folded
# again whole, in one pass, rather than place by place.
MOST_ONE_BY_ONE = 8
PENDING = "ratings_to_refresh"
# Set on a session by `held`: its commits fold nothing (a bulk fill rebuilds once, at its end).
HELD = "ratings_held"

# Who a rating belongs to: (member id, None) or (None, a guest's name).
Who = tuple[int | None, str | None]


class Kept(NamedTuple):
    """A player's rating in a scope and the number of games behind it."""

    skill: Skill
    games: int


@dataclass(frozen=True)
class Step:
    """A player's rating after one game of a scope: one point of a chart."""

    position: int
    game_id: int
    played_on: date
    skill: Skill


# --- reading ------------------------------------------------------------------------------


def season_scope(season: Season) -> str:
    """The scope of a season's games."""
    return f"{SEASON}{season.id}"


@overload
def ratings_of(
    club: Club, scope: str = ALL, *, guests: Literal[False] = False
) -> dict[int, Kept]: ...


@overload
def ratings_of(club: Club, scope: str = ALL, *, guests: Literal[True]) -> dict[str, Kept]: ...


def ratings_of(club: Club, scope: str = ALL, *, guests: bool = False) -> dict[Any, Kept]:
    """Each rated member's rating in one of the club's scopes by member id, or with `guests`
    each rated guest's by the name they played under (one query)."""
    key = Rating.guest if guests else Rating.member_id
    query = select(key, Rating.mu, Rating.sigma, Rating.games).where(
        Rating.club_id == club.id,
        Rating.scope == scope,
        Rating.member_id.is_(None) if guests else Rating.member_id.is_not(None),
    )
    return {
        who: Kept(Skill(mu, sigma), games) for who, mu, sigma, games in db.session.execute(query)
    }


def steps_of(member: Member, scope: str = ALL) -> list[Step]:
    """A member's rating after each of their games in a scope, in the order played (a chart)."""
    query = (
        select(
            RatingStep.position,
            RatingStep.game_id,
            RatingStep.played_on,
            RatingStep.mu,
            RatingStep.sigma,
        )
        .where(
            RatingStep.member_id == member.id,
            RatingStep.scope == scope,
            RatingStep.club_id == member.club_id,
        )
        .order_by(RatingStep.position)
    )
    return [
        Step(position, game_id, played_on, Skill(mu, sigma))
        for position, game_id, played_on, mu, sigma in db.session.execute(query)
    ]


# --- which games a scope holds, in the order of play ----------------------------------------


def scopes_of(game: Game, seasons: Iterable[Season]) -> list[str]:
    """The scopes a finished club game is rated in."""
    scopes = [ALL]
    scopes += [season_scope(s) for s in seasons if s.starts_on <= game.played_on <= s.ends_on]
    scopes.append(f"{RULES}{game.ruleset}")
    if game.saved_rules_id is not None:
        scopes.append(f"{SAVED}{game.saved_rules_id}")
    return scopes


def _games_in(club_id: int, scope: str, seasons: Sequence[Season]) -> list[Any] | None:
    """The conditions on Game of a scope's games; None for a scope that names nothing now."""
    conditions = [Game.club_id == club_id, Game.finished_at.is_not(None)]
    if scope == ALL:
        return conditions
    if scope.startswith(SEASON):
        found = [s for s in seasons if season_scope(s) == scope]
        if not found:
            return None
        return [*conditions, Game.played_on.between(found[0].starts_on, found[0].ends_on)]
    if scope.startswith(RULES):
        return [*conditions, Game.ruleset == scope.removeprefix(RULES)]
    if scope.startswith(SAVED) and scope.removeprefix(SAVED).isdigit():
        return [*conditions, Game.saved_rules_id == int(scope.removeprefix(SAVED))]
    return None


ORDER = (Game.played_on, Game.finished_at, Game.id)


def _before(game: Game) -> Any:
    """The condition: a game played before this one, in the order of play."""
    return or_(
        Game.played_on < game.played_on,
        and_(
            Game.played_on == game.played_on,
            or_(
                Game.finished_at < game.finished_at,
                and_(Game.finished_at == game.finished_at, Game.id < game.id),
            ),
        ),
    )


def _in_order(conditions: list[Any], skip: int = 0) -> list[Game]:
    """The scope's games in the order of play, past the first `skip`, sides and players loaded."""
    query = (
        select(Game)
        .where(*conditions)
        .order_by(*ORDER)
        .offset(skip)
        .options(selectinload(Game.sides).selectinload(Side.players))
    )
    return list(db.session.execute(query).scalars())


# --- folding ------------------------------------------------------------------------------


def _who(player: Any) -> Who:
    if player.member_id is not None:
        return (player.member_id, None)
    if player.member is not None:
        return (player.member.id, None)
    return (None, player.name)


def _fold(
    club_id: int, scope: str, games: Sequence[Game], state: dict[Who, Kept], first: int
) -> list[dict[str, Any]]:
    """Rate each game in turn onto `state` (changed in place); the steps, as rows to insert."""
    steps = []
    for position, game in enumerate(games, start=first):
        sides = [[_who(p) for p in side.players] for side in game.sides]
        if len(sides) < 2 or not all(sides):
            continue  # nothing a rating can be made from; its place is kept all the same
        before = [[state.get(who, Kept(model.NEW, 0)).skill for who in side] for side in sides]
        after = model.rate(before, [side.final_total for side in game.sides])
        rated: dict[Who, Skill] = {}
        for whos, skills in zip(sides, after, strict=True):
            rated.update(zip(whos, skills, strict=True))
        for who, skill in rated.items():
            state[who] = Kept(skill, state.get(who, Kept(model.NEW, 0)).games + 1)
            steps.append(
                {
                    "club_id": club_id,
                    "scope": scope,
                    "position": position,
                    "game_id": game.id,
                    "member_id": who[0],
                    "guest": who[1],
                    "played_on": game.played_on,
                    "mu": skill.mu,
                    "sigma": skill.sigma,
                }
            )
    return steps


def _rows(club_id: int, scope: str, state: dict[Who, Kept]) -> list[dict[str, Any]]:
    return [
        {
            "club_id": club_id,
            "scope": scope,
            "member_id": who[0],
            "guest": who[1],
            "mu": kept.skill.mu,
            "sigma": kept.skill.sigma,
            "games": kept.games,
        }
        for who, kept in state.items()
    ]


def _insert(model_: Any, rows: list[dict[str, Any]]) -> None:
    if rows:
        db.session.execute(insert(model_), rows)


def _state_before(club_id: int, scope: str, position: int) -> dict[Who, Kept]:
    """Every player's rating before the game at `position`: their last step before it."""
    who = (RatingStep.member_id, RatingStep.guest)
    ranked = (
        select(
            *who,
            RatingStep.mu,
            RatingStep.sigma,
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
    query = select(ranked.c.member_id, ranked.c.guest, ranked.c.mu, ranked.c.sigma, ranked.c.games)
    rows = db.session.execute(query.where(ranked.c.n == 1))
    return {(m, g): Kept(Skill(mu, sigma), games) for m, g, mu, sigma, games in rows}


def _refold(
    club_id: int,
    scope: str,
    position: int,
    seasons: Sequence[Season],
    *,
    left: bool,
    newest: Game | None = None,
) -> None:
    """Fold a scope again from the game at `position` on, on the ratings before it; `left`: a
    game rated there left its place (corrected, un-finished, deleted), so its rating goes too;
    `newest`: the one game marked, if it is the only game from `position` on (not read again)."""
    conditions = _games_in(club_id, scope, seasons)
    if conditions is None:
        forget_scope(club_id, scope)
        return
    where = (RatingStep.club_id == club_id, RatingStep.scope == scope)
    last = db.session.execute(select(func.max(RatingStep.position)).where(*where)).scalar() or 0
    if position > last + 1:
        # Games before this place have no steps (played before 0016 made the tables, and no
        # `flask recompute` since): folded from the first of them, the ratings read from steps.
        position, left = last + 1, True
    if not left and position > last:
        # The newest game(s): their players' ratings now are the ratings before them.
        games = [newest] if newest is not None else _in_order(conditions, position - 1)
        _append(club_id, scope, position, games)
        return
    games = _in_order(conditions, position - 1)
    db.session.execute(delete(RatingStep).where(*where, RatingStep.position >= position))
    state = _state_before(club_id, scope, position)
    _insert(RatingStep, _fold(club_id, scope, games, state, position))
    db.session.execute(delete(Rating).where(Rating.club_id == club_id, Rating.scope == scope))
    _insert(Rating, _rows(club_id, scope, state))


def _append(club_id: int, scope: str, position: int, games: Sequence[Game]) -> None:
    """Rate the scope's newest games on their players' current ratings, and keep the new ones."""
    players = {_who(p) for game in games for side in game.sides for p in side.players}
    members = [m for m, _ in players if m is not None]
    guests = [g for m, g in players if m is None]
    query = select(Rating).where(
        Rating.club_id == club_id,
        Rating.scope == scope,
        or_(Rating.member_id.in_(members), Rating.guest.in_(guests)),
    )
    stored = {(r.member_id, r.guest): r for r in db.session.execute(query).scalars()}
    state = {who: Kept(Skill(r.mu, r.sigma), r.games) for who, r in stored.items()}
    before = dict(state)
    _insert(RatingStep, _fold(club_id, scope, games, state, position))
    changed = {who: kept for who, kept in state.items() if before.get(who) != kept}
    # One UPDATE run for every rating that was there (by primary key), one INSERT for the new.
    again = [
        {"id": stored[who].id, "mu": kept.skill.mu, "sigma": kept.skill.sigma, "games": kept.games}
        for who, kept in changed.items()
        if who in stored
    ]
    if again:
        db.session.execute(update(Rating), again)
    _insert(Rating, _rows(club_id, scope, {w: k for w, k in changed.items() if w not in stored}))


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
    step_rows: list[dict[str, Any]] = field(default_factory=list)
    rating_rows: list[dict[str, Any]] = field(default_factory=list)


def _expected(club_id: int) -> _Expected:
    """Every scope of the club folded from its games, in one pass over them in order."""
    seasons = list(db.session.execute(select(Season).where(Season.club_id == club_id)).scalars())
    states: dict[str, dict[Who, Kept]] = {}
    counts: dict[str, int] = {}
    found = _Expected()
    for game in _in_order([Game.club_id == club_id, Game.finished_at.is_not(None)]):
        for scope in scopes_of(game, seasons):
            counts[scope] = counts.get(scope, 0) + 1
            state = states.setdefault(scope, {})
            found.step_rows += _fold(club_id, scope, [game], state, counts[scope])
    for scope, state in states.items():
        found.rating_rows += _rows(club_id, scope, state)
    for row in found.step_rows:
        key = (row["scope"], row["game_id"], row["member_id"], row["guest"])
        found.steps[key] = (row["position"], row["played_on"], row["mu"], row["sigma"])
    for row in found.rating_rows:
        key = (row["scope"], row["member_id"], row["guest"])
        found.ratings[key] = (row["games"], row["mu"], row["sigma"])
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
    ).where(RatingStep.club_id == club.id)
    stored_steps = {tuple(r[:4]): tuple(r[4:]) for r in db.session.execute(steps)}
    ratings = select(
        Rating.scope, Rating.member_id, Rating.guest, Rating.games, Rating.mu, Rating.sigma
    ).where(Rating.club_id == club.id)
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
    for model_ in (RatingStep, Rating):
        db.session.execute(delete(model_).where(model_.club_id == club_id))
    _insert(RatingStep, found.step_rows)
    _insert(Rating, found.rating_rows)


def rebuild_club(club_id: int) -> None:
    """Fold every scope of the club again from its games, without comparing (a merge, an import)."""
    _replace(club_id, _expected(club_id))


# --- kept in step: what changed is marked, and folded once per commit ------------------------


@dataclass
class _Pending:
    games: list[Game] = field(default_factory=list)
    # Scope by scope, the earliest place a game left (a deleted game's steps are gone by then).
    places: dict[str, int] = field(default_factory=dict)
    whole: bool = False


def _pending(club_id: int) -> _Pending:
    """What is marked for a club in this transaction; the first mark takes the club's row."""
    marked = db.session.info.setdefault(PENDING, {})
    if club_id not in marked:
        # Taken at the first mark, before the figures' own writes (PostgreSQL; SQLite's writers
        # queue already): two tables finishing at once fold in turn, the second on the first's
        # steps, and every writer of a club's figures takes the club before its nights' sums.
        # It relies on READ COMMITTED (PostgreSQL's default): the fold's reads, after the lock,
        # see the first's commit; a stricter isolation would fold on a snapshot from before it.
        db.session.execute(select(Club.id).where(Club.id == club_id).with_for_update())
        marked[club_id] = _Pending()
    return marked[club_id]


def game_changed(game: Game) -> None:
    """Mark a club game finished, corrected or un-finished: its scopes folded again at commit."""
    if game.club is None:
        return  # a casual game is never rated
    _pending(game.club.id).games.append(game)


def game_deleting(game: Game) -> None:
    """Mark a club game about to be deleted: its scopes folded again from its place at commit."""
    if game.club_id is None or game.finished_at is None:
        return  # never rated
    places = _pending(game.club_id).places
    for scope, place in _places_of(game.id):
        places[scope] = min(place, places.get(scope, place))


def club_changed(club_id: int) -> None:
    """Mark a club whose players changed (a member merged): every scope folded again at commit."""
    _pending(club_id).whole = True


def scope_changed(club_id: int, scope: str) -> None:
    """Mark a scope whose games changed (a season added): folded again whole at commit."""
    _pending(club_id).places[scope] = 1


def _places_of(game_id: int) -> list[tuple[str, int]]:
    query = (
        select(RatingStep.scope, func.min(RatingStep.position))
        .where(RatingStep.game_id == game_id)
        .group_by(RatingStep.scope)
    )
    return [(scope, place) for scope, place in db.session.execute(query)]


def _keep_club(club_id: int, pending: _Pending) -> None:
    """Fold again what changed in one club, each scope from the earliest place that changed."""
    if pending.whole or len(pending.games) > MOST_ONE_BY_ONE:
        rebuild_club(club_id)
        return
    seasons = list(db.session.execute(select(Season).where(Season.club_id == club_id)).scalars())
    places = dict(pending.places)
    left = set(places)
    marked = list({id(g): g for g in pending.games}.values())
    # One game marked (a deal finishing it): it alone is rated past the last step.
    newest = marked[0] if len(marked) == 1 else None
    for game in marked:
        state = inspect(game)
        if state.deleted or state.was_deleted or game.id is None:
            continue
        for scope, place in _places_of(game.id):
            places[scope] = min(place, places.get(scope, place))
            left.add(scope)
        if game.finished_at is None or game.club_id != club_id:
            continue
        for scope in scopes_of(game, seasons):
            conditions = _games_in(club_id, scope, seasons) or []
            ahead = select(func.count()).select_from(Game).where(*conditions, _before(game))
            place = db.session.execute(ahead).scalar_one() + 1
            places[scope] = min(place, places.get(scope, place))
    for scope, place in sorted(places.items()):
        _refold(club_id, scope, place, seasons, left=scope in left, newest=newest)


@contextmanager
def held(club_id: int) -> Iterator[None]:
    """For a bulk fill that commits in batches (the demo club): its commits fold nothing, and
    the club's ratings are rebuilt once when it ends, in a commit of their own. (Each batch of
    more than `MOST_ONE_BY_ONE` games would rebuild the whole club again: 10,000 games in
    batches of 200 rebuilt it 50 times.) If the fill fails, nothing is rebuilt."""
    session = db.session()
    session.info[HELD] = True
    try:
        yield
    finally:
        session.info.pop(HELD, None)
    rebuild_club(club_id)
    db.session.commit()


@event.listens_for(OrmSession, "before_commit")
def _keep_pending(session: OrmSession) -> None:
    """Fold what changed before the commit, in the same transaction as the games' change."""
    pending = session.info.pop(PENDING, None)
    if not pending or session.info.get(HELD):
        return
    session.flush()
    try:
        # Within a savepoint, so a fold that fails leaves none of its rows behind.
        with session.begin_nested():
            for club_id, marked in pending.items():
                _keep_club(club_id, marked)
    except BaseException:
        # Marked again: a caller that carries on and commits folds it then; a rollback forgets.
        session.info[PENDING] = pending
        raise


@event.listens_for(OrmSession, "after_rollback")
def _forget_pending(session: OrmSession) -> None:
    """Nothing rolled back needs folding."""
    session.info.pop(PENDING, None)
