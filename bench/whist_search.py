"""Find the initial round of a whist schedule (rules/whist.py) for each number of players.

A tool, not a test, and CI does not run it: for each n asked it prints the group searched (the
moduli rules/whist.py's `group_of` gives, points written mixed-radix), the initial round found,
ready to paste into `_INITIAL`, how it was found and how long it took, and checks the round by
developing it and counting every pair's partners and opponents afresh.

Both searches seat partners on a starter: pairs of points whose differences hold each non-zero
element once, up to sign (with infinity partnering 0 for 4m players). Opponents then depend only
on which two pairs share a table: pairs {a, b} and {c, d} oppose with the differences of a - c,
a - d, b - c and b - d, each up to sign, and every such class must come out exactly twice.

1. Patterned: the pairs {x, -x}. A table {x, -x} against {y, -y} opposes with the classes of
   x + y and x - y, each twice over, so the search is an exact cover: match the classes in twos
   so that their sums and differences are every class once (for 4m players, the class of the
   one opponent pair of infinity and 0 is left out first). Exhaustive, so it says when none is.
2. Random starters: when no patterned round exists, draw starters at random (seeded) and search
   each one's matchings of pairs into tables exhaustively, up to --nodes steps each.

    .venv/bin/python bench/whist_search.py [N ...] [--seed 0] [--nodes 200000] [--tries 10000]

With no N it searches every n <= 40 with n % 4 in (0, 1). The same arguments find the same round.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.rules.whist import INFINITY, group_of  # noqa: E402

Table = tuple[int, int, int, int]


class Group:
    """A product of cyclic groups, its elements written mixed-radix (0 to order - 1)."""

    def __init__(self, moduli: tuple[int, ...]) -> None:
        self.moduli, self.order = moduli, math.prod(moduli)
        digits = [self._digits(x) for x in range(self.order)]
        self.sub = [[self._number(p, q, -1) for q in digits] for p in digits]
        self.add = [[self._number(p, q, 1) for q in digits] for p in digits]
        # Each element's class up to sign, named by its smaller member.
        self.cls = [min(x, self.sub[0][x]) for x in range(self.order)]
        self.classes = sorted(set(self.cls[1:]))

    def _digits(self, x: int) -> list[int]:
        out = []
        for m in reversed(self.moduli):
            out.append(x % m)
            x //= m
        return out[::-1]

    def _number(self, p: list[int], q: list[int], sign: int) -> int:
        x = 0
        for a, b, m in zip(p, q, self.moduli, strict=True):
            x = x * m + (a + sign * b) % m
        return x

    def neg(self, x: int) -> int:
        """-x."""
        return self.sub[0][x]


def patterned(n: int, g: Group) -> list[Table] | None:
    """Tables {x, -x} against {y, -y} whose classes x + y, x - y cover every class once."""

    def cover(free: list[int], used: set[int]) -> list[tuple[int, int]] | None:
        if not free:
            return []
        x = free[0]
        for y in free[1:]:
            both = {g.cls[g.add[x][y]], g.cls[g.sub[x][y]]}
            if both & used:
                continue
            rest = cover([z for z in free if z not in (x, y)], used | both)
            if rest is not None:
                return [(x, y), *rest]
        return None

    firsts = g.classes if n % 4 == 0 else [None]
    for x0 in firsts:
        # For 4m players, infinity and 0 face {x0, -x0}: the class of x0, twice, and no other.
        left = [c for c in g.classes if c != x0]
        pairs = cover(left, {x0} if x0 is not None else set())
        if pairs is not None:
            head = [(INFINITY, 0, x0, g.neg(x0))] if x0 is not None else []
            return head + [(x, g.neg(x), y, g.neg(y)) for x, y in pairs]
    return None


def random_starters(n: int, g: Group, rng: random.Random, tries: int, nodes: int):
    """Starters drawn at random, each one's tables searched exhaustively (to `nodes` steps)."""
    inf = g.order  # infinity's index while searching

    def opposed(a: int, b: int) -> int | None:
        return None if inf in (a, b) else g.cls[g.sub[a][b]]

    def starter() -> list[tuple[int, int]]:
        while True:
            free, used, pairs = set(range(1, g.order)), set(), []
            while free:
                x = min(free)
                choices = sorted(y for y in free if y != x and g.cls[g.sub[x][y]] not in used)
                if not choices:
                    break
                y = rng.choice(choices)
                free -= {x, y}
                used.add(g.cls[g.sub[x][y]])
                pairs.append((x, y))
            if not free:
                rng.shuffle(pairs)
                return pairs

    steps = [0]

    def tables(pairs: list[tuple[int, int]], count: Counter) -> list[Table] | None:
        if not pairs:
            return []
        steps[0] += 1
        if steps[0] > nodes:
            return None
        a, b = pairs[0]
        for i in range(1, len(pairs)):
            c, d = pairs[i]
            classes = [e for e in map(opposed, (a, a, b, b), (c, d, c, d)) if e is not None]
            count.update(classes)
            if all(count[e] <= 2 for e in classes):
                rest = tables(pairs[1:i] + pairs[i + 1 :], count)
                if rest is not None:
                    return [(a, b, c, d), *rest]
            count.subtract(classes)
        return None

    for attempt in range(1, tries + 1):
        pairs = starter()
        if n % 4 == 0:
            pairs = [(inf, 0), *pairs]
        steps[0] = 0
        found = tables(pairs, Counter())
        if found is not None:
            return [tuple(INFINITY if p == inf else p for p in t) for t in found], attempt
    return None, tries


def check(n: int, g: Group, initial: list[Table]) -> bool:
    """Develop the round and count every pair afresh: partners once, opponents twice."""
    partners, opponents = Counter(), Counter()
    for shift in range(g.order):
        for a, b, c, d in initial:
            at = [n - 1 if p == INFINITY else g.add[p][shift] for p in (a, b, c, d)]
            partners.update(frozenset(s) for s in (at[:2], at[2:]))
            opponents.update(frozenset((x, y)) for x in at[:2] for y in at[2:])
    everyone = {frozenset(p) for p in combinations(range(n), 2)}
    return (
        set(partners) == set(opponents) == everyone
        and set(partners.values()) == {1}
        and set(opponents.values()) == {2}
    )


def main() -> None:
    """Search each n asked; print the round found, how, and how long it took."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int, nargs="*")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--nodes", type=int, default=200_000)
    parser.add_argument("--tries", type=int, default=10_000)
    args = parser.parse_args()
    for n in args.n or [n for n in range(4, 41) if n % 4 in (0, 1)]:
        if n % 4 not in (0, 1):
            print(f"{n}: no whist schedule (n % 4 must be 0 or 1)")
            continue
        g = Group(group_of(n))
        began = time.perf_counter()
        found, how = patterned(n, g), "patterned starter"
        if found is None:
            rng = random.Random(args.seed)
            found, tries = random_starters(n, g, rng, args.tries, args.nodes)
            how = f"no patterned round; random starter {tries} (seed {args.seed})"
        took = time.perf_counter() - began
        if found is None:
            print(f"{n}: group {g.moduli}: nothing found ({how}), {took:.1f} s")
        else:
            print(f"{n}: group {g.moduli}: {how}, {took:.1f} s, checked: {check(n, g, found)}")
            tables = ", ".join(str(t).replace(str(INFINITY), "INFINITY") for t in found)
            print(f"    {n}: ({tables},),")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
