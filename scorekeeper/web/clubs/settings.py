"""A club's settings (organisers only): name, visibility, ranking threshold, the standings'
order when none is asked, whether the table link may run club nights, the table link and who
else runs the club. The table link's QR code, table card and replacing it: table_card.py."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for

from scorekeeper.plumbing.models import Club
from scorekeeper.services import clubs, locking
from scorekeeper.web.access import Level
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.clubs import bp
from scorekeeper.web.clubs.forms import NameForm, SettingsForm
from scorekeeper.web.errors import refilled_when_expired
from scorekeeper.web.sharing import table_invitation


@bp.route("/<slug>/settings", methods=["GET", "POST"])
@refilled_when_expired
def settings(slug: str):
    """Name, visibility, ranking threshold, standings' order, the table link and organisers."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    form = settings_form(club)
    if form.validate_on_submit():
        try:
            clubs.update_settings(
                club,
                name=form.name.data,
                public=form.public.data,
                min_games=form.min_games.data,
                tables_run_nights=form.tables_run_nights.data,
                self_check_in=form.self_check_in.data,
                standings_sort=form.standings_sort.data,
                lock_after_hours=form.lock_after_hours.data,
            )
        except clubs.SortRefused as exc:
            form.standings_sort.errors.append(str(exc))
        except clubs.ClubRefused as exc:
            form.name.errors.append(str(exc))
        else:
            flash("Settings saved.")
            return redirect(url_for(".settings", slug=slug))
    return render_template(
        "clubs/settings.html",
        club=club,
        form=form,
        invite=table_invitation(club),
        organiser_form=NameForm(prefix="organiser"),
        lock_rule=locking.rule_words(club.lock_after_hours),
    ), 422 if form.errors else 200


def settings_form(club: Club) -> SettingsForm:
    """The settings form: the club's own on a GET, what was sent on a POST."""
    if request.method != "GET":
        return SettingsForm()
    current = {
        "name": club.name,
        "public": club.standings_public,
        "min_games": club.min_games_ranked,
        "tables_run_nights": club.tables_run_nights,
        "self_check_in": club.self_check_in,
        "standings_sort": club.standings_sort,
        "lock_after_hours": club.lock_after_hours,
    }
    return SettingsForm(data=current)


@bp.post("/<slug>/settings/organisers")
def add_organiser(slug: str):
    """Let another account run the club."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    form = NameForm(prefix="organiser")
    if form.validate_on_submit():
        try:
            added = clubs.add_organiser(club, form.name.data)
        except clubs.ClubRefused as exc:
            flash(str(exc), "error")
        else:
            flash(f"{added.username} can now run {club.name}.")
    return redirect(url_for(".settings", slug=slug))
