"""A club's seasons: the stretches of its calendar that standings and history count by."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for

from scorekeeper.services import clubs
from scorekeeper.web.access import Level, require
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.clubs import bp
from scorekeeper.web.clubs.forms import SeasonForm
from scorekeeper.web.errors import refilled_when_expired


@bp.route("/<slug>/seasons", methods=["GET", "POST"])
@refilled_when_expired
def seasons(slug: str):
    """The club's seasons; organisers add them."""
    club, level = club_or_404(slug)
    form = SeasonForm()
    if request.method == "POST":
        require(club, Level.ORGANISER)
        if form.validate_on_submit():
            try:
                added = clubs.add_season(
                    club, form.name.data, form.starts_on.data, form.ends_on.data
                )
            except clubs.ClubRefused as exc:
                form.ends_on.errors.append(str(exc))
            else:
                flash(f"Season {added.name} added.")
                return redirect(url_for(".seasons", slug=slug))
    return render_template(
        "clubs/seasons.html", club=club, level=level, Level=Level, form=form
    ), 422 if form.errors else 200
