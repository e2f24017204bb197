"""The least partner and opponent repeats of a rotating-partner night, found by exhaustive search.

The problem: n players (4 to 8) play R rounds (1 to 12) at partnership tables of 4 (two teams of
two), partners rotating, with no history before the night. Each round floor(n/4) tables of 4 are
seated and n mod 4 players sit out. Sit-out fairness: after every round, any two players'
sit-out counts differ by at most 1. The cost of a night, compared lexicographically:
  P, partner repeats: the sum over unordered pairs of max(0, times partnered - 1);
  O, opponent repeats: the sum over pairs of C(c, 2), c the times the two sat on opposite sides of
     a table (the k-th meeting as opponents counts k - 1).
`least_repeats(n, R)` is the exact lexicographic minimum (P, O). It shares no code with the engine.

The search is a depth-first branch and bound over rounds; every prune is safe:
- round 1 is fixed: every first round is a relabelling of every other;
- a state (sit-out, partner and opponent counts) is met again under a relabelling of the players
  only if it is reached no cheaper than before: its canonical form (individualisation and
  refinement, exact for these small graphs) keys a table of the cheapest cost seen at expansion,
  and the completions of isomorphic states cost the same;
- lower bounds on what the remaining rounds must add (see `_bound`).
Regenerate the cache with `python -m tests.rules.seating_search --write`.
"""

from __future__ import annotations

import json
import sys
import time
from functools import cache
from itertools import combinations
from pathlib import Path

CACHE = Path(__file__).with_name("seating_minima.json")
PLAYERS = range(4, 9)
ROUNDS = range(1, 13)
# Costs are one integer, P * BIG + O, so adding and comparing them is lexicographic.
BIG = 1_000_000


def table_splits(players: tuple[int, ...]) -> list[tuple[tuple[tuple[int, int], ...], ...]]:
    """Every way to seat the players at unordered tables of two teams of two."""
    if not players:
        return [()]
    first, rest = players[0], players[1:]
    found = []
    for trio in combinations(rest, 3):
        others = tuple(p for p in rest if p not in trio)
        b, c, d = trio
        for table in (((first, b), (c, d)), ((first, c), (b, d)), ((first, d), (b, c))):
            found.extend((table, *more) for more in table_splits(others))
    return found


def waterfill(counts: list[int], units: int) -> int:
    """The least sum of C(c, 2) added by `units` more meetings spread over these pair counts."""
    if units <= 0:
        return 0
    cs = sorted(counts)
    cost, level, below, size = 0, cs[0], 0, len(cs)
    while units > 0:
        while below < size and cs[below] <= level:
            below += 1
        take = min(units, below)
        cost += take * level  # the k-th meeting of a pair met c times before adds c
        units -= take
        level += 1
    return cost


