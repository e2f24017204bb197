"""Whether a game from a club's table link is held out of its standings and ratings, judged
once as it first finishes (`judge`, from `figures.keep_member_results`); the club's choice and
what organisers see and confirm: rating_holds.py, which says the rules in words."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import case, distinct, func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Player, Side
from scorekeeper.plumbing.models.times import now

EVERY = "every"
CONFIRMED = "confirmed"
# Nobody finishes more real games than these in an hour, or in a day: a player's next game
# from the table link is held.
MOST_AN_HOUR = 4
MOST_A_DAY = 12
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
# Why a game is held (`Game.rating_review`); or judged to count, or confirmed.
CLUB, BURST = "club", "burst"
COUNTS, CONFIRMED_REVIEW = "counts", "confirmed"


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
