"""Command-line tasks: `flask --app scorekeeper init-db`."""

from __future__ import annotations

import click
from flask import Flask
from flask_migrate import upgrade


def register(app: Flask) -> None:
    """Attach the commands to the app."""

    @app.cli.command("init-db")
    def init_db() -> None:
        """Create the database, or bring it up to date; safe to run again."""
        upgrade()
        click.echo("Database ready.")
