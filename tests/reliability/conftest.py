"""The reliability tests serve the app to many threads at once: each test gets its own."""

from __future__ import annotations

import pytest
from conftest import app_of_its_own


@pytest.fixture(scope="package", autouse=True)
def _writes_unbounded():
    """Every client here is 127.0.0.1, writing far faster than any table: the allowances of
    writes (services/writes.py, tests/test_write_limits.py) are not what these tests are about.
    Set in the environment, so the servers started here (gunicorn) have them too."""
    from scorekeeper.services.writes import ALLOWANCES

    with pytest.MonkeyPatch.context() as patch:
        for allowance in ALLOWANCES.values():
            patch.setenv(f"SCOREKEEPER_{allowance.setting}", "1000000")
        yield


@pytest.fixture
def app(tmp_path, databases):
    """An app of its own for each test (see app_of_its_own)."""
    yield from app_of_its_own(tmp_path, databases)


@pytest.fixture(scope="package")
def nginx_binary() -> str:
    """The nginx program; skipped where it is missing, unless CI demands it
    (tests/reliability/_nginx.py)."""
    from ._nginx import find_nginx

    return find_nginx()


@pytest.fixture(scope="package")
def proxied(nginx_binary, tmp_path_factory):
    """gunicorn with the shipped gunicorn.conf.py, behind nginx with the shipped site: one pair
    for the modules that ask (test_nginx*.py, which run last), started once (some 20 s)."""
    from ._nginx import proxied_app

    yield from proxied_app(nginx_binary, tmp_path_factory.mktemp("nginx"))
