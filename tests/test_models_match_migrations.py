"""The models and the migrations describe one schema: Alembic's autogenerate finds nothing to add.

A model changed without a migration (or a migration without its model) fails here, on SQLite
and, with TEST_DATABASE_URL, on PostgreSQL, each difference listed.
"""

from __future__ import annotations

from pprint import pformat

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade

from scorekeeper import create_app
from scorekeeper.plumbing.db import db


def test_the_migrations_at_head_make_the_models_schema(databases, tmp_path):
    """A database with no tables, upgraded to head, is what the models describe."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": databases.empty(tmp_path)})
    try:
        with app.app_context():
            upgrade()
            with db.engine.connect() as connection:
                # Types are compared (Alembic's default, said outright); SQLite reflects these
                # models' types exactly, so nothing needs ignoring. Server defaults are not
                # compared: 0002 gave side's figures server defaults (0, false) to fill the rows
                # already there, which the models leave to Python; harmless, and not drift.
                context = MigrationContext.configure(connection, opts={"compare_type": True})
                differences = compare_metadata(context, db.metadata)
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    assert differences == [], "the models and the migrations differ:\n" + "\n".join(
        pformat(difference) for difference in differences
    )
