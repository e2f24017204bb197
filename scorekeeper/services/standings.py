"""Standings and history: which finished games count, members ranked, games listed.

Standings are summed by the database from the figures kept beside the deals (`figures.py`);
each member's rating is joined in as kept within the filters' scope (`ratings/kept.py`), never
computed for a request.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from sqlalchemy import and_, case, exists, func, select
from sqlalchemy.orm import aliased, selectinload
from sqlalchemy.sql.elements import ColumnElement

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import (
    RESULT_FIGURES,
    Club,
    Game,
    Member,
    MemberDay,
    MemberResult,
    Night,
    NightPlayer,
    NightTable,
    Player,
    Rating,
    Season,
    Side,
)
from scorekeeper.rules import PRESETS
from scorekeeper.rules.terms import MINUS
from scorekeeper.services import night_results
from scorekeeper.services.games.words import rules_called
from scorekeeper.services.night_board import Standing as NightStanding
from scorekeeper.services.night_results import NightResult
from scorekeeper.services.ratings import kept, model

PAGE_SIZE = 50


@dataclass(frozen=True)
class Filters:
    """Which finished games count: a date range, a preset or a saved rule set, all optional."""

    start: date | None = None
    end: date | None = None
    ruleset: str | None = None
    member_id: int | None = None
    # One of the club's saved rule sets (its id): the games started from it.
    saved_rules_id: int | None = None
    # Only the games played at the club's nights (a table's game of a night).
    at_nights: bool = False
    # The season whose dates start and end are (its ratings are kept: `rating_scope`).
    season_id: int | None = None

    @classmethod
    def for_season(cls, chosen: Season | None, **more) -> Filters:
        """The dates of a season, if one is chosen."""
        if chosen is None:
            return cls(**more)
        return cls(start=chosen.starts_on, end=chosen.ends_on, season_id=chosen.id, **more)


@dataclass
class Standing:
    """One member's line in the standings (made a thousand at a time for a big club's page: not
    frozen, since a frozen dataclass sets each of its fields by a call, which took 3 ms there)."""

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
    # The finished nights within the filters at which the member ranked first (`night_results`).
    night_wins: int = 0
    # The member's rating within the filters as a page shows it (`model.shown`), and the games
    # behind it; None where no rating is kept for these filters (`rating_scope`).
    rating: float | None = None
    rated_games: int = 0
    # The conservative figure unrounded: what the rating sort orders by.
    rating_exact: float | None = None

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

    @property
    def rating_cell(self) -> str:
        """The Rating column's cell: "12.3 (40)", a true minus; "–" where none is kept."""
        if self.rating is None:
            return "–"
        return f"{self.rating:.1f} ({self.rated_games})".replace("-", MINUS)


SORTS = {
    "win_rate": ("Win %", lambda s: s.win_rate),
    "wins": ("Wins", lambda s: s.wins),
    "night_wins": ("Night wins", lambda s: s.night_wins),
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
    # The conservative figure (mu less 3 sigmas); no rating kept, last.
    "rating": ("Rating", lambda s: -math.inf if s.rating_exact is None else s.rating_exact),
}
DEFAULT_SORT = "win_rate"

# What the Rating column is, and where it is kept, as the standings page states them.
RATING_RULE = (
    "Rating (OpenSkill): skill from who won, with and against whom; cautious, so few games "
    "rank low. In brackets, the games behind it."
)
RATING_KEPT_RULE = (
    "Ratings are kept over all seasons, per season and per rule set, one at a time: with dates "
    "of your own, a season and a rule set together, or the nights' games only, the Rating "
    "column is left blank."
)


# How night wins are counted, as the standings page states it.
NIGHT_WINS_RULE = (
    "Night wins: the club nights, finished and within these dates and rules, at which the "
    "member ranked first in the night's own standings; a first place shared is a win for each "
    "who shares it."
)


