"""A club's nights in one place (issue 37): the hub (the night in progress first, "Open a
night", the past nights) and the new night's form, which leads to a night in progress rather
than opening a second one unasked.

Who sees what is as on the night pages (`night_pages.py`): the hub takes the table link or an
organiser; opening a night takes `services/access.may_run_nights`. Players checking themselves
in from their phone: `night_checkin.py`.
"""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import IntegerField, RadioField
from wtforms.validators import Optional

from scorekeeper.plumbing.models import Club
from scorekeeper.rules import PRESETS
from scorekeeper.rules.nights import MOST_ROUNDS
from scorekeeper.rules.whist import whist_sizes_said
from scorekeeper.services import clubs, games, room_words
from scorekeeper.services.nights import hub as night_hub
from scorekeeper.services.nights import partners as night_partners
from scorekeeper.services.nights import planning
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights import ranking as night_ranking
from scorekeeper.services.nights.length import AS_NEEDED
from scorekeeper.web.access import Level
from scorekeeper.web.errors import refilled_when_expired
from scorekeeper.web.nights import bp
from scorekeeper.web.nights.forms import TonightFields
from scorekeeper.web.nights.pages import _club, _runner

SAVED = "saved-"  # a saved rule set's value among the rules offered: "saved-<id>"


class NightForm(TonightFields, FlaskForm):
    """Tonight's night: who is here, the rules, the tables, rounds, partners, sit-outs."""

    rules = RadioField("Rules", validate_choice=False)
    partners = RadioField("Partners", choices=list(night_play.PARTNERS_MODES.items()))
    sit_out = RadioField("A round sat out", choices=list(night_play.SIT_OUTS.items()))
    # Checked by open_night, which says why in words (the old "average" is kept nights' only).
    ranking = RadioField(
        "How the night ranks", choices=list(night_ranking.OFFERED.items()), validate_choice=False
    )
    # Blank: as the night's schedule needs (services/nights/length.py says what that is).
    rounds = IntegerField(
        "Rounds",
        # Out of range is the use case's to refuse, in words naming the number.
        validators=[Optional()],
        description=f"1 to {MOST_ROUNDS}, or blank",
        render_kw={"inputmode": "numeric", "min": 1, "max": MOST_ROUNDS},
    )


@bp.get("/clubs/<slug>/nights")
def nights_hub(slug: str):
    """The club's nights: the one in progress first, then "Open a night", then the past."""
    club, level = _club(slug, Level.TABLE)
    found = night_hub.nights_of_club(club)
    return render_template(
        "clubs/nights.html",
        club=club,
        level=level,
        going=found.in_progress,
        nights=found.past,
        today=games.now().date(),
    )


@bp.route("/clubs/<slug>/nights/new", methods=["GET", "POST"])
@refilled_when_expired
def night_new(slug: str):
    """The form of a new night; sent, the night kept and its page (or 422 with why not). A
    night in progress is named first: a second one is opened only on purpose."""
    club, _ = _runner(slug)
    form = _night_form(club)
    if form.validate_on_submit():
        try:
            night = night_play.open_night(
                club,
                form.members.data or [],
                form.guests.data or "",
                _rules_asked(club, form.rules.data or ""),
                form.rounds.data,  # None: left blank
                form.partners.data or "",
                form.sit_out.data or "",
                form.shape.data or "",
                ranking=form.ranking.data or "",
            )
        except night_play.NightRefused as refused:
            _place(form, refused.problems)
        else:
            flash(f"Tonight's night is open: {len(night.players)} players. Seat round 1.")
            return redirect(url_for(".night", slug=slug, night_id=night.id))
    status = 422 if request.method == "POST" else 200
    page = render_template(
        "clubs/night_new.html",
        club=club,
        form=form,
        going=night_hub.in_progress(club),
        today=games.now().date(),
        whist_sizes_said=whist_sizes_said(),
        balanced_ruling=night_play.BALANCED_RULING,
        fixed_balanced_ruling=night_partners.FIXED_BALANCED_RULING,
        as_needed=AS_NEEDED,
        # What each count gives under the rules chosen, and what those ticked give (issue 38).
        counts=room_words.form_counts(
            club,
            _rules_asked(club, form.rules.data or ""),
            form.shape.data or "",
            form.members.data or [],
            form.guests.data or "",
        ),
    )
    return page, status


def _night_form(club: Club) -> NightForm:
    form = NightForm(
        shape="", partners="rotating", sit_out="no game", ranking=night_ranking.DEFAULT
    )
    form.members.choices = [(m.id, m.name) for m in club.members if not m.archived]
    saved = [(f"{SAVED}{r.id}", r.name) for r in club.saved_rules]
    form.rules.choices = saved + [(key, p.name) for key, p in PRESETS.items()]
    default = clubs.default_rules(club)
    if request.method == "GET":
        form.rules.data = f"{SAVED}{default.id}" if default else "classic"
    form.shape.choices = [("", "As the rules seat players")] + [
        (key, words) for key, (_, words) in planning.SHAPES.items()
    ]
    return form


def _rules_asked(club: Club, value: str):
    """The saved rule set or preset key the form named (an unknown one is refused by name)."""
    if value.startswith(SAVED) and value[len(SAVED) :].isdigit():
        saved = clubs.saved_rules(club, int(value[len(SAVED) :]))
        return saved if saved is not None else value
    return value


def _place(form: NightForm, problems) -> None:
    for field, words in problems:
        form[field if field in form else "members"].errors.append(words)
