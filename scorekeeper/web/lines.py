"""Each side enters its own line of the next deal on its own phone (the service: side_lines.py)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from scorekeeper.plumbing.models import Game
from scorekeeper.services import access, deals, games, side_lines, writes
from scorekeeper.services.game_view import GameView, game_view
from scorekeeper.web.access import (
    game_or_404,
    my_side,
    refuse,
    remember_side,
    require_game,
    table_level,
)
from scorekeeper.web.forms import (
    DealForm,
    deal_form,
    entries_data,
    field_name,
    fill,
    place,
    sender_name,
)
from scorekeeper.web.writing import refused_write, with_retry_after

bp = Blueprint("lines", __name__)
NUMBER = re.compile(r"[1-9][0-9]{0,8}")
# When the line was entered, as the phone's clock gives it: milliseconds since 1970.
MILLISECONDS = re.compile(r"[0-9]{1,15}")
# The line's form always names its deal (the page fills it in): one that does not is no line
# this app's pages sent, and is never kept for whatever deal is next.
NO_DEAL = "This line names no deal: open the line again from the scoreboard and send it."


@bp.route("/t/<secret>/deals/next/<int:side>", methods=["GET", "POST"])
def line(game_id: int, side: int):
    """One side's line of the next deal; the deal is saved when every side's line is in."""
    game = game_or_404(game_id)
    level = require_game(game, access.TO_ENTER)
    if not 0 <= side < len(game.sides):
        abort(404)
    form = deal_form(games.rules_of(game), [s.name for s in game.sides], request.form or None)
    raw = form.number.data or ""
    opened_for = int(raw) if NUMBER.fullmatch(raw) else None
    form.idempotency_key.data = deals.form_key(form.idempotency_key.data)
    problems: list[str] = []
    limited = None
    held = _held(game, side, _sender(request.form)["device"])
    if held is not None:
        # Another side's line, sent from another phone: shown, never changed from here.
        status = 403 if request.method == "POST" else 200
        view = game_view(game)
        return _line_page(
            view, form, side, [], held=held, held_words=_held_words(held), status=status
        )
    if request.method == "POST" and opened_for is None:
        problems = [NO_DEAL]
    elif (
        form.validate_on_submit()
        and opened_for is not None
        and (limited := refused_write(writes.ENTRY, game.id)) is None
    ):
        entry = entries_data(form, games.rules_of(game), len(game.sides))[side]
        outcome = side_lines.send_line(
            game, level, side, entry, opened_for=opened_for, **_sender(request.form)
        )
        match outcome:
            case deals.Refused(refusals):
                problems = place(form, refusals)
            case side_lines.LaterLineKept():
                return _line_page(game_view(game), form, side, [], later=outcome, status=409)
            case deals.SavedMeanwhile(number):
                return _meanwhile(game, form, side, number)
            case _:
                return _sent(game, side, outcome)
    view = game_view(game)
    if request.method == "GET":
        if view.closed is not None:
            return _sent(game, side, view.closed)
        # The side's line as sent so far, to change until the deal is saved.
        mine = view.next_lines[side]
        if mine.entry is not None:
            fill(form, [{} if i != side else mine.entry.to_dict() for i in range(side + 1)])
    if limited is not None:
        problems = [limited.message]  # the line's form again, its figures kept
    form.number.data = str(opened_for or view.progress.next_deal)
    page = _line_page(view, form, side, problems)
    return page if limited is None else with_retry_after(limited, page)


def _held(game: Game, side: int, device: str | None) -> side_lines.Line | None:
    """The side's line in, when this phone may not change it: a phone changes a side's line
    only if it is on that side (the side it last sent a line for, or agreed or queried for:
    access.my_side) or it sent that line itself (its device); None when it may."""
    line = side_lines.lines_of(game, device)[side]
    if not line.is_in or line.mine or my_side(game) == side:
        return None
    # A form shown to a phone on this side says so (`on_side`, and the address a phone that
    # said its side is sent to): the session's side may be lost to another request of the
    # phone's answered at the same moment with the session as it was before.
    if request.values.get("on_side") == str(side):
        return None
    return line


def _held_words(line: side_lines.Line) -> str:
    """Why the line is shown and not offered to change."""
    return (
        f"The line for {line.name} is in, from {line.sent_by}: only a phone on {line.name}'s "
        "side changes it."
    )


def _sender(sent) -> dict:
    """Which phone sent the line, who the table knows it as, and when it was entered there."""
    device = sent.get("device", "")
    millis = sent.get("entered_at", "")
    entered_at = None
    if MILLISECONDS.fullmatch(millis):
        try:
            entered_at = datetime.fromtimestamp(int(millis) / 1000, UTC)
        except (OverflowError, OSError, ValueError):
            entered_at = None  # no moment any phone's clock shows: taken as now
    return {
        # A phone's id is made as a form's key is (hf.freshKey).
        "device": device if deals.FORM_KEY.fullmatch(device) else None,
        "sent_by": sender_name(sent.get("sent_by")),
        "entered_at": entered_at,
    }


def _sent(game: Game, side: int, outcome: side_lines.Outcome):
    """Where the phone goes once its line is sent (or cannot be)."""
    board = url_for("games.scoreboard", secret=game.secret)
    name = game.sides[side].name
    match outcome:
        case side_lines.LineKept(number, lines):
            remember_side(game, side)
            waiting = [line.name for line in lines if not line.is_in]
            flash(
                f"Deal {number}: the line for {name} is in. Waiting for "
                f"{' and '.join(waiting)}; you can still change it."
            )
            return redirect(board + "#lines")
        case deals.Saved(deal) | deals.AlreadySaved(deal):
            remember_side(game, side)
            flash(f"The line for {name} was the last one in: deal {deal.number} saved.")
            return redirect(board + "#totals")
        case deals.Ended():
            flash("This game is over: no more deals can be entered.", "error")
        case deals.LimitReached(refusals):
            flash(" ".join(r.message for r in refusals), "error")
        case deals.NotAllowed():
            refuse(table_level(game.club, game.id))
        case side_lines.NoSuchSide():
            abort(404)
    return redirect(board)


def _meanwhile(game: Game, form: DealForm, side: int, opened_for: int):
    """The deal this line was for was saved meanwhile: shown, and the figures kept (409)."""
    view = game_view(game)
    progress = view.progress
    form.number.data = str(progress.next_deal)
    return _line_page(
        view,
        form,
        side,
        [],
        meanwhile=progress.deals[max(0, opened_for - 1) :],
        over=view.closed is not None,
        status=409,
    )


def _line_page(
    view: GameView,
    form: DealForm,
    side: int,
    problems: list[str],
    status: int | None = None,
    **shown,
):
    progress = view.progress
    return render_template(
        "line.html",
        game=view.game,
        view=view,
        rules=view.rules,
        form=form,
        side=side,
        number=progress.next_deal,
        minimums=progress.minimums,
        dealer=view.dealer(progress.next_deal).player,
        lines=view.next_lines,
        problems=problems,
        field_name=field_name,
        # Kept when the form comes back: the phone is on the side it was shown the form for.
        on_side=my_side(view.game) == side or request.values.get("on_side") == str(side),
        **shown,
    ), status or (422 if request.method == "POST" else 200)
