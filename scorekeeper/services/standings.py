"""Standings and history: which finished games count, members ranked, games listed.

Standings are summed by the database from the figures kept beside the deals (`figures.py`);
each member's rating is joined in as kept within the filters' scope (`ratings/kept.py`), never
computed for a request.

Its parts: which games count (`standings_filters.py`) and how members rank
(`standings_ranking.py`); here, the database's queries: the standings summed, the games and
nights listed, a member's results.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from sqlalchemy import and_, case, exists, func, select
from sqlalchemy.orm import aliased, selectinload

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
    Rating,
    Side,
)
from scorekeeper.services import clubs
from scorekeeper.services.games.words import rules_called
from scorekeeper.services.nights import results as night_results
from scorekeeper.services.nights.board import Standing as NightStanding
from scorekeeper.services.nights.results import NightResult
from scorekeeper.services.ratings import model

# What the rest of the app reads here is at home in the parts named above (`x as x`).
from scorekeeper.services.standings_filters import SAVED as SAVED
from scorekeeper.services.standings_filters import Filters as Filters
from scorekeeper.services.standings_filters import at_a_night as at_a_night
from scorekeeper.services.standings_filters import chosen_rules as chosen_rules
from scorekeeper.services.standings_filters import club_games as club_games
from scorekeeper.services.standings_filters import rating_scope as rating_scope
from scorekeeper.services.standings_filters import ruleset_choices as ruleset_choices
from scorekeeper.services.standings_filters import scope_name as scope_name
from scorekeeper.services.standings_filters import within as within
from scorekeeper.services.standings_ranking import DEFAULT_SORT as DEFAULT_SORT
from scorekeeper.services.standings_ranking import NIGHT_WINS_RULE as NIGHT_WINS_RULE
from scorekeeper.services.standings_ranking import PROVISIONAL_LAST as PROVISIONAL_LAST
from scorekeeper.services.standings_ranking import RATING_KEPT_RULE as RATING_KEPT_RULE
from scorekeeper.services.standings_ranking import RATING_RULE as RATING_RULE
from scorekeeper.services.standings_ranking import SORTS as SORTS
from scorekeeper.services.standings_ranking import UNRANKED_NAMED as UNRANKED_NAMED
from scorekeeper.services.standings_ranking import Standing as Standing
from scorekeeper.services.standings_ranking import Unranked as Unranked
from scorekeeper.services.standings_ranking import rank as rank
from scorekeeper.services.standings_ranking import rating_rule as rating_rule
from scorekeeper.services.standings_ranking import sort_of as sort_of
from scorekeeper.services.standings_ranking import unranked as unranked

PAGE_SIZE = 50


def this_season(club: Club, today: date, **chosen: Any) -> Filters:
    """The filters meant where no season or dates are asked: this season
    (`clubs.current_season`), or every game before the club has a season. The standings, a
    member's page and the API's members and standings all start from here, so they show the
    same scope of ratings."""
    return Filters.for_season(clubs.current_season(club, today), **chosen)


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
        query = query.add_columns(Rating.mu, Rating.sigma, Rating.games, Rating.partners)
        rows = [_rated(row) for row in db.session.execute(query.outerjoin(Rating, and_(*rated)))]
    wins = night_results.night_wins(nights(club, replace(filters, member_id=None)))
    if wins:
        rows = [replace(r, night_wins=wins[r.member_id]) for r in rows]
    return rank(rows, sort_of(club, filters, sort), club.min_games_ranked)


def _rated(row: Any) -> Standing:
    """A line from the standings' row and its kept rating (none rated the member: none, 0)."""
    *figures, mu, sigma, games, partners = row
    if mu is None:
        return Standing(*figures)
    skill = model.Skill(mu, sigma)
    return Standing(
        *figures,
        rating=model.shown(skill),
        rated_games=games,
        rating_exact=skill.ordinal,
        rating_mu=mu,
        rating_sigma=sigma,
        rating_partners=partners,
    )


def _summed(model: Any, name: str) -> Any:
    """A figure of member_result summed (a win, a boolean there, counted as 1)."""
    column = getattr(model, name)
    return func.sum(case((column, 1), else_=0)) if name == "won" else func.sum(column)


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
