"""A night's read-only link (issue 37): `/n/<secret>`, its board for the hall's TV and its
results for everyone afterwards; it scores nothing.

Its secret (`Night.board_secret`) is made as a game's is (`plumbing/models/games.new_secret`),
when the night opens, or on demand for a night kept before issue 37; its organisers replace
it, and the old one opens nothing from then on. Looking one up is a guess like a game's link:
a secret no night has is a miss against the same per-address allowance (`services/links.py`,
`MISSES_ALLOWED`), and a spent allowance looks nothing up.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import bindparam, func, select

from scorekeeper.plumbing.addresses import ADDRESS_LENGTH
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import LinkMiss, Night
from scorekeeper.plumbing.models.games import new_secret
from scorekeeper.services import links

# The path that opens a night's board: `/n/<secret>` (for "night").
LINK_PREFIX = "/n/"


@dataclass(frozen=True)
class NightFound(links.Opened):
    """The link opens this night, of this club."""

    night_id: int
    club_id: int


def _lookup():
    """This address's recent misses and the night with the secret, in one query."""
    misses = LinkMiss.__table__
    nights = Night.__table__
    recent = (
        select(func.count())
        .select_from(misses)
        .where(misses.c.address == bindparam("address"), misses.c.at >= bindparam("since"))
        .scalar_subquery()
    )
    found = (
        select(column).where(nights.c.board_secret == bindparam("secret")).scalar_subquery()
        for column in (nights.c.id, nights.c.club_id)
    )
    return select(recent, *found)


_BY_SECRET = _lookup()


def open_night_link(secret: str, address: str) -> links.Opened:
    """The night a board secret opens: NightFound, else a miss counted (links.record_miss) or
    TooManyMisses once the address's allowance is spent (shared with game links)."""
    now = datetime.now(UTC)
    wellformed = isinstance(secret, str) and links.SECRET.fullmatch(secret) is not None
    values = {
        "address": address[:ADDRESS_LENGTH],
        "since": now - links.MISS_WINDOW,
        # A malformed secret asks the same question, with a secret no night can have.
        "secret": secret if wellformed else "",
    }
    missed, night_id, club_id = db.session.execute(_BY_SECRET, values).one()
    db.session.rollback()  # only read: see links.open_link
    if missed >= links.MISSES_ALLOWED:
        return links.TooManyMisses(links.retry_after(address, now))
    if night_id is None:
        return links.record_miss(address, now)
    return NightFound(night_id, club_id)


def board_secret(night: Night) -> str:
    """The night's board secret, made now for a night kept before there were any."""
    if night.board_secret is None:
        night.board_secret = new_secret()
        db.session.commit()
    return night.board_secret


def new_board_link(night: Night) -> str:
    """Replace the night's board secret: the old link opens nothing from now on."""
    night.board_secret = new_secret()
    db.session.commit()
    return night.board_secret


def path_of(secret: str) -> str:
    """The night's read-only link, as a path on this server."""
    return LINK_PREFIX + secret
