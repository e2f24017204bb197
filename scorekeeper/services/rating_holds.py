"""Games started from a club's table link, counted in its standings and ratings as the club
decides (issue 39: a table link's holder played 30 one-deal games in 10 s and took a member
from 13.7 to first in the club).

Whoever holds the table link may start club games with house rules of their choosing (a game
of one deal, a target of 1 point) and finish them at once. A club chooses how such games count
(`TABLE_GAMES`): every one as it finishes (`EVERY`, every club's rule until it chooses), or
only once an organiser has confirmed it (`CONFIRMED`). Whatever it chooses, a game from the
table link whose player had already finished `MOST_AN_HOUR` games from the table link within
the hour before it, or `MOST_A_DAY` within the day, is held for an organiser's review
(`HELD_RULE`, in words): more games than anyone plays. A single game finished quickly is not
held: a club's own script (README) enters a game played on paper at once, as an attacker
would, and an attacker would only wait; the number of games is what no real player reaches.

A game is judged once, when it first finishes (holding.py, from `figures.keep_member_results`):
held, it has no member results (the standings) and is in no rating scope (`ratings/scopes.py`,
`ratings/played.py`) until an organiser confirms it (`confirm`), which writes its results and
marks it changed for the ratings' fold. Games an organiser started, a
night's rounds, imports and games kept before are never judged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Side
from scorekeeper.services import figures
from scorekeeper.services.holding import BURST as BURST
from scorekeeper.services.holding import CLUB as CLUB
from scorekeeper.services.holding import CONFIRMED as CONFIRMED
from scorekeeper.services.holding import CONFIRMED_REVIEW as CONFIRMED_REVIEW
from scorekeeper.services.holding import COUNTS as COUNTS
from scorekeeper.services.holding import EVERY as EVERY
from scorekeeper.services.holding import MOST_A_DAY as MOST_A_DAY
from scorekeeper.services.holding import MOST_AN_HOUR as MOST_AN_HOUR
from scorekeeper.services.ratings import kept

# The club's choice (`Club.table_games`): its label on the settings page, and what it means.
TABLE_GAMES = {
    EVERY: (
        "Every game counts",
        "A game started from the table link counts in the standings and ratings as soon as "
        "it finishes, unless it is held for review (below).",
    ),
    CONFIRMED: (
        "Only games an organiser has confirmed",
        "A game started from the table link counts in the standings and ratings once an "
        "organiser has confirmed it on the club's Games to confirm page.",
    ),
}
# Why a game is held (`Game.rating_review`), each in words.
WHY_HELD = {
    CLUB: "The club counts a table link's games once an organiser confirms them.",
    BURST: (
        f"One of its players had already finished {MOST_AN_HOUR} games from the table link "
        f"in the hour before it, or {MOST_A_DAY} in the day before it: more than anyone plays."
    ),
}
HELD_RULE = (
    "Whatever this setting, a game started from the table link is held for an organiser to "
    f"confirm if one of its players had already finished {MOST_AN_HOUR} games from the table "
    f"link in the hour before it, or {MOST_A_DAY} in the day before it: quicker than real "
    "games are played. A held game counts in no standings or rating until an organiser "
    "confirms it. Games an organiser started and a club night's rounds are never held. "
    "Changing this setting changes no game already judged: games held stay held until "
    "confirmed."
)
HELD_NOTE = (
    "This game is held out of the club's standings and ratings until an organiser confirms it."
)
# Held games listed on one page, the oldest first; Confirm all confirms these.
LISTED = 100


class HoldRefused(Exception):
    """A choice the club cannot make, or a game that is not this club's held game."""


# --- the club's choice, and what organisers see and confirm -----------------------------------


def choose(club: Club, choice: str) -> None:
    """Set how the club counts games from its table link, or HoldRefused in words."""
    if choice not in TABLE_GAMES:
        raise HoldRefused(
            "Games started from the table link: choose one of "
            + " or ".join(f"'{label}'" for label, _ in TABLE_GAMES.values())
            + "."
        )
    club.table_games = choice
    db.session.commit()


@dataclass(frozen=True)
class Held:
    """A held game as the organisers' list shows it."""

    game: Game
    why: str


def held_count(club: Club) -> int:
    """How many of the club's games are held out of its standings and ratings."""
    query = select(func.count()).select_from(Game).where(*_held_of(club))
    return db.session.execute(query).scalar_one()


def held_games(club: Club, limit: int = LISTED) -> list[Held]:
    """The club's held games, the oldest finished first, at most `limit`."""
    query = (
        select(Game)
        .where(*_held_of(club))
        .order_by(Game.finished_at, Game.id)
        .limit(limit)
        .options(selectinload(Game.sides).selectinload(Side.players))
    )
    return [
        Held(game, WHY_HELD.get(game.rating_review or "", WHY_HELD[CLUB]))
        for game in db.session.execute(query).scalars()
    ]


def confirm(club: Club, game_ids: Sequence[int]) -> int:
    """Count these held games of the club from now on; how many were confirmed."""
    query = select(Game).where(*_held_of(club), Game.id.in_(list(game_ids)))
    confirmed = list(db.session.execute(query).scalars())
    for game in confirmed:
        game.held_from_ratings = False
        game.rating_review = CONFIRMED_REVIEW
        # Its members' results written (the standings), and its scopes folded after the commit.
        figures.keep_member_results(game, game.finished_at is not None)
        kept.game_changed(game)
    db.session.commit()
    return len(confirmed)


def confirm_all(club: Club) -> int:
    """Confirm the held games the list shows (the oldest `LISTED`); how many were confirmed."""
    return confirm(club, [held.game.id for held in held_games(club)])


def _held_of(club: Club) -> tuple:
    return (Game.club_id == club.id, Game.held_from_ratings.is_(True))
