"""The reliability tests' stdlib HTTP client: 127.0.0.1, a reply, a call, a game and its keys.

Re-exported by _server.py, where the tests and bench/ import them from. Everything talks to
127.0.0.1 only; every request about a game carries its secret (see _server.py).
"""

from __future__ import annotations

import http.client
import json
import socket
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

HOST = "127.0.0.1"
# One entry per side: 50 melded points each, so every deal adds 50 to each total and a
# ten-thousand game goes on for hundreds of deals.
DEAL = {"scores": [{"melded_points": 50}, {"melded_points": 50}]}
NEW_GAME = {"ruleset": "ten-thousand", "sides": [{"name": "North"}, {"name": "South"}]}


def free_port() -> int:
    """A port nobody listens on now (bound to 0, then released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


def call(
    port: int,
    method: str,
    path: str,
    *,
    json_body: Any = None,
    form: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> Reply:
    """One request on its own connection to 127.0.0.1 (no redirects followed)."""
    sent = {"Connection": "close", **(headers or {})}
    data = None
    if json_body is not None:
        data = json.dumps(json_body).encode()
        sent["Content-Type"] = "application/json"
    elif form is not None:
        data = urlencode(form).encode()
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        got = {k.lower(): v for k, v in response.getheaders()}
        return Reply(response.status, got, response.read())
    finally:
        conn.close()


@dataclass(frozen=True)
class Game:
    """A game started through the API: its id, and the secret every request about it needs."""

    id: int
    secret: str

    @property
    def api(self) -> str:
        """The game's JSON address (it opens only with `headers`)."""
        return f"/api/v1/games/{self.id}"

    @property
    def page(self) -> str:
        """The game's private link, as a path: its scoreboard page."""
        return f"/t/{self.secret}"

    @property
    def headers(self) -> dict[str, str]:
        """The header the API needs for this game."""
        return {"X-Game-Key": self.secret}


def new_game(port: int) -> Game:
    reply = call(port, "POST", "/api/v1/games", json_body=NEW_GAME)
    assert reply.status == 201, reply.text
    started = reply.json()
    game = Game(started["id"], started["key"])
    assert started["url"] == game.page, started
    return game


def every_deal(port: int, game: Game) -> list[dict[str, Any]]:
    """Every deal of the game through the API, following `next` page after page."""
    deals, path = [], game.api
    while path:
        state = call(port, "GET", path, headers=game.headers).json()
        deals += state["deals"]
        path = state["next"]
    return deals


def new_key(prefix: str) -> str:
    """A fresh Idempotency-Key (at most 64 of [A-Za-z0-9_.:-])."""
    return f"{prefix}-{uuid.uuid4().hex}"[:64]
