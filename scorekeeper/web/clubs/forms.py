"""Forms of the club pages."""

from __future__ import annotations

from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import (
    BooleanField,
    DateField,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from scorekeeper.rules import RuleSet
from scorekeeper.rules.terms import MAX_CLUB_NAME, MAX_NAME, MAX_SLUG, MIN_SLUG
from scorekeeper.services.locking import MOST_HOURS as LOCK_HOURS
from scorekeeper.services.nights.checkin import SELF_CHECK_IN
from scorekeeper.services.standings import SORTS
from scorekeeper.web.forms import VisibleName, house_rule_fields

CLUB_NAME = [DataRequired(), Length(max=MAX_CLUB_NAME), VisibleName()]
NAME = [DataRequired(), Length(max=MAX_NAME), VisibleName()]


class ClubForm(FlaskForm):
    """A new club."""

    name = StringField("Club name", validators=CLUB_NAME)
    slug = StringField(
        "Web address",
        validators=[Optional(), Length(min=MIN_SLUG, max=MAX_SLUG)],
        description=(
            "Lowercase letters, digits and hyphens: /clubs/your-address. "
            "Made from the club's name unless you type one."
        ),
        # static/slug.js fills it in from the name as it is typed.
        render_kw={"data-slug-from": "name", "autocapitalize": "none", "spellcheck": "false"},
    )
    public = BooleanField("Anyone may see the standings and history")


class SettingsForm(FlaskForm):
    """A club's name, visibility, ranking threshold, and who may run its nights."""

    name = StringField("Club name", validators=CLUB_NAME)
    public = BooleanField("Anyone may see the standings and history")
    min_games = IntegerField(
        "Games needed to be ranked",
        validators=[NumberRange(min=0, max=1000, message="Between 0 and 1,000 games.")],
    )
    tables_run_nights = BooleanField("Phones holding the table link may open and run club nights")
    self_check_in = BooleanField(SELF_CHECK_IN)
    # Any value is taken here: services/clubs.update_settings refuses one it does not know, in
    # words naming this field (a select's own "Not a valid choice" would not).
    standings_sort = SelectField(
        "Standings sorted by",
        choices=[(key, label) for key, (label, _) in SORTS.items()],
        validate_choice=False,
    )
    # Issue 40: when a club's finished game locks (services/locking.py).
    lock_after_hours = IntegerField(
        "Hours after a game ends before it locks",
        # Left out (an older page's form): the club's hours stay as they are.
        validators=[
            Optional(),
            NumberRange(min=0, max=LOCK_HOURS, message=f"Between 0 and {LOCK_HOURS} hours."),
        ],
    )


class NameForm(FlaskForm):
    """One name: a member, or an organiser's username."""

    name = StringField("Name", validators=NAME)


class MembersForm(FlaskForm):
    """New members as a list (services/members.py reads it); `confirm` sends it again, the names
    that look like another's confirmed."""

    names = TextAreaField("New members", render_kw={"rows": 4, "autocapitalize": "words"})
    confirm = HiddenField()


class RenameForm(FlaskForm):
    """A member's new name (services/members.rename_member checks it)."""

    new_name = StringField("New name")


class MergeForm(FlaskForm):
    """Fold one member into another."""

    into = SelectField("Merge into", coerce=int, validate_choice=True)


class SeasonForm(FlaskForm):
    """A named season with its dates."""

    name = StringField("Season name", validators=NAME)
    starts_on = DateField("Starts on", validators=[DataRequired()])
    ends_on = DateField("Ends on", validators=[DataRequired()])


class ImportForm(FlaskForm):
    """A deals CSV exported by this app."""

    file = FileField("Deals CSV file", validators=[FileRequired("Choose the CSV file.")])


# The Games filter's value for the games played at the club's nights.
AT_NIGHTS = "nights"


class StandingsFilter(FlaskForm):
    """Which games count (a GET form: no CSRF)."""

    class Meta:
        csrf = False

    season = SelectField("Season", validators=[Optional()])
    start = DateField("From", validators=[Optional()])
    end = DateField("To", validators=[Optional()])
    ruleset = SelectField("Rule set", validators=[Optional()])
    # Every club game, or only those played at the club's nights (issue 29).
    games = SelectField(
        "Games", choices=[("", "All games"), (AT_NIGHTS, "At club nights")], validators=[Optional()]
    )


class SavedRulesForm(FlaskForm):
    """A club's saved rule set: its name, and every number of its preset (added per preset)."""

    name = StringField("Name of the rule set", validators=NAME)


def saved_rules_form(preset: RuleSet, shown: RuleSet, formdata: Any = None) -> SavedRulesForm:
    """The form for a saved rule set of this preset, its numbers filled in from `shown`."""
    form_class = type("SavedRulesForm", (SavedRulesForm,), house_rule_fields(shown))
    return form_class(formdata=formdata)


class DefaultRulesForm(FlaskForm):
    """Which saved rule set club games start from: its id, or "none"."""

    saved = StringField("Default rule set", validators=[DataRequired(), Length(max=20)])
