"""Every module of `scorekeeper/services/` has a service test (issue 41): a test here that
imports it, by its own path or through its package (`from scorekeeper.services.nights import
export`, `from scorekeeper.services.games import start_game`, `games.start_game(...)`).

The modules are listed from the filesystem, so a new one without a test fails here.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

import scorekeeper.services

SERVICES = Path(scorekeeper.services.__file__).parent
TESTS = Path(__file__).parent


def service_modules() -> set[str]:
    """Every module under scorekeeper/services, packages by their own name."""
    found = set()
    for path in SERVICES.rglob("*.py"):
        parts = path.relative_to(SERVICES.parent.parent).with_suffix("").parts
        found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def home_of(thing: Any) -> str | None:
    """The module a thing was defined in (a module is its own home)."""
    if inspect.ismodule(thing):
        return thing.__name__
    home = getattr(thing, "__module__", None)
    return home if isinstance(home, str) else None


def imported_by(source: str) -> set[str]:
    """The scorekeeper modules a test's source reaches by import, names resolved to their homes."""
    tree = ast.parse(source)
    reached: set[str] = set()
    bound: dict[str, ModuleType] = {}  # names bound to a package or module, to follow attributes
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            reached.update(a.name for a in node.names if a.name.startswith("scorekeeper"))
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scorekeeper"):
            base = importlib.import_module(node.module)
            reached.add(node.module)
            for alias in node.names:
                try:
                    thing = importlib.import_module(f"{node.module}.{alias.name}")
                except ImportError:
                    thing = getattr(base, alias.name, None)
                if (home := home_of(thing)) is not None:
                    reached.add(home)
                if inspect.ismodule(thing):
                    bound[alias.asname or alias.name] = thing
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in bound:
                thing = getattr(bound[node.value.id], node.attr, None)
                if (home := home_of(thing)) is not None:
                    reached.add(home)
    return reached


def test_every_service_module_has_a_service_test():
    tested: set[str] = set()
    for path in TESTS.glob("test_*.py"):
        tested |= imported_by(path.read_text(encoding="utf-8"))
    untested = sorted(service_modules() - tested)
    assert untested == [], f"services with no test in tests/services importing them: {untested}"


def test_a_module_reached_only_through_its_package_counts():
    source = "from scorekeeper.services import games\ngames.start_game\n"
    assert "scorekeeper.services.games.starting" in imported_by(source)
    source = "from scorekeeper.services.nights import export\n"
    assert "scorekeeper.services.nights.export" in imported_by(source)
    assert "scorekeeper.services.nights.export" not in imported_by("import json\n")


def test_the_modules_are_read_from_the_filesystem():
    found = service_modules()
    assert {"scorekeeper.services.nights.export", "scorekeeper.services.ratings"} <= found
    assert len(found) == len(list(SERVICES.rglob("*.py")))
