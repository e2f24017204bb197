"""Every bench script runs at its smallest, so a moved name breaks the build, not the next
measurement.

Each script in bench/ with a main is run as a program of its own (bench/README.md's command,
the repository's Python) at the least size that still takes every step of it and prints its
figures: the exit code must be 0 and the output must hold the line naming what it measures.
The underscored helpers (`_serve.py`, `_refold_club.py`...) run inside the scripts that import
them. The sizes are the scripts' own options (some added for this: `--limit`, `--most`,
`--workers`, `--smoke`), and BENCH_SMOKE cuts each warm-up to one round; what a script measures
at its default sizes is unchanged.

A new script fails here until it is given its smoke run below (or, with the reason, a skip).
The scripts run on SQLite (DATABASE_URL and TEST_DATABASE_URL taken out), each in a temporary
folder of its own; only `scale.py`, PostgreSQL only, runs in CI's PostgreSQL pass (.ci/run),
where every other one is skipped: they would only run the same steps again on a database they
do not measure differently at this size.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ON_POSTGRES = os.environ.get("TEST_DATABASE_URL", "").startswith("postgres")
# A script that has not finished by then is stuck (a server that never answered).
TIMEOUT_SECONDS = 240


@dataclass(frozen=True)
class Smoke:
    """One run of a script: its arguments, the figure its output must name, extra settings."""

    args: tuple[str, ...]
    figures: str
    env: tuple[tuple[str, str], ...] = ()
    postgres: bool = False  # only where TEST_DATABASE_URL is PostgreSQL (CI's second pass)
    browser: bool = False  # needs Debian's Chromium


SMOKE: dict[str, list[Smoke]] = {
    "deal_entry.py": [Smoke(("--games", "1", "--long", "5"), r"deal entry, classic.*ratio")],
    "deal_floor.py": [
        Smoke(("--games", "1"), r"the stripped-down floor: median"),
        Smoke(("--games", "1", "--phases"), r"POST \+ GET: real .* ms, floor"),
    ],
    "import_job.py": [Smoke(("--games", "3"), r"the job, off the request .* s CPU")],
    "link_guess.py": [
        Smoke(("--rounds", "20", "--games", "1", "--lookups", "1"), r"hit \(one SELECT\) +median")
    ],
    "live.py": [
        Smoke(
            ("--phones", "2", "--deals", "1", "--gap", "0.5", "--workers", "1"),
            r"save to seen, every phone and deal .*median",
        ),
        Smoke(
            ("--capacity", "--start", "2", "--most", "2", "--seconds", "1"),
            r"watching phones per core",
        ),
    ],
    "load.py": [
        Smoke(
            ("--seconds", "1", "--workers", "1", "--writers", "1", "--readers", "1")
            + ("--deals-per-game", "1"),
            r"scoreboard page +\d+ .* p50",
        )
    ],
    "load_and_kill.py": [
        Smoke(
            ("--seconds", "6", "--clients", "2", "--club-writers", "1", "--deals-per-game", "2")
            + ("--workers", "1"),
            r"every acknowledged deal stored exactly once",
            # The marks a killed worker leaves are folded once its lease (120 s) runs out.
            env=(("SCOREKEEPER_RATINGS_FOLD_LEASE", "1"),),
        )
    ],
    "members_batch.py": [
        Smoke(("--members", "10", "--batches", "1"), r"list confirmed \(added\) +wall median")
    ],
    # mutmut is not installed in CI (the mutation extra): --smoke reports mutants it makes.
    "mutation.py": [Smoke(("--smoke",), r"behaviour-changing mutants killed: 100\.0%")],
    "night_board.py": [
        Smoke(
            ("--seconds", "1", "--requests", "1", "--gap", "0.5", "--workers", "1"),
            r"server CPU per poll, night board / scoreboard",
        )
    ],
    "page_floor.py": [Smoke((), r"total .* \(floor (under|over) the limit\)", browser=True)],
    "rating_arithmetic.py": [Smoke(("--games", "2", "--rounds", "1"), r"2 v 2 .*x")],
    "ratings_prediction.py": [
        Smoke(
            ("--members", "8", "--games", "20", "--train", "1", "--held", "2")
            + ("--worlds", "additive,heavy", "--resamples", "20"),
            r"all worlds: 4 held-out clubs",
        )
    ],
    "refold.py": [
        Smoke(
            ("--games", "4", "--base", "2", "--workers", "1", "--tables", "1", "--deals", "1")
            + ("--seconds", "1", "--more", "1", "--spacing", "0.1", "--profile", "--fold-process"),
            r"recompute_club\(dry_run=True\): 0 rows differ",
        )
    ],
    "scale.py": [
        Smoke(
            ("--clubs", "2", "--games", "3", "--casual", "2", "--requests", "1")
            + ("--warm-up", "0", "--explain", "scoreboard"),
            r"The whole run took",
            postgres=True,
        )
    ],
    "scoreboard.py": [Smoke(("--requests", "1"), r"scoreboard page +median")],
    "seating.py": [
        Smoke(
            ("--low", "8", "--high", "8", "--runs", "1", "--seeds", "1", "--most", "9"),
            r"summary: worst partner/table-mate repeat gap",
        )
    ],
    "standings.py": [Smoke(("--sizes", "2,3", "--requests", "1"), r"Target: ratio at most 3")],
    "standings_ratings.py": [
        Smoke(
            ("--members", "8", "--games", "3", "--requests", "2", "--rounds", "1", "--smoke"),
            r"\| page, all seasons \| [\d.]+ ms",
        )
    ],
    # 5: a patterned round; 6: none can be; 8: none found in one try; 12: a random starter.
    "whist_search.py": [
        Smoke(("5", "6", "8", "12", "--tries", "1"), r"random starter 1 \(seed 0\).*checked: True")
    ],
    "worst_game.py": [
        Smoke(
            ("--workers", "1", "--room", "1", "--limit", "3", "--requests", "1", "--tables", "1")
            + ("--attackers", "1", "--seconds", "0.5", "--spread", "1"),
            r"worst p50 ratio",
        )
    ],
    "worst_request.py": [
        Smoke(("--runs", "1", "--club-games", "3"), r"deals\.csv, all seasons +\d+ KB +200")
    ],
}
# Scripts that cannot run in CI, and why. Their imports are still checked (below).
SKIPPED = {
    "lighthouse.py": "needs Node 20 and Lighthouse 12.8 in .lighthouse/ (npm), which CI lacks",
}


def scripts() -> list[str]:
    """The bench scripts that are programs: not underscored helpers, and with a main."""
    return sorted(
        path.name
        for path in BENCH.glob("[!_]*.py")
        if 'if __name__ == "__main__":' in path.read_text()
    )


def runs() -> list:
    """Each smoke run of each script, named after the script (a second run: "-1")."""
    found = []
    for script in scripts():
        for n, smoke in enumerate(SMOKE.get(script, [None])):
            found.append(pytest.param(script, smoke, id=f"{script}-{n}" if n else script))
    return found


def environment(folder: Path, smoke: Smoke) -> dict[str, str]:
    """This run's environment: its own temporary folder, SQLite unless it is PostgreSQL's."""
    # BENCH_SMOKE: one warm-up round where a bench warms its server (bench/_serve.py).
    env = {**os.environ, "TMPDIR": str(folder), "BENCH_SMOKE": "1", **dict(smoke.env)}
    if not smoke.postgres:
        env.pop("DATABASE_URL", None)
        env.pop("TEST_DATABASE_URL", None)
    return env


@pytest.fixture
def scratch() -> Iterator[Path]:
    """A temporary folder of a short path, removed after: what a script leaves in its TMPDIR goes
    with it (Chromium's socket in it must stay under the 108 characters a socket path may be)."""
    folder = Path(tempfile.mkdtemp(prefix="bench-smoke-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_every_script_has_a_smoke_run_or_a_reason() -> None:
    """A new bench script is given its smoke run here, and no listed one has gone."""
    listed = set(SMOKE) | set(SKIPPED)
    assert sorted(set(scripts()) - listed) == [], "bench/ scripts with no smoke run"
    assert sorted(listed - set(scripts())) == [], "smoke runs of scripts no longer in bench/"


@pytest.mark.parametrize(("script", "smoke"), runs())
def test_bench_script_runs_at_its_smallest(script: str, smoke: Smoke, scratch: Path) -> None:
    """The script exits 0 and prints its figures."""
    if script in SKIPPED:
        pytest.skip(SKIPPED[script])
    assert smoke is not None, f"bench/{script} has no smoke run: add it to SMOKE"
    if smoke.postgres != ON_POSTGRES:
        # Each pass runs the scripts of its database once; the others add nothing there.
        pytest.skip("PostgreSQL only" if smoke.postgres else "run in the SQLite pass")
    if smoke.browser and not os.path.exists(CHROMIUM):
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium")
        pytest.skip("Chromium not installed")
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *smoke.args],
        cwd=ROOT,
        env=environment(scratch, smoke),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
    )
    said = f"stdout:\n{done.stdout[-4000:]}\nstderr:\n{done.stderr[-4000:]}"
    assert done.returncode == 0, said
    assert re.search(smoke.figures, done.stdout), said
    # A client thread that died prints its traceback and leaves the others to finish.
    assert "Exception in thread" not in done.stderr, said


# Run in neither pass here (SKIPPED) or not in this one (PostgreSQL only, on SQLite).
NOT_RUN_HERE = sorted(
    {
        *SKIPPED,
        *(s for s, each in SMOKE.items() if all(r.postgres and not ON_POSTGRES for r in each)),
    }
)


@pytest.mark.parametrize("script", NOT_RUN_HERE)
def test_script_not_run_here_imports(script: str, scratch: Path) -> None:
    """A script not run in this pass still finds every name it imports."""
    check = f"import runpy; runpy.run_path({str(BENCH / script)!r}, run_name='smoke')"
    done = subprocess.run(
        [sys.executable, "-c", check],
        cwd=ROOT,
        env=environment(scratch, Smoke((), "")),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
    )
    assert done.returncode == 0, done.stderr[-4000:]
