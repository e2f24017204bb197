"""Fixtures: an app on a fresh database for every test, its test client and CLI runner."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scorekeeper import create_app, with_driver
from scorekeeper.db import db


def _database_uri(tmp_path: Path) -> str:
    # TEST_DATABASE_URL runs the suite against PostgreSQL; each test gets emptied tables.
    url = os.environ.get("TEST_DATABASE_URL")
    return with_driver(url) if url else f"sqlite:///{tmp_path / 'test.sqlite'}"


@pytest.fixture
def app(tmp_path):
    """The app with a fresh, migrated database."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": _database_uri(tmp_path),
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        from flask_migrate import upgrade

        upgrade()
    yield app
    with app.app_context():
        db.session.remove()
        if os.environ.get("TEST_DATABASE_URL"):
            db.drop_all()
            db.session.execute(db.text("DROP TABLE IF EXISTS alembic_version"))
            db.session.commit()
        db.engine.dispose()


@pytest.fixture
def client(app):
    """A test client for the app."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """A CLI runner for the app's commands."""
    return app.test_cli_runner()
