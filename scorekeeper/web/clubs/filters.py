"""Which games a club's standings, history and exports count: from the query string."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import request

from scorekeeper.plumbing.models import Club
from scorekeeper.services import clubs
from scorekeeper.services import standings as club_standings
from scorekeeper.web.clubs.forms import AT_NIGHTS, StandingsFilter
from scorekeeper.web.forms import SMALL_NUMBER


def filters(club: Club) -> tuple[StandingsFilter, club_standings.Filters]:
    """The filter form from the query string, and the filters it means (default: this season)."""
    form = StandingsFilter(request.args)
    form.season.choices = [("", "This season"), ("all", "All seasons")] + [
        (str(s.id), s.name) for s in club.seasons
    ]
    form.ruleset.choices = [("", "Every rule set")] + club_standings.ruleset_choices(club)
    form.validate()
    season = form.season.data or ""
    ruleset, saved_rules_id = club_standings.chosen_rules(club, form.ruleset.data)
    player = request.args.get("player", "")
    member_id = int(player) if SMALL_NUMBER.fullmatch(player) else None
    chosen = {"ruleset": ruleset, "member_id": member_id, "saved_rules_id": saved_rules_id}
    chosen["at_nights"] = form.games.data == AT_NIGHTS and not form.games.errors
    if season == "all" or form.start.data or form.end.data:
        return form, club_standings.Filters(form.start.data, form.end.data, **chosen)
    if SMALL_NUMBER.fullmatch(season):
        return form, club_standings.Filters.for_season(clubs.season(club, int(season)), **chosen)
    # Nothing asked: this season, as the API's standings and members answer it.
    return form, club_standings.this_season(club, datetime.now(UTC).date(), **chosen)
