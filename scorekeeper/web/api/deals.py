"""Entering a deal, correcting one, and each side's own line of the next deal."""

from __future__ import annotations

from typing import Any

from flask import abort, request

from scorekeeper.plumbing.models import Game
from scorekeeper.rules import Refusal
from scorekeeper.rules.terms import DEAL_LIMIT
from scorekeeper.services import deals, game_view, side_lines, writes
from scorekeeper.services.names import phone_name
from scorekeeper.web.access import Level, game_or_404, refuse, require_game
from scorekeeper.web.api.answer_base import answered
from scorekeeper.web.api.game_requests import (
    DEAL_BODY,
    LINE_BODY,
    NEW_DEAL_BODY,
    DealScores,
    PartBody,
    ref,
)
from scorekeeper.web.api.modelled import M, Unfit, read
from scorekeeper.web.api.operations import (
    A_GAME,
    DEALS_FROM,
    GAME_NOT_FOUND,
    IDEMPOTENCY_KEY,
    POINTERS,
    TOO_MANY,
    answer,
    errors,
    route,
    write_limits,
)
from scorekeeper.web.api.reading import body, deals_from
from scorekeeper.web.api.refusals import Body, refused, stop
from scorekeeper.web.api.state import game_state, parts_answer
from scorekeeper.web.writing import refused_write, too_many_writes

GAME_STATE = ref("GameState")
SAVED = answer(
    GAME_STATE,
    "Saved: the game's state with the new deal",
    Idempotent_Replayed="true when the Idempotency-Key was seen with these scores before: the "
    "deal it recorded stands, and nothing more was saved",
)


@route(
    "POST",
    "/games/<int:game_id>/deals",
    "enterDeal",
    "Enter the next deal",
    parameters=(*A_GAME, IDEMPOTENCY_KEY, DEALS_FROM),
    body="DealScores",
    answers={
        "201": SAVED,
        "403": errors("A club game: entering a deal needs the club's table code (X-Table-Code)"),
        "404": errors(GAME_NOT_FOUND),
        "409": errors(
            f"The game is over; or it holds its most deals (deal_limit: {DEAL_LIMIT} unless a "
            "house rule sets it), a limit that does not end the game; or another request saved "
            "this deal first. Nothing was saved (inputs: [])."
        ),
        "422": errors(
            "Figures the rules refuse: each error names the side (null for the deal as a "
            f"whole), the figure and why. {POINTERS}: /scores/1/melded_cards/black_three, "
            "/scores; a limit of the whole deal points at every side's figure that counted "
            "toward it. Also a deals_from that is not a deal number, or an Idempotency-Key "
            "already used with other scores (inputs: [] for both). Nothing was saved."
        ),
        "429": write_limits(writes.ENTRY),
    },
)
def add_deal(game_id: int):
    """Enter the next deal: 201, 422 naming each refused figure, or 409 if the game is over."""
    # Counted before the game is read: a write past the allowance costs next to nothing.
    limited = refused_write(writes.ENTRY, game_id)
    if limited is not None:
        return too_many_writes(limited)
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    start = deals_from()  # read first: a bad one must not follow a deal that was saved
    data = body()
    key = request.headers.get("Idempotency-Key")
    # "deal": the deal these figures are for, so that one saved meanwhile is never saved over;
    # who sent it and from which side, for its history (the side's agreement comes with it).
    sent = _read(DealScores, data, NEW_DEAL_BODY)
    name = _named(sent.sent_by)
    outcome = deals.enter_deal(game, level, sent.scores, key, sent.deal, None, name, sent.side)
    return _answer(game, level, outcome, 201, start, data, NEW_DEAL_BODY)


@route(
    "PUT",
    "/games/<int:game_id>/deals/<int:number>",
    "correctDeal",
    "Correct a deal; every later total is recomputed",
    parameters=(*A_GAME, DEALS_FROM),
    body="DealScores",
    answers={
        "200": answer(
            GAME_STATE,
            "Corrected: the game's state with every later total, minimum and the winners "
            "recomputed (a correction that changes nothing is 200 too, and keeps the version)",
        ),
        "403": errors(
            "A club game: correcting needs the club's table code (X-Table-Code) or the "
            "game's key; once a club's finished game is locked (every side agreed every "
            "deal, or the club's hours since it ended passed), only its organisers (signed "
            "in) may correct it, giving a `reason`: the error says why it is locked (field "
            "deal). Nothing was saved."
        ),
        "404": errors(f"{GAME_NOT_FOUND}; or the game has no such deal"),
        "409": errors(
            "Made from an older version of the deal: `version` is not the deal's version now "
            "(another phone corrected it meanwhile). The error's inputs point at /version. "
            "Nothing was saved."
        ),
        "422": errors(
            "Refused, nothing saved: figures the rules refuse, as for a new deal "
            f"({POINTERS}: /scores/0/books/clean); a `version` that is not a whole number "
            "(/version); or a correction that would end the game before deals that already "
            "follow it (say deal 1 of 3 corrected past the target score): that is refused with "
            "422, not 409, since the figures themselves cannot stand (inputs: []). Also a "
            "deals_from that is not a deal number."
        ),
        "429": write_limits(writes.CORRECTION),
    },
)
def correct_deal(game_id: int, number: int):
    """Correct a deal: 200 with everything after it recomputed, 409 if made from a stale copy."""
    limited = refused_write(writes.CORRECTION, game_id)
    if limited is not None:
        return too_many_writes(limited)
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    start = deals_from()
    data = body()
    sent = _read(DealScores, data, DEAL_BODY)
    outcome = deals.correct_deal(
        game, level, number, sent.scores, sent.version, _named(sent.sent_by), sent.reason
    )
    return _answer(game, level, outcome, 200, start, data)


