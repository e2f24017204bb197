"""Clubs: members, seasons, organisers, the table link, standings and history.

Standings are summed by the database from the figures the engine left on each side.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import delete, exists, func, select
from sqlalchemy.orm import selectinload
from werkzeug.security import check_password_hash, generate_password_hash

from . import scoresheet
from .db import db
from .models import (
    RESULT_FIGURES,
    Club,
    Game,
    LoginAttempt,
    Member,
    MemberDay,
    MemberResult,
    Organiser,
    Player,
    Season,
    Side,
)
from .rules import PRESETS
from .scoresheet import CONTROL_MESSAGE, has_control

SLUG = re.compile(r"[a-z0-9][a-z0-9-]{1,39}")
# Plain ASCII, so that the database's lower() and Python agree on what "the same" means.
USERNAME = re.compile(r"[A-Za-z0-9._-]{3,60}")
MAX_NAME = 60
PAGE_SIZE = 50


class ClubRefused(ValueError):
    """A club change that cannot be made, in words for the organiser."""


def new_table_code() -> str:
    """An unguessable code for the table link."""
    return secrets.token_urlsafe(18)


# --- organisers --------------------------------------------------------------------------


def register(username: str, password: str) -> Organiser:
    """A new organiser account, its password hashed."""
    username = username.strip()
    if not USERNAME.fullmatch(username):
        raise ClubRefused(
            "A username needs 3 to 60 characters: letters a to z, digits, dots, dashes "
            "or underscores."
        )
    if len(password) < 8:
        raise ClubRefused("A password needs at least 8 characters.")
    if organiser_named(username) is not None:
        raise ClubRefused(f"The username {username} is taken.")
    organiser = Organiser(username=username, password_hash=generate_password_hash(password))
    db.session.add(organiser)
    db.session.commit()
    return organiser


def organiser_named(username: str) -> Organiser | None:
    """An organiser by username (case-insensitive)."""
    if not USERNAME.fullmatch(username.strip()):
        return None  # no account has such a name; never send it to the database
    query = select(Organiser).where(func.lower(Organiser.username) == username.strip().lower())
    return db.session.execute(query).scalar_one_or_none()


def authenticate(username: str, password: str) -> Organiser | None:
    """The organiser whose password this is, or None."""
    organiser = organiser_named(username)
    if organiser is None or not check_password_hash(organiser.password_hash, password):
        return None
    return organiser


LOGIN_WINDOW = timedelta(minutes=15)
LOGIN_FAILURES = 5


def login_blocked(username: str, address: str) -> bool:
    """Too many failed sign-ins lately, for this username or from this address."""
    since = datetime.now(UTC) - LOGIN_WINDOW
    query = select(func.count()).where(
        LoginAttempt.at >= since,
        (func.lower(LoginAttempt.username) == _attempted(username).lower())
        | (LoginAttempt.address == address[:64]),
    )
    return db.session.execute(query).scalar_one() >= LOGIN_FAILURES


def _attempted(username: str) -> str:
    """The username as a sign-in attempt is filed: a name no account could have is '?'."""
    return username.strip() if USERNAME.fullmatch(username.strip()) else "?"


def record_failed_login(username: str, address: str) -> None:
    """Remember a failed sign-in (and forget those older than a day)."""
    now = datetime.now(UTC)
    db.session.execute(delete(LoginAttempt).where(LoginAttempt.at < now - timedelta(days=1)))
    db.session.add(LoginAttempt(username=_attempted(username), address=address[:64], at=now))
    db.session.commit()


# --- clubs -------------------------------------------------------------------------------


def club_by_slug(slug: str) -> Club | None:
    """A club by its slug."""
    if not SLUG.fullmatch(slug):
        return None
    return db.session.execute(select(Club).where(Club.slug == slug)).scalar_one_or_none()


def create_club(name: str, slug: str, organiser: Organiser, *, public: bool = False) -> Club:
    """A new club, run by the organiser who created it."""
    name, slug = name.strip(), slug.strip().lower()
    if has_control(name):
        raise ClubRefused(CONTROL_MESSAGE)
    if not 1 <= len(name) <= 80:
        raise ClubRefused("A club needs a name of up to 80 characters.")
    if not SLUG.fullmatch(slug):
        raise ClubRefused(
            "The web address must be 2 to 40 lowercase letters, digits or hyphens, "
            "starting with a letter or digit."
        )
    if club_by_slug(slug) is not None:
        raise ClubRefused(f"The web address {slug} is taken.")
    club = Club(name=name, slug=slug, table_code=new_table_code(), standings_public=public)
    club.organisers.append(organiser)
    db.session.add(club)
    db.session.commit()
    return club


def replace_table_code(club: Club) -> str:
    """A new table link; every old one stops working."""
    club.table_code = new_table_code()
    db.session.commit()
    return club.table_code


def is_organiser(club: Club, organiser: Organiser | None) -> bool:
    """Whether this account runs the club."""
    return organiser is not None and any(o.id == organiser.id for o in club.organisers)


def add_organiser(club: Club, username: str) -> Organiser:
    """Let another account run the club."""
    organiser = organiser_named(username)
    if organiser is None:
        raise ClubRefused(f"No account is called {username.strip()}; they must sign up first.")
    if not is_organiser(club, organiser):
        club.organisers.append(organiser)
        db.session.commit()
    return organiser


def update_settings(club: Club, *, name: str, public: bool, min_games: int) -> None:
    """Change the club's name, visibility and ranking threshold."""
    if not 1 <= len(name.strip()) <= 80:
        raise ClubRefused("A club needs a name of up to 80 characters.")
    if has_control(name):
        raise ClubRefused(CONTROL_MESSAGE)
    if not 0 <= min_games <= 1000:
        raise ClubRefused("The games needed to be ranked must be between 0 and 1,000.")
    club.name, club.standings_public, club.min_games_ranked = name.strip(), public, min_games
    db.session.commit()


