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

A game is judged once, when it first finishes (`judge`, from `figures.keep_member_results`):
held, it has no member results (the standings) and is in no rating scope
(`ratings/scopes.py`, `ratings/played.py`) until an organiser confirms it (`confirm`), which
writes its results and marks it changed for the ratings' fold. Games an organiser started, a
night's rounds, imports and games kept before are never judged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import case, distinct, func, select
from sqlalchemy.orm import selectinload

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Player, Side
from scorekeeper.plumbing.models.times import now

EVERY = "every"
CONFIRMED = "confirmed"
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
# Nobody finishes more real games than these in an hour, or in a day: a player's next game
# from the table link is held.
MOST_AN_HOUR = 4
MOST_A_DAY = 12
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
# Why a game is held (`Game.rating_review`), each in words; or judged to count, or confirmed.
CLUB, BURST = "club", "burst"
COUNTS, CONFIRMED_REVIEW = "counts", "confirmed"
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


# --- judged when a game finishes --------------------------------------------------------------


def judge(game: Game, finished: bool) -> None:
    """Hold a game from the table link that has just finished, if the club's rules say so."""
    if not finished or not game.started_by_table or game.rating_review is not None:
        return  # judged once, when it first finishes; games not from the table link never
    if game.club is None:
        return
    why = why_held(game, _aware(game.finished_at) or now())
    game.rating_review = why or COUNTS
    game.held_from_ratings = why is not None


def why_held(game: Game, finished_at: datetime) -> str | None:
    """Why a game from the table link finishing at `finished_at` is held; None: it counts."""
    hour, day = _busiest(game, finished_at)
    if hour >= MOST_AN_HOUR or day >= MOST_A_DAY:
        return BURST
    if game.club is not None and game.club.table_games == CONFIRMED:
        return CLUB
    return None


def _busiest(game: Game, finished_at: datetime) -> tuple[int, int]:
    """The most games from the table link any of this game's players finished in the hour
    before it, and in the day (held or not; two small queries: members by id, guests by name)."""
    players = [p for side in game.sides for p in side.players]
    members = {p.member_id or p.member.id for p in players if p.member_id or p.member}
    guests = {p.name for p in players if p.member_id is None and p.member is None}
    within = [
        Game.club_id == game.club_id,
        Game.started_by_table.is_(True),
        Game.finished_at.is_not(None),
        Game.finished_at >= finished_at - DAY,
        Game.finished_at <= finished_at,
    ]
    if game.id is not None:
        within.append(Game.id != game.id)
    in_the_hour = case((Game.finished_at >= finished_at - HOUR, Game.id))
    most = (0, 0)
    for who, chosen in ((Player.member_id, members), (Player.name, guests)):
        if not chosen:
            continue
        query = (
            select(func.count(distinct(in_the_hour)), func.count(distinct(Game.id)))
            .select_from(Player)
            .join(Side, Player.side_id == Side.id)
            .join(Game, Side.game_id == Game.id)
            .where(*within, who.in_(chosen))
            .group_by(who)
        )
        if who is Player.name:
            query = query.where(Player.member_id.is_(None))
        for hour, day in db.session.execute(query):
            most = (max(most[0], hour), max(most[1], day))
    return most


def _aware(moment: datetime | None) -> datetime | None:
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)  # SQLite hands back naive UTC
    return moment


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
    # Imported here: figures imports this module (judge), and the ratings' kept through it.
    from scorekeeper.services import figures
    from scorekeeper.services.ratings import kept

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
