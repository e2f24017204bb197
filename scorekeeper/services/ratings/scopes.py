"""A scope of a club's ratings, and which games it holds, in the order of play.

A finished club game is rated in every scope it belongs to: "all", "season:<id>" for each
season whose dates hold its day, "rules:<preset key>" and "saved:<saved rule set id>" (when it
started from one). The order of play: the day played (`played_on`), then the moment each
finished (`finished_at`), then the game's id. A member is rated as themselves, a guest by the
name they played under. Read by `folding.py` (the ratings made from the games) and `kept.py`
(what changed, marked and folded again at commit).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import selectinload

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Season, Side
from scorekeeper.plumbing.models.ratings import PARTNERS_KEY
from scorekeeper.services.names import name_key
from scorekeeper.services.ratings.model import Skill

ALL = "all"
SEASON = "season:"
RULES = "rules:"
SAVED = "saved:"

# Who a rating belongs to: (member id, None) or (None, a guest's name).
Who = tuple[int | None, str | None]


class Kept(NamedTuple):
    """A player's rating in a scope, the number of games behind it, and whom they always
    partnered (`partners_key`; None: not worked out)."""

    skill: Skill
    games: int
    partners: str | None = None


def partners_key(teammates: Sequence[Who]) -> str:
    """The same teammates, the same key (a short digest, however many and however long their
    names); "" for a player alone on their side, who is told apart by that game."""
    return _digest(tuple(sorted(f"{m}" if m is not None else f"g:{g}" for m, g in teammates)))


@functools.lru_cache(maxsize=4096)
def _digest(named: tuple[str, ...]) -> str:
    """A fold asks for a club's few partnerships over and over: each digested once."""
    if not named:
        return ""
    return hashlib.blake2b(",".join(named).encode(), digest_size=PARTNERS_KEY // 2).hexdigest()


def partnered(kept: Kept | None, teammates: Sequence[Who]) -> str | None:
    """Whom a player has always partnered after one more game with these teammates: the key
    while it is the same teammates every game, "" once told apart; None stays not known."""
    key = partners_key(teammates)
    if kept is None or kept.games == 0:
        return key
    if kept.partners is None:
        return None
    return kept.partners if kept.partners == key else ""


def season_scope(season: Season) -> str:
    """The scope of a season's games."""
    return f"{SEASON}{season.id}"


# --- which games a scope holds, in the order of play ----------------------------------------


def scopes_of(game: Game, seasons: Iterable[Season]) -> list[str]:
    """The scopes a finished club game is rated in: none while it is held for an organiser's
    review (services/rating_holds.py)."""
    if getattr(game, "held_from_ratings", False):  # a `played.Played` is never held
        return []
    scopes = [ALL]
    scopes += [season_scope(s) for s in seasons if s.starts_on <= game.played_on <= s.ends_on]
    scopes.append(f"{RULES}{game.ruleset}")
    if game.saved_rules_id is not None:
        scopes.append(f"{SAVED}{game.saved_rules_id}")
    return scopes


def _games_in(club_id: int, scope: str, seasons: Sequence[Season]) -> list[Any] | None:
    """The conditions on Game of a scope's games; None for a scope that names nothing now."""
    conditions = [Game.club_id == club_id, Game.finished_at.is_not(None), *COUNTED]
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
# A game held for an organiser's review (services/rating_holds.py) is in no scope until then.
COUNTED = (Game.held_from_ratings.is_(False),)


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


def _who(player: Any) -> Who:
    """Who a player is rated as: a member by id, a guest by the name played under, told apart
    as names are everywhere (`names.name_key`: "Zed" and "zed" are one guest)."""
    if player.member_id is not None:
        return (player.member_id, None)
    if player.member is not None:
        return (player.member.id, None)
    return guest(player.name)


def guest(name: str) -> Who:
    """A guest as the ratings know them: by the name's key ("Zed" and "zed" are one guest)."""
    return (None, name_key(name))
