"""A side agrees or queries a saved deal (services/agreement.py): the routes, their request and
their answer, declared here with their operations (openapi.py adds the schemas to the document)."""

from __future__ import annotations

from typing import Annotated, Any

from flask import abort

from scorekeeper.plumbing.models import Game
from scorekeeper.rules import Refusal
from scorekeeper.rules.terms import MAX_DEVICE_NAME
from scorekeeper.services import agreement, deals, writes
from scorekeeper.services.agreement import MOST_REASON
from scorekeeper.web.access import Level, game_or_404, refuse, require_game
from scorekeeper.web.api.answer_base import answered, components
from scorekeeper.web.api.game_requests import Unsent, ref
from scorekeeper.web.api.history_answers import AgreementKept, deal_agreement
from scorekeeper.web.api.modelled import Say, Strict, Unfit, read
from scorekeeper.web.api.operations import (
    A_GAME,
    GAME_NOT_FOUND,
    POINTERS,
    answer,
    errors,
    route,
    write_limits,
)
from scorekeeper.web.api.reading import body
from scorekeeper.web.api.refusals import Body, refused
from scorekeeper.web.writing import refused_write, too_many_writes


class DealAnswer(Strict):
    """A side's answer to a saved deal: it agrees, or it queries."""

    side: Annotated[
        int,
        Say(
            "side is the answering side's index, from 0 (a whole number).",
            "The side answering: its index, from 0",
            missing="side is the answering side's index, from 0.",
        ),
    ]
    version: Annotated[
        int,
        Say(
            "version is the deal's version as read (a whole number).",
            "The deal's version as the side saw it (its `version` when read): a deal corrected "
            "since is refused with 409, and the side asked again",
            missing="version is the deal's version as read.",
        ),
    ]
    by: Annotated[
        str | Unsent,
        Say(
            "by is the name of whoever answers (text).",
            "Who answers, shown to the table (control and invisible characters dropped, at "
            f"most {MAX_DEVICE_NAME} characters kept); 'Someone' by default",
        ),
    ] = None
    # The service refuses a reason too long, in its words.
    reason: Annotated[
        str | Unsent,
        Say(
            "reason is the query's words (text).",
            "A query's words: what looks wrong (left out of an agreement)",
            shown={"maxLength": MOST_REASON},
        ),
    ] = None


ANSWER_SENT = Body("answer", tuple(DealAnswer.model_fields))
AGREEMENT_REQUESTS = {"DealAnswer": DealAnswer}
# The answer: the deal's agreement as the game's answer gives it (history_answers.py).
AGREEMENT_ANSWERS = components(AgreementKept)
ANSWERED = answer(
    ref("AgreementKept"),
    "Kept (or said already of this version: nothing more kept): the deal's agreement now",
)


def _operation(what: str) -> dict[str, Any]:
    """What the agreement's and the query's routes answer alike."""
    return {
        "parameters": A_GAME,
        "body": "DealAnswer",
        "answers": {
            "200": ANSWERED,
            "403": errors(f"A club game: {what} needs the club's table code (X-Table-Code)"),
            "404": errors(f"{GAME_NOT_FOUND}; or the game has no such deal"),
            "409": errors(
                "The deal was corrected since the side saw it: `version` is not its version "
                "now (inputs point at /version); nothing kept, the side is asked again"
            ),
            "422": errors(
                f"A side the game does not have, a version or a reason not as documented. "
                f"{POINTERS}. Nothing kept."
            ),
            "429": write_limits(writes.ENTRY),
        },
    }


@route(
    "POST",
    "/games/<int:game_id>/deals/<int:number>/agreement",
    "agreeDeal",
    "A side agrees a saved deal as it stands (its own line already counts as agreeing)",
    **_operation("agreeing"),
)
def agree(game_id: int, number: int):
    """A side agrees the deal: 200 with the deal's agreement, 409 if it was corrected since."""
    return _answered(game_id, number, agreement.AGREED)


@route(
    "POST",
    "/games/<int:game_id>/deals/<int:number>/queries",
    "queryDeal",
    "A side queries a saved deal: the table (and a club's organiser) is asked to look at it",
    description="A query stands until the side agrees the deal, or the deal is corrected "
    "(which asks every side again). It shows on every phone of the table and, for a club "
    "night's game, on the night's page and board.",
    **_operation("querying"),
)
def query(game_id: int, number: int):
    """A side queries the deal: 200 with the deal's agreement, 409 if it was corrected since."""
    return _answered(game_id, number, agreement.QUERIED)


def _answered(game_id: int, number: int, kind: str):
    limited = refused_write(writes.ENTRY, game_id)
    if limited is not None:
        return too_many_writes(limited)
    game = game_or_404(game_id)
    level = require_game(game, Level.READ)
    data = body()
    try:
        sent = read(DealAnswer, data)
        if kind == agreement.AGREED and sent.reason is not None:
            words = "reason is a query's: leave it out of an agreement."
            raise Unfit([Refusal(None, "reason", words)])
    except Unfit as exc:
        return refused(exc.refusals, into=ANSWER_SENT, sent=data)
    said = {"by": sent.by, "device": None}
    if kind == agreement.QUERIED:
        outcome = agreement.query(
            game, level, number, sent.side, sent.version, reason=sent.reason, **said
        )
    else:
        outcome = agreement.agree(game, level, number, sent.side, sent.version, **said)
    match outcome:
        case agreement.Answered() as kept:
            return answered(_agreement_kept(game, number, kept.message))
        case agreement.DealChanged() as changed:
            return refused([Refusal(None, "version", changed.message)], 409, ANSWER_SENT, data)
        case deals.Refused(refusals):
            return refused(refusals, into=ANSWER_SENT, sent=data)
        case deals.NotAllowed():
            refuse(level)
    abort(404)  # NoSuchDeal


def _agreement_kept(game: Game, number: int, message: str) -> AgreementKept:
    """The deal's agreement as the API answers it."""
    deal = next(a for a in agreement.agreement_of(game) if a.number == number)
    names = [side.name for side in game.sides]
    return AgreementKept(deal=number, agreement=deal_agreement(deal, names), message=message)
