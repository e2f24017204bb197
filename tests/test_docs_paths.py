"""Every module the docs, comments, pages and scripts name by its path is where they say.

Issue 27 found docs naming modules that had moved; when a module moves again, this names each
place that still points at its old home.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where a reader is sent to a module by its path: the docs, the app's own comments and files,
# the scripts, the benches and the tests.
PLACES = [
    "README.md",
    "pyproject.toml",
    ".ci/run",
    "docs/**/*.md",
    "docs/deploy/*",
    "static/*.js",
    "static/*.css",
    "templates/**/*.html",
    "scripts/*",
    "bench/*.py",
    "scorekeeper/**/*.py",
    "tests/**/*.py",
]
# A path with at least one folder: scorekeeper/services/links.py, web/access.py, rules/deal.py.
NAMED = re.compile(
    r"(?<![\w./-])((?:scorekeeper|web|services|plumbing|rules|tests|bench)/[\w/]*\.py)\b"
)


def named_paths() -> list[tuple[str, str]]:
    """Each (place:line, path) where a file names a module by its path."""
    found = []
    for pattern in PLACES:
        for place in sorted(ROOT.glob(pattern)):
            if not place.is_file():
                continue
            text = place.read_text(encoding="utf-8", errors="replace")
            for number, line in enumerate(text.splitlines(), 1):
                for match in NAMED.finditer(line):
                    found.append((f"{place.relative_to(ROOT)}:{number}", match.group(1)))
    return found


def test_every_module_named_by_its_path_is_there():
    """A path is read from the top of the checkout, or from scorekeeper/ (web/, rules/ ...)."""
    missing = [
        f"{where} names {path}"
        for where, path in named_paths()
        if not (ROOT / path).exists() and not (ROOT / "scorekeeper" / path).exists()
    ]
    assert missing == []


def test_the_paths_are_found():
    """The search finds what it looks for: the docs name the read model and the engine."""
    paths = {path for _, path in named_paths()}
    assert "services/game_view.py" in paths or "scorekeeper/services/game_view.py" in paths
    assert any(path.startswith(("rules/", "scorekeeper/rules/")) for path in paths)