class Search:
    """One (n, R) search: the counts so far, the best night found, the table of states seen."""

    def __init__(self, n: int, rounds: int) -> None:
        self.n, self.rounds = n, rounds
        self.tables, self.out_each = n // 4, n % 4
        self.pair = [[-1] * n for _ in range(n)]
        for k, (a, b) in enumerate(combinations(range(n), 2)):
            self.pair[a][b] = self.pair[b][a] = k
        self.row = [[self.pair[i][j] for j in range(n) if j != i] for i in range(n)]
        self.part = [0] * (n * (n - 1) // 2)
        self.opp = [0] * (n * (n - 1) // 2)
        self.out = [0] * n
        self.seatings: dict[tuple[int, ...], list[tuple]] = {}
        for away in combinations(range(n), self.out_each):
            seated = tuple(p for p in range(n) if p not in away)
            self.seatings[away] = [(*self._ids(split), split) for split in table_splits(seated)]
        # Over the night o*R sit-outs: `high` players end one above the others' `low`.
        self.low, self.high = divmod(self.out_each * rounds, n)
        self.best = BIG * BIG
        self.seen: dict[bytes, int] = {}
        self.nodes = 0
        self.played: list[tuple] = []  # the rounds on the way to this state: (away, split)
        self.schedule: list[tuple] = []  # the best night found, as (sit-outs, tables) a round

    def _ids(self, split) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A round's partner pairs and opponent pairs, as pair numbers."""
        partners = tuple(self.pair[a][b] for table in split for a, b in table)
        opponents = tuple(
            self.pair[x][y] for (a, b), (c, d) in split for x in (a, b) for y in (c, d)
        )
        return partners, opponents

    def _away_choices(self) -> list[tuple[int, ...]]:
        """The sit-out sets that keep every two players' sit-out counts within 1."""
        low = min(self.out)
        lows = [p for p in range(self.n) if self.out[p] == low]
        if self.out_each <= len(lows):
            return list(combinations(lows, self.out_each))
        nexts = [p for p in range(self.n) if self.out[p] == low + 1]
        return [
            tuple(sorted((*lows, *more))) for more in combinations(nexts, self.out_each - len(lows))
        ]

    def _apply(self, away, partners, opponents, step: int) -> None:
        """Count a round in (step 1) or back out (step -1)."""
        for p in away:
            self.out[p] += step
        for k in partners:
            self.part[k] += step
        for k in opponents:
            self.opp[k] += step

    def _bound(self, left: int) -> int:
        """A lower bound on the cost the last `left` rounds add to the counts so far.

        P: the 2T partnerships a round seats beyond the pairs never partnered are repeats; and
        player i, playing f_i more rounds with u_i partners not yet had, repeats f_i - u_i times
        (each repeat is counted by both its players). O: the 4T oppositions a round seats cost at
        least the water-filling of the pair counts (the k-th meeting adds k - 1), over all pairs,
        and per player over its own pairs (2 f_i oppositions; each counted twice). f_i: player i
        ends the night with `low` or `low + 1` sit-outs, exactly `high` of them with `low + 1`;
        each bound takes the choice of those players cheapest for it.
        """
        if left == 0:
            return 0
        n, part, opp = self.n, self.part, self.opp
        teams = 2 * self.tables * left  # partnerships still to seat
        never = part.count(0)
        bound_p = max(0, teams - never)
        bound_o = waterfill(opp, 2 * teams)
        base_p = base_o = 0
        gains_p, gains_o, forced = [], [], 0
        for i in range(n):
            row = self.row[i]
            plays = left - (self.low - self.out[i])  # if i ends with `low` sit-outs
            unused = sum(1 for k in row if part[k] == 0)
            counts = [opp[k] for k in row]
            if self.out[i] > self.low:  # already at low + 1: plays every round left
                forced += 1
                plays = left
                base_p += max(0, plays - unused)
                base_o += waterfill(counts, 2 * plays)
                continue
            more_p, more_o = max(0, plays - unused), waterfill(counts, 2 * plays)
            base_p += more_p
            base_o += more_o
            if self.high:  # one sit-out more means one round fewer
                gains_p.append(more_p - max(0, plays - 1 - unused))
                gains_o.append(more_o - waterfill(counts, 2 * plays - 2))
        extra = self.high - forced
        if extra > 0:
            base_p -= sum(sorted(gains_p, reverse=True)[:extra])
            base_o -= sum(sorted(gains_o, reverse=True)[:extra])
        bound_p = max(bound_p, (base_p + 1) // 2)
        bound_o = max(bound_o, (base_o + 1) // 2)
        return bound_p * BIG + bound_o

    def _children(self) -> list[tuple[int, tuple, tuple, tuple]]:
        """Every next round, cheapest first, with what it adds to the cost."""
        part, opp = self.part, self.opp
        found = []
        for away in self._away_choices():
            for partners, opponents, split in self.seatings[away]:
                added = sum(BIG for k in partners if part[k]) + sum(opp[k] for k in opponents)
                found.append((added, away, partners, opponents, split))
        found.sort(key=lambda child: child[0])
        return found

    def solve(self) -> tuple[int, int]:
        """The exact least (P, O)."""
        added, away, partners, opponents, split = self._children()[0]
        # every first round is a relabelling of this one
        self._apply(away, partners, opponents, 1)
        self.played.append((away, split))
        self._dfs(1, added)
        return divmod(self.best, BIG)

    def _found(self, cost: int, last: tuple = ()) -> None:
        """Keep a complete night if it beats the best so far."""
        if cost < self.best:
            self.best = cost
            self.schedule = [*self.played, *last]

    def _dfs(self, done: int, cost: int) -> None:
        self.nodes += 1
        left = self.rounds - done
        if left == 0:
            self._found(cost)
            return
        if cost + self._bound(left) >= self.best:
            return
        children = self._children()
        if left == 1:  # the cheapest last round is the best completion
            added, away, _, _, split = children[0]
            self._found(cost + added, [(away, split)])
            return
        floor = cost + self._bound(left)
        for added, away, partners, opponents, split in children:
            if cost + added >= self.best or floor >= self.best:
                return  # children are cheapest first; later ones cost no less
            self._apply(away, partners, opponents, 1)
            total = cost + added
            if total + self._bound(left - 1) < self.best:
                key = canonical(self.n, self.out, self.part, self.opp, self.pair)
                if self.seen.get(key, BIG * BIG) > total:
                    self.seen[key] = total
                    self.played.append((away, split))
                    self._dfs(done + 1, total)
                    self.played.pop()
            self._apply(away, partners, opponents, -1)


def _refine(n: int, colours: list[int], weight: list[list[int]]) -> list[int]:
    """Split colour classes by the multiset of (neighbour colour, edge weight) until stable."""
    while True:
        marks = [
            (colours[i], tuple(sorted((colours[j], weight[i][j]) for j in range(n) if j != i)))
            for i in range(n)
        ]
        order = sorted(set(marks))
        refined = [order.index(m) for m in marks]
        if len(order) == len(set(colours)):
            return refined
        colours = refined


def canonical(n: int, out: list[int], part: list[int], opp: list[int], pair) -> bytes:
    """The state's canonical form under relabelling the players (individualise and refine)."""
    weight = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j:
                k = pair[i][j]
                weight[i][j] = part[k] * 16 + opp[k]
    start = _refine(n, list(out), weight)
    best: list[bytes] = []

    def leaf(colours: list[int]) -> None:
        order = sorted(range(n), key=colours.__getitem__)
        code = [out[i] for i in order]
        code += [weight[order[a]][order[b]] for a in range(n) for b in range(a + 1, n)]
        key = bytes(code)
        if not best or key < best[0]:
            best[:] = [key]

    def branch(colours: list[int]) -> None:
        sizes: dict[int, list[int]] = {}
        for i, c in enumerate(colours):
            sizes.setdefault(c, []).append(i)
        cells = [members for c, members in sorted(sizes.items()) if len(members) > 1]
        if not cells:
            leaf(colours)
            return
        cell = cells[0]  # the first split cell, by colour: a choice made without labels
        for v in cell:
            split = [
                2 * c + (1 if c == colours[v] and i != v else 0) for i, c in enumerate(colours)
            ]
            branch(_refine(n, split, weight))

    branch(start)
    return best[0]


def plain_least(n: int, rounds: int) -> tuple[int, int]:
    """The same minimum by plain dynamic programming: no bounds, no symmetry (small cases only)."""
    pair = {frozenset(p): k for k, p in enumerate(combinations(range(n), 2))}
    every = []
    for away in combinations(range(n), n % 4):
        seated = tuple(p for p in range(n) if p not in away)
        for split in table_splits(seated):
            partners = [pair[frozenset(team)] for table in split for team in table]
            opponents = [pair[frozenset((x, y))] for one, two in split for x in one for y in two]
            every.append((away, partners, opponents))

    @cache
    def least(out: tuple[int, ...], part: tuple[int, ...], opp: tuple[int, ...], left: int):
        if left == 0:
            return (0, 0)
        found = []
        for away, partners, opponents in every:
            after = [c + (p in away) for p, c in enumerate(out)]
            if max(after) - min(after) > 1:
                continue  # someone would sit out twice before another once
            more_part, more_opp = list(part), list(opp)
            for k in partners:
                more_part[k] += 1
            for k in opponents:
                more_opp[k] += 1
            p, o = least(tuple(after), tuple(more_part), tuple(more_opp), left - 1)
            repeats = sum(1 for k in partners if part[k])
            found.append((p + repeats, o + sum(opp[k] for k in opponents)))
        return min(found)

    zeros = (0,) * len(pair)
    return least((0,) * n, zeros, zeros, rounds)


def least_repeats(n: int, rounds: int) -> tuple[int, int]:
    """The exact lexicographic least (partner repeats, opponent repeats) for n players, R rounds."""
    return Search(n, rounds).solve()


def load_cache() -> dict[str, list[int]]:
    """The cached minima, {"n,R": [P, O]}; empty if the file is missing."""
    if not CACHE.exists():
        return {}
    return json.loads(CACHE.read_text())["minima"]


def write_cache() -> None:
    """Search every case afresh and write the cache, with a header saying how."""
    minima, seconds = {}, {}
    for n in PLAYERS:
        for r in ROUNDS:
            start = time.process_time()
            search = Search(n, r)
            minima[f"{n},{r}"] = list(search.solve())
            seconds[f"{n},{r}"] = round(time.process_time() - start, 2)
            print(n, r, minima[f"{n},{r}"], search.nodes, seconds[f"{n},{r}"], flush=True)
    header = (
        "Exact least (partner repeats, opponent repeats) of a rotating-partner night at tables"
        " of 4 with fair sit-outs, by tests/rules/seating_search.py; regenerate with"
        " `python -m tests.rules.seating_search --write`."
    )
    lines = ",\n".join(f'  "{key}": {json.dumps(value)}' for key, value in minima.items())
    cpu = round(sum(seconds.values()), 1)
    head = f'{{\n "header": {json.dumps(header)},\n "cpu_seconds": {cpu},\n'
    CACHE.write_text(f'{head} "minima": {{\n{lines}\n }}\n}}\n')


if __name__ == "__main__":
    if "--write" in sys.argv:
        write_cache()
    else:
        for arg in sys.argv[1:]:
            n_text, r_text = arg.split(",")
            start = time.process_time()
            search = Search(int(n_text), int(r_text))
            result = search.solve()
            print(arg, result, search.nodes, round(time.process_time() - start, 2), flush=True)
