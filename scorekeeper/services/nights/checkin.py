"""Players checking themselves in from their own phone (issue 37), where the club allows it.

A member holding the club's table link says "I'm here" on the night's page: they are seated
from the next round, as someone come late (`night_play.add_player`), marked `by_self` so the
organisers see who came in that way and may undo it. Undone, a player no round has seated yet
is taken off the night's list as if never there; one seated already has played or sat out a
round, which the night keeps, so they are marked gone from the next round instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Night, NightPlayer
from scorekeeper.services.access import Level
from scorekeeper.services.nights.play import NightRefused, add_player

# The club's setting in words: its settings page and the night's page say it.
SELF_CHECK_IN = "Players may check themselves in from their own phone through the table link"


def may_check_in(club: Club, level: Level) -> bool:
    """Whether a visitor may check themselves in: the table link, where the club allows it."""
    return bool(club.self_check_in) and level >= Level.TABLE


def check_in(night: Night, member_id: int | None) -> NightPlayer:
    """A member checked in from their own phone: seated from the next round; or NightRefused
    (the club does not allow it, the night has ended, no member chosen, one already here)."""
    club = db.session.get(Club, night.club_id)
    if not club.self_check_in:
        raise NightRefused([("member", f"{club.name}'s organisers check players in.")])
    if night.finished_at is not None:
        raise NightRefused([("member", "The night has ended: nobody checks in now.")])
    if member_id is None:
        raise NightRefused([("member", "Choose your name from the members.")])
    player = add_player(night, member_id)
    player.by_self = True
    db.session.commit()
    return player


@dataclass(frozen=True)
class Undone:
    """A check-in undone: whose, and whether they were taken off (else marked gone)."""

    name: str
    removed: bool


def undo_check_in(night: Night, player_id: int) -> Undone:
    """An organiser undoes a player's own check-in; or NightRefused if there is none to undo."""
    player = next((p for p in night.players if p.id == player_id), None)
    if player is None or not player.by_self or player.left_after is not None:
        raise NightRefused([("player", "No check-in from a phone to undo for that player.")])
    name = player.name
    if _seated_yet(night, player.id):
        player.left_after = len(night.rounds)
        player.by_self = False
        removed = False
    else:
        night.players.remove(player)
        removed = True
    night.version = Night.version + 1
    db.session.commit()
    return Undone(name, removed)


def by_self(night: Night) -> list[NightPlayer]:
    """The players still here who checked themselves in, as they came."""
    return [p for p in night.players if p.by_self and p.left_after is None]


def _seated_yet(night: Night, player_id: int) -> bool:
    """Whether any round kept seated the player at a table or sat them out."""
    for played in night.rounds:
        if player_id in played.sitting_out:
            return True
        for table in played.tables:
            if any(player_id in side for side in table.sides):
                return True
    return False
