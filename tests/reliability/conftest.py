"""The reliability tests serve the app to many threads at once: each test gets its own."""

from __future__ import annotations

import pytest
from conftest import app_of_its_own


@pytest.fixture
def app(tmp_path, databases):
    """An app of its own for each test (see app_of_its_own)."""
    yield from app_of_its_own(tmp_path, databases)
