"""Every module, Python and JavaScript, is at most 400 lines (docs/ARCHITECTURE.md says so)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 400
MODULES = sorted(
    path
    for pattern in ("scorekeeper/**/*.py", "bench/*.py", "tests/**/*.py", "static/*.js")
    for path in ROOT.glob(pattern)
    if "migrations/versions" not in path.as_posix()
)


def test_the_modules_are_found():
    assert any(path.name == "scorer.js" for path in MODULES)
    assert any(path.name == "factory.py" for path in MODULES)


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_a_module_is_at_most_400_lines(path: Path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{path.relative_to(ROOT)} has {lines} lines"
