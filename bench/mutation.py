"""Mutation testing of the pure modules: how many of mutmut's mutants their own tests kill.

    .venv/bin/pip install -e '.[test,mutation]'  # once: mutmut and the tests' needs
    .venv/bin/python bench/mutation.py [--survivors] [--keep] [--no-run] [--children 2]
    .venv/bin/python bench/mutation.py --smoke   # no mutmut: two mutants a module, made here

Runs mutmut (configured in pyproject.toml's [tool.mutmut]: the modules its `only_mutate` lists,
the rules engine's scoring and limits, the night seating engine and the rating model, against
tests/rules and the model's tests alone; the list is read from there) from a fresh
`mutants/` folder, then prints per module the mutants, killed, survived, and the share of
behaviour-changing mutants killed. A mutant that only changes the prose of a message (a string
with a space, capital or punctuation in it: a refusal, a warning, a label) is counted apart as
"message text": words are pinned where they name a figure, not each one. Every survivor is
listed with its line, as a diff of the engine's own source. `--keep` reuses the last run's
results (mutmut reruns only what it has no result for). Run by hand; CI does not run mutmut (a
fresh run of the engine's six modules took 7 minutes on 2 cores; the night seating engine and
the rating model add about half as many mutants again), only `--smoke` (tests/test_bench_smoke.py):
the report read from mutants made here, in mutmut's layout, so a moved module breaks the build.
docs/MUTATION.md has the figures and each survivor left, with why.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def mutated_modules() -> dict[str, Path]:
    """The modules [tool.mutmut] mutates, by name ("deal", "model"): pyproject.toml's list, so
    what is counted is what is mutated."""
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]["only_mutate"]
    modules = {Path(path).stem: Path(path) for path in listed}
    if len(modules) != len(listed):
        sys.exit("two mutated modules share a name: the report names each by its file's name")
    return modules


MODULES = mutated_modules()
# Where mutmut writes its mutants and their verdicts (--smoke reads some made here instead).
MUTANTS = ROOT / "mutants"
LOG = ROOT / "bench" / "out" / "mutation.log"
TARGET = 95.0
# mutmut's exit codes: 1 and 3 are a failing test (killed), 36 and the signals a timeout (a
# mutant that loops is caught too), 0 a survivor, 33 and 5 a mutant no test reaches.
KILLED = {1, 3}
TIMEOUT = {36, -24, 24, 152, 255}
SURVIVED = {0}
NO_TESTS = {5, 33}
# A string that is only lower-case letters, digits, '_' and '.' is a key, a field's path or a
# choice ("went_out", "books.clean", "deal"): changing it changes what the engine does. Any
# other non-empty string is prose.
KEY = re.compile(r"[a-z0-9_.]*")


@dataclass(frozen=True)
class Mutant:
    """One mutant: its module, name, status, whether it only rewords a message, its diff."""

    module: str
    name: str
    status: str
    text_only: bool
    diff: str


def status_of(code: int | None) -> str:
    """mutmut's exit code for a mutant, as a word."""
    if code in KILLED:
        return "killed"
    if code in TIMEOUT:
        return "timeout"
    if code in SURVIVED:
        return "survived"
    if code in NO_TESTS:
        return "no tests"
    return "not checked" if code is None else f"other ({code})"


def _blank_strings(node: ast.AST) -> str:
    """The node's AST with every plain string constant left out: what the code does."""
    copy = ast.parse(ast.unparse(node))
    for child in ast.walk(copy):
        if isinstance(child, ast.Constant) and isinstance(child.value, str):
            child.value = ""
    return ast.dump(copy)


def _strings(node: ast.AST) -> list[str]:
    return [
        child.value
        for child in ast.walk(node)
        if isinstance(child, ast.Constant) and isinstance(child.value, str)
    ]


def only_rewords(original: ast.FunctionDef, mutated: ast.FunctionDef) -> bool:
    """Whether the mutant changes nothing but the prose of a string (not a key or a path)."""
    mutated = _renamed(mutated, original.name)
    if _blank_strings(original) != _blank_strings(mutated):
        return False
    changed = [
        before
        for before, after in zip(_strings(original), _strings(mutated), strict=True)
        if before != after
    ]
    return bool(changed) and all(before and not KEY.fullmatch(before) for before in changed)


