"""The app factory: config, database, blueprints, error pages and commands.

The app's own modules are imported inside the functions that build the app (the Flask factory's
usual way): importing this module, or `scorekeeper` whose `create_app` reads it, loads no view,
model or use case until an app is made. No import here dodges a circle (tests/test_layers.py).
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path
from typing import Any

from flask import Flask

from scorekeeper import with_driver

HERE = Path(__file__).resolve().parent
# Templates and static files sit beside the package in a checkout; a wheel carries them inside.
ROOT = HERE.parent if (HERE.parent / "templates").is_dir() else HERE


def database_url(instance_path: str) -> str:
    """The database to use: DATABASE_URL if set, else SQLite in the instance folder."""
    url = os.environ.get("DATABASE_URL", "")
    if not url:
        return f"sqlite:///{Path(instance_path) / 'scorekeeper.sqlite'}"
    return with_driver(url)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: config, database, blueprints, error pages and commands."""
    # Not every system's MIME table knows the manifest; phones install the app from it.
    mimetypes.add_type("application/manifest+json", ".webmanifest")
    from scorekeeper.plumbing import bodies

    app = Flask(
        "scorekeeper",  # the package: its instance folder, and the logger's name
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SECRET_KEY=os.environ.get("SECRET_KEY", "dev"),
        SQLALCHEMY_DATABASE_URI=database_url(app.instance_path),
        # hide_parameters: a failed statement's error (in the log) never quotes its values,
        # which may be a game's secret or a table code it looked up.
        SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True, "hide_parameters": True},
        # The address phones reach the server at, for game links printed or drawn as QR codes
        # (e.g. https://scores.example.org); unset, each page uses the address it was asked at.
        PUBLIC_URL=os.environ.get("SCOREKEEPER_URL", ""),
        # Room for a club's records CSV (5 MB): the largest body of any route. Every other
        # request is allowed far less (bodies.py gives each its allowance).
        MAX_CONTENT_LENGTH=bodies.MAX_UPLOAD,
        MAX_FORM_PARTS=bodies.MAX_FORM_PARTS,
        MAX_FORM_MEMORY_SIZE=bodies.MAX_FORM_MEMORY_SIZE,
        WTF_CSRF_TIME_LIMIT=None,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)

    from scorekeeper import cli
    from scorekeeper.plumbing import compress, security
    from scorekeeper.plumbing.db import db, migrate
    from scorekeeper.plumbing.redaction import keep_secrets_out
    from scorekeeper.web import (
        accounts,
        api,
        clubs,
        errors,
        games,
        home,
        invite,
        lines,
        live,
        naming,
        nights,
        rulecards,
        scorer,
    )

    # The app's log (a failed request's path, a traceback) blanks secrets as gunicorn's does.
    keep_secrets_out(app.logger)
    db.init_app(app)
    migrate.init_app(app, db, directory=str(HERE / "migrations"))
    # First of the hooks: every later one that reads a body reads it bounded.
    bodies.configure(app)
    security.configure(app)
    compress.configure(app)
    # Behind a proxy, trust its X-Forwarded-For and -Proto (for sign-in limits, HTTPS), but
    # only on requests that came through it (SCOREKEEPER_PROXY_FROM).
    from scorekeeper.plumbing.proxies import trust_proxies

    trust_proxies(app)
    _sqlite_pragmas(app)
    from flask_wtf.csrf import CSRFProtect

    csrf = CSRFProtect(app)
    csrf.exempt(api.bp)
    # An address from before private links changes nothing, whatever is posted to it.
    csrf.exempt(games.moved)
    from scorekeeper.web.access import open_game_link

    # Before every view and before the CSRF check: a game's routes open only with its secret.
    app.url_value_preprocessor(open_game_link)
    for blueprint in (
        home.bp,
        games.bp,
        invite.bp,
        lines.bp,
        live.bp,
        scorer.bp,
        rulecards.bp,
        api.bp,
        accounts.bp,
        clubs.bp,
        nights.bp,
        naming.bp,
    ):
        app.register_blueprint(blueprint)
    from scorekeeper.web import writing

    # After the SQLite writer's turn (_sqlite_pragmas): a write's count is kept within the turn.
    writing.configure(app)
    _login(app)
    errors.register(app)
    cli.register(app)
    _template_globals(app)
    from scorekeeper.services.ratings import folder

    # Each process's ratings folder starts with its first request (folder.py).
    folder.start_with_requests(app)
    from scorekeeper.services.records_import import runner

    # And its import jobs' thread (records_import/runner.py).
    runner.start_with_requests(app)
    return app


