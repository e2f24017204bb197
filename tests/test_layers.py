"""The house's rooms: which part of the code may import which (docs/ARCHITECTURE.md).

rules/     the engine: the standard library and itself, nothing else
plumbing/  the database, headers, bodies, logs: rules/ and itself, never a use case or a view
services/  the use cases: rules/, plumbing/ and each other, never the web layer, not even by
           name (importlib), and never the request's state (flask's request, g, session)
web/       the views: anything below it; one blueprint never imports another's views
and no module loads itself again round a circle of imports.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from import_graph import PACKAGE, circles, import_graph, module_of, parsed


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
    "club_pages",  # a club and the visitor's level in it, for web/clubs and web/nights
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
    no view replays a game (`progress_of`) itself."""
    replaying = {"progress_of"}
    found = []
    for node in ast.walk(parsed(path)):
        name = getattr(node, "attr", None) or getattr(node, "id", None)
        if isinstance(node, ast.alias):
            name = node.name
        if name in replaying:
            found.append(f"line {node.lineno}: {name}")
    assert found == []


# ------------------------------------------------------------------ no circle of imports


def test_no_module_loads_itself_round_a_circle():
    """No circle of imports anywhere in the package, and none dodged by an import inside a
    function either: the only imports inside functions are the app factory's, the commands'
    and `scorekeeper.create_app`'s, each said why (factory.py, cli.py, __init__.py)."""
    assert circles(import_graph()) == []
    late = {
        module_of(path)
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(parsed(path))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for inner in ast.walk(node)
        if _of_ours(inner)
    }
    assert late <= {"scorekeeper", "scorekeeper.factory", "scorekeeper.cli"}


def _of_ours(node: ast.AST) -> bool:
    """An import of one of the package's own modules."""
    if isinstance(node, ast.Import):
        return any(alias.name.startswith("scorekeeper") for alias in node.names)
    return isinstance(node, ast.ImportFrom) and (
        node.level > 0 or (node.module or "").startswith("scorekeeper")
    )


def _planted(tmp_path: Path, files: dict[str, str]) -> Path:
    """A package `scorekeeper` in tmp_path made of `files` (path: source)."""
    for name, source in files.items():
        path = tmp_path / "scorekeeper" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return tmp_path / "scorekeeper"


def test_a_circle_planted_is_found(tmp_path):
    """The issue's circle: clubs -> standings -> nights.board -> clubs, by a module, a package's
    module named in `from ... import` and a relative import."""
    package = _planted(
        tmp_path,
        {
            "__init__.py": "",
            "services/__init__.py": "",
            "services/clubs.py": "from scorekeeper.services import standings\n",
            "services/standings.py": "from scorekeeper.services.nights import board\n",
            "services/nights/__init__.py": "",
            "services/nights/board.py": "from ..clubs import club_by_slug\n",
        },
    )
    expected = ["scorekeeper.services.clubs", "scorekeeper.services.nights.board"]
    expected.insert(1, "scorekeeper.services.standings")
    assert circles(import_graph(package)) == [sorted(expected)]


def test_what_is_loaded_later_or_from_above_is_no_circle(tmp_path):
    """An import inside a function or under `if TYPE_CHECKING:` loads nothing as the module
    loads; a blueprint's views taking `bp` from their package is loaded from the package down."""
    package = _planted(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "def later():\n    from scorekeeper import b\n",
            "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import scorekeeper.a",
            "web/__init__.py": "",
            "web/clubs/__init__.py": "bp = 1\nfrom scorekeeper.web.clubs import members\n",
            "web/clubs/members.py": "from scorekeeper.web.clubs import bp\n",
        },
    )
    assert circles(import_graph(package)) == []
    # The same two imports loaded at once are a circle.
    (package / "a.py").write_text("from scorekeeper import b\n")
    (package / "b.py").write_text("import scorekeeper.a\n")
    assert circles(import_graph(package)) == [["scorekeeper.a", "scorekeeper.b"]]


# ------------------------------------------------------------ below the views, by name too

LOADERS = {"import_module", "__import__"}


def views_loaded_by_name(tree: ast.Module) -> list[str]:
    """Each `importlib.import_module(...)` or `__import__(...)` that may load a view: naming
    `scorekeeper.web` (or `.web`), or a name worked out as it runs, which no test can read."""
    loaders = set(LOADERS)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "importlib":
            loaders.update(a.asname or a.name for a in node.names if a.name in LOADERS)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = node.func.attr if isinstance(node.func, ast.Attribute) else None
        called = called or (node.func.id if isinstance(node.func, ast.Name) else None)
        if called not in loaders:
            continue
        named = node.args[0] if node.args else None
        if not (isinstance(named, ast.Constant) and isinstance(named.value, str)):
            found.append(f"line {node.lineno}: a name worked out as it runs")
        elif named.value.startswith(("scorekeeper.web", ".web", "..web")):
            found.append(f"line {node.lineno}: {named.value}")
    return found


BELOW_THE_VIEWS = files_of("rules") + files_of("plumbing") + files_of("services")


@pytest.mark.parametrize("path", BELOW_THE_VIEWS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_below_the_views_loads_a_view_by_name(path):
    assert views_loaded_by_name(parsed(path)) == []


def test_a_view_loaded_by_name_planted_is_found():
    planted = ast.parse(
        "import importlib\n"
        "from importlib import import_module as load\n"
        "importlib.import_module('scorekeeper.web.clubs')\n"
        "load('scorekeeper.web.' + 'nights')\n"
        "__import__('scorekeeper.web.games.entering')\n"
        "importlib.import_module('.web.live', 'scorekeeper')\n"
        "importlib.import_module('scorekeeper.services.clubs')\n"
    )
    assert [line.split(":")[0] for line in views_loaded_by_name(planted)] == [
        "line 3",
        "line 4",
        "line 5",
        "line 6",
    ]


# ------------------------------------------------------- the use cases know no request

REQUEST_STATE = {"request", "g", "session"}
FLASK = {"flask", "flask.globals"}


def request_state_used(tree: ast.Module) -> list[str]:
    """Each use of flask's request, g or session: imported by name, or read off the module."""
    modules = set(FLASK)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in FLASK:
            for alias in node.names:
                if alias.name in REQUEST_STATE:
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
                elif alias.name == "globals":
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update(a.asname for a in node.names if a.name in FLASK and a.asname)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in REQUEST_STATE:
            if ast.unparse(node.value) in modules:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", files_of("services"), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_use_cases_know_no_request(path):
    """A use case is told what it needs; what the request is (flask's request, g, session) is
    the views' to read. Reading only says so through plumbing/db.reading_only."""
    assert request_state_used(parsed(path)) == []


def test_a_request_in_a_use_case_planted_is_found():
    planted = ast.parse(
        "import flask\n"
        "import flask as f\n"
        "from flask import current_app, request\n"
        "from flask import g as here\n"
        "from flask.globals import session\n"
        "flask.g.only_reading = True\n"
        "f.session.clear()\n"
        "db.session.commit()\n"
        "current_app.config['X']\n"
    )
    assert request_state_used(planted) == [
        "line 3: from flask import request",
        "line 4: from flask import g",
        "line 5: from flask.globals import session",
        "line 6: flask.g",
        "line 7: f.session",
    ]
