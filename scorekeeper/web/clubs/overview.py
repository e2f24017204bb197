"""The clubs you run, a new club, a club's table link and its front page."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_login import login_required

from scorekeeper.services import clubs, creations
from scorekeeper.services import standings as club_standings
from scorekeeper.services.nights import tonight as night_tonight
from scorekeeper.web.access import (
    MY_TABLES_KEPT,
    Level,
    code_matches,
    counted_address,
    holds_table_link,
    my_games,
    organiser,
    remember_table,
)
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.clubs import bp
from scorekeeper.web.clubs.filters import filters
from scorekeeper.web.clubs.forms import ClubForm
from scorekeeper.web.creating import too_many
from scorekeeper.web.errors import refilled_when_expired
from scorekeeper.web.forms import ActionForm


@bp.get("")
def index():
    """The clubs you run, and a way to start one."""
    mine = organiser().clubs if organiser() else []
    return render_template("clubs/index.html", clubs=mine)


@bp.route("/new", methods=["GET", "POST"])
@refilled_when_expired
@login_required
def new():
    """Create a club; you become its organiser."""
    form = ClubForm()
    if form.validate_on_submit():
        try:
            club = clubs.create_club(
                form.name.data,
                form.slug.data,
                organiser(),
                public=form.public.data,
                made_from=counted_address(),
            )
        except creations.OverAllowance as over:
            return too_many(over.too_many)
        except clubs.ClubRefused as exc:
            form.slug.errors.append(str(exc))
            if isinstance(exc, clubs.SlugTaken) and exc.free:
                form.slug.data = exc.free  # one tap on Create takes it
        else:
            flash(f"{club.name} is ready. Add your members, then share the table link.")
            return redirect(url_for(".members", slug=club.slug))
    return render_template("clubs/new.html", form=form), 422 if form.errors else 200


@bp.route("/<slug>/table/<code>", methods=["GET", "POST"])
def table_link(slug: str, code: str):
    """The table link: whoever holds it may start games and enter deals.

    Opening it (GET) only shows a button; the phone keeps the link when the button is tapped
    (a POST, with its CSRF token). A GET changes nothing: another site's `<img>` or link could
    otherwise fill a visitor's session with clubs of its choosing (issue 26).
    """
    club = clubs.club_by_slug(slug)
    if club is None or not code_matches(club, code):
        abort(404)
    if request.method == "GET" and holds_table_link(club):
        # Scanned again at the next club night: the phone keeps it already, straight on.
        return redirect(url_for(".overview", slug=slug))
    form = ActionForm()
    # A night in progress comes first: the table link's page leads to it (issue 37).
    tonight = night_tonight.tonight(club.id)
    if form.validate_on_submit():
        remember_table(club)
        flash(f"This phone can now start games and enter deals for {club.name}.")
        if request.form.get("then") == "night" and tonight is not None:
            return redirect(url_for("nights.night", slug=slug, night_id=tonight.night_id))
        if request.form.get("then") == "start":
            return redirect(url_for("games.new_club_game", slug=slug))
        return redirect(url_for(".overview", slug=slug))
    status = 422 if request.method == "POST" else 200
    return render_template(
        "clubs/table_link.html",
        club=club,
        form=form,
        tables_kept=MY_TABLES_KEPT,
        default=clubs.default_rules(club),
        tonight=tonight,
    ), status


@bp.get("/<slug>")
def overview(slug: str):
    """The club at a glance: games in progress, this season's leaders, recent games."""
    club, level = club_or_404(slug)
    form, chosen = filters(club)
    # The leaders in the club's own order (its settings), as the standings page without ?sort=.
    sort = club_standings.sort_of(club, chosen)
    ranked = club_standings.standings(club, chosen, sort)
    recent, _ = club_standings.history(club, club_standings.Filters())
    playing = club_standings.in_progress(club) if level >= Level.TABLE else []
    tonight, places, outside = _night_first(club, level, playing)
    return render_template(
        "clubs/overview.html",
        club=club,
        level=level,
        Level=Level,
        leaders=ranked[:5],
        sort=sort,
        sorts=club_standings.SORTS,
        unranked=club_standings.unranked(club, ranked),
        recent=recent[:5],
        playing=playing,
        filters=chosen,
        tonight=tonight,
        places=places,
        outside=outside,
    )


def _night_first(club, level: Level, playing: list) -> tuple:
    """The club's night in progress (with this phone's table in it), each game in progress
    that is a night's table (round, table), and whether a game started here is to be worded
    as outside the night: while a night plays, or on a phone whose last game was a night's."""
    if level < Level.TABLE:
        return None, {}, False
    mine = my_games()
    last = mine[0] if mine and mine[0].club_id == club.id else None
    tonight = night_tonight.tonight(club.id, [g.secret for g in mine])
    places = night_tonight.places_of([g.id for g in playing] + ([last.id] if last else []))
    return tonight, places, tonight is not None or (last is not None and last.id in places)
