"""The OpenAPI 3.1 document of JSON API v1, made from what the API declares once: each route's
operation (operations.py), the models of its requests (game_requests.py, a club's
club_requests.py, an answer to a deal agreeing.py) and of its answers (answers.py, a deal's
history and agreement history_answers.py, a club's club_answers.py), and the engine's rule set
(rule_schemas.py)."""

from __future__ import annotations

from typing import Any

from scorekeeper.web.api.agreeing import AGREEMENT_ANSWERS, AGREEMENT_REQUESTS
from scorekeeper.web.api.answers import ANSWERS
from scorekeeper.web.api.club_answers import CLUB_ANSWERS
from scorekeeper.web.api.club_requests import CLUB_REQUESTS
from scorekeeper.web.api.game_requests import REQUESTS, ref
from scorekeeper.web.api.history_answers import HISTORY_ANSWERS
from scorekeeper.web.api.modelled import request_schemas
from scorekeeper.web.api.operations import BUSY, NOT_JSON, OPERATIONS, Operation, errors
from scorekeeper.web.api.rule_schemas import house_rules_schema, ruleset_schema

INFO = {
    "title": "Hand and Foot Scorekeeper API",
    "version": "1",
    "description": "Rule sets, games and deals. Requests and responses are JSON. A game is "
    "private: every request about it sends its secret in X-Game-Key. Every error answer is "
    "{errors: [...]}, each error with the JSON pointers of the figures it is about.",
}


def openapi_document(
    max_body: int | None = None, max_depth: int | None = None, max_brackets: int | None = None
) -> dict[str, Any]:
    """The whole document; `max_body` is the largest body the server reads (else no 413),
    `max_depth` and `max_brackets` how deep and how many lists and objects it reads."""
    paths: dict[str, dict[str, Any]] = {}
    for operation in OPERATIONS:
        shown = _operation(operation, _body_answers(max_body, max_depth, max_brackets))
        paths.setdefault(operation.path, {})[operation.method] = shown
    schemas = {
        **request_schemas(REQUESTS | CLUB_REQUESTS | AGREEMENT_REQUESTS),
        **ANSWERS,
        **AGREEMENT_ANSWERS,
        **HISTORY_ANSWERS,
        **CLUB_ANSWERS,
        "RuleSet": ruleset_schema(),
        "HouseRules": house_rules_schema(),
    }
    return {"openapi": "3.1.0", "info": INFO, "paths": paths, "components": {"schemas": schemas}}


def _operation(operation: Operation, body_answers: dict[str, Any]) -> dict[str, Any]:
    """One operation as the document shows it; `body_answers`: what any body may be answered."""
    shown: dict[str, Any] = {"operationId": operation.operation_id, "summary": operation.summary}
    if operation.description:
        shown["description"] = operation.description
    parameters = [*operation.path_parameters(), *operation.parameters]
    if parameters:
        shown["parameters"] = parameters
    answers = operation.answers
    if operation.body:
        shown["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": ref(operation.body)}},
        }
        answers = {**body_answers, **answers}
    shown["responses"] = dict(sorted(answers.items()))
    return shown


def _body_answers(
    max_body: int | None, max_depth: int | None, max_brackets: int | None
) -> dict[str, Any]:
    """The answers every operation with a JSON body may give, besides its own."""
    depth = f" (more than {max_depth} levels of [ and {{)" if max_depth else ""
    many = f", or holds more than {max_brackets:,} [ and {{ in all" if max_brackets else ""
    common = {
        "400": errors(
            f"The body does not parse as JSON, is not a JSON object, or nests too deeply{depth}"
            f"{many} (field body)"
        ),
        "415": NOT_JSON,
        "503": BUSY,
    }
    if max_body:
        common["413"] = errors(
            f"The body is larger than the API reads ({max_body:,} bytes, a few times the "
            "largest game, deal or line): nothing was read (field body)"
        )
    return common