def _login(app: Flask) -> None:
    """Organisers sign in with Flask-Login; everyone else needs no account."""
    from flask import session
    from flask_login import LoginManager, current_user

    from scorekeeper.plumbing.db import db
    from scorekeeper.plumbing.models import Organiser
    from scorekeeper.web.accounts import GENERATION

    manager = LoginManager(app)
    manager.login_view = "accounts.login"
    manager.login_message = "Sign in as an organiser to do that."

    @manager.user_loader
    def load(user_id: str) -> Organiser | None:
        """The session's organiser, if the session is of their current generation."""
        valid = user_id.isascii() and user_id.isdigit() and len(user_id) <= 9
        organiser = db.session.get(Organiser, int(user_id)) if valid else None
        generation = session.get(GENERATION)
        # A session from before a sign-out (a copied cookie), or with no generation at all
        # (a remember-me cookie alone), is refused. It is emptied as well: its table links and
        # games were given up with the sign-out, and must not outlive it in a replayed cookie.
        stale = organiser is None or generation != organiser.session_generation
        if stale or type(generation) is not int:
            session.clear()
            return None
        return organiser

    @app.before_request
    def refuse_ended_sessions() -> None:
        """Check a signed-in session before any view reads its table links or games."""
        if "_user_id" in session:
            current_user._get_current_object()  # runs the loader, which refuses a stale one


def _template_globals(app: Flask) -> None:
    """The game's names and who may do what, for every template; a game's version."""
    from scorekeeper.rules import rounding, terms
    from scorekeeper.rules.lines import line_summary
    from scorekeeper.services.access import may_correct, may_delete, may_enter
    from scorekeeper.services.deals import FORM_KEY
    from scorekeeper.services.games import rules_called
    from scorekeeper.services.live import version_of
    from scorekeeper.services.names import SOMEONE
    from scorekeeper.services.queue_words import QUEUE_WORDS

    app.jinja_env.globals.update(
        card_labels=terms.CARD_LABELS,
        book_labels=terms.BOOK_LABELS,
        extra_labels=terms.EXTRA_BONUSES,
        melded_black_threes=terms.MELDED_BLACK_THREES,
        card_categories=terms.CARD_CATEGORIES,
        breakdown_lines=terms.BREAKDOWN_LINES,
        breakdown_total=terms.BREAKDOWN_TOTAL,
        needed_to_open=terms.NEEDED_TO_OPEN,
        # The queue's words the live corner says too: a game gone (deleted, or its link
        # replaced), a side it cannot name, the link to the next game.
        live_words={key: QUEUE_WORDS[key] for key in ("sent_404", "a_side", "open")},
        max_name=terms.MAX_NAME,
        deck_size=terms.DECK_SIZE,
        max_device_name=terms.MAX_DEVICE_NAME,
        partners=terms.PARTNERS,
        # How a figure that is not whole is shown (halves up), said beside a night's standings.
        rounding_rule=rounding.RULE,
        # What a phone says when it was given no name, and the form its id takes (live.js).
        someone=SOMEONE,
        form_key=FORM_KEY.pattern,
        may_correct=may_correct,
        may_delete=may_delete,
        may_enter=may_enter,
        live_version=version_of,
        # A game's rules as its club calls them (a list's game line, a member's results).
        rules_called=rules_called,
    )
    # `entry|line_summary(rules)`: a side's line read back in one sentence.
    app.add_template_filter(lambda entry, rules: line_summary(rules, entry), "line_summary")
    # `n|figure` (1,355, −35) and `n|signed` (+1,355, −35): every figure a page shows.
    app.add_template_filter(terms.figure, "figure")
    app.add_template_filter(terms.signed, "signed")


def _sqlite_pragmas(app: Flask) -> None:
    """SQLite settings for every connection (see db.configure_sqlite)."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        return
    from scorekeeper.plumbing.db import configure_sqlite, db, one_writer_at_a_time

    with app.app_context():
        configure_sqlite(db.engine)
    one_writer_at_a_time(app)