def _renamed(function: ast.FunctionDef, name: str) -> ast.FunctionDef:
    copy = ast.parse(ast.unparse(function)).body[0]
    assert isinstance(copy, ast.FunctionDef)
    copy.name = name
    return copy


def _diff(module: str, original: ast.FunctionDef, mutated: ast.FunctionDef) -> str:
    """What the mutant changed, a little either side, at its line of the engine's own source."""
    before = ast.unparse(original).splitlines()
    after = ast.unparse(_renamed(mutated, original.name)).splitlines()
    source = (ROOT / MODULES[module]).read_text().splitlines()
    # mutmut names a method xǁClassǁmethod and a function x_function.
    base = original.name.removesuffix("__mutmut_orig")
    name = base.split("ǁ")[-1] if "ǁ" in base else base.removeprefix("x_")
    start = next((i for i, line in enumerate(source) if f"def {name}(" in line), 0)
    out = []
    old = [line for line in before if line not in after]
    new = [line for line in after if line not in before]
    for was, now in zip(old, new, strict=False):
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, was, now).get_opcodes():
            if tag == "equal":
                continue
            near = was[max(0, i1 - 30) : i2 + 30]
            words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*|\d+", near))
            lines = range(start, len(source))
            found = max(lines, key=lambda i: len(words & set(re.findall(r"\w+", source[i]))))
            cut = f"{near.strip()}  ->  {now[max(0, j1 - 30) : j2 + 30].strip()}"
            out.append(f"{module}.py:{found + 1}  {cut}")
            break
    return "\n".join(out) or f"{module}.py:{start + 1}  (a change the function's text hides)"


def mutants_of(module: str) -> list[Mutant]:
    """Every mutant of one module, with its status from mutmut's last run."""
    mutated_file = MUTANTS / MODULES[module]
    meta = json.loads(mutated_file.with_name(f"{module}.py.meta").read_text())
    functions = {
        node.name: node
        for node in ast.walk(ast.parse(mutated_file.read_text()))
        if isinstance(node, ast.FunctionDef)
    }
    found = []
    for key, code in meta["exit_code_by_key"].items():
        name = key.rsplit(".", 1)[1]
        mutated = functions[name]
        original = functions[name.rsplit("__mutmut_", 1)[0] + "__mutmut_orig"]
        found.append(
            Mutant(
                module,
                key,
                status_of(code),
                only_rewords(original, mutated),
                _diff(module, original, mutated),
            )
        )
    return found


def smoke_mutants(folder: Path) -> None:
    """Two mutants of each module's first function that has a number, in mutmut's layout: the
    number changed (killed) and, where the function has a sentence, the sentence (survived). So
    tests/test_bench_smoke.py reads and reports mutants without mutmut (CI does not install it)."""
    for module, path in MODULES.items():
        tree = ast.parse((ROOT / path).read_text())
        functions = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
        function = next((f for f in functions if _constants(f, int)), None)
        if function is None:
            continue  # nothing to change here: the module's row counts none
        name = f"x_{function.name}"
        made = {"orig": function}
        made["1"] = _changed(function, int, lambda value: value + 1)
        if _constants(function, str, prose=True):
            made["2"] = _changed(function, str, lambda value: value + " (mutated)")
        written = []
        for suffix, node in made.items():
            renamed = _renamed(node, f"{name}__mutmut_{suffix}")
            written.append(ast.unparse(renamed))
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n\n".join(written) + "\n")
        dotted = ".".join(path.with_suffix("").parts)
        verdicts = {f"{dotted}.{name}__mutmut_1": 1, f"{dotted}.{name}__mutmut_2": 0}
        meta = {"exit_code_by_key": {k: v for k, v in verdicts.items() if k[-1] in made}}
        target.with_name(f"{module}.py.meta").write_text(json.dumps(meta))


def _constants(node: ast.AST, kind: type, prose: bool = False) -> list[ast.Constant]:
    """The constants of this kind in the node (not booleans; strings: prose only, if asked)."""
    return [
        child
        for child in ast.walk(node)
        if isinstance(child, ast.Constant)
        and type(child.value) is kind
        and not (prose and KEY.fullmatch(child.value))
    ]


