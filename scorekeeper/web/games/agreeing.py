"""A side agrees or queries a saved deal from the scoreboard (services/agreement.py), and what
the scoreboard shows of each deal's agreement on this phone."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from flask import flash, redirect, request, url_for

from scorekeeper.plumbing.models import DealEvent, Game
from scorekeeper.services import agreement, agreement_shown, deals, writes
from scorekeeper.services.agreement import DealAgreement
from scorekeeper.services.agreement_shown import OpenQuery, ToAnswer
from scorekeeper.web.access import (
    Level,
    game_or_404,
    my_side,
    refuse,
    remember_side,
    require_game,
    table_level,
)
from scorekeeper.web.forms import ActionForm, sender_name
from scorekeeper.web.games import VERSION, bp
from scorekeeper.web.games.scoreboard import deal_url
from scorekeeper.web.writing import refused_write

AGREE, QUERY = "agree", "query"


@dataclass(frozen=True)
class Shown:
    """What the scoreboard shows of the game's agreement on this phone."""

    side: int | None  # the side this phone is on (my_side), if any
    agreed: frozenset[int]  # the deals every side has agreed: marked
    asked: list[ToAnswer]  # the deals this phone is asked to agree or query
    queries: list[OpenQuery]  # the queries standing, shown on every phone
    states: dict[int, str]  # a phone on no side: each asked deal's sides' states in words
    heading: str
    hint: str
    query_note: str  # after each query: who is asked to look at it
    token: str  # the sides' answers as they stand (agreement_shown.answers_token), for live.js
    most_reason: int = agreement.MOST_REASON


def shown_on_this_phone(game: Game, events: Iterable[DealEvent] | None = None) -> Shown:
    """The marks, questions and queries of the scoreboard, for the side this phone is on; from
    the game's history as the scoreboard read it (`events`), else read here."""
    agreements = (
        agreement.agreement_of(game)
        if events is None
        else agreement.agreement_from(game.deals, len(game.sides), events)
    )
    side = my_side(game)
    asked = agreement_shown.to_answer(game, agreements, side)
    by_number: dict[int, DealAgreement] = {a.number: a for a in agreements}
    states = (
        {a.number: agreement_shown.states_words(game, by_number[a.number]) for a in asked}
        if side is None
        else {}
    )
    name = game.sides[side].name if side is not None else ""
    return Shown(
        side,
        frozenset(a.number for a in agreements if a.agreed),
        asked,
        agreement_shown.open_queries([game.id]).get(game.id, []),
        states,
        agreement_shown.ASK_SIDE.format(name=name) if name else agreement_shown.ASK_EVERY_SIDE,
        agreement_shown.ASK_SIDE_HINT if name else agreement_shown.ASK_EVERY_SIDE_HINT,
        agreement_shown.ORGANISER_ASKED
        if game.club_id is not None
        else agreement_shown.TALK_IT_OVER,
        agreement_shown.answers_token(game.id),
    )


bp.add_app_template_global(shown_on_this_phone, "agreement_shown")


@bp.post("/t/<secret>/deals/<int:number>/answer")
def answer(game_id: int, number: int):
    """A side agrees the deal (one tap) or queries it; back to the scoreboard at the deal."""
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    board = deal_url(game, number) if 1 <= number <= len(game.deals) else None
    board = board or url_for(".scoreboard", secret=game.secret)
    if not ActionForm().validate_on_submit():
        return redirect(board)
    limited = refused_write(writes.ENTRY, game.id)
    if limited is not None:
        flash(limited.message, "error")
        return redirect(board)
    sent = request.form
    side = int(sent["side"]) if VERSION.fullmatch(sent.get("side", "")) else -1
    version = int(sent["version"]) if VERSION.fullmatch(sent.get("version", "")) else None
    said = {"by": sender_name(sent.get("by")), "device": sent.get("device") or None}
    if sent.get("answer") == QUERY:
        outcome = agreement.query(
            game, level, number, side, version, reason=sent.get("reason"), **said
        )
    else:
        outcome = agreement.agree(game, level, number, side, version, **said)
    match outcome:
        case agreement.Answered() as answered:
            # The phone is on the side it answered for: it is asked that side's deals from now.
            remember_side(game, answered.side)
            flash(answered.message)
        case agreement.DealChanged() as changed:
            flash(changed.message, "error")
        case deals.Refused(refusals):
            flash(" ".join(r.message for r in refusals), "error")
        case deals.NoSuchDeal():
            flash(f"This game has no deal {number}.", "error")
        case deals.NotAllowed():
            refuse(table_level(game.club, game.id))
    return redirect(board)


@bp.post("/t/<secret>/side")
def choose_side(game_id: int):
    """This phone says which side it is on: it may change that side's line, and is asked that
    side's deals to agree (access.my_side); back to the side's line."""
    game = game_or_404(game_id)
    require_game(game, Level.TABLE)
    raw = request.form.get("side", "")
    side = int(raw) if VERSION.fullmatch(raw) else -1
    if not ActionForm().validate_on_submit() or not 0 <= side < len(game.sides):
        return redirect(url_for(".scoreboard", secret=game.secret))
    remember_side(game, side)
    flash(f"This phone is on {game.sides[side].name}'s side.")
    return redirect(url_for("lines.line", secret=game.secret, side=side, on_side=side))
