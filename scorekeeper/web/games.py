"""The table: start a game, see the scoreboard, enter and correct deals."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from .. import clubs, scoresheet
from .. import rules as engine
from ..models import Club, Game
from ..rules import DealRefused, Refusal
from .access import Level, game_or_404, require, require_game
from .charts import running_totals_chart
from .club_forms import ActionForm
from .forms import (
    MAX_SIDES_ON_FORM,
    DealForm,
    deal_form,
    entries_data,
    field_name,
    fill,
    knob_field,
    new_game_form,
    seats,
)

bp = Blueprint("games", __name__)
KEY = re.compile(r"[0-9a-f]{32}")
VERSION = re.compile(r"[0-9]{1,9}")


@bp.route("/games/new", methods=["GET", "POST"])
def new():
    """Choose a rule set, then name the sides; house rules are a tap away."""
    return _new_game(None)


@bp.route("/clubs/<slug>/games/new", methods=["GET", "POST"])
def new_club_game(slug: str):
    """A club game: players picked from the member list, guests allowed."""
    club = clubs.club_by_slug(slug)
    if club is None:
        abort(404)
    require(club, Level.TABLE)
    return _new_game(club)


def _new_game(club: Club | None):
    key = request.values.get("ruleset", "")
    if key not in engine.PRESETS:
        return render_template("choose_rules.html", presets=engine.PRESETS.values(), club=club)
    rules = engine.PRESETS[key]
    members = [m for m in club.members if not m.archived] if club else None
    form = new_game_form(rules, request.form if request.method == "POST" else None, members)
    problems: list[str] = []
    if form.validate_on_submit():
        rows = [i for i in range(MAX_SIDES_ON_FORM) if _side_row(form, i)]
        values = {k.path: form[knob_field(k.path)].number for k in engine.knobs(rules)}
        try:
            game = scoresheet.start_game(
                key,
                [_side_row(form, i) for i in rows],
                form.decks.number,
                engine.overrides_from(rules, values),
                club,
            )
        except scoresheet.GameRefused as exc:
            problems = _place_setup(form, rows, exc.refusals)
        else:
            flash(f"Game started: {' v '.join(s.name for s in game.sides)}.")
            return redirect(url_for(".scoreboard", game_id=game.id))
    status = 422 if request.method == "POST" else 200
    return render_template(
        "new_game.html",
        form=form,
        rules=rules,
        problems=problems,
        knobs=engine.knobs(rules),
        knob_field=knob_field,
        club=club,
        seats=seats(rules),
    ), status


def _side_row(form, index: int) -> scoresheet.SideSetup | None:
    name = (form[f"side{index}_name"].data or "").strip()
    listed = form[f"side{index}_players"].data or ""
    # Members picked from the club's list come first, then any guests typed in.
    picked = [
        form[f].data for f in form._fields if f.startswith(f"side{index}_member") and form[f].data
    ]
    players = [n for n in picked] + [p.strip() for p in listed.split(",") if p.strip()]
    if not name and not players:
        return None
    return scoresheet.SideSetup(name or " & ".join(players), players or [name])


def _place_setup(form, rows: list[int], refusals: Sequence[Refusal]) -> list[str]:
    """Put each refusal beside its field; return those that belong to the whole form."""
    general = []
    for refusal in refusals:
        if refusal.side is not None and refusal.side < len(rows):
            field = "name" if refusal.field == "name" else "players"
            form[f"side{rows[refusal.side]}_{field}"].errors.append(refusal.message)
        elif refusal.field == "decks":
            form.decks.errors.append(refusal.message)
        else:
            general.append(refusal.message)
    return general


@bp.get("/games/<int:game_id>")
def scoreboard(game_id: int):
    """Running totals, what each side needs to open, every deal a tap away, the winner."""
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    progress = scoresheet.progress_of(game)
    return render_template(
        "scoreboard.html",
        game=game,
        rules=scoresheet.rules_of(game),
        progress=progress,
        level=level,
        chart=running_totals_chart(game, progress),
        delete_form=ActionForm(),
    )


@bp.post("/games/<int:game_id>/delete")
def delete(game_id: int):
    """Remove a club game for good (its organisers only)."""
    game = game_or_404(game_id)
    if game.club is None:
        abort(404)
    require_game(game, Level.ORGANISER)
    club = game.club
    if ActionForm().validate_on_submit():
        clubs.delete_game(game)
        flash(f"Game {game_id} deleted.")
    return redirect(url_for("clubs.history", slug=club.slug, season="all"))


@bp.route("/games/<int:game_id>/deals/new", methods=["GET", "POST"])
def new_deal(game_id: int):
    """Enter the next deal for every side; the same form sent twice records one deal."""
    game = game_or_404(game_id)
    require_game(game, Level.TABLE)
    form = _form(game)
    key = form.idempotency_key.data or ""
    recorded = scoresheet.deal_with_key(game, key) if KEY.fullmatch(key) else None
    if request.method == "POST" and recorded is not None:
        flash(f"Deal {recorded.number} was already saved; it is recorded once.")
        return redirect(url_for(".scoreboard", game_id=game.id, _anchor="totals"))
    progress = scoresheet.progress_of(game)
    opened_for = _opened_for(form)
    if request.method == "POST" and opened_for not in (None, progress.next_deal):
        return _saved_meanwhile(game, form, opened_for)
    if progress.finished:
        flash("This game is over: no more deals can be entered.", "error")
        return redirect(url_for(".scoreboard", game_id=game.id))
    if not KEY.fullmatch(key):
        form.idempotency_key.data = uuid.uuid4().hex
    form.number.data = str(progress.next_deal)
    problems: list[str] = []
    if form.validate_on_submit():
        try:
            deal, _ = scoresheet.add_deal(
                game, _entries(form, game), form.idempotency_key.data, key_checked=True
            )
        except DealRefused as exc:
            problems = _place(form, exc.refusals)
        except scoresheet.DealClash as exc:
            problems = [str(exc)]
        else:
            flash(f"Deal {deal.number} saved.")
            return redirect(url_for(".scoreboard", game_id=game.id, _anchor="totals"))
    return _deal_page(game, form, progress.next_deal, progress.minimums, problems)


def _opened_for(form: DealForm) -> int | None:
    """The deal number the form was opened for, if it carries a sane one."""
    raw = form.number.data or ""
    return int(raw) if VERSION.fullmatch(raw) else None


def _saved_meanwhile(game: Game, form: DealForm, opened_for: int):
    """Deals saved since this form was opened (or the game's end): shown, and the figures kept.

    Nothing is saved. The person sees what the other phone entered and either saves theirs as
    the next deal (the form now says so) or leaves it.
    """
    progress = scoresheet.progress_of(game)
    form.number.data = str(progress.next_deal)
    return _deal_page(
        game,
        form,
        progress.next_deal,
        progress.minimums,
        [],
        meanwhile=progress.deals[max(0, opened_for - 1) :],
        over=progress.finished,
        winners=progress.winners,
        status=409,
    )


@bp.route("/games/<int:game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def edit_deal(game_id: int, number: int):
    """Correct a deal; every later total is recomputed; a stale form meets the saved deal."""
    game = game_or_404(game_id)
    require_game(game, Level.TABLE)
    if not 1 <= number <= len(game.deals):
        abort(404)
    if game.finished_at is not None and game.club is not None:
        # A club's finished record changes only by an organiser's hand.
        require_game(game, Level.ORGANISER)
    deal = game.deals[number - 1]
    form = _form(game)
    problems: list[str] = []
    if request.method == "GET":
        fill(form, [row.entry for row in deal.scores])
        form.version.data = str(deal.version)
    elif form.validate_on_submit():
        version = _version(form)
        try:
            entries = _entries(form, game)
            scoresheet.correct_deal(game, number, entries, version)
        except scoresheet.StaleDeal as exc:
            return _conflict(game, exc.deal, form, entries)
        except DealRefused as exc:
            problems = _place(form, exc.refusals)
        else:
            flash(f"Deal {number} corrected; later totals recomputed.")
            return redirect(url_for(".scoreboard", game_id=game.id, _anchor=f"deal-{number}"))
    minimums = scoresheet.progress_of(game).deals[number - 1].minimums
    return _deal_page(game, form, number, minimums, problems, correcting=True)


def _version(form: DealForm) -> int | None:
    """The version the correction was made to, if the form carries a sane one."""
    raw = form.version.data or ""
    return int(raw) if VERSION.fullmatch(raw) else None


def _conflict(game: Game, deal, form: DealForm, entries: list[engine.DealEntry]):
    """Both versions side by side: keep the one saved meanwhile, or save yours over it."""
    progress = scoresheet.progress_of(game)
    saved = progress.deals[deal.number - 1]
    try:
        mine, mine_problems = scoresheet.preview_deal(game, entries, deal.number), []
    except DealRefused as exc:
        mine, mine_problems = None, [r.message for r in exc.refusals]
    form.version.data = str(deal.version)
    return render_template(
        "conflict.html",
        game=game,
        deal=deal,
        saved=saved,
        mine=mine,
        mine_problems=mine_problems,
        form=form,
    ), 409


@bp.post("/games/<int:game_id>/deals/preview")
@bp.post("/games/<int:game_id>/deals/<int:number>/preview")
def preview(game_id: int, number: int | None = None):
    """The breakdown the figures typed so far would get; the page shows it as they change."""
    game = game_or_404(game_id)
    require_game(game, Level.TABLE)
    if number is not None and not 1 <= number <= len(game.deals):
        abort(404)
    form = _form(game)
    result, problems = None, []
    if form.validate_on_submit():
        try:
            result = scoresheet.preview_deal(game, _entries(form, game), number)
        except DealRefused as exc:
            problems = [r.message for r in exc.refusals]
    else:
        problems = [e for errors in form.errors.values() for e in errors]
    return render_template("_breakdown.html", game=game, result=result, problems=problems)


def _form(game: Game) -> DealForm:
    return deal_form(
        scoresheet.rules_of(game),
        [side.name for side in game.sides],
        request.form if request.method == "POST" else None,
    )


def _entries(form: DealForm, game: Game) -> list[engine.DealEntry]:
    data = entries_data(form, scoresheet.rules_of(game), len(game.sides))
    return scoresheet.entries_from(data, game)


def _place(form: DealForm, refusals: Sequence[Refusal]) -> list[str]:
    """Put each refusal beside its field; return those that belong to the whole deal."""
    general = []
    for refusal in refusals:
        field = None
        if refusal.side is not None:
            field = form._fields.get(field_name(refusal.side, refusal.field))
        if field is None and refusal.field == "went_out":
            field = form.went_out
        if field is None:
            general.append(refusal.message)
        else:
            field.errors.append(refusal.message)
    return general


def _deal_page(
    game: Game,
    form: DealForm,
    number: int,
    minimums: Sequence[int],
    problems: list[str],
    correcting: bool = False,
    status: int | None = None,
    **shown: Any,
):
    status = status or (422 if request.method == "POST" else 200)
    return render_template(
        "deal.html",
        game=game,
        rules=scoresheet.rules_of(game),
        form=form,
        number=number,
        minimums=minimums,
        problems=problems,
        correcting=correcting,
        field_name=field_name,
        **shown,
    ), status
