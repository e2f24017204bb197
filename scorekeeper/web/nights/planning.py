"""Seat tonight's tables (issue 29): the organiser's plan of a club night, nothing saved."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import render_template, request

from scorekeeper.plumbing.models import Club
from scorekeeper.services import room_words
from scorekeeper.services.nights import planning
from scorekeeper.web.access import Level
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.forms import SMALL_NUMBER
from scorekeeper.web.nights import bp
from scorekeeper.web.nights.forms import NightPlanForm


@bp.get("/clubs/<slug>/nights/plan")
def night_plan(slug: str):
    """The members to tick, the tables and rounds; sent, tonight's seating below (or 422 with
    why not). A GET form: the same day and draw show the same plan on a reload."""
    club, level = club_or_404(slug, Level.ORGANISER)
    today = datetime.now(UTC).date()
    choices = planning.shape_choices(club)
    form = _form(club, choices)
    raw_draw = request.args.get("draw", "0")
    draw = int(raw_draw) if SMALL_NUMBER.fullmatch(raw_draw) else 0
    outcome = None
    sent = "seat" in request.args or "draw" in request.args
    if sent and form.validate():
        outcome = planning.plan_for_tonight(
            club,
            form.members.data or [],
            form.guests.data or "",
            form.shape.data or "",
            form.rounds.data or 0,
            planning.seed_for(club, today, draw),
            today,
        )
        for field, message in getattr(outcome, "problems", ()):
            form[field].errors.append(message)
    plan = outcome if isinstance(outcome, planning.NightPlan) else None
    room = room_words.plan_words(plan) if plan else ""
    page = render_template(
        "clubs/night_plan.html",
        club=club,
        form=form,
        plan=plan,
        choices=choices,
        draw=draw,
        room=room,
    )
    return page, 422 if sent and plan is None else 200


def _form(club: Club, choices: planning.ShapeChoices) -> NightPlanForm:
    """The form from the query string, its choices the club's, the shape its rules' own."""
    form = NightPlanForm(request.args, shape=choices.default, rounds=planning.DEFAULT_ROUNDS)
    form.members.choices = [(m.id, m.name) for m in club.members if not m.archived]
    form.shape.choices = list(choices.offered)
    return form
