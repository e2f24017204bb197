"""A club's own rule sets (saved rules): the list, a new one, changing, deleting, the club's
default, and each one's rule card."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for

from scorekeeper import rules as engine
from scorekeeper.plumbing.models import Club, SavedRules
from scorekeeper.rules.terms import PLAYER_COUNTS
from scorekeeper.services import clubs, games
from scorekeeper.web.access import Level
from scorekeeper.web.club_pages import club_or_404
from scorekeeper.web.clubs import bp
from scorekeeper.web.clubs.forms import (
    DefaultRulesForm,
    SavedRulesForm,
    saved_rules_form,
)
from scorekeeper.web.errors import refilled_when_expired
from scorekeeper.web.forms import SMALL_NUMBER, ActionForm, house_rules_of, knob_field

# Why a choice of default was not made; the list is shown again with the choices as they are.
EXPIRED = "The default was not changed: the page had expired. Choose again."
NOT_SAVED = "The default was not changed: that is not one of the club's rule sets now."


def saved_or_404(club: Club, rules_id: int) -> SavedRules:
    """One of the club's saved rule sets, or 404."""
    saved = clubs.saved_rules(club, rules_id)
    if saved is None:
        abort(404)
    return saved


@bp.get("/<slug>/rule-sets")
def rule_sets(slug: str):
    """The club's own rule sets: what each changes from its preset, the default, games played."""
    club, level = club_or_404(slug)
    return _rule_sets_page(club, level, [])


def _rule_sets_page(club: Club, level: Level, problems: list[str]):
    """The list of rule sets, with what a refused choice of default was refused for (422)."""
    return render_template(
        "clubs/rule_sets.html",
        club=club,
        level=level,
        Level=Level,
        changed={s.id: games.changed_rules(s) for s in club.saved_rules},
        played=clubs.games_by_saved_rules(club),
        presets=engine.PRESETS,
        action=ActionForm(),
        problems=problems,
    ), 422 if problems else 200


@bp.route("/<slug>/rule-sets/new", methods=["GET", "POST"])
@refilled_when_expired
def new_rule_set(slug: str):
    """Save a rule set: choose its preset, then name it and change any number."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    key = request.args.get("ruleset", "")
    if key not in engine.PRESETS:
        return render_template("clubs/rule_set_presets.html", club=club, presets=engine.PRESETS)
    preset = engine.PRESETS[key]
    form = saved_rules_form(preset, preset, request.form if request.method == "POST" else None)
    problems: list[str] = []
    if form.validate_on_submit():
        try:
            overrides = house_rules_of(form, preset)
            saved = clubs.create_saved_rules(club, form.name.data, key, overrides)
        except clubs.ClubRefused as exc:
            problems = _place_rules(form, exc)
        else:
            flash(f"{saved.name} saved: start a game with it from the club's page.")
            return redirect(url_for(".rule_sets", slug=slug))
    return _rule_set_form(club, form, preset, None, problems)


@bp.route("/<slug>/rule-sets/<int:rules_id>/edit", methods=["GET", "POST"])
@refilled_when_expired
def edit_rule_set(slug: str, rules_id: int):
    """Rename a saved rule set or change its numbers; games already started keep theirs."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    saved = saved_or_404(club, rules_id)
    preset = engine.PRESETS[saved.ruleset]
    form = saved_rules_form(
        preset, games.rules_of_saved(saved), request.form if request.method == "POST" else None
    )
    if request.method == "GET":
        form.name.data = saved.name
    problems: list[str] = []
    if form.validate_on_submit():
        try:
            clubs.update_saved_rules(saved, form.name.data, house_rules_of(form, preset))
        except clubs.ClubRefused as exc:
            problems = _place_rules(form, exc)
        else:
            flash(f"{saved.name} saved. Games already started keep the rules they started with.")
            return redirect(url_for(".rule_sets", slug=slug))
    return _rule_set_form(club, form, preset, saved, problems)


def _rule_set_form(
    club: Club, form: SavedRulesForm, preset, saved: SavedRules | None, problems: list[str]
):
    """The new or edit page of a saved rule set (422 once something was refused)."""
    status = 422 if request.method == "POST" else 200
    return render_template(
        "clubs/rule_set_form.html",
        club=club,
        form=form,
        preset=preset,
        saved=saved,
        problems=problems,
        knobs=engine.knobs(preset),
        knob_field=knob_field,
    ), status


def _place_rules(form: SavedRulesForm, refused: clubs.ClubRefused) -> list[str]:
    """Each refusal beside the number it names; the rest (and the name's) for the whole form."""
    if not isinstance(refused, clubs.RulesRefused):
        form.name.errors.append(str(refused))
        return []
    general = []
    for rule, message in refused.problems:
        field = form._fields.get(knob_field(rule)) if rule else None
        if field is not None:
            field.errors.append(message)
        else:
            general.append(message)
    return general


@bp.route("/<slug>/rule-sets/<int:rules_id>/delete", methods=["GET", "POST"])
@refilled_when_expired
def delete_rule_set(slug: str, rules_id: int):
    """Delete a saved rule set, once confirmed; its games keep their rules and its name."""
    club, _ = club_or_404(slug, Level.ORGANISER)
    saved = saved_or_404(club, rules_id)
    form = ActionForm()
    if form.validate_on_submit():
        name = saved.name
        clubs.delete_saved_rules(saved)
        flash(f"{name} deleted. Games played with it keep their rules and its name.")
        return redirect(url_for(".rule_sets", slug=slug))
    played = clubs.games_by_saved_rules(club).get(saved.id, 0)
    status = 422 if request.method == "POST" else 200
    return render_template(
        "clubs/rule_set_delete.html", club=club, saved=saved, played=played, action=form
    ), status


@bp.post("/<slug>/rule-sets/default")
@refilled_when_expired
def default_rule_set(slug: str):
    """Make one saved rule set the club's default, or have none."""
    club, level = club_or_404(slug, Level.ORGANISER)
    form = DefaultRulesForm()
    if not form.validate_on_submit():
        # An expired token (a phone left asleep) or a choice no button sends: the list again.
        return _rule_sets_page(club, level, [EXPIRED if "csrf_token" in form.errors else NOT_SAVED])
    chosen = form.saved.data
    saved = None
    if chosen != "none":
        saved = clubs.saved_rules(club, int(chosen)) if SMALL_NUMBER.fullmatch(chosen) else None
        if saved is None:
            # Deleted in another tab, say: the page as it is now, with every choice still there.
            return _rule_sets_page(club, level, [NOT_SAVED])
    clubs.make_default(club, saved)
    if saved is None:
        flash("No default: club games start by choosing their rules.")
    else:
        flash(f"{saved.name} is the default: club games start from it.")
    return redirect(url_for(".rule_sets", slug=slug))


@bp.get("/<slug>/rules/<int:rules_id>")
def rule_card(slug: str, rules_id: int):
    """A saved rule set's rule card: every number, and what it changes from its preset."""
    club, _ = club_or_404(slug)
    saved = saved_or_404(club, rules_id)
    return render_template(
        "rule_card.html",
        rules=games.rules_of_saved(saved),
        preset=engine.PRESETS[saved.ruleset],
        players=PLAYER_COUNTS,
        club=club,
        saved=saved,
        changed=games.changed_rules(saved),
    )