# --- members -----------------------------------------------------------------------------


def member(club: Club, member_id: int) -> Member | None:
    """A member of this club by id."""
    found = db.session.get(Member, member_id) if 0 < member_id < 2**63 else None
    return found if found is not None and found.club_id == club.id else None


def add_member(club: Club, name: str) -> Member:
    """A new member; names are unique in a club, whatever their case."""
    name = " ".join(name.split())
    if has_control(name):
        raise ClubRefused(CONTROL_MESSAGE)
    if not 1 <= len(name) <= MAX_NAME:
        raise ClubRefused("A member needs a name of up to 60 characters.")
    if any(m.name.casefold() == name.casefold() for m in club.members):
        raise ClubRefused(f"{name} is already a member.")
    added = Member(name=name)
    club.members.append(added)
    db.session.commit()
    return added


def games_of_member(target: Member) -> int:
    """How many games name this member."""
    query = select(func.count()).select_from(Player).where(Player.member_id == target.id)
    return db.session.execute(query).scalar_one()


def delete_member(target: Member) -> None:
    """Remove a member no game mentions; one in the records is archived or merged instead."""
    used = games_of_member(target)
    if used:
        raise ClubRefused(
            f"{target.name} played {used} game{'s' if used != 1 else ''}: archive them, "
            "or merge them into another member, so the records stay whole."
        )
    db.session.delete(target)
    db.session.commit()


def set_archived(target: Member, archived: bool) -> None:
    """Archive a member (kept in the records, no longer offered for new games), or restore."""
    target.archived = archived
    db.session.commit()


def merge_members(source: Member, into: Member) -> None:
    """Fold a duplicate member into another: their games become the other's."""
    if source.id == into.id or source.club_id != into.club_id:
        raise ClubRefused("Choose another member of the same club to merge into.")
    shared = _shared_game(source, into)
    if shared is not None:
        raise ClubRefused(
            f"{source.name} and {into.name} both played in game {shared}: "
            "they are two people, so they cannot be merged."
        )
    for player in db.session.execute(select(Player).where(Player.member_id == source.id)).scalars():
        player.member_id = into.id
        player.name = into.name
    results = select(MemberResult).where(MemberResult.member_id == source.id)
    for result in db.session.execute(results).scalars():
        result.member_id = into.id
    db.session.execute(delete(MemberDay).where(MemberDay.member_id == source.id))
    db.session.delete(source)
    scoresheet.refresh_member_days(into.club_id)
    db.session.commit()


