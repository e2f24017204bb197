"""A club's members: the list, one member's page, and archiving, merging or deleting one."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from markupsafe import Markup

from scorekeeper.plumbing.models import Club, Member
from scorekeeper.services import clubs
from scorekeeper.services import standings as club_standings
from scorekeeper.web import svg_charts
from scorekeeper.web.access import Level, require
from scorekeeper.web.clubs import bp, club_or_404
from scorekeeper.web.clubs.filters import filters
from scorekeeper.web.clubs.forms import MergeForm, NameForm
from scorekeeper.web.errors import refilled_when_expired
from scorekeeper.web.forms import ActionForm

CHANGES = ("archive", "restore", "merge", "delete")


@bp.route("/<slug>/members", methods=["GET", "POST"])
@refilled_when_expired
def members(slug: str):
    """The member list; organisers add members here."""
    club, level = club_or_404(slug)
    form = NameForm()
    if request.method == "POST":
        require(club, Level.ORGANISER)
        if form.validate_on_submit():
            try:
                added = clubs.add_member(club, form.name.data)
            except clubs.ClubRefused as exc:
                form.name.errors.append(str(exc))
            else:
                flash(f"{added.name} added.")
                return redirect(url_for(".members", slug=slug))
    return render_template(
        "clubs/members.html",
        club=club,
        level=level,
        Level=Level,
        form=form,
        action=ActionForm(),
    ), 422 if form.errors else 200


@bp.get("/<slug>/members/<int:member_id>")
def member(slug: str, member_id: int):
    """A member's figures, form and results over the season."""
    club, level = club_or_404(slug)
    target = clubs.member(club, member_id)
    if target is None:
        abort(404)
    form, chosen = filters(club)
    results = club_standings.results_of(target, chosen)
    rows = club_standings.standings(club, chosen)
    figures = next((r for r in rows if r.member_id == target.id), None)
    chart, table = score_chart(target, results)
    return render_template(
        "clubs/member.html",
        club=club,
        level=level,
        Level=Level,
        member=target,
        form=form,
        filters=chosen,
        results=results,
        figures=figures,
        chart=chart,
        table=table,
        played=clubs.games_of_member(target),
        action=ActionForm(),
        merge=merge_form(club, target),
    )


def score_chart(target: Member, results: list[club_standings.Result]) -> tuple[Markup, Markup]:
    """The member's final score in each game: a bar chart (wins marked) and its table."""
    title = f"{target.name}: final score in each game"
    labels = [r.played_on.strftime("%d %b") for r in results]
    totals = [r.total for r in results]
    chart = svg_charts.bar_chart(title, labels, totals, highlight=[r.won for r in results])
    table = svg_charts.chart_table(title, labels, [svg_charts.Series("Final score", totals)])
    return Markup(chart), Markup(table)


def merge_form(club: Club, target: Member) -> MergeForm:
    """The form that folds the member into another of the club's members."""
    form = MergeForm()
    form.into.choices = [(m.id, m.name) for m in club.members if m.id != target.id]
    return form


@bp.post("/<slug>/members/<int:member_id>/<change>")
def change_member(slug: str, member_id: int, change: str):
    """Archive, restore, merge or delete a member (organisers only)."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    target = clubs.member(club, member_id)
    if target is None or change not in CHANGES:
        abort(404)
    form = merge_form(club, target) if change == "merge" else ActionForm()
    if not form.validate_on_submit():
        flash("That did not go through: reload the page and try again.", "error")
        return redirect(url_for(".member", slug=slug, member_id=member_id))
    try:
        if change == "delete":
            name = target.name
            clubs.delete_member(target)
            flash(f"{name} removed.")
            return redirect(url_for(".members", slug=slug))
        if change == "merge":
            into = clubs.member(club, form.into.data)
            clubs.merge_members(target, into)
            flash(f"Merged into {into.name}: their games are now one record.")
            return redirect(url_for(".member", slug=slug, member_id=into.id))
        clubs.set_archived(target, change == "archive")
        flash(f"{target.name} {'archived' if change == 'archive' else 'restored'}.")
    except clubs.ClubRefused as exc:
        flash(str(exc), "error")
    return redirect(url_for(".member", slug=slug, member_id=member_id))
