"""A new game: choose a rule set (or a club's saved one), name the sides, set house rules."""

from __future__ import annotations

from collections.abc import Sequence

from flask import abort, flash, redirect, render_template, request, url_for

from scorekeeper import rules as engine
from scorekeeper.plumbing.models import Club
from scorekeeper.rules import Refusal
from scorekeeper.rules.terms import PARTNERS
from scorekeeper.services import clubs, creations, games
from scorekeeper.services.nights import tonight as night_tonight
from scorekeeper.web.access import Level, counted_address, my_games, remember_game, require
from scorekeeper.web.creating import too_many
from scorekeeper.web.errors import refilled_when_expired
from scorekeeper.web.forms import (
    MAX_SIDES_ON_FORM,
    house_rules_of,
    knob_field,
    most_seats,
    new_game_form,
    rules_from_args,
    seated_from,
    seats,
)
from scorekeeper.web.games import DIGITS, bp


@bp.route("/games/new", methods=["GET", "POST"])
@refilled_when_expired
def new():
    """Choose a rule set, then name the sides; house rules are a tap away."""
    return _new_game(None)


@bp.route("/clubs/<slug>/games/new", methods=["GET", "POST"])
@refilled_when_expired
def new_club_game(slug: str):
    """A club game: players picked from the member list, guests allowed."""
    club = clubs.club_by_slug(slug)
    if club is None:
        abort(404)
    level = require(club, Level.TABLE)
    return _new_game(club, by_table_link=level < Level.ORGANISER)


def _new_game(club: Club | None, *, by_table_link: bool = False):
    saved = _saved_rules_asked(club)
    key = saved.ruleset if saved else request.values.get("ruleset", "")
    if key not in engine.PRESETS:
        return render_template("choose_rules.html", presets=engine.PRESETS.values(), club=club)
    rules = engine.PRESETS[key]
    # A saved rule set, or a link with a table's own numbers, fills the house rules in.
    start_from = games.rules_of_saved(saved) if saved else rules_from_args(rules, request.args)
    members = [m for m in club.members if not m.archived] if club else None
    formdata = request.form if request.method == "POST" else None
    # A club game starts with the players of this phone's last game of the club filled in.
    last = games.last_table(club, [g.secret for g in my_games()]) if club else None
    seated = seated_from(last.sides, rules, members) if last and not formdata else None
    form = new_game_form(rules, formdata, members, start_from, seated)
    problems: list[str] = []
    if form.validate_on_submit():
        rows = [i for i in range(MAX_SIDES_ON_FORM) if _side_row(form, i)]
        overrides = house_rules_of(form, rules)
        try:
            game = games.start_game(
                key,
                [_side_row(form, i) for i in rows],
                form.decks.number,
                overrides,
                club,
                # The game is "Thursday rules" only if its numbers are still the saved ones.
                saved_rules=saved if saved and games.same_rules(saved, key, overrides) else None,
                balance="balance" in form and bool(form.balance.data),
                by_table_link=by_table_link,
                made_from=counted_address(),
            )
        except creations.OverAllowance as over:
            return too_many(over.too_many)
        except games.GameRefused as exc:
            problems = _place_setup(form, rows, exc.refusals)
        else:
            remember_game(game)
            flash(f"Game started: {' v '.join(s.name for s in game.sides)}.")
            return redirect(url_for(".scoreboard", secret=game.secret))
    status = 422 if request.method == "POST" else 200
    return render_template(
        "new_game.html",
        form=form,
        rules=rules,
        saved=saved,
        problems=problems,
        knobs=engine.knobs(rules),
        knob_field=knob_field,
        club=club,
        seats=seats(rules),
        most_seats=most_seats(rules),
        last=last if seated else None,
        **(_outside_the_night(club) if club else {}),
    ), status


def _outside_the_night(club: Club) -> dict:
    """A club game started while the club's night plays, or on a phone whose last game was a
    night's, is said to be outside the night (issue 37): the night seats its own tables."""
    mine = my_games()
    last = mine[0] if mine and mine[0].club_id == club.id else None
    return {
        "tonight": night_tonight.tonight(club.id),
        "last_at_night": last is not None and bool(night_tonight.places_of([last.id])),
    }


def _saved_rules_asked(club: Club | None):
    """The club's saved rule set a new game starts from: the one asked for, else the default.

    `?saved=<id>` asks for one, `?ruleset=<key>` for a preset as it stands, `?choose=1` for the
    list of both; with none of them, a club with a default starts from it, no choice to make.
    """
    if club is None:
        return None
    asked = request.values.get("saved", "")
    if asked:
        saved = clubs.saved_rules(club, int(asked)) if DIGITS.fullmatch(asked) else None
        if saved is None:
            abort(404)
        return saved
    if request.values.get("ruleset") or request.values.get("choose"):
        return None
    return clubs.default_rules(club)


def _side_row(form, index: int) -> games.SideSetup | None:
    name = (form[f"side{index}_name"].data or "").strip()
    listed = form[f"side{index}_players"].data or ""
    # Members picked from the club's list come first, then any guests typed in.
    picked = [
        form[f].data for f in form._fields if f.startswith(f"side{index}_member") and form[f].data
    ]
    players = [n for n in picked] + [p.strip() for p in listed.split(",") if p.strip()]
    if not name and not players:
        return None
    return games.SideSetup(name or PARTNERS.join(players), players or [name])


def _place_setup(form, rows: list[int], refusals: Sequence[Refusal]) -> list[str]:
    """Put each refusal beside its field; return those that belong to the whole form."""
    general = []
    for refusal in refusals:
        if refusal.side is not None and refusal.side < len(rows):
            field = "name" if refusal.field == "name" else "players"
            form[f"side{rows[refusal.side]}_{field}"].errors.append(refusal.message)
            continue
        # A house rule's refusal goes beside its number (the first it names that the form has).
        named = [path.removeprefix("rules.") for _, path in refusal.figures]
        fields = [form._fields.get(knob_field(path)) for path in named if path != "decks"]
        field = next((f for f in fields if f is not None), None)
        if refusal.field == "decks":
            form.decks.errors.append(refusal.message)
        elif field is not None:
            field.errors.append(refusal.message)
        else:
            general.append(refusal.message)
    return general
