"""The forms a night's plan and a night kept share."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import IntegerField, RadioField, SelectMultipleField, TextAreaField

from scorekeeper.rules.nights import MOST_ROUNDS


class TonightFields:
    """Who is here tonight, the tables and the rounds: the fields a night's plan and a night
    kept share (the rounds held to the engine's MOST_ROUNDS, said in the field's description)."""

    members = SelectMultipleField("Members here tonight", coerce=int, validate_choice=False)
    guests = TextAreaField("Guests", render_kw={"rows": 2, "autocapitalize": "words"})
    shape = RadioField("Tables", validate_choice=False)
    rounds = IntegerField(
        "Rounds",
        description=f"1 to {MOST_ROUNDS}",
        render_kw={"inputmode": "numeric", "min": 1, "max": MOST_ROUNDS},
    )


class NightPlanForm(TonightFields, FlaskForm):
    """Tonight's players, tables and rounds (a GET form: it changes nothing, so no CSRF).

    The members' and shapes' choices are the club's (`web/nights/planning.py`); whether a member
    is the club's is the use case's to say (`services/nights.plan_for_tonight`), in words.
    """

    class Meta:
        csrf = False
