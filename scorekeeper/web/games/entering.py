"""Entering deals on one phone: the whole deal's form, a correction, a stale form's conflict, and
the breakdown previewed as figures are typed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for

from scorekeeper.plumbing.models import Deal, Game
from scorekeeper.rules import DealRefused
from scorekeeper.services import access, deal_history, deals, games, locking, side_lines, writes
from scorekeeper.services.game_view import GameView, game_view
from scorekeeper.web.access import Level, game_or_404, my_side, refuse, require_game, table_level
from scorekeeper.web.errors import refilled_when_expired
from scorekeeper.web.forms import (
    DealForm,
    deal_form,
    entries_data,
    field_name,
    fill,
    place,
    sender_name,
)
from scorekeeper.web.games import DIGITS, VERSION, bp
from scorekeeper.web.games.scoreboard import deal_url, locked_page
from scorekeeper.web.writing import refused_write, with_retry_after


@bp.route("/t/<secret>/deals/new", methods=["GET", "POST"])
@refilled_when_expired
def new_deal(game_id: int):
    """Enter the next deal for every side; the same form sent twice records one deal."""
    game = game_or_404(game_id)
    level = require_game(game, access.TO_ENTER)
    form = _form(game)
    opened_for = _opened_for(form)
    form.idempotency_key.data = deals.form_key(form.idempotency_key.data)
    problems: list[str] = []
    reused: Deal | None = None
    limited = None
    # Past the game's or the address's allowance: the form again, its figures kept (below).
    if form.validate_on_submit() and (limited := refused_write(writes.ENTRY, game.id)) is None:
        scores = _scores(form, game)
        outcome = deals.enter_deal(
            game,
            level,
            scores,
            form.idempotency_key.data,
            opened_for,
            form.lines.data or None,
            sent_by=sender_name(request.form.get("sent_by")),
            # The phone's side (sent, else the one it last sent a line for): its agreement.
            side=_side_sent(game),
            device=request.form.get("device"),
        )
        match outcome:
            case deals.Refused(refusals):
                problems = place(form, refusals)
            case deals.LinesArrived(number, token):
                form.lines.data = token
                view = game_view(game)
                lines = [line for line in view.next_lines if line.is_in]
                return _deal_page(
                    view, form, number, view.next_minimums, [], arrived=lines, status=409
                )
            case deals.KeyReused(deal):
                # This form (its hidden key) saved a deal already, with other figures: the
                # page came back from the browser's history and was changed. Nothing is
                # saved; the figures stay, with a fresh key, for the next deal if they are one.
                form.idempotency_key.data = deals.form_key(None)
                opened_for = None
                reused = deal
            case _:
                return _entered(game, form, outcome)
    view = game_view(game)
    if reused is not None:
        problems = [_key_reused(reused, view.progress.next_deal)]
    if limited is not None:
        problems = [limited.message]
    if request.method == "GET" and view.closed is not None:
        return _entered(game, form, view.closed)
    # A form sent back with a typo keeps the deal it was opened for, so that a deal saved
    # meanwhile is still shown before this one is saved.
    form.number.data = str(opened_for or view.progress.next_deal)
    filled = _fill_from_lines(view, form) if request.method == "GET" else []
    page = _deal_page(
        view, form, view.progress.next_deal, view.next_minimums, problems, filled=filled
    )
    return page if limited is None else with_retry_after(limited, page)


def _fill_from_lines(view: GameView, form: DealForm) -> list[side_lines.Line]:
    """Start the whole deal's form from the lines the sides have sent from their own phones."""
    lines = view.next_lines
    form.lines.data = view.lines_token
    fill(form, [line.entry.to_dict() if line.entry is not None else {} for line in lines])
    return [line for line in lines if line.is_in]


def _entered(game: Game, form: DealForm, outcome: deals.Outcome):
    """The page or redirect for what entering a deal came to."""
    board = url_for(".scoreboard", secret=game.secret, _anchor="totals")
    match outcome:
        case deals.Saved(deal):
            flash(f"Deal {deal.number} saved.")
        case deals.AlreadySaved(deal):
            flash(f"Deal {deal.number} was already saved; it is recorded once.")
        case deals.SavedMeanwhile(number):
            return _saved_meanwhile(game, form, number)
        case deals.Ended():
            flash("This game is over: no more deals can be entered.", "error")
            return redirect(url_for(".scoreboard", secret=game.secret))
        case deals.LimitReached(refusals):
            flash(" ".join(r.message for r in refusals), "error")
            return redirect(url_for(".scoreboard", secret=game.secret))
        case deals.NotAllowed():
            refuse(table_level(game.club, game.id))
    return redirect(board)


def _key_reused(deal: Deal, following: int) -> str:
    """What the person is told when an old form comes back with other figures."""
    return (
        f"This form already saved deal {deal.number} with different figures, so nothing of "
        f"this was saved. Check deal {deal.number} on the scoreboard; if these figures are "
        f"another deal, save them as deal {following}."
    )


def _opened_for(form: DealForm) -> int | None:
    """The deal number the form was opened for, if it carries a sane one."""
    raw = form.number.data or ""
    return int(raw) if VERSION.fullmatch(raw) else None


