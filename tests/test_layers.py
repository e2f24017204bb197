"""The house's rooms: which part of the code may import which (docs/ARCHITECTURE.md).

rules/     the engine: the standard library and itself, nothing else
plumbing/  the database, headers, bodies, logs: rules/ and itself, never a use case or a view
services/  the use cases: rules/, plumbing/ and each other, never the web layer
web/       the views: anything below it; one blueprint never imports another's views
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


def parsed(path: Path) -> ast.Module:
    """The file's syntax tree, parsed again if CPython 3.11's parser trips on another thread.

    Python 3.11 parses a source line to place a traceback's carets, and the AST's conversion
    keeps one recursion count for every thread: a background thread of another test's app
    logging an error at that moment made this parse raise "AST constructor recursion depth
    mismatch" (SystemError) once on CI's PostgreSQL run. The file is fine; parse it again.
    """
    for _ in range(3):
        try:
            return ast.parse(path.read_text(), str(path))
        except SystemError:
            continue
    return ast.parse(path.read_text(), str(path))


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved, as dotted names."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    if path.name == "__init__.py":
        package = ".".join(path.relative_to(PACKAGE.parent).parts[:-1])
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            # `from scorekeeper import services` imports the package named, too
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def files_of(room: str) -> list[Path]:
    return sorted((PACKAGE / room).rglob("*.py"))


def ours(found: set[str]) -> set[str]:
    """The imports of our own modules, as `scorekeeper.<room>`."""
    return {".".join(m.split(".")[:2]) for m in found if m.startswith("scorekeeper.")}


def test_the_engine_imports_the_standard_library_alone():
    """`import scorekeeper.rules` in a fresh interpreter loads no module from outside the
    standard library and the engine: no Flask, no SQLAlchemy."""
    program = (
        "import sys; import scorekeeper.rules\n"
        "std = sys.stdlib_module_names\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} - std - {'scorekeeper'}))"
    )
    loaded = subprocess.run(
        [sys.executable, "-I", "-c", program],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parent,
    ).stdout.strip()
    # A site's own start-up modules (sitecustomize, _virtualenv, editable finders) aside.
    loaded_names = [n.strip(" '") for n in loaded.strip("[]").split(",") if n.strip()]
    outside = [n for n in loaded_names if not n.startswith(("_", "sitecustomize", "__editable"))]
    assert outside == [], loaded


@pytest.mark.parametrize("path", files_of("rules"), ids=lambda p: p.name)
def test_the_engine_imports_nothing_of_the_app(path):
    found = imports_of(path)
    stdlib = sys.stdlib_module_names
    outside = {m for m in found if m.split(".")[0] not in stdlib}
    assert {m for m in outside if not m.startswith("scorekeeper.rules")} == set()


@pytest.mark.parametrize("path", files_of("plumbing"), ids=lambda p: p.name)
def test_plumbing_imports_no_use_case_and_no_view(path):
    assert ours(imports_of(path)) <= {"scorekeeper.rules", "scorekeeper.plumbing"}


@pytest.mark.parametrize("path", files_of("services"), ids=lambda p: p.name)
def test_the_use_cases_import_no_view(path):
    allowed = {"scorekeeper.rules", "scorekeeper.plumbing", "scorekeeper.services"}
    assert ours(imports_of(path)) <= allowed


def test_every_module_lives_in_a_room():
    """The package's top level holds the factory, the commands and the rooms, nothing else."""
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert top == ["__init__.py", "cli.py", "factory.py"]


# What every blueprint may share: the visitor's access, forms, error pages, charts, a game's
# link as shared, the answer to too many creations or writes. Everything else in web/ is one
# blueprint.
SHARED_WEB = {
    "__init__",
    "access",
    "forms",
    "errors",
    "charts",
    "svg_charts",
    "sharing",
    "creating",
    "writing",
    "phone_name",  # the name a phone goes by (its session), for every blueprint's sender
}


def blueprint_of(module: str) -> str | None:
    """`scorekeeper.web.games.entering` -> "games"; None for what the blueprints share."""
    parts = module.split(".")
    if parts[:2] != ["scorekeeper", "web"] or len(parts) < 3 or parts[2] in SHARED_WEB:
        return None
    return parts[2]


@pytest.mark.parametrize("path", files_of("web"), ids=lambda p: str(p.relative_to(PACKAGE / "web")))
def test_a_blueprint_imports_no_other_blueprint(path):
    """A view takes what it shares with another blueprint from web/'s shared modules, never
    from the other's views; and the shared modules import no blueprint at all."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    own = blueprint_of(module)
    others = {blueprint_of(m) for m in imports_of(path)} - {None, own}
    assert others == set()


@pytest.mark.parametrize("path", files_of("web"), ids=lambda p: str(p.relative_to(PACKAGE / "web")))
def test_a_view_reads_a_game_through_its_read_model(path):
    """Where a game stands and who deals come from services/game_view.py (`game_view(game)`):
    no view replays a game (`progress_of`) or seats its dealer (`dealer_of`) itself."""
    replaying = {"progress_of", "dealer_of"}
    found = []
    for node in ast.walk(parsed(path)):
        name = getattr(node, "attr", None) or getattr(node, "id", None)
        if isinstance(node, ast.alias):
            name = node.name
        if name in replaying:
            found.append(f"line {node.lineno}: {name}")
    assert found == []
