"""Forms: a new game, and one deal for every side; CSRF on each through Flask-WTF."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, HiddenField, RadioField, SelectField, StringField
from wtforms.validators import Length, ValidationError

from scorekeeper.rules import Refusal, RulesError, RuleSet, knobs, overrides_from
from scorekeeper.rules.sentences import say
from scorekeeper.rules.terms import (
    BONUS_COUNT_LABELS,
    BOOK_LABELS,
    CARD_CATEGORIES,
    CARD_LABELS,
    MAX_NAME,
    MAX_PLAYERS_TEXT,
    MELDED_BLACK_THREES,
    MELDED_BLACK_THREES_LABEL,
    over_ceiling,
)
from scorekeeper.services.names import name_problem, phone_name
from scorekeeper.web.phone_name import default_sender

WHOLE = re.compile(r"[0-9]+")
# Ids and page numbers from a query string: plain ASCII digits, far below any integer limit.
SMALL_NUMBER = re.compile(r"[0-9]{1,6}")
MAX_SIDES_ON_FORM = 6


class FigureField(StringField):
    """A whole number typed on a phone's numeric keypad; kept exactly as typed."""

    def __init__(self, label: str = "", *, who: str = "", step: bool = False, **kwargs: Any):
        render_kw = {"inputmode": "numeric", "autocomplete": "off", "class": "figure"}
        render_kw.update(kwargs.pop("render_kw", {}))
        super().__init__(label, render_kw=render_kw, **kwargs)
        self.who = who
        self.step = step

    def pre_validate(self, form: Any) -> None:
        raw = (self.data or "").strip()
        label = self.label.text
        what = say("side", side=self.who, why=label.lower()) if self.who else label
        if raw and not WHOLE.fullmatch(raw):
            raise ValidationError(say("typed_not_whole", label=what, value=raw))
        if raw and over_ceiling(raw):
            raise ValidationError(say("ceiling", label=what, value=raw))

    @property
    def number(self) -> int | None:
        """The figure, or None when left blank (call only after validation)."""
        raw = (self.data or "").strip()
        return int(raw) if raw else None


class VisibleName:
    """A validator: the typed name holds no control, invisible or broken characters."""

    def __call__(self, form: Any, field: Field) -> None:
        problem = name_problem(field.data or "", field.label.text)
        if problem:
            raise ValidationError(problem)


class SidesForm(FlaskForm):
    """Start a game: sides and players, decks, house rules (added per rule set)."""

    decks = FigureField("Decks")


class FirstDealerForm(FlaskForm):
    """Who deals the first deal: a seat at the table (choices are the game's seats)."""

    # The service says what is wrong with a seat that is not at the table, in its own words.
    seat = SelectField("Who deals first", validate_choice=False)


# A team's players picked from the club's list: two shown, and a third a tap away (every
# partnership preset seats teams of two, and allows teams of three: VARIANTS.md).
TEAM_SEATS = 2
MOST_TEAM_SEATS = 3


def seats(rules: RuleSet) -> int:
    """How many member pickers a side shows: one for individual rule sets, else a pair."""
    return 1 if rules.individuals else TEAM_SEATS


def most_seats(rules: RuleSet) -> int:
    """How many members a side can pick at most: one for individual rule sets, else three."""
    return 1 if rules.individuals else MOST_TEAM_SEATS


def seated_from(sides: Sequence[Sequence[str]], rules: RuleSet, members: Any) -> dict[str, str]:
    """A club game's sides filled in as these players sat (a phone's last game): members in
    their pickers, anyone else as a guest. Nothing where the table does not fit these rules: an
    individual game's players are not paired up into teams by guesswork."""
    listed = {m.name for m in members}
    if rules.individuals:
        sides = [[name] for side in sides for name in side]
    elif all(len(side) < 2 for side in sides):
        return {}
    data: dict[str, str] = {}
    for index, side in enumerate(sides[:MAX_SIDES_ON_FORM]):
        picked = [name for name in side if name in listed][: most_seats(rules)]
        guests = [name for name in side if name not in picked]
        for seat, name in enumerate(picked):
            data[f"side{index}_member{seat}"] = name
        if guests:
            data[f"side{index}_players"] = ", ".join(guests)
    return data


