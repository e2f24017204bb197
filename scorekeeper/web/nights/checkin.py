"""Players checking themselves in from their own phone (issue 37), and an organiser's undo.

"I'm here" is posted from a night's page on a phone holding the club's table link, where the
club allows it (`services/nights/checkin.may_check_in`; anyone else is refused as a page above
their level is). Undo is the organisers' (and whoever runs the night: `may_run_nights`).
"""

from __future__ import annotations

from flask import flash, redirect, request, url_for
from flask_wtf import FlaskForm
from wtforms import IntegerField
from wtforms.validators import Optional

from scorekeeper.services.nights import checkin as night_checkin
from scorekeeper.services.nights.play import NightRefused
from scorekeeper.web.access import Level, refuse
from scorekeeper.web.forms import ActionForm
from scorekeeper.web.nights import bp
from scorekeeper.web.nights.pages import (
    EXPIRED,
    _club,
    _night_or_404,
    _night_page,
    _number,
    _runner,
)


class CheckInForm(FlaskForm):
    """The member checking themselves in."""

    member = IntegerField("Your name", validators=[Optional()])


@bp.post("/clubs/<slug>/nights/<int:night_id>/here")
def night_check_in(slug: str, night_id: int):
    """A member says "I'm here" from their phone: seated from the next round; 422 with why not."""
    club, level = _club(slug, Level.TABLE)
    if not night_checkin.may_check_in(club, level):
        refuse(level)  # the table link here, so a 403: the club does not allow it
    found = _night_or_404(club, night_id)
    form = CheckInForm()
    if not form.validate_on_submit():
        return _night_page(club, found, level, [m for ms in form.errors.values() for m in ms])
    try:
        who = night_checkin.check_in(found, form.member.data)
    except NightRefused as refused:
        return _night_page(club, found, level, [w for _, w in refused.problems])
    flash(f"Welcome, {who.name}: you are seated from round {len(found.rounds) + 1}.")
    return redirect(url_for(".night", slug=slug, night_id=night_id, _anchor="check-in"))


@bp.post("/clubs/<slug>/nights/<int:night_id>/here/undo")
def night_check_in_undo(slug: str, night_id: int):
    """An organiser undoes a check-in from a phone: taken off the list if no round has seated
    them yet, else gone from the next round."""
    club, level = _runner(slug)
    found = _night_or_404(club, night_id)
    if not ActionForm().validate_on_submit():
        return _night_page(club, found, level, [EXPIRED])
    try:
        undone = night_checkin.undo_check_in(found, _number(request.form.get("player", "")) or 0)
    except NightRefused as refused:
        return _night_page(club, found, level, [w for _, w in refused.problems])
    if undone.removed:
        flash(f"{undone.name}'s check-in undone: not at tonight's night.")
    else:
        flash(f"{undone.name}'s check-in undone: gone from round {len(found.rounds) + 1}.")
    return redirect(url_for(".night", slug=slug, night_id=night_id, _anchor="players"))
