"""The visitor's level, from the request: an organiser's sign-in, a table link, or nothing.

What each level may do is `scorekeeper/access.py`; this module only works out who is asking,
and turns "not allowed" into the answer a page or the API gives (404 hides, 403 refuses).
"""

from __future__ import annotations

import secrets
from typing import NoReturn

from flask import abort, request, session
from flask_login import current_user

from .. import clubs, games
from ..access import Level, may_correct
from ..models import Club, Game

TABLES = "tables"  # session key: {club slug: table code}

__all__ = [
    "Level",
    "club_level",
    "code_matches",
    "game_or_404",
    "known_clubs",
    "may_correct",
    "organiser",
    "refuse",
    "remember_table",
    "require",
    "require_game",
    "require_table",
    "table_level",
]


def organiser():
    """The signed-in organiser, or None."""
    return current_user if current_user.is_authenticated else None


def club_level(club: Club) -> Level:
    """The visitor's level in this club."""
    if clubs.is_organiser(club, organiser()):
        return Level.ORGANISER
    # API clients show the code in a header; people carry it in their session from the link.
    code = request.headers.get("X-Table-Code") or session.get(TABLES, {}).get(club.slug)
    if isinstance(code, str) and code_matches(club, code):
        return Level.TABLE
    return Level.READ if club.standings_public else Level.NONE


def code_matches(club: Club, code: str) -> bool:
    """Whether a code is the club's current table code (in constant time, any characters)."""
    return secrets.compare_digest(code.encode(), club.table_code.encode())


def refuse(level: Level) -> NoReturn:
    """Stop: a visitor who may not see the thing gets 404 (it stays hidden), anyone else 403."""
    abort(404 if level == Level.NONE else 403)


def require(club: Club, needed: Level) -> Level:
    """The visitor's level in the club, or 404/403 if below what is needed."""
    level = club_level(club)
    if level < needed:
        refuse(level)
    return level


def game_or_404(game_id: int) -> Game:
    """The game, or a 404 (page or JSON, as the error handlers decide)."""
    game = games.get_game(game_id)
    if game is None:
        abort(404)
    return game


def table_level(club: Club | None) -> Level:
    """A casual game (no club) is open to whoever holds its link; a club game follows its club."""
    return Level.TABLE if club is None else club_level(club)


def require_game(game: Game, needed: Level) -> Level:
    """The visitor's level for a game, or 404/403 if below what is needed."""
    return require_table(game.club, needed)


def require_table(club: Club | None, needed: Level) -> Level:
    """The visitor's level for a game of this club (None: a casual game), or 404/403."""
    level = table_level(club)
    if level < needed:
        refuse(level)
    return level


def remember_table(club: Club) -> None:
    """Keep the table link in this browser's session."""
    tables = dict(session.get(TABLES, {}))
    tables[club.slug] = club.table_code
    session[TABLES] = tables
    session.permanent = True


def known_clubs() -> list[Club]:
    """Clubs this visitor runs or holds the table link of, for the home page."""
    found = {c.id: c for c in (organiser().clubs if organiser() else [])}
    for slug in session.get(TABLES, {}):
        club = clubs.club_by_slug(slug)
        if club is not None and club_level(club) >= Level.TABLE:
            found.setdefault(club.id, club)
    return sorted(found.values(), key=lambda c: c.name.casefold())
