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

    @app.cli.command("demo")
    @click.option("--club", "slug", default="demo", show_default=True, help="The club's slug.")
    @click.option(
        "--games",
        default=200,
        show_default=True,
        type=click.IntRange(0, 100_000),
        help="How many finished games to make.",
    )
    @click.option("--seed", default=7, show_default=True, help="The same seed, the same club.")
    def demo(slug: str, games: int, seed: int) -> None:
        """Fill (or refill) a public demo club with members, seasons and finished games."""
        from .clubs import ClubRefused
        from .demo import ORGANISER, PASSWORD, fill_demo, finished_games

        def report(done: int, total: int) -> None:
            if done % 1000 == 0 or done == total:
                click.echo(f"  {done:,} / {total:,} games")

        try:
            club = fill_demo(slug, games, seed, progress=report)
        except ClubRefused as exc:
            raise click.ClickException(str(exc)) from exc
        click.echo(
            f"Demo club '{club.slug}': {len(club.members)} members, {len(club.seasons)} seasons, "
            f"{finished_games(club):,} finished games. Standings: /clubs/{club.slug}/standings"
        )
        click.echo(f"Organiser sign-in: {ORGANISER} / {PASSWORD}")
