"""A club's members: the list (added many at once), one member's page, and renaming,
archiving, merging or deleting one."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from markupsafe import Markup

from scorekeeper.plumbing.models import Club, Member
from scorekeeper.services import clubs
from scorekeeper.services import members as club_members
from scorekeeper.services import standings as club_standings
from scorekeeper.services.ratings import reading as ratings
from scorekeeper.web import charts, svg_charts
from scorekeeper.web.access import Level, require
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.clubs import bp
from scorekeeper.web.clubs.filters import filters
from scorekeeper.web.clubs.forms import MembersForm, MergeForm, NameForm, RenameForm
from scorekeeper.web.errors import refilled_when_expired
from scorekeeper.web.forms import ActionForm

CHANGES = ("archive", "restore", "merge", "delete")


@bp.route("/<slug>/members", methods=["GET", "POST"])
@refilled_when_expired
def members(slug: str):
    """The member list; organisers add members here, a whole list at once.

    A list that names someone like a member (or like another of the list) comes back asking
    (200, nothing saved) until it is sent again confirmed. A lone `name` (the form before the
    list, issue 28) still adds one member.
    """
    club, level = club_or_404(slug)
    form = MembersForm()
    unsure = None
    if request.method == "POST":
        require(club, Level.ORGANISER)
        if "names" not in request.form and "name" in request.form:
            return _add_one(club, form)
        if form.validate_on_submit():
            outcome = club_members.add_members(
                club, form.names.data or "", confirmed=form.confirm.data == "yes"
            )
            if isinstance(outcome, club_members.Added):
                flash(outcome.summary())
                return redirect(url_for(".members", slug=slug, _anchor="member-list"))
            if isinstance(outcome, club_members.Unsure):
                unsure = outcome.listed
            else:
                form.names.errors = list(outcome.problems)
    return _members_page(club, level, form, unsure)


def _add_one(club: Club, form: MembersForm):
    """One member from a lone `name`; refused, the list's field shows it and why."""
    one = NameForm()
    if one.validate_on_submit():
        try:
            added = clubs.add_member(club, one.name.data)
        except clubs.ClubRefused as exc:
            one.name.errors.append(str(exc))
        else:
            flash(f"{added.name} added.")
            return redirect(url_for(".members", slug=club.slug, _anchor="member-list"))
    form.names.data = one.name.data
    form.names.errors = list(one.name.errors)
    if "csrf_token" in one:  # (the tests' app may check none)
        form.csrf_token.errors = list(one.csrf_token.errors)
    return _members_page(club, Level.ORGANISER, form, None)


def _members_page(club: Club, level: Level, form: MembersForm, unsure):
    """The member list, the form with any refusal beside it (422), or the question (200)."""
    return render_template(
        "clubs/members.html",
        club=club,
        level=level,
        Level=Level,
        form=form,
        unsure=unsure,
        alike_rule=club_members.ALIKE_RULE,
        action=ActionForm(),
    ), 422 if form.errors else 200


@bp.get("/<slug>/members/<int:member_id>")
def member(slug: str, member_id: int):
    """A member's figures, form, results and rating over the season."""
    club, level = club_or_404(slug)
    target = clubs.member(club, member_id)
    if target is None:
        abort(404)
    rename = RenameForm(formdata=None, data={"new_name": target.name})
    return _member_page(club, level, target, rename)


@bp.post("/<slug>/members/<int:member_id>/rename")
@refilled_when_expired
def rename_member(slug: str, member_id: int):
    """Rename a member (organisers only): their games say the new name too."""
    club, level = club_or_404(slug, Level.ORGANISER)
    target = clubs.member(club, member_id)
    if target is None:
        abort(404)
    rename = RenameForm()
    if rename.validate_on_submit():
        try:
            old = club_members.rename_member(target, rename.new_name.data or "")
        except clubs.ClubRefused as exc:
            rename.new_name.errors.append(str(exc))
        else:
            flash(f"{old} is now called {target.name}, in every game they played.")
            return redirect(url_for(".member", slug=slug, member_id=member_id))
    return _member_page(club, level, target, rename), 422


def _not_separable(member: Member, scope: str) -> str | None:
    """The words when every rated game in the scope was with one partner, else None."""
    partner = ratings.sole_partner(member, scope)
    return ratings.separable_words(partner) if partner else None


def _member_page(club: Club, level: Level, target: Member, rename: RenameForm):
    """The member's page, the rename form as sent (its refusal beside it) or holding the name."""
    form, chosen = filters(club)
    results = club_standings.results_of(target, chosen)
    rows = club_standings.standings(club, chosen)
    figures = next((r for r in rows if r.member_id == target.id), None)
    chart, table = score_chart(target, results)
    # Ratings are kept for some filters only (all games, a season, one rule set): else none.
    scope = club_standings.rating_scope(chosen)
    course = ratings.course_of(target, scope) if scope is not None else None
    return render_template(
        "clubs/member.html",
        club=club,
        level=level,
        Level=Level,
        member=target,
        form=form,
        filters=chosen,
        results=results,
        nights=club_standings.nights_of(target, chosen),
        figures=figures,
        chart=chart,
        table=table,
        course=course,
        rating_now=svg_charts.fmt(course.shown, 1) if course and course.now else None,
        provisional=ratings.provisional_words(course.now) if course else None,
        not_separable=_not_separable(target, scope) if course and course.now else None,
        rating_scope=ratings.scope_words(club, scope) if scope is not None else None,
        rating_chart=charts.rating_chart(target, course) if course else None,
        ratings_updating=ratings.updating_words(club.id),
        played=clubs.games_of_member(target),
        action=ActionForm(),
        merge=merge_form(club, target),
        rename=rename,
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