def within(
    filters: Filters, played_on: Any, ruleset: Any, saved_rules: Any
) -> list[ColumnElement[bool]]:
    """The filters' dates and rule sets as conditions on these columns (one home for all)."""
    conditions = []
    if filters.start is not None:
        conditions.append(played_on >= filters.start)
    if filters.end is not None:
        conditions.append(played_on <= filters.end)
    if filters.ruleset:
        conditions.append(ruleset == filters.ruleset)
    if filters.saved_rules_id is not None:
        conditions.append(saved_rules == filters.saved_rules_id)
    return conditions


def at_a_night(filters: Filters, game_id: Any) -> list[ColumnElement[bool]]:
    """With the nights filter, the condition that this game column is a night table's game."""
    return [exists().where(NightTable.game_id == game_id)] if filters.at_nights else []


def club_games(club: Club, filters: Filters, *, finished_only: bool = True):
    """The club's games within the filters (and with the member, if one is chosen), unordered."""
    query = select(Game).where(
        Game.club_id == club.id,
        *within(filters, Game.played_on, Game.ruleset, Game.saved_rules_id),
        *at_a_night(filters, Game.id),
    )
    if finished_only:
        query = query.where(Game.finished_at.is_not(None))
    if filters.member_id is not None:
        played = (
            select(Player.id)
            .join(Side, Player.side_id == Side.id)
            .where(Side.game_id == Game.id, Player.member_id == filters.member_id)
        )
        query = query.where(exists(played))
    return query


def rating_scope(filters: Filters) -> str | None:
    """The kept ratings' scope the filters mean (the one home of that mapping); None where no
    scope is kept for them: a season with a rule set, dates of one's own, the nights only."""
    # Ratings are folded in the order of play within a scope, so only the scopes `kept` folds
    # can be read without rating games per request. The player filter does not narrow the
    # standings (every member's line is shown), so it does not narrow the ratings either.
    if filters.at_nights:
        return None
    rules = [kept.RULES + filters.ruleset] if filters.ruleset else []
    if filters.saved_rules_id is not None:
        rules.append(f"{kept.SAVED}{filters.saved_rules_id}")
    if filters.season_id is not None:
        return None if rules else f"{kept.SEASON}{filters.season_id}"
    if filters.start is not None or filters.end is not None or len(rules) > 1:
        return None
    return rules[0] if rules else kept.ALL


def sort_of(club: Club, filters: Filters, sort: str | None = None) -> str:
    """The order the standings take: the one asked if known, else the club's own; by rating
    only where ratings are kept for the filters (else win %)."""
    if sort not in SORTS:
        sort = club.standings_sort if club.standings_sort in SORTS else DEFAULT_SORT
    if sort == "rating" and rating_scope(filters) is None:
        return DEFAULT_SORT
    return sort


