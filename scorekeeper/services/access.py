"""Who may do what to a game or a club, by the visitor's level; one home for each such rule.

The web layer works out a visitor's level from the request (`web/access.py`); the services,
the views and the templates ask these functions what that level allows.
"""

from __future__ import annotations

from enum import IntEnum

from scorekeeper.plumbing.models import Club, Game
from scorekeeper.services.locking import is_locked


class Level(IntEnum):
    """What a visitor may do, each level including those below it."""

    NONE = 0
    READ = 1  # standings and history of a public club
    TABLE = 2  # start games and enter deals: the table link (a game's own link: that game)
    ORGANISER = 3  # members, seasons, settings; correct or delete finished games


# Entering a deal takes the table's level: the game's own link (any game's, a club's too since
# issue 37: web/access.table_level), or the club's table link.
TO_ENTER = Level.TABLE


def needed_to_correct(game: Game) -> Level:
    """A club's locked game changes only by an organiser's hand (`locking.lock_of`: every side
    agreed every deal, or the club's hours after it ended); anything else, the table's."""
    return Level.ORGANISER if is_locked(game) else Level.TABLE


def may_correct(game: Game, level: Level) -> bool:
    """Whether a visitor at this level may correct the game's deals."""
    return level >= needed_to_correct(game)


def may_enter(game: Game, level: Level) -> bool:
    """Whether a visitor at this level may enter the game's next deal (if it is not over)."""
    return level >= TO_ENTER


def may_delete(game: Game, level: Level) -> bool:
    """Only a club's organisers delete a game, and only a club game (a casual one is kept)."""
    return game.club_id is not None and level >= Level.ORGANISER


def needed_to_run_nights(club: Club) -> Level:
    """Organisers open and run a club's nights; phones holding the table link too, where the
    club allows it (`Club.tables_run_nights`, its settings page)."""
    return Level.TABLE if club.tables_run_nights else Level.ORGANISER


def may_run_nights(club: Club, level: Level) -> bool:
    """Whether a visitor at this level may open a club night, seat its rounds, draw a seating
    again, take comings and goings and end it."""
    return level >= needed_to_run_nights(club)
