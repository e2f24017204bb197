"""Seating a club night (issue 38): how long a whole night takes, and its repeats against the bound.

A tool, not a test, and CI does not run it. Two parts:

1. Time. For every player count from 8 to 64 and each shape (rotating partners at tables of 4,
   tables of 6 mixed with 4s, individual tables, fixed partners at tables of 4: the pairs drawn
   by `draw_pairs`, then the night), `plan_night` seats 12 rounds with no history. Each run is a
   fresh Python process (nothing cached from another night), pinned to one core with
   `taskset -c 0` where the machine has it; best of --runs. Wall seconds and the process's own
   CPU seconds are both printed: on a shared machine the wall clock also counts other work.
   Target: under 1 s for every night.

2. Repeats. For 9 to 40 players over 12 rounds, and over n - 1 rounds (at most 12), the night's
   repeats counted afresh (`tests/rules/seating_counts.py`) against a lower bound:
   - partners (tables of 4 and of 6): the sum over pairs of max(0, times - 1), at least
     max(partnerships seated - pairs available, ceil(sum over players of max(0, rounds played -
     (n - 1)) / 2));
   - opponents: the sum over pairs of C(c, 2), at least the water-filling bound (the meetings
     seated spread as evenly as can be over every pair, and each player's own over the n - 1
     others, halved);
   - individual tables: who shares a table, both ways (repeats as partners are counted above, and
     C(c, 2) as opponents are).
   Seeds 0 to --seeds - 1; each count's worst seed is printed. Ends with the worst gap of each.

    .venv/bin/python bench/seating.py [--part time|repeats|all] [--runs 3] [--seeds 3]
        [--low 8] [--high 64] [--most 40]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from collections import Counter
from itertools import combinations
from math import ceil, comb
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.rules.fixed_pairs import draw_pairs  # noqa: E402
from scorekeeper.rules.nights import Shape, plan_night  # noqa: E402
from tests.rules.seating_counts import (  # noqa: E402
    opponent_counts,
    opponent_repeats,
    partner_counts,
    partner_repeats,
)

ROUNDS = 12
SHAPES = {
    "fours": "rotating, tables of 4",
    "sixes": "rotating, tables of 6 (and 4)",
    "singles": "individual tables",
    "fixed": "fixed partners, tables of 4",
}


def names(n: int) -> list[str]:
    """Players P01 to Pn."""
    return [f"P{i + 1:02d}" for i in range(n)]


def night(kind: str, n: int, rounds: int, seed: int) -> tuple:
    """One night of this shape for n players, no history."""
    players = names(n)
    if kind == "fixed":
        return plan_night(players, rounds, Shape.FOURS, draw_pairs(players, seed), seed=seed)
    shape = {"fours": Shape.FOURS, "sixes": Shape.SIXES, "singles": Shape.SINGLES}[kind]
    return plan_night(players, rounds, shape, seed=seed)


def child(kind: str, n: int) -> None:
    """Time one night in this (fresh) process and print its wall and CPU seconds as JSON."""
    wall, cpu = time.perf_counter(), time.process_time()
    night(kind, n, ROUNDS, 0)
    print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu]))


def timed(kind: str, n: int, runs: int, pin: list[str]) -> tuple[float, float]:
    """Best wall and best CPU seconds of `runs` fresh processes."""
    walls, cpus = [], []
    for _ in range(runs):
        out = subprocess.run(
            [*pin, sys.executable, __file__, "--child", kind, str(n)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        wall, cpu = json.loads(out)
        walls.append(wall)
        cpus.append(cpu)
    return min(walls), min(cpus)


def time_part(low: int, high: int, runs: int) -> None:
    """Print the seconds to seat 12 rounds for every count and shape, and the worst."""
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    print(f"== Time: plan_night, {ROUNDS} rounds, no history, best of {runs} fresh processes")
    print("   one core: " + ("taskset -c 0" if pin else "no taskset here, not pinned"))
    print("   wall s / CPU s per shape:", ", ".join(f"{k} = {v}" for k, v in SHAPES.items()))
    print(f"{'n':>3}  " + "  ".join(f"{k:>13}" for k in SHAPES))
    walls: dict[str, tuple[float, int]] = {k: (0.0, 0) for k in SHAPES}
    cpus: dict[str, tuple[float, int]] = {k: (0.0, 0) for k in SHAPES}
    for n in range(low, high + 1):
        row = []
        for kind in SHAPES:
            wall, cpu = timed(kind, n, runs, pin)
            row.append(f"{wall:6.3f}/{cpu:6.3f}")
            walls[kind] = max(walls[kind], (wall, n))
            cpus[kind] = max(cpus[kind], (cpu, n))
        print(f"{n:>3}  " + "  ".join(f"{cell:>13}" for cell in row), flush=True)
    for kind in SHAPES:
        (wall, at), (cpu, cpu_at) = walls[kind], cpus[kind]
        print(f"max {kind}: {wall:.3f} s wall at {at} players; {cpu:.3f} s CPU at {cpu_at} players")
    for clock, worst in (("wall", walls), ("CPU", cpus)):
        over = [f"{k} ({s:.3f} s at {n})" for k, (s, n) in worst.items() if s >= 1]
        verdict = "met" if not over else "NOT met: " + ", ".join(over)
        print(f"target under 1 s ({clock}): {verdict}")


def water(meetings: int, pairs: int) -> int:
    """The least sum of C(c, 2) when `meetings` are spread over `pairs` pairs."""
    each, extra = divmod(meetings, pairs)
    return extra * comb(each + 1, 2) + (pairs - extra) * comb(each, 2)


def table_mates(rounds: tuple) -> Counter[frozenset[str]]:
    """How many times each pair sat at the same individual table."""
    counts: Counter[frozenset[str]] = Counter()
    for played in rounds:
        for table in played.tables:
            counts.update(frozenset(p) for p in combinations(table.players, 2))
    return counts


def bounds(n: int, together: Counter) -> tuple[int, int, int]:
    """The meetings seated, and the lower bounds of repeats (max(0, c - 1)) and of sum C(c, 2).

    together: times each pair met this way. Repeats: at least the meetings past one a pair,
    and each player's own meetings past n - 1 (each repeat counted by its two players). Sum
    C(c, 2): at least the meetings spread evenly over every pair, and each player's own spread
    evenly over the n - 1 others (each pair counted by its two players)."""
    available = comb(n, 2)
    seated = sum(together.values())
    share = shares(together)
    own = ceil(sum(max(0, share[p] - (n - 1)) for p in names(n)) / 2)
    spread = ceil(sum(water(share[p], n - 1) for p in names(n)) / 2)
    return seated, max(seated - available, own), max(water(seated, available), spread)


def shares(counts: Counter) -> Counter[str]:
    """Each player's meetings of this kind, summed over pairs."""
    out: Counter[str] = Counter()
    for pair, times in counts.items():
        for p in pair:
            out[p] += times
    return out