def _changed(function: ast.FunctionDef, kind: type, change: Callable) -> ast.FunctionDef:
    """A copy of the function with its first constant of this kind changed."""
    copy = ast.parse(ast.unparse(function)).body[0]
    assert isinstance(copy, ast.FunctionDef)
    first = _constants(copy, kind, prose=kind is str)[0]
    first.value = change(first.value)
    return copy


def run_mutmut(children: int, keep: bool) -> None:
    """Run mutmut over the configured modules; a fresh run unless told to keep the last."""
    if not keep:
        # mutmut keeps every verdict it has: changed tests are only judged in a fresh folder.
        shutil.rmtree(ROOT / "mutants", ignore_errors=True)
    LOG.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(children)]
    print(f"running {' '.join(command[1:])} (its progress in {LOG.relative_to(ROOT)})", flush=True)
    with LOG.open("w") as log:
        done = subprocess.run(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    if done.returncode:
        sys.exit(f"mutmut failed ({done.returncode}); the end of {LOG}:\n{LOG.read_text()[-3000:]}")


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def report(mutants: list[Mutant], show_survivors: bool) -> bool:
    """Print the table and the survivors; whether behaviour-changing kills reach the target."""
    print(
        f"{'module':<10} {'mutants':>7} {'killed':>7} {'survived':>8} {'no tests':>8}"
        f" {'behaviour killed':>18} {'message text killed':>20}"
    )
    rows = [*MODULES, "all"]
    totals: dict[str, Counter[str]] = {}
    for row in rows:
        these = [m for m in mutants if row in ("all", m.module)]
        count = Counter(m.status for m in these)
        behaviour = [m for m in these if not m.text_only]
        text = [m for m in these if m.text_only]
        caught = [m for m in behaviour if m.status in ("killed", "timeout")]
        text_caught = [m for m in text if m.status in ("killed", "timeout")]
        totals[row] = Counter(behaviour=len(behaviour), caught=len(caught))
        print(
            f"{row:<10} {len(these):>7} {count['killed'] + count['timeout']:>7}"
            f" {count['survived']:>8} {count['no tests']:>8}"
            f" {len(caught):>5}/{len(behaviour):<5} {percent(len(caught), len(behaviour)):>6}"
            f" {len(text_caught):>6}/{len(text):<5} {percent(len(text_caught), len(text)):>6}"
        )
    others = Counter(m.status for m in mutants if m.status.startswith(("other", "not checked")))
    if others:
        print("not judged:", dict(others))
    left = [m for m in mutants if m.status not in ("killed", "timeout")]
    if show_survivors:
        for label, text_only in (("behaviour-changing", False), ("message text only", True)):
            these = [m for m in left if m.text_only == text_only]
            print(f"\n{len(these)} {label} mutants not killed:")
            for m in these:
                print(f"\n  {m.name} ({m.status})")
                print("\n".join(f"    {line}" for line in m.diff.splitlines()))
    whole = totals["all"]
    reached = 100 * whole["caught"] >= TARGET * whole["behaviour"]
    print(f"\nbehaviour-changing mutants killed: {percent(whole['caught'], whole['behaviour'])}")
    print(f"target {TARGET:.0f}%: {'met' if reached else 'NOT met'}")
    return reached


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="reuse the last run's results")
    parser.add_argument("--no-run", action="store_true", help="only read the last run")
    parser.add_argument("--children", type=int, default=2, help="mutants tested at once")
    parser.add_argument("--survivors", action="store_true", help="list every mutant left")
    parser.add_argument(
        "--smoke", action="store_true", help="no mutmut: report mutants made here (a smoke run)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if args.smoke:
            global MUTANTS
            MUTANTS = Path(folder)
            smoke_mutants(MUTANTS)
        elif not args.no_run:
            run_mutmut(args.children, args.keep)
        mutants = [m for module in MODULES for m in mutants_of(module)]
    reached = report(mutants, args.survivors or args.smoke)
    sys.exit(0 if reached else 1)


if __name__ == "__main__":
    main()