def new_game_form(
    rules: RuleSet,
    formdata: Any = None,
    members: Any = None,
    start_from: RuleSet | None = None,
    seated: dict[str, str] | None = None,
) -> SidesForm:
    """The new-game form for one rule set, its house rules filled in with the preset's values.

    For a club game, `members` are offered in a list for each seat; guests are typed in.
    `start_from` fills the house rules in with other numbers (a saved rule set, a rules link);
    `seated` fills the sides in (seated_from) where nothing was sent.
    """
    shown = start_from or rules
    attrs: dict[str, Field] = {}
    if members is not None:
        choices = [("", "—")] + [(m.name, m.name) for m in members]
        for index in range(MAX_SIDES_ON_FORM):
            for seat in range(most_seats(rules)):
                attrs[f"side{index}_member{seat}"] = SelectField(
                    f"Side {index + 1}, player {seat + 1}", choices=choices, default=""
                )
        if not rules.individuals:
            # The service regroups the players picked into the partnership nearest even.
            attrs["balance"] = BooleanField("Balance partners by rating")
    for index in range(MAX_SIDES_ON_FORM):
        attrs[f"side{index}_name"] = StringField(
            f"Side {index + 1} name", validators=[Length(max=MAX_NAME), VisibleName()]
        )
        attrs[f"side{index}_players"] = StringField(
            f"Side {index + 1} players", validators=[Length(max=MAX_PLAYERS_TEXT), VisibleName()]
        )
    attrs.update(house_rule_fields(shown))
    form_class = type("NewGameForm", (SidesForm,), attrs)
    if formdata is None and seated:
        return form_class(formdata=None, data=seated)
    return form_class(formdata=formdata)


def house_rule_fields(shown: RuleSet) -> dict[str, Field]:
    """A form field for every number a club may change, filled in from `shown`, and threes."""
    fields: dict[str, Field] = {
        knob_field(knob.path): FigureField(knob.label, default=str(knob.value))
        for knob in knobs(shown)
    }
    fields[knob_field("melded_black_threes")] = SelectField(
        MELDED_BLACK_THREES_LABEL,
        choices=list(MELDED_BLACK_THREES.items()),
        default=shown.melded_black_threes,
    )
    return fields


def house_rules_of(form: FlaskForm, preset: RuleSet) -> dict[str, Any]:
    """The overrides the form's numbers make of the preset (a blank number keeps the preset's)."""
    values = {k.path: form[knob_field(k.path)].number for k in knobs(preset)}
    overrides = overrides_from(preset, values)
    threes = form[knob_field("melded_black_threes")].data
    if threes != preset.melded_black_threes:
        overrides["melded_black_threes"] = threes
    return overrides


def knob_field(path: str) -> str:
    """The form field that holds a house-rule number."""
    return "rule_" + path.replace(".", "__")


class DealForm(FlaskForm):
    """One deal for every side; fields are added per rule set by `deal_form`."""

    went_out = RadioField("Who went out", default="", validate_choice=True)
    version = HiddenField()
    # The deal a new-deal form was opened for: if another phone saved it meanwhile, the
    # person is shown that deal and decides, rather than theirs silently becoming the next.
    number = HiddenField()
    # One per form shown: the same form sent twice (double tap, back button) saves once.
    idempotency_key = HiddenField()
    # The sides' own lines the form was opened with (live.lines_token): a line sent from a
    # side's phone meanwhile is shown before this form saves over it.
    lines = HiddenField()


def field_name(side: int, figure: str) -> str:
    """The form field for one side's figure, from the engine's name for it."""
    return f"s{side}-{figure.replace('.', '-')}"


def deal_form(rules: RuleSet, sides: Sequence[str], formdata: Any = None, **data: Any) -> DealForm:
    """A deal form with the figures this rule set scores, for each side."""
    shape = (
        tuple(rules.book_bonuses),
        rules.red_three_down is not None,
        tuple(rules.extra_bonuses),
        rules.open_books_to_other_team,
        tuple(sides),
    )
    form = _deal_form_class(*shape)(formdata=formdata, data=data or None)
    form.went_out.choices = [("", "Nobody (stock ran out)")] + [
        (str(i), name) for i, name in enumerate(sides)
    ]
    return form