def _shared_game(one: Member, other: Member) -> int | None:
    """A game both members played in, if any."""
    theirs = (
        select(Side.game_id)
        .join(Player, Player.side_id == Side.id)
        .where(Player.member_id == other.id)
    )
    query = (
        select(Side.game_id)
        .join(Player, Player.side_id == Side.id)
        .where(Player.member_id == one.id, Side.game_id.in_(theirs))
        .limit(1)
    )
    return db.session.execute(query).scalar_one_or_none()


# --- seasons -----------------------------------------------------------------------------


def add_season(club: Club, name: str, starts_on: date, ends_on: date) -> Season:
    """A named stretch of dates."""
    name = name.strip()
    if has_control(name):
        raise ClubRefused(CONTROL_MESSAGE)
    if not 1 <= len(name) <= MAX_NAME:
        raise ClubRefused("A season needs a name of up to 60 characters.")
    if ends_on < starts_on:
        raise ClubRefused("A season cannot end before it starts.")
    season = Season(name=name, starts_on=starts_on, ends_on=ends_on)
    club.seasons.append(season)
    db.session.commit()
    return season


def season(club: Club, season_id: int) -> Season | None:
    """One of the club's seasons."""
    return next((s for s in club.seasons if s.id == season_id), None)


def current_season(club: Club, today: date) -> Season | None:
    """The season that holds today, else the latest to have started."""
    started = [s for s in club.seasons if s.starts_on <= today]
    holding = [s for s in started if today <= s.ends_on]
    return (holding or started or [None])[0]


# --- standings ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Filters:
    """Which finished games count: a date range and a rule set, all optional."""

    start: date | None = None
    end: date | None = None
    ruleset: str | None = None
    member_id: int | None = None

    @classmethod
    def for_season(cls, chosen: Season | None, **more) -> Filters:
        """The dates of a season, if one is chosen."""
        if chosen is None:
            return cls(**more)
        return cls(start=chosen.starts_on, end=chosen.ends_on, **more)


@dataclass(frozen=True)
class Standing:
    """One member's line in the standings."""

    member_id: int
    player: str
    games: int
    wins: int
    total_points: int
    deals: int
    clean_books: int
    dirty_books: int
    wild_books: int
    special_books: int
    went_out: int
    red_threes_caught: int
    rank: int | None = None

    @property
    def win_rate(self) -> float:
        """Wins over games, 0 to 1."""
        return self.wins / self.games if self.games else 0.0

    @property
    def average_score(self) -> float:
        """The average final total of the member's side."""
        return self.total_points / self.games if self.games else 0.0

    @property
    def average_per_deal(self) -> float:
        """Points per deal played."""
        return self.total_points / self.deals if self.deals else 0.0


SORTS = {
    "win_rate": ("Win %", lambda s: s.win_rate),
    "wins": ("Wins", lambda s: s.wins),
    "games": ("Games", lambda s: s.games),
    "average_score": ("Average score", lambda s: round(s.average_score, 6)),
    "average_per_deal": ("Average per deal", lambda s: round(s.average_per_deal, 6)),
    "total_points": ("Total points", lambda s: s.total_points),
    "clean_books": ("Clean books", lambda s: s.clean_books),
    "dirty_books": ("Dirty books", lambda s: s.dirty_books),
    "wild_books": ("Wild books", lambda s: s.wild_books),
    "went_out": ("Went out", lambda s: s.went_out),
    # Fewer red threes caught is better: the negative puts the fewest first.
    "red_threes_caught": ("Red threes caught", lambda s: -s.red_threes_caught),
    "special_books": ("Special books", lambda s: s.special_books),
}


def _finished_games(club: Club, filters: Filters):
    conditions = [Game.club_id == club.id, Game.finished_at.is_not(None)]
    if filters.start is not None:
        conditions.append(Game.played_on >= filters.start)
    if filters.end is not None:
        conditions.append(Game.played_on <= filters.end)
    if filters.ruleset:
        conditions.append(Game.ruleset == filters.ruleset)
    return conditions


def _counted_results(club: Club, filters: Filters, table=MemberResult) -> list:
    conditions = [table.club_id == club.id]
    if filters.start is not None:
        conditions.append(table.played_on >= filters.start)
    if filters.end is not None:
        conditions.append(table.played_on <= filters.end)
    if filters.ruleset:
        conditions.append(table.ruleset == filters.ruleset)
    return conditions