def standings(club: Club, filters: Filters, sort: str | None = None) -> list[Standing]:
    """Every member who played a counted game, ranked (`sort_of`), with their night wins and
    their ratings within the filters.

    Summed by the database: per member and day (`MemberDay`), or, for the games played at
    nights only, per member and game (`MemberResult`, only the nights' games).
    """
    if filters.at_nights:
        figures = [func.count(), *(_summed(MemberResult, name) for name in RESULT_FIGURES)]
        sums = select(MemberResult.member_id, *figures).where(
            MemberResult.club_id == club.id,
            *within(
                filters, MemberResult.played_on, MemberResult.ruleset, MemberResult.saved_rules_id
            ),
            *at_a_night(filters, MemberResult.game_id),
        )
        sums = sums.group_by(MemberResult.member_id).subquery()
    else:
        sums = (
            select(
                MemberDay.member_id,
                func.sum(MemberDay.games),
                *(func.sum(getattr(MemberDay, name)) for name in RESULT_FIGURES),
            )
            .where(
                MemberDay.club_id == club.id,
                *within(filters, MemberDay.played_on, MemberDay.ruleset, MemberDay.saved_rules_id),
            )
            .group_by(MemberDay.member_id)
            .subquery()
        )
    # The club's own members only: said outright, the database reads the club's few members by
    # their index instead of every club's (which it would hash to join the sums).
    query = (
        select(Member.id, Member.name, *list(sums.c)[1:])
        .join(sums, sums.c.member_id == Member.id)
        .where(Member.club_id == club.id)
    )
    scope = rating_scope(filters)
    if scope is None:
        rows = [Standing(*row) for row in db.session.execute(query)]
    else:
        # Each member's kept rating joined in the same query (`kept.ratings_of`'s rows, read by
        # their index): no second pass over a thousand lines to pair them.
        rated = (Rating.club_id == club.id, Rating.scope == scope, Rating.member_id == Member.id)
        query = query.add_columns(Rating.mu, Rating.sigma, Rating.games)
        rows = [_rated(row) for row in db.session.execute(query.outerjoin(Rating, and_(*rated)))]
    wins = night_results.night_wins(nights(club, replace(filters, member_id=None)))
    if wins:
        rows = [replace(r, night_wins=wins[r.member_id]) for r in rows]
    return rank(rows, sort_of(club, filters, sort), club.min_games_ranked)


def _rated(row: Any) -> Standing:
    """A line from the standings' row and its kept rating (none rated the member: none, 0)."""
    *figures, mu, sigma, games = row
    if mu is None:
        return Standing(*figures)
    skill = model.Skill(mu, sigma)
    return Standing(
        *figures, rating=model.shown(skill), rated_games=games, rating_exact=skill.ordinal
    )


def _summed(model: Any, name: str) -> Any:
    """A figure of member_result summed (a win, a boolean there, counted as 1)."""
    column = getattr(model, name)
    return func.sum(case((column, 1), else_=0)) if name == "won" else func.sum(column)


def rank(rows: Sequence[Standing], sort: str, min_games: int) -> list[Standing]:
    """Sort by a figure, best first; equal figures share a rank; too few games, no rank."""
    key = SORTS.get(sort, SORTS[DEFAULT_SORT])[1]
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
    """A copy of the line with its rank (the caller's line is left as it was)."""
    return Standing(**{**row.__dict__, "rank": place})


# How many members not yet ranked the line above the standings names; past one more than that,
# it names this many and counts the rest ("and 5 more").
UNRANKED_NAMED = 3


@dataclass(frozen=True)
class Unranked:
    """Who is not yet ranked, for the line stated above the standings (its words: the page's)."""

    needed: int  # games a member needs to be ranked: the club's threshold
    ranked: int  # members ranked
    named: tuple[Standing, ...]  # the unranked to name, most games first
    more: int  # the unranked left unnamed


def unranked(club: Club, rows: Sequence[Standing]) -> Unranked:
    """The club's threshold, and who the ranked rows (`rank`) left out, the nearest first."""
    waiting = sorted(
        (r for r in rows if r.rank is None), key=lambda r: (-r.games, r.player.casefold())
    )
    named = waiting if len(waiting) <= UNRANKED_NAMED + 1 else waiting[:UNRANKED_NAMED]
    return Unranked(
        club.min_games_ranked, len(rows) - len(waiting), tuple(named), len(waiting) - len(named)
    )


# --- history -----------------------------------------------------------------------------