def _saved_meanwhile(game: Game, form: DealForm, opened_for: int):
    """Deals saved since this form was opened (or the game's end): shown, and the figures kept.

    Nothing is saved. The person sees what the other phone entered and either saves theirs as
    the next deal (the form now says so) or leaves it.
    """
    view = game_view(game)
    progress, closed = view.progress, view.closed
    form.number.data = str(progress.next_deal)
    full = closed.refusals[0].message if isinstance(closed, deals.LimitReached) else None
    return _deal_page(
        view,
        form,
        progress.next_deal,
        progress.minimums,
        [],
        meanwhile=progress.deals[max(0, opened_for - 1) :],
        over=closed is not None,
        winners=progress.winners,
        full=full,
        status=409,
    )


@bp.route("/t/<secret>/deals/<int:number>/edit", methods=["GET", "POST"])
@refilled_when_expired
def edit_deal(game_id: int, number: int):
    """Correct a deal; every later total is recomputed; a stale form meets the saved deal."""
    game = game_or_404(game_id)
    level = require_game(game, Level.TABLE)
    if not 1 <= number <= len(game.deals):
        abort(404)
    lock = locking.lock_of(game)
    if not access.may_correct(game, level):
        if lock is None or level < access.TO_ENTER:
            refuse(level)
        return locked_page(game, level, lock.words(number))
    frozen = deals.correction_refused(game)
    if frozen is not None:
        return _entered(game, _form(game), deals.LimitReached([frozen]))
    form = _form(game)
    problems: list[str] = []
    limited = None
    if request.method == "GET":
        deal = game.deals[number - 1]
        fill(form, [row.entry for row in deal.scores])
        form.version.data = str(deal.version)
    elif (
        form.validate_on_submit() and (limited := refused_write(writes.CORRECTION, game.id)) is None
    ):
        scores = _scores(form, game)
        name = sender_name(request.form.get("sent_by"))
        reason = request.form.get("reason")
        outcome = deals.correct_deal(game, level, number, scores, _version(form), name, reason)
        match outcome:
            case deals.Saved():
                flash(f"Deal {number} corrected; later totals recomputed.")
                return redirect(deal_url(game, number))
            case deals.ChangedMeanwhile(deal):
                return _conflict(game, deal, form, scores)
            case deals.Refused(refusals):
                problems = place(form, refusals)
            case deals.LimitReached():
                return _entered(game, form, outcome)
            case deals.Locked(message):
                return locked_page(game, level, message)  # it locked while the form was open
            case _:
                abort(404)  # the deal or the right to correct it went meanwhile
    if limited is not None:
        problems = [limited.message]  # the form again, its figures and version kept
    view = game_view(game)
    page = _deal_page(
        view,
        form,
        number,
        view.deal(number).minimums,
        problems,
        correcting=True,
        lock=lock,
        reason=request.form.get("reason", ""),
        most_reason=deal_history.MOST_REASON,
    )
    return page if limited is None else with_retry_after(limited, page)


def _side_sent(game: Game) -> int | None:
    """The side the phone says it is on (the form's `side`), else the one it last sent a line
    for (`my_side`); None if neither is one of the game's."""
    sent = request.form.get("side", "")
    if DIGITS.fullmatch(sent) and int(sent) < len(game.sides):
        return int(sent)
    return my_side(game)


def _version(form: DealForm) -> int | str:
    """The version the correction was made to: a number, or what was sent (refused as such)."""
    raw = form.version.data or ""
    return int(raw) if DIGITS.fullmatch(raw) else raw


def _conflict(game: Game, deal, form: DealForm, scores: list[dict[str, Any]]):
    """Both versions side by side: keep the one saved meanwhile, or save yours over it."""
    saved = game_view(game).progress.deals[deal.number - 1]
    try:
        entries = games.entries_from(scores, game)
        mine, mine_problems = deals.preview_deal(game, entries, deal.number), []
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


@bp.post("/t/<secret>/deals/preview")
@bp.post("/t/<secret>/deals/<int:number>/preview")
@refilled_when_expired
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
            entries = games.entries_from(_scores(form, game), game)
            result = deals.preview_deal(game, entries, number)
        except DealRefused as exc:
            problems = [r.message for r in exc.refusals]
    else:
        problems = [e for errors in form.errors.values() for e in errors]
    # A side's own line (web/lines.py) shows that side's breakdown only.
    only = request.form.get("only", "")
    shown = [int(only)] if only.isdigit() and int(only) < len(game.sides) else None
    return render_template(
        "_breakdown.html", game=game, result=result, problems=problems, only=shown
    )


def _form(game: Game) -> DealForm:
    return deal_form(
        games.rules_of(game),
        [side.name for side in game.sides],
        request.form if request.method == "POST" else None,
    )


def _scores(form: DealForm, game: Game) -> list[dict[str, Any]]:
    """The form's figures as one entry per side, as the API takes them."""
    return entries_data(form, games.rules_of(game), len(game.sides))


def _deal_page(
    view: GameView,
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
        game=view.game,
        view=view,
        dealer=view.dealer(number).player,
        rules=view.rules,
        form=form,
        number=number,
        minimums=minimums,
        problems=problems,
        correcting=correcting,
        field_name=field_name,
        own=my_side(view.game),
        **shown,
    ), status