def standings(club: Club, filters: Filters, sort: str = "win_rate") -> list[Standing]:
    """Every member who played a counted game, ranked; summed by the database, per club night."""
    sums = (
        select(
            MemberDay.member_id,
            func.sum(MemberDay.games),
            *(func.sum(getattr(MemberDay, name)) for name in RESULT_FIGURES),
        )
        .where(*_counted_results(club, filters, MemberDay))
        .group_by(MemberDay.member_id)
        .subquery()
    )
    query = select(Member.id, Member.name, *list(sums.c)[1:]).join(
        sums, sums.c.member_id == Member.id
    )
    rows = [Standing(*row) for row in db.session.execute(query)]
    return rank(rows, sort, club.min_games_ranked)


def rank(rows: Sequence[Standing], sort: str, min_games: int) -> list[Standing]:
    """Sort by a figure, best first; equal figures share a rank; too few games, no rank."""
    key = SORTS.get(sort, SORTS["win_rate"])[1]
    ranked = sorted(
        (r for r in rows if r.games >= min_games), key=lambda r: (-key(r), r.player.casefold())
    )
    unranked = sorted(
        (r for r in rows if r.games < min_games), key=lambda r: (-key(r), r.player.casefold())
    )
    result: list[Standing] = []
    for position, row in enumerate(ranked, start=1):
        shared = result and key(result[-1]) == key(row)
        place = result[-1].rank if shared else position
        result.append(_with_rank(row, place))
    return result + [_with_rank(row, None) for row in unranked]


def _with_rank(row: Standing, place: int | None) -> Standing:
    return Standing(**{**row.__dict__, "rank": place})


# --- history -----------------------------------------------------------------------------


def history(club: Club, filters: Filters, page: int = 1) -> tuple[list[Game], bool]:
    """Finished games, newest first, a page at a time; and whether there are more."""
    query = select(Game).where(*_finished_games(club, filters))
    if filters.member_id is not None:
        played = (
            select(Player.id)
            .join(Side, Player.side_id == Side.id)
            .where(Side.game_id == Game.id, Player.member_id == filters.member_id)
        )
        query = query.where(exists(played))
    query = (
        query.order_by(Game.played_on.desc(), Game.id.desc())
        .offset((max(page, 1) - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE + 1)
        .options(selectinload(Game.sides).selectinload(Side.players))
    )
    games = list(db.session.execute(query).scalars())
    return games[:PAGE_SIZE], len(games) > PAGE_SIZE


def in_progress(club: Club, limit: int = 20) -> list[Game]:
    """The club's unfinished games, most recently touched first."""
    query = (
        select(Game)
        .where(Game.club_id == club.id, Game.finished_at.is_(None))
        .order_by(Game.updated_at.desc(), Game.id.desc())
        .limit(limit)
        .options(selectinload(Game.sides))
    )
    return list(db.session.execute(query).scalars())


@dataclass(frozen=True)
class Result:
    """One finished game, seen from one member's side."""

    game_id: int
    played_on: date
    ruleset: str
    side: str
    total: int
    won: bool


def results_of(target: Member, filters: Filters, limit: int = 200) -> list[Result]:
    """A member's finished games, oldest first (for a chart), within the filters."""
    query = (
        select(
            MemberResult.game_id,
            MemberResult.played_on,
            MemberResult.ruleset,
            Side.name,
            MemberResult.final_total,
            MemberResult.won,
        )
        .join(Side, MemberResult.side_id == Side.id)
        .where(MemberResult.member_id == target.id, *_counted_results(target.club, filters))
        .order_by(MemberResult.played_on.desc(), MemberResult.game_id.desc())
        .limit(limit)
    )
    return [Result(*row) for row in reversed(db.session.execute(query).all())]


def delete_game(game: Game) -> None:
    """Remove a game and its deals for good (an organiser's decision)."""
    club_id, day = game.club_id, game.played_on
    db.session.delete(game)
    if club_id is not None:
        scoresheet.refresh_member_days(club_id, [day])
    db.session.commit()


def ruleset_choices() -> list[tuple[str, str]]:
    """(key, name) for every preset, for filters."""
    return [(r.key, r.name) for r in PRESETS.values()]