# Building a form class with a hundred fields costs more than the rest of a deal's entry; the
# class depends only on the figures asked for and the side names, so each shape is built once.
@lru_cache(maxsize=256)
def _deal_form_class(
    book_kinds: tuple[str, ...],
    red_threes_down: bool,
    extra_bonuses: tuple[str, ...],
    open_books: bool,
    sides: tuple[str, ...],
) -> type[DealForm]:
    attrs: dict[str, Field] = {}
    for i, who in enumerate(sides):

        def figure(name: str, label: str, step: bool = False) -> None:
            attrs[field_name(i, name)] = FigureField(label, who=who, step=step)  # noqa: B023

        for kind in book_kinds:
            figure(f"books.{kind}", f"{BOOK_LABELS[kind].capitalize()} books", step=True)
        if red_threes_down:
            figure("red_threes_down", "Red threes laid down", step=True)
        figure("red_threes_caught", "Red threes caught", step=True)
        for bonus in extra_bonuses:
            figure(f"bonuses.{bonus}", BONUS_COUNT_LABELS[bonus], step=True)
        figure("melded_points", "Melded card points")
        figure("leftover_points", "Card points left in hands and feet")
        for where in ("melded_cards", "leftover_cards"):
            for category in CARD_CATEGORIES:
                figure(f"{where}.{category}", CARD_LABELS[category].capitalize())
        if open_books:
            for kind in book_kinds:
                figure(f"open_books.{kind}", f"Open {BOOK_LABELS[kind]} melds of 7+", step=True)
            figure("open_book_points", "Card points in open melds")
    return type("DealFormFor", (DealForm,), attrs)


def entries_data(form: DealForm, rules: RuleSet, sides: int) -> list[dict[str, Any]]:
    """The form's figures as the engine's entry data, one dict per side."""
    entries = []
    for i in range(sides):
        entry: dict[str, Any] = {"went_out": form.went_out.data == str(i)}
        for name, field in form._fields.items():
            if not name.startswith(f"s{i}-") or not isinstance(field, FigureField):
                continue
            value = field.number
            if value is None:
                continue
            figure, _, kind = name[len(f"s{i}-") :].partition("-")
            if kind:
                entry.setdefault(figure, {})[kind] = value
            else:
                entry[figure] = value
        entries.append(entry)
    return entries


def fill(form: DealForm, entries: Sequence[dict[str, Any]]) -> None:
    """Put saved entries back into a form, for a correction."""
    for i, entry in enumerate(entries):
        for figure, value in entry.items():
            if figure == "went_out":
                if value:
                    form.went_out.data = str(i)
            elif isinstance(value, dict):
                for kind, number in value.items():
                    field = form._fields.get(field_name(i, f"{figure}.{kind}"))
                    if field is not None:
                        field.data = str(number)
            else:
                field = form._fields.get(field_name(i, figure))
                if field is not None:
                    field.data = str(value)


def rules_args(preset: RuleSet, rules: RuleSet) -> dict[str, str]:
    """The new-game form's fields, as query arguments, that turn `preset` into `rules`.

    A link with them (a casual table's "these rules again") opens the form filled in so.
    """
    before = {knob.path: knob.value for knob in knobs(preset)}
    args = {
        knob_field(knob.path): str(knob.value)
        for knob in knobs(rules)
        if before.get(knob.path) != knob.value
    }
    if rules.melded_black_threes != preset.melded_black_threes:
        args[knob_field("melded_black_threes")] = rules.melded_black_threes
    return args


def rules_from_args(preset: RuleSet, args: Any) -> RuleSet | None:
    """The rules a form's query arguments describe (see `rules_args`); None if they do not."""
    values: dict[str, int | None] = {}
    for knob in knobs(preset):
        raw = (args.get(knob_field(knob.path)) or "").strip()
        if raw:
            if not WHOLE.fullmatch(raw) or over_ceiling(raw):
                return None
            values[knob.path] = int(raw)
    overrides = overrides_from(preset, values)
    threes = args.get(knob_field("melded_black_threes"))
    if threes in MELDED_BLACK_THREES and threes != preset.melded_black_threes:
        overrides["melded_black_threes"] = threes
    if not overrides:
        return None
    try:
        return preset.with_house_rules(overrides)
    except RulesError:
        return None


class ActionForm(FlaskForm):
    """A button that changes something: CSRF and nothing else (every blueprint's)."""


def place(form: DealForm, refusals: Sequence[Refusal]) -> list[str]:
    """Put each refusal beside its field; return those that belong to the whole deal."""
    general = []
    for refusal in refusals:
        # Beside every figure it is about: a limit over the whole deal shows at each figure that
        # counted toward it (the list at the top names it once).
        fields = [
            form.went_out if name == "went_out" else form._fields.get(field_name(side, name))
            for side, name in refusal.figures
            if side is not None
        ]
        fields = [f for f in fields if f is not None]
        if not fields:
            general.append(refusal.message)
        for field in fields:
            if refusal.message not in field.errors:
                field.errors.append(refusal.message)
    return general


def sender_name(sent: str | None) -> str:
    """The name the phone sending this request goes by (`names.phone_name`, `default_sender`)."""
    return phone_name(sent, default_sender())
