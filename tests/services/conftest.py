"""Each use case called directly: every test runs inside the app's context, on its own database.

The `app` fixture and the database-per-test machinery are tests/conftest.py's; here the app's
context is pushed for the whole test, so a test calls `scorekeeper.services` as a view would.
"""

from __future__ import annotations

import pytest

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Organiser
from scorekeeper.services import accounts, clubs


@pytest.fixture(autouse=True)
def context(app):
    """The app's context around the whole test, its session let go after."""
    with app.app_context():
        yield
        db.session.remove()


@pytest.fixture
def olga(quick_hashing) -> Organiser:
    """An organiser's account (hashed once, cheaply)."""
    return accounts.register("olga", "violet-harbour-lantern")


@pytest.fixture
def club(olga) -> Club:
    """Olga's club, with two members, Ann and Cat."""
    made = clubs.create_club("Tuesday Club", "tuesday", olga)
    clubs.add_member(made, "Ann")
    clubs.add_member(made, "Cat")
    return made
