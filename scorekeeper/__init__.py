"""Hand and Foot scorekeeper.

`scorekeeper.rules` is the engine, importable with the standard library alone, so nothing here
imports Flask: `create_app` loads the web framework only when an app is built (factory.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app (`flask --app scorekeeper` and gunicorn find it here)."""
    from scorekeeper.factory import create_app as build

    return build(test_config)


def with_driver(url: str) -> str:
    """A PostgreSQL URL with the psycopg driver named (hosts hand out postgres://)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url