@route(
    "PUT",
    "/games/<int:game_id>/deals/next/parts/<int:side>",
    "sendLine",
    "Send one side's own line of the next deal; the deal is saved when the last side's line is in",
    description="Each side may enter its own line on its own phone. A line is checked as it "
    "comes in against the lines in so far (as the whole deal would be); a side's later line "
    "takes the place of its earlier one. When the last side's line arrives, the deal is "
    "checked as a whole and saved once, and the lines go. A whole deal entered meanwhile "
    "(POST .../deals) is saved in their place.",
    parameters=(*A_GAME, DEALS_FROM),
    body="PartBody",
    answers={
        "200": answer(
            ref("Parts"),
            "Kept: the deal waits for the other sides' lines (every side's line as it stands)",
        ),
        "201": answer(
            GAME_STATE,
            "This line was the last one in: the deal was saved, and the answer is the game's "
            "state with it",
        ),
        "403": errors("A club game: sending a line needs the club's table code (X-Table-Code)"),
        "404": errors(f"{GAME_NOT_FOUND}; or the game has no such side"),
        "409": errors(
            "Nothing was kept: the deal named in `deal` was saved meanwhile (field deal); "
            "another line for this side, entered later, stands (field entered_at, the message "
            "says who sent it); the game is over, or holds its most deals (inputs: [])."
        ),
        "422": errors(
            "Refused, nothing kept: the line's figures, or what they meet with the lines in so "
            "far (say two sides went out: the other side's line then shows the problem). "
            f"{POINTERS}: /entry/melded_cards/black_three, /entry/went_out; another side's "
            "figure is left out of inputs. Also a `deal` missing, or a `deal`, `sent_by` or "
            "`entered_at` not as documented (/deal, /sent_by, /entered_at), or a deals_from "
            "that is not a deal number."
        ),
        "429": write_limits(writes.ENTRY),
    },
)
def send_line(game_id: int, side: int):
    """Send one side's line of the next deal: 200 kept, or 201 when it was the last and the
    deal was saved; 422 naming each refused figure, 409 if stale or the game takes no deal."""
    limited = refused_write(writes.ENTRY, game_id)
    if limited is not None:
        return too_many_writes(limited)
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    start = deals_from()
    data = body()
    line = _read(PartBody, data, LINE_BODY)
    # The sender's name is cleaned, cut and defaulted by side_lines.send_line (names.phone_name).
    said = {"opened_for": line.deal, "sent_by": line.sent_by, "entered_at": line.entered_at}
    outcome = side_lines.send_line(game, level, side, line.entry, **said)
    match outcome:
        case side_lines.LineKept(number, lines):
            return answered(parts_answer(number, lines))
        case side_lines.LaterLineKept() as later:
            return refused([Refusal(side, "entered_at", later.message)], 409)
        case deals.Ended(refusals) | deals.LimitReached(refusals):
            return refused(refusals, 409)
        case side_lines.NoSuchSide():
            abort(404)
    return _answer(game, level, outcome, 201, start, data, LINE_BODY.of(side))


@route(
    "GET",
    "/games/<int:game_id>/deals/next/parts",
    "getLines",
    "Each side's own line of the next deal, in or not yet",
    parameters=A_GAME,
    answers={
        "200": answer(
            ref("Parts"),
            "The lines of the next deal, one per side (none, and deal null, once no deal can "
            "be entered)",
        ),
        "404": errors(GAME_NOT_FOUND),
        "429": TOO_MANY,
    },
)
def next_lines(game_id: int):
    """Each side's line of the next deal, in or not yet (none once no deal can be entered)."""
    game = game_or_404(game_id)
    require_game(game, Level.READ)
    view = game_view.game_view(game)
    return answered(parts_answer(view.next_deal, view.lines))


def _read(model: type[M], data: dict[str, Any], into: Body) -> M:
    """The body's figures; 422 pointing at each this API refuses."""
    try:
        return read(model, data)
    except Unfit as exc:
        stop(exc.refusals, into=into, sent=data)


def _named(sent: str | None) -> str | None:
    """A deal's sender as the history keeps it (names.phone_name); None when none was sent, so
    the table's news says "another phone" as before (the history says Someone)."""
    return None if sent is None else phone_name(sent)


def _answer(
    game: Game,
    level: Level,
    outcome: deals.Outcome,
    saved_status: int,
    deals_from: int = 1,
    sent: Any = None,
    into: Body = DEAL_BODY,
):
    """The JSON answer for what entering or correcting a deal came to (`sent`: the body, whose
    shape is `into`)."""
    match outcome:
        case deals.Saved():
            return answered(game_state(game, deals_from=deals_from)), saved_status
        case deals.AlreadySaved():
            # The same key again: the deal it recorded stands, and the answer is the same.
            response = answered(game_state(game, deals_from=deals_from))
            response.headers["Idempotent-Replayed"] = "true"
            return response, saved_status
        case deals.KeyReused() as reused:
            return refused([Refusal(None, "Idempotency-Key", reused.message)])
        case deals.SavedMeanwhile() as meanwhile:
            return refused([Refusal(None, "deal", meanwhile.message)], 409)
        case deals.ChangedMeanwhile() as changed:
            # The version sent is the figure at fault: the deal moved on from it.
            return refused([Refusal(None, "version", changed.message)], 409, DEAL_BODY, sent)
        case deals.Ended(refusals) | deals.LimitReached(refusals):
            return refused(refusals, 409, DEAL_BODY, sent)
        case deals.Refused(refusals):
            return refused(refusals, into=into, sent=sent)
        case deals.Locked() as locked:
            return refused([Refusal(None, "deal", locked.message)], 403)
        case deals.NotAllowed():
            refuse(level)
    abort(404)  # NoSuchDeal