def history(club: Club, filters: Filters, page: int = 1) -> tuple[list[Game], bool]:
    """Finished games, newest first, a page at a time; and whether there are more."""
    query = (
        club_games(club, filters)
        .order_by(Game.played_on.desc(), Game.id.desc())
        .offset((max(page, 1) - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE + 1)
        .options(selectinload(Game.sides).selectinload(Side.players))
    )
    games = list(db.session.execute(query).scalars())
    return games[:PAGE_SIZE], len(games) > PAGE_SIZE


def nights(club: Club, filters: Filters) -> list[NightResult]:
    """The club's finished nights within the filters' dates and rules (and the member's, if
    one is chosen), newest first, each with its standings; a fixed few queries in all."""
    conditions = within(filters, Night.played_on, Night.ruleset, Night.saved_rules_id)
    if filters.member_id is not None:
        # Asked of each of the club's nights by its players' index (night_id), not of every
        # club's players.
        player = aliased(NightPlayer)  # the nights' own players are read beside it
        there = player.night_id == Night.id, player.member_id == filters.member_id
        conditions.append(exists().where(*there).correlate(Night))
    return [n for n in night_results.nights_within(club.id, conditions) if n.done and n.ranked]


def night_history(club: Club, filters: Filters, page: int = 1) -> tuple[list[NightResult], bool]:
    """The finished nights, newest first, a page at a time as the games are; and whether there
    are more."""
    found = nights(club, filters)
    start = (max(page, 1) - 1) * PAGE_SIZE
    return found[start : start + PAGE_SIZE], len(found) > start + PAGE_SIZE


@dataclass(frozen=True)
class MemberNight:
    """One finished night a member played: the night, and their line of its standings."""

    night: NightResult
    line: NightStanding  # their rank (of those who played a game), points, games, wins

    @property
    def of(self) -> int:
        """How many players the night ranked."""
        return len(self.night.ranked)


def nights_of(target: Member, filters: Filters) -> list[MemberNight]:
    """The finished nights within the filters at which a member played a game, newest first."""
    mine = replace(filters, member_id=target.id)
    lines = ((n, n.line_of(target.id)) for n in nights(target.club, mine))
    return [MemberNight(n, line) for n, line in lines if line is not None and line.rank]


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
    secret: str  # the game's private link
    played_on: date
    ruleset: str
    side: str
    total: int
    won: bool
    rules_name: str | None = None  # the club's saved rule set it started from, if any

    @property
    def rules(self) -> str:
        """The game's rules as the club calls them: "Thursday rules", or the preset's name."""
        return rules_called(self.rules_name, self.ruleset)


def results_of(target: Member, filters: Filters, limit: int = 200) -> list[Result]:
    """A member's finished games, oldest first (for a chart), within the filters."""
    query = (
        select(
            MemberResult.game_id,
            Game.secret,
            MemberResult.played_on,
            MemberResult.ruleset,
            Side.name,
            MemberResult.final_total,
            MemberResult.won,
            Game.rules_name,
        )
        .join(Side, MemberResult.side_id == Side.id)
        .join(Game, MemberResult.game_id == Game.id)
        .where(
            MemberResult.member_id == target.id,
            *within(
                filters, MemberResult.played_on, MemberResult.ruleset, MemberResult.saved_rules_id
            ),
            *at_a_night(filters, MemberResult.game_id),
        )
        .order_by(MemberResult.played_on.desc(), MemberResult.game_id.desc())
        .limit(limit)
    )
    return [Result(*row) for row in reversed(db.session.execute(query).all())]


def ruleset_choices(club: Club | None = None) -> list[tuple[str, str]]:
    """(value, name) of every preset, then of the club's saved rule sets ("saved:<id>")."""
    presets = [(r.key, r.name) for r in PRESETS.values()]
    if club is None:
        return presets
    return presets + [
        (f"{SAVED}{s.id}", f"{s.name} ({PRESETS[s.ruleset].name})") for s in club.saved_rules
    ]


# A filter's value that names a saved rule set: "saved:12".
SAVED = "saved:"


def chosen_rules(club: Club, value: str | None) -> tuple[str | None, int | None]:
    """A filter's rule-set value as (preset key, saved rule set id); (None, None) if unknown."""
    known = dict(ruleset_choices(club))
    if not value or value not in known:
        return None, None
    if value.startswith(SAVED):
        return None, int(value.removeprefix(SAVED))
    return value, None
