"""A club's standings and saved rule sets."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, NoReturn

from flask import abort, request

from scorekeeper import rules as engine
from scorekeeper.plumbing.models import Club
from scorekeeper.rules import Refusal
from scorekeeper.rules.rounding import ratio
from scorekeeper.services import clubs, games, standings
from scorekeeper.web.access import Level, require
from scorekeeper.web.api.answer_base import answered
from scorekeeper.web.api.club_answers import SavedRules, Standing, separable
from scorekeeper.web.api.club_requests import STANDINGS_GAMES, StandingsQuery
from scorekeeper.web.api.game_requests import ref
from scorekeeper.web.api.modelled import Unfit, query_parameters, read_query
from scorekeeper.web.api.operations import TABLE_CODE, TOO_MANY, answer, errors, route
from scorekeeper.web.api.refusals import stop

NO_CLUB = errors("No club with that slug, or a private club asked without its X-Table-Code")


@route(
    "GET",
    "/clubs/<slug>/standings",
    "getStandings",
    "A club's standings (public clubs, or with the table code)",
    endpoint="standings",
    parameters=(*query_parameters(StandingsQuery), TABLE_CODE),
    answers={
        "200": answer({"type": "array", "items": ref("Standing")}, "Ranked members"),
        "404": NO_CLUB,
        "422": errors(
            "A filter that is not one: no such season, rule set or saved rule set, or a date "
            "not written like 2026-04-30"
        ),
        "429": TOO_MANY,
    },
)
def club_standings(slug: str):
    """A club's standings: `season` (id, or "all"), `from`, `to`, `ruleset`, `games` (all, or
    at nights), `sort` (else the club's own); as the page shows, ratings within the filters."""
    club = _club_to_read(slug)
    chosen = _standings_filters(club)
    scope = standings.rating_scope(chosen)
    named = standings.scope_name(club, scope) if scope is not None else None
    return answered(
        [
            Standing(
                player=row.player,
                games=row.games,
                wins=row.wins,
                night_wins=row.night_wins,
                # Rounded from the exact figures, halves up, as the page and the CSV round.
                win_rate=float(ratio(row.wins, row.games, 4)),
                average_score=float(ratio(row.total_points, row.games, 1)),
                average_per_deal=float(ratio(row.total_points, row.deals, 1)),
                total_points=row.total_points,
                rank=row.rank,
                rating=row.rating,
                rated_games=row.rated_games,
                provisional=row.provisional,
                mu=row.rating_mu,
                sigma=row.rating_sigma,
                rating_scope=scope,
                rating_scope_name=named,
                separable=separable(row.rating_partners) if row.rating is not None else None,
            )
            for row in standings.standings(club, chosen, _query("sort"))
        ]
    )


@route(
    "GET",
    "/clubs/<slug>/rule-sets",
    "listSavedRules",
    "A club's saved rule sets (public clubs, or with the table code)",
    endpoint="rule_sets",
    parameters=(TABLE_CODE,),
    answers={
        "200": answer(
            {"type": "array", "items": ref("SavedRules")}, "The club's saved rule sets, by name"
        ),
        "404": NO_CLUB,
        "429": TOO_MANY,
    },
)
def club_rule_sets(slug: str):
    """A club's saved rule sets, each with the rules in force; as the standings, who may see."""
    club = _club_to_read(slug)
    return answered(
        [
            SavedRules(
                id=saved.id,
                name=saved.name,
                ruleset=saved.ruleset,
                house_rules=saved.house_rules or {},
                default=saved.is_default,
                rules=games.rules_of_saved(saved).to_dict(),
            )
            for saved in club.saved_rules
        ]
    )


def _club_to_read(slug: str) -> Club:
    """The club whose records a request reads: 404 if none, refused as its pages are."""
    club = clubs.club_by_slug(slug)
    if club is None:
        abort(404)
    require(club, Level.READ)
    return club


def _query(name: str) -> Any:
    """A filter of the query string (None if not given); 422 if not written as one."""
    try:
        return read_query(StandingsQuery, request.args).model_dump(by_alias=True)[name]
    except Unfit as exc:
        stop(exc.refusals)


def _standings_filters(club: Club) -> standings.Filters:
    """Filters from the query string; a malformed one is a 422, not a guess."""
    ruleset = _query("ruleset")
    if ruleset is not None and ruleset not in engine.PRESETS:
        _reject("ruleset", f"No rule set '{ruleset}'.")
    saved_rules = _query("saved_rules")
    saved_rules_id = None
    if saved_rules is not None:
        small = re.fullmatch(r"[0-9]{1,9}", saved_rules)
        saved = clubs.saved_rules(club, int(saved_rules)) if small else None
        if saved is None:
            shown = saved_rules if len(saved_rules) <= 20 else saved_rules[:17] + "..."
            _reject("saved_rules", f"No saved rule set '{shown}' in this club.")
        saved_rules_id = saved.id
    games = _query("games")
    if games not in STANDINGS_GAMES:
        shown = games if len(games) <= 20 else games[:17] + "..."
        _reject("games", f"games is 'all' or 'nights', not '{shown}'.")
    chosen = {"ruleset": ruleset, "saved_rules_id": saved_rules_id}
    chosen["at_nights"] = STANDINGS_GAMES[games]
    start, end, season = _query("from"), _query("to"), _query("season")
    if season is not None and season != "all":
        small = re.fullmatch(r"[0-9]{1,9}", season)
        chosen_season = clubs.season(club, int(season)) if small else None
        if chosen_season is None:
            _reject("season", f"No season '{season}' in this club.")
        return standings.Filters.for_season(chosen_season, **chosen)
    if season is None and start is None and end is None:
        return standings.this_season(club, datetime.now(UTC).date(), **chosen)
    return standings.Filters(start, end, **chosen)


def _reject(field: str, message: str) -> NoReturn:
    """Stop with a 422 naming one figure of the query."""
    stop([Refusal(None, field, message)])
