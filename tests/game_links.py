"""Games open only through their private link: helpers for tests that know a game by its id.

A test that started a game knows its id (from the API's answer or the database); these give the
path `/t/<secret>` that its pages live under, and the `X-Game-Key` header its API needs.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from sqlalchemy import event

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game


def secret_of(where: Any, game_id: int) -> str:
    """The game's secret, read from the database of an app (or of a test client's app)."""
    app: Flask = getattr(where, "application", where)
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None, f"no game {game_id}"
        return game.secret


def link(where: Any, game_id: int) -> str:
    """The game's private link, as a path: `/t/<secret>`."""
    return "/t/" + secret_of(where, game_id)


def key(where: Any, game_id: int) -> dict[str, str]:
    """The header the API needs for this game."""
    return {"X-Game-Key": secret_of(where, game_id)}


def statements_asked(app, client, path: str, headers: dict[str, str]) -> tuple[int, list[str]]:
    """A GET's status, and every statement the database was asked while answering it."""
    seen: list[str] = []
    with app.app_context():
        engine = db.engine

    def note(conn, cursor, statement, parameters, context, executemany):
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        status = client.get(path, headers=headers).status_code
    finally:
        event.remove(engine, "before_cursor_execute", note)
    return status, seen
