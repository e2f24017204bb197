"""Each route of the API and its operation in the OpenAPI document, declared together.

`route` adds a view to the blueprint and records what the document says of it, so a route is
never without its operation; the document's path and path parameters are the route's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorekeeper.plumbing.db import WRITER_WAIT_SECONDS
from scorekeeper.services import writes
from scorekeeper.services.creations import ALLOWANCES, GAME
from scorekeeper.services.deals import KEY
from scorekeeper.services.links import MISS_WINDOW, MISSES_ALLOWED, SECRET
from scorekeeper.web.api import bp
from scorekeeper.web.api.game_requests import GameQuery, ref
from scorekeeper.web.api.modelled import query_parameters

# A variable part of a route's rule: <int:game_id>, <slug> (its converter, its name).
VARIABLE = re.compile(r"<(?:([^:<>]+):)?([^:<>]+)>")


@dataclass(frozen=True)
class Operation:
    """What the document says of one route: what it does, takes and answers."""

    method: str
    rule: str  # the route's rule, under the blueprint's prefix
    operation_id: str
    summary: str
    answers: dict[str, dict[str, Any]]  # by status: answer() or errors()
    parameters: tuple[dict[str, Any], ...] = ()  # besides the path's own
    body: str | None = None  # the schema of the JSON body it reads, by name
    description: str | None = None

    @property
    def path(self) -> str:
        """The route as the document writes it: /api/v1/games/{game_id}."""
        return bp.url_prefix + VARIABLE.sub(lambda found: "{" + found[2] + "}", self.rule)

    def path_parameters(self) -> list[dict[str, Any]]:
        """The parameters of the route's path, each as its converter reads it."""
        shown = []
        for converter, name in VARIABLE.findall(self.rule):
            # Werkzeug's int converter takes digits alone: no sign, so nothing below 0.
            schema = {"type": "integer", "minimum": 0} if converter == "int" else {"type": "string"}
            words = {"description": PATH_WORDS[name]} if name in PATH_WORDS else {}
            shown.append({"name": name, "in": "path", "required": True, **words, "schema": schema})
        return shown


OPERATIONS: list[Operation] = []
PATH_WORDS = {
    "side": "The side's index, from 0, in the game's order of sides (a side the game does not "
    "have: 404)",
}


def route(
    method: str,
    rule: str,
    operation_id: str,
    summary: str,
    endpoint: str | None = None,
    **more: Any,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Route a view of the API (`endpoint`: its name, if not the view's) and record the
    operation the document shows for it (`more`: Operation's answers, parameters, ...)."""

    def register(view: Callable[..., Any]) -> Callable[..., Any]:
        bp.add_url_rule(rule, endpoint, view, methods=[method])
        OPERATIONS.append(Operation(method.lower(), rule, operation_id, summary, **more))
        return view

    return register


def answer(schema: dict[str, Any], description: str, **headers: str) -> dict[str, Any]:
    """An answer of JSON of this schema; `headers`: what each header it sends says."""
    shown: dict[str, Any] = {
        "description": description,
        "content": {"application/json": {"schema": schema}},
    }
    if headers:
        shown["headers"] = {
            name.replace("_", "-"): {"description": text, "schema": {"type": "string"}}
            for name, text in headers.items()
        }
    return shown


def errors(description: str) -> dict[str, Any]:
    """An answer of errors (the Errors schema), as this status says them."""
    return answer(ref("Errors"), description)


# --- answers shared by several operations ---------------------------------------------------

NOT_JSON = errors("The body is not JSON (send Content-Type: application/json)")
BUSY = errors(
    "The server is busy saving other tables' deals (on SQLite a request that writes waits at "
    f"most {WRITER_WAIT_SECONDS} s for its turn): nothing was saved; send it again"
)
GAME_NOT_FOUND = (
    "No such game; also a missing or wrong X-Game-Key, or a private club's game asked without "
    "its X-Table-Code (all answered alike, so that nothing tells them apart)"
)
RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds until this address may ask again",
        "schema": {"type": "string", "pattern": "^[0-9]+$"},
    }
}
TOO_MANY = {
    **errors(
        f"This address (an IPv6 /64) asked for games that are not there, or sent table codes "
        f"no club has, {MISSES_ALLOWED} times within {MISS_WINDOW.seconds // 60} minutes: no "
        "key or table code is checked until the Retry-After seconds have passed, even the "
        "right one"
    ),
    "headers": RETRY_AFTER,
}
# Starting games: each address has an allowance in a window (creations.py), whatever the key.
_GAMES = ALLOWANCES[GAME]
TOO_MANY_GAMES = {
    **errors(
        f"This address has started the most games it may within the last "
        f"{int(_GAMES.window.total_seconds()) // 60} minutes ({_GAMES.most} unless the "
        f"server's {_GAMES.setting} says otherwise; an IPv6 /64 counts as one address): nothing "
        "was saved. The message says when to try again; Retry-After gives the seconds"
    ),
    "headers": RETRY_AFTER,
}


def write_limits(kind: str) -> dict[str, Any]:
    """A game's write refused for a link's misses, or past its game's or address's allowance of
    `kind` (writes.py)."""
    game, address = (
        writes.ALLOWANCES[(kind, writes.GAME)],
        writes.ALLOWANCES[(kind, writes.ADDRESS)],
    )
    return {
        **errors(
            f"{TOO_MANY['description']}. Or this game has had {game.most} {game.what} within "
            f"{writes.window_words(game.window)}, or this address (an IPv6 /64) has sent "
            f"{address.most} within {writes.window_words(address.window)} (unless the server's "
            f"{game.setting} or {address.setting} says otherwise): nothing was read or saved. "
            "The message names which, and when to try again; Retry-After gives the seconds"
        ),
        "headers": RETRY_AFTER,
    }


POINTERS = (
    "Each error's `inputs` point at the figures it is about in the request body (JSON "
    "pointers, RFC 6901)"
)

# --- parameters shared by several operations ------------------------------------------------

IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Sent again with the same key and the same scores, the request records no "
    "second deal: it answers 201 with Idempotent-Replayed: true. The same key with other scores "
    "is refused with 422 (field Idempotency-Key): a key is bound to the scores it was first "
    "sent with.",
    "schema": {"type": "string", "pattern": f"^{KEY.pattern}$"},
}
GAME_KEY = {
    "name": "X-Game-Key",
    "in": "header",
    "required": True,
    "description": "The game's secret, as `key` in the answer that started it (the last part "
    "of its private link). Without it, or with a wrong one, the game is a 404.",
    "schema": {"type": "string", "pattern": f"^{SECRET.pattern}$"},
}
TABLE_CODE = {
    "name": "X-Table-Code",
    "in": "header",
    "required": False,
    "description": "A club's table-link code: needed to start a club game and to enter or "
    "correct its deals, and to see a private club's games and standings",
    "schema": {"type": "string"},
}
(DEALS_FROM,) = query_parameters(GameQuery)
# What every request about a game sends, and what may answer it without the game.
A_GAME = (GAME_KEY, TABLE_CODE)
