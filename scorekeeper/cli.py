"""Command-line tasks: `flask --app scorekeeper init-db`, `backup`, `demo`, `recompute`,
`fold`, `game-links`.

Each command imports the use case it runs when it runs: every app has the commands attached,
and the demo's, the recompute's and the links' modules are read only when they are asked for.
No import here dodges a circle (tests/test_layers.py).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import click
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy.engine import make_url


def register(app: Flask) -> None:
    """Attach the commands to the app."""

    @app.cli.command("init-db")
    def init_db() -> None:
        """Create the database, or bring it up to date; safe to run again."""
        upgrade()
        click.echo("Database ready.")

    @app.cli.command("backup")
    @click.argument("path", type=click.Path(dir_okay=False, writable=True))
    def backup(path: str) -> None:
        """Copy the live SQLite database to PATH with SQLite's online backup API."""
        url = make_url(app.config["SQLALCHEMY_DATABASE_URI"])
        if url.get_backend_name() != "sqlite" or not url.database:
            raise click.ClickException(
                "This command backs up SQLite. For PostgreSQL use pg_dump, e.g. "
                'pg_dump --format=custom --file=scorekeeper.dump "$DATABASE_URL".'
            )
        target = Path(path)
        if target.resolve() == Path(url.database).resolve():
            raise click.ClickException("The backup must go to another file.")
        # The copy holds password hashes and every game's secret: owner-only (0600) from its
        # first byte, whatever the umask, and emptied if the file was already there.
        try:
            os.close(os.open(target, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o600))
            target.chmod(0o600)
        except OSError as exc:
            raise click.ClickException(f"Cannot write the backup to {target}: {exc}") from exc
        source = sqlite3.connect(f"file:{url.database}?mode=ro", uri=True)
        copy = sqlite3.connect(target)
        try:
            # Page by page while the app keeps serving: a consistent copy, never a torn file.
            source.backup(copy)
            check = copy.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            copy.close()
            source.close()
        if check != "ok":
            raise click.ClickException(f"The copy failed its integrity check: {check}")
        click.echo(f"Backed up to {target} ({target.stat().st_size:,} bytes, integrity ok).")

    @app.cli.command("recompute")
    @click.option("--dry-run", is_flag=True, help="Only report what differs; change nothing.")
    def recompute_command(dry_run: bool) -> None:
        """Rebuild every stored total and standings figure from the deals' entries."""
        from scorekeeper.services.recompute import recompute

        def report(done: int) -> None:
            if done % 10_000 == 0:
                click.echo(f"  {done:,} games")

        found = recompute(dry_run=dry_run, progress=report)
        for line in found.lines():
            click.echo(line)
        if dry_run and found.changed:
            click.echo("Dry run: nothing was changed. Run without --dry-run to put it right.")

    @app.cli.command("fold")
    @click.option("--watch", is_flag=True, help="Keep folding as saves mark (RATINGS_FOLD=off).")
    def fold_command(watch: bool) -> None:
        """Fold every club's ratings marks now (and, watching, as they come)."""
        from scorekeeper.services.ratings import folder, refold

        if watch:
            click.echo(f"Folding ratings marks, looking every {folder.SWEEP_SECONDS:g} s.")
            folder.Folder(app).watch()
        click.echo(f"Folded the ratings of {refold.fold_every_club():,} clubs.")

    @app.cli.command("game-links")
    @click.option(
        "--base-url",
        default=None,
        help="The address phones reach this server at, e.g. https://scores.example.org "
        "(default: PUBLIC_URL from the config, else http://localhost:5000).",
    )
    def game_links(base_url: str | None) -> None:
        """Print every game's private link, for the operator to hand to its table."""
        from scorekeeper.services.links import every_game, link_of

        base = base_url or app.config.get("PUBLIC_URL") or "http://localhost:5000"
        count = 0
        for game in every_game():
            where = game.club.name if game.club else "casual"
            sides = " v ".join(side.name for side in game.sides)
            state = "finished" if game.finished_at else "in progress"
            click.echo(
                f"game {game.id}\t{game.played_on.isoformat()}\t{where}\t{sides}\t{state}\t"
                f"{link_of(game, base)}"
            )
            count += 1
        click.echo(
            f"{count:,} game{'' if count == 1 else 's'}. Each link is the game's only "
            "address: hand it only to that game's table.",
            err=True,
        )

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
        from scorekeeper.plumbing.security import in_production
        from scorekeeper.services.accounts import AccountRefused
        from scorekeeper.services.clubs import ClubRefused
        from scorekeeper.services.demo import ORGANISER, PASSWORD, fill_demo, finished_games

        if in_production():
            # Its organiser's password is published: on a real server anyone could sign in.
            raise click.ClickException(
                "The demo club is not made in production (SCOREKEEPER_ENV=production): its "
                "organiser's password is published, so anyone could sign in as them. "
                "Fill a demo on a server run without SCOREKEEPER_ENV=production."
            )

        def report(done: int, total: int) -> None:
            if done % 1000 == 0 or done == total:
                click.echo(f"  {done:,} / {total:,} games")

        try:
            club = fill_demo(slug, games, seed, progress=report)
        except (AccountRefused, ClubRefused) as exc:
            raise click.ClickException(str(exc)) from exc
        click.echo(
            f"Demo club '{club.slug}': {len(club.members)} members, {len(club.seasons)} seasons, "
            f"{finished_games(club):,} finished games. Standings: /clubs/{club.slug}/standings"
        )
        click.echo(f"Organiser sign-in: {ORGANISER} / {PASSWORD}")
