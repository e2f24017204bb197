"""Who goes with whom: pairing people or pairs with the fewest repeats, and improving tables.

The seating of a club night (rules/nights.py) asks these; they know nothing of cards.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def max_matching(n: int, edges: Sequence[tuple[int, int]]) -> list[int]:
    """A largest set of disjoint edges, as each vertex's mate (or -1): Edmonds' blossoms."""
    near: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        near[a].append(b)
        near[b].append(a)
    mate = [-1] * n
    for root in range(n):
        if mate[root] == -1:
            end, parent = _augmenting_path(root, near, mate)
            # Flip the path found: every edge along it changes from out to in, and back.
            while end != -1:
                before = parent[end]
                after = mate[before]
                mate[end], mate[before] = before, end
                end = after
    return mate


def _augmenting_path(root: int, near: list[list[int]], mate: list[int]) -> tuple[int, list[int]]:
    """The free vertex an augmenting path from root ends at (or -1) and the search's tree."""
    n = len(near)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = deque([root])
    while queue:
        v = queue.popleft()
        for to in near[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] != -1 and parent[mate[to]] != -1):
                # An odd cycle: shrink it to its base, and search on from each vertex in it.
                top = _common_base(v, to, base, mate, parent)
                in_blossom = [False] * n
                _mark(v, top, to, base, mate, parent, in_blossom)
                _mark(to, top, v, base, mate, parent, in_blossom)
                for i in range(n):
                    if in_blossom[base[i]]:
                        base[i] = top
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if mate[to] == -1:
                    return to, parent
                used[mate[to]] = True
                queue.append(mate[to])
    return -1, parent


def _common_base(a: int, b: int, base: list[int], mate: list[int], parent: list[int]) -> int:
    """The lowest common ancestor of two vertices in the search tree, by their bases."""
    seen = [False] * len(base)
    while True:
        a = base[a]
        seen[a] = True
        if mate[a] == -1:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if seen[b]:
            return b
        b = parent[mate[b]]


def _mark(
    v: int,
    top: int,
    child: int,
    base: list[int],
    mate: list[int],
    parent: list[int],
    in_blossom: list[bool],
) -> None:
    """Mark the path from v up to the blossom's base, pointing it back the other way."""
    while base[v] != top:
        in_blossom[base[v]] = in_blossom[base[mate[v]]] = True
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def pair_up(units: Sequence[T], cost: Callable[[T, T], int]) -> list[tuple[T, T]]:
    """An even number of units in pairs: as many pairs of cost 0 as can be, then the cheapest.

    Level by level: the largest matching of pairs costing nothing, then among those left the
    largest costing at most the next cost, and so on; the first level is exact (Edmonds), so no
    pair with a cost is made while one without could have been.
    """
    if len(units) % 2:
        raise ValueError(f"{len(units)} cannot be paired.")
    left = list(range(len(units)))
    costs = {(a, b): cost(units[a], units[b]) for a in left for b in left if a < b}
    pairs: list[tuple[T, T]] = []
    for level in sorted(set(costs.values())):
        if not left:
            break
        place = {unit: i for i, unit in enumerate(left)}
        edges = [
            (place[a], place[b])
            for (a, b), c in costs.items()
            if c <= level and a in place and b in place
        ]
        mate = max_matching(len(left), edges)
        for i, j in enumerate(mate):
            if i < j:
                pairs.append((units[left[i]], units[left[j]]))
        left = [unit for i, unit in enumerate(left) if mate[i] == -1]
    return pairs


def improve(groups: list[list[T]], cost: Callable[[T, T], int]) -> list[list[T]]:
    """Swap units between groups while that lowers (groups with any cost, total cost).

    A group's cost is the sum over its units two by two. Counting costly groups first keeps
    every group pair_up made without cost: a swap that loses one is never taken.
    """
    units = [unit for group in groups for unit in group]
    matrix = [[cost(a, b) if a is not b else 0 for b in units] for a in units]
    places: list[list[int]] = []
    for group in groups:
        places.append(list(range(sum(map(len, places)), sum(map(len, places)) + len(group))))

    def worth(group: list[int]) -> tuple[int, int]:
        total = sum(matrix[a][b] for i, a in enumerate(group) for b in group[i + 1 :])
        return (1 if total else 0, total)

    worths = [worth(group) for group in places]
    better = True
    while better:
        better = False
        for g in range(len(places)):
            for h in range(g + 1, len(places)):
                one, two = places[g], places[h]
                for i in range(len(one)):
                    for j in range(len(two)):
                        one[i], two[j] = two[j], one[i]
                        now = (worth(one), worth(two))
                        if _plus(*now) < _plus(worths[g], worths[h]):
                            worths[g], worths[h] = now
                            better = True
                        else:
                            one[i], two[j] = two[j], one[i]
    return [[units[i] for i in group] for group in places]


def _plus(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """Two groups' worths added, figure by figure."""
    return (a[0] + b[0], a[1] + b[1])