def measure(kind: str, n: int, rounds: int, seed: int) -> dict[str, int]:
    """One night's repeats and their bounds."""
    planned = night(kind, n, rounds, seed)
    if kind == "singles":
        mates = table_mates(planned)
        seated, low, wat = bounds(n, mates)
        repeats = sum(c - 1 for c in mates.values() if c > 1)
        pairs = sum(c * (c - 1) // 2 for c in mates.values())
        return {"meet": seated, "rep": repeats, "rep_low": low, "opp": pairs, "opp_low": wat}
    partners = partner_counts(planned)
    seated, low, _ = bounds(n, partners)
    _, _, opp_low = bounds(n, opponent_counts(planned))
    return {
        "meet": seated,
        "rep": partner_repeats(planned),
        "rep_low": low,
        "opp": opponent_repeats(planned),
        "opp_low": opp_low,
    }


def repeats_part(seeds: int, most: int = 40) -> None:
    """Print each shape's repeats against the bound for 9 to `most` players, and the worst gaps."""
    print(
        f"\n== Repeats against the bound, 9 to {most} players, seeds 0 to {seeds - 1} (worst seed)"
    )
    worst: dict[tuple[str, str], tuple[int, str]] = {}
    for kind in ("fours", "sixes", "singles"):
        what = "table-mates" if kind == "singles" else "partners"
        for label, length in (
            ("12 rounds", lambda n: ROUNDS),
            ("n-1 rounds", lambda n: min(n - 1, ROUNDS)),
        ):
            print(
                f"\n-- {SHAPES[kind]}, {label}: {what} repeats (bound, gap); "
                f"{'table-mate' if kind == 'singles' else 'opponent'} sum C(c,2) (bound, gap)"
            )
            print(
                f"{'n':>3} {'rds':>3} {'seated':>6} {'rep':>4} {'low':>4} {'gap':>4}"
                f" {'C(c,2)':>7} {'low':>5} {'gap':>4}"
            )
            for n in range(9, most + 1):
                rounds = length(n)
                runs = [measure(kind, n, rounds, seed) for seed in range(seeds)]
                rep = max(runs, key=lambda r: (r["rep"] - r["rep_low"], r["opp"] - r["opp_low"]))
                opp = max(runs, key=lambda r: r["opp"] - r["opp_low"])
                rep_gap, opp_gap = rep["rep"] - rep["rep_low"], opp["opp"] - opp["opp_low"]
                print(
                    f"{n:>3} {rounds:>3} {rep['meet']:>6} {rep['rep']:>4} {rep['rep_low']:>4}"
                    f" {rep_gap:>4} {opp['opp']:>7} {opp['opp_low']:>5} {opp_gap:>4}",
                    flush=True,
                )
                where = f"{n} players, {rounds} rounds"
                for key, gap in (((kind, "rep"), rep_gap), ((kind, "opp"), opp_gap)):
                    if key not in worst or gap > worst[key][0]:
                        worst[key] = (gap, where)
    print()
    for (kind, what), (gap, where) in worst.items():
        name = {"rep": "partner" if kind != "singles" else "table-mate", "opp": "C(c,2)"}[what]
        print(f"worst {name} gap, {SHAPES[kind]}: {gap} ({where})")
    rep_worst = max((g for (_, w), (g, _) in worst.items() if w == "rep"), default=0)
    opp_worst = max((g for (_, w), (g, _) in worst.items() if w == "opp"), default=0)
    met = "; every partner repeat meets its bound" if rep_worst == 0 else ""
    print(
        f"summary: worst partner/table-mate repeat gap {rep_worst}, "
        f"worst opponent C(c,2) gap {opp_worst}{met}"
    )


def engine_version() -> str:
    """The commit measured, and the engine's files changed since it (the working tree's)."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "diff", "--name-only", "HEAD", "--", "scorekeeper/rules"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.split()
    except OSError:
        return "commit unknown (no git)"
    return f"commit {head}" + (f", changed since: {', '.join(changed)}" if changed else "")


def cpu_name() -> str:
    """The processor's model name, where Linux tells it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    """Parse the arguments and run the parts asked for."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("time", "repeats", "all"), default="all")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--low", type=int, default=8)
    parser.add_argument("--high", type=int, default=64)
    parser.add_argument("--most", type=int, default=40, help="players, the repeats' largest count")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    one, five, fifteen = os.getloadavg()
    print(
        f"{cpu_name()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {one:.2f} {five:.2f} {fifteen:.2f}"
    )
    print(engine_version())
    if args.part in ("time", "all"):
        time_part(args.low, args.high, args.runs)
    if args.part in ("repeats", "all"):
        repeats_part(args.seeds, args.most)
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
