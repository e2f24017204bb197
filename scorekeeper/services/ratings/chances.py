"""Each side's chance before a club game, and partnerships balanced by rating (issue 30).

From the players' kept ratings in the club's "all" scope (`kept.py`): a member by id, a guest by
the name they play under, anyone not rated yet a newcomer (`model.NEW`). The model weighs
(`model.chances`, `model.balanced`); this reads the ratings it weighs, in one query.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy import and_, or_, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Rating
from scorekeeper.services.ratings import kept, model, scopes
from scorekeeper.services.ratings.kept import Who
from scorekeeper.services.ratings.model import Skill

K = TypeVar("K", bound=Hashable)


def who_of(player: Any) -> Who:
    """Who a game's player is to the ratings: a member by id, a guest by name (as kept rates)."""
    return scopes._who(player)  # the one definition, shared so both read a player alike


def skills_of(club_id: int, players: Iterable[Who]) -> dict[Who, Skill]:
    """Each of these players' kept rating ("all"), a newcomer's for anyone unrated (one query)."""
    wanted = set(players)
    found = _kept(club_id, wanted)
    return {who: found.get(who, model.NEW) for who in wanted}


def pars(club_id: int, sides: Sequence[Sequence[Who]]) -> list[int] | None:
    """Each side's par: its chance to win in percent from the kept ratings, before the game
    (one query); None for fewer than two sides, or a table where nobody is rated yet (a chance
    from nothing known is no par)."""
    if len(sides) < 2 or not all(sides):
        return None
    found = _kept(club_id, {w for side in sides for w in side})
    return side_percents(sides, found) if found else None


def _kept(club_id: int, wanted: set[Who]) -> dict[Who, Skill]:
    """The kept ratings ("all") of those of these players who have one."""
    members = [m for m, _ in wanted if m is not None]
    guests = [g for m, g in wanted if m is None and g is not None]
    found: dict[Who, Skill] = {}
    if wanted:
        query = select(Rating.member_id, Rating.guest, Rating.mu, Rating.sigma).where(
            Rating.club_id == club_id,
            Rating.scope == kept.ALL,
            or_(
                Rating.member_id.in_(members),
                and_(Rating.member_id.is_(None), Rating.guest.in_(guests)),
            ),
        )
        for member_id, guest, mu, sigma in db.session.execute(query):
            who = (member_id, None) if member_id is not None else (None, guest)
            found[who] = Skill(mu, sigma)
    return found


def percents(odds: Sequence[float]) -> list[int]:
    """Chances as whole percents summing to 100: each rounded down, then the largest remainders
    rounded up (equal remainders: the earlier side), so "54% · 46%" never shows 101."""
    exact = [p * 100 for p in odds]
    shown = [int(x) for x in exact]
    by_remainder = sorted(range(len(exact)), key=lambda i: -(exact[i] - shown[i]))
    for i in by_remainder[: 100 - sum(shown)]:
        shown[i] += 1
    return shown


def side_percents(sides: Sequence[Sequence[Who]], skills: Mapping[Who, Skill]) -> list[int]:
    """Each side's chance to win, in whole percents summing to 100."""
    return percents(model.chances([[skills.get(w, model.NEW) for w in side] for side in sides]))


def game_par(game: Game) -> list[tuple[str, int]]:
    """Each side's name and par, kept as the game started (`pars`); [] if it has none."""
    kept = [side.par for side in game.sides]
    if len(kept) < 2 or None in kept:
        return []
    return [(side.name, side.par) for side in game.sides if side.par is not None]


def game_chances(game: Game) -> list[tuple[str, int]]:
    """Each side's name and chance in percent before deal 1 of a club game; [] for a casual
    game, or once a deal is saved (the scoreboard's totals say more from then on)."""
    if game.club_id is None or game.deals or game.finished_at is not None or len(game.sides) < 2:
        return []
    sides = [[who_of(p) for p in side.players] for side in game.sides]
    if not all(sides):
        return []
    skills = skills_of(game.club_id, (w for side in sides for w in side))
    return list(zip([s.name for s in game.sides], side_percents(sides, skills), strict=True))


def balance(sides: Sequence[Sequence[K]], skills: Mapping[K, Skill]) -> list[list[K]]:
    """The same players in the partnership whose sides' chances are nearest even (ties: the
    order given); ValueError in words for sides that cannot be balanced."""
    sizes = {len(side) for side in sides}
    if len(sides) < 2 or min(sizes, default=0) < 2:
        raise ValueError("Every player plays for themselves: there are no partners to balance.")
    if len(sizes) > 1:
        counts = ", ".join(str(len(side)) for side in sides)
        raise ValueError(f"Partners are balanced in sides of one size; these sides hold {counts}.")
    players = [p for side in sides for p in side]
    by_key = {str(i): p for i, p in enumerate(players)}
    asked = [(key, skills.get(p, model.NEW)) for key, p in by_key.items()]
    drawn = model.balanced(asked, team_size=len(sides[0]), teams=len(sides))
    return [[by_key[key] for key in side] for side in drawn]
