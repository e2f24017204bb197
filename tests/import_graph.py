"""The package's imports as a graph, for tests/test_layers.py: which module loads which as it
is loaded, and the circles in it."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

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


def module_of(path: Path, package: Path = PACKAGE) -> str:
    """`scorekeeper/web/nights/pages.py` -> "scorekeeper.web.nights.pages"; an `__init__.py`
    is its package."""
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def loaded_imports(body: list) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs as it is loaded: at its top level, in its classes, `if`s and
    `try`s; none inside a function, none under `if TYPE_CHECKING:` (its `else:` runs)."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and _type_checking(node.test):
            yield from loaded_imports(node.orelse)
        else:
            for block in ("body", "orelse", "finalbody", "handlers"):
                yield from loaded_imports(getattr(node, block, []))


def import_graph(package: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package, and the package's modules that loading it loads first.

    `from pkg import mod` is an edge to `pkg.mod` when that is a module, else to `pkg`; loading
    `a.b.c` loads the packages `a` and `a.b` first, so they are edges too. An edge up to a
    package holding the module is left out: that is a blueprint's way (web/clubs/__init__.py
    makes `bp`, then imports its views, which take `bp` from it) and a package gathering its
    parts (rules/__init__.py); Python loads those from the package down. An edge out of the
    package to anywhere else counts.
    """
    files = {module_of(path, package): path for path in sorted(package.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in loaded_imports(parsed(path).body):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    kept = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join(kept + ([node.module] if node.module else []))
                targets = [
                    f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base
                    for alias in node.names
                ]
            for target in targets:
                parts = target.split(".")
                for end in range(1, len(parts) + 1):
                    loaded = ".".join(parts[:end])
                    if loaded in files and not f"{name}.".startswith(f"{loaded}."):
                        found.add(loaded)
        graph[name] = found
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each set of modules that load one another round a circle (Tarjan's strongly connected
    components of more than one module), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for loaded in sorted(graph.get(module, ())):
            if loaded not in order:
                visit(loaded)
                low[module] = min(low[module], low[loaded])
            elif loaded in stack:
                low[module] = min(low[module], order[loaded])
        if low[module] == order[module]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == module:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return sorted(found)
