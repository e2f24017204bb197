"""Which finished games the standings count: the filters (dates, a season, a preset or a saved
rule set, a member, the nights' games only) and the conditions they make, for the standings'
queries (`standings.py`) and the records (`records.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import exists, select
from sqlalchemy.sql.elements import ColumnElement

from scorekeeper.plumbing.models import Club, Game, NightTable, Player, Season, Side
from scorekeeper.rules import PRESETS
from scorekeeper.services.ratings import kept


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
        # The member's games found once, by the players' member index: asked game by game
        # (EXISTS), SQLite read the member's every player again for each of 10,000 games (12 s).
        played = (
            select(Side.game_id)
            .join(Player, Player.side_id == Side.id)
            .where(Player.member_id == filters.member_id)
        )
        query = query.where(Game.id.in_(played))
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


def scope_name(club: Club, scope: str) -> str:
    """A kept scope of ratings as a reader names it: "All seasons", "Spring 2026", a rule set."""
    if scope.startswith(kept.SEASON):
        found = [s.name for s in club.seasons if kept.season_scope(s) == scope]
        return found[0] if found else scope
    if scope.startswith(kept.RULES) and scope.removeprefix(kept.RULES) in PRESETS:
        return PRESETS[scope.removeprefix(kept.RULES)].name
    if scope.startswith(kept.SAVED):
        found = [s.name for s in club.saved_rules if f"{kept.SAVED}{s.id}" == scope]
        return found[0] if found else scope
    return "All seasons"


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
