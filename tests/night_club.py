"""Olga's private Tuesday Club of twelve members, where the night tests open their nights.

The one home of the `olga` fixture that the night pages', draws', board's, export's and API's
tests share: tests/conftest.py names this module in `pytest_plugins`, so every test module has
the fixture without importing it. A module meaning another Olga (a club of eight, of none)
defines its own `olga`, which wins there.
"""

from __future__ import annotations

import pytest
from test_clubs import SLUG, add_members, new_club, signup

TWELVE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kit", "Lou"]


@pytest.fixture
def olga(app, client):
    """Olga, signed in, runs the private Tuesday Club of twelve members."""
    signup(client)
    new_club(client)
    add_members(client, SLUG, *TWELVE)
    return client
