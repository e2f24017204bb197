"""A club's standings and its finished games."""

from __future__ import annotations

from flask import render_template, request

from scorekeeper.services import standings as club_standings
from scorekeeper.services.ratings import reading as ratings
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.clubs import bp
from scorekeeper.web.clubs.filters import filters
from scorekeeper.web.forms import SMALL_NUMBER


@bp.get("/<slug>/standings")
def standings(slug: str):
    """The standings, sortable, for a season, a date range or a rule set."""
    club, level = club_or_404(slug)
    form, chosen = filters(club)
    # No sort asked (or an unknown one): the club's own choice, from its settings.
    sort = club_standings.sort_of(club, chosen, request.args.get("sort"))
    rows = club_standings.standings(club, chosen, sort)
    scope = club_standings.rating_scope(chosen)
    return render_template(
        "clubs/standings.html",
        club=club,
        level=level,
        form=form,
        rows=rows,
        unranked=club_standings.unranked(club, rows),
        sort=sort,
        sorts=club_standings.SORTS,
        rated=scope is not None,
        rating_rule=club_standings.rating_rule(
            club_standings.scope_name(club, scope) if scope is not None else None,
            partnered=any(r.always_partnered for r in rows),
        ),
        provisional_last=club_standings.PROVISIONAL_LAST if sort == "rating" else None,
        rating_kept_rule=club_standings.RATING_KEPT_RULE,
        ratings_updating=ratings.updating_words(club.id),
        night_wins_rule=club_standings.NIGHT_WINS_RULE,
        night_column=chosen.at_nights or any(r.night_wins for r in rows),
        filters=chosen,
        args={k: v for k, v in request.args.items() if k != "sort"},
    )


@bp.get("/<slug>/games")
def history(slug: str):
    """Finished nights and games, filterable by season, player, rule set and nights."""
    club, level = club_or_404(slug)
    form, chosen = filters(club)
    raw_page = request.args.get("page", "1")
    page = int(raw_page) if SMALL_NUMBER.fullmatch(raw_page) and int(raw_page) > 0 else 1
    games, more = club_standings.history(club, chosen, page)
    nights, more_nights = club_standings.night_history(club, chosen, page)
    return render_template(
        "clubs/history.html",
        club=club,
        level=level,
        form=form,
        games=games,
        nights=nights,
        page=page,
        more=more or more_nights,
        filters=chosen,
        args={k: v for k, v in request.args.items() if k != "page"},
    )
