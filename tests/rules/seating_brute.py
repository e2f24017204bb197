"""Brute force for the seating tests: the largest matching, every choice tried (no engine code)."""

from functools import cache


def largest_matching(people, edge):
    """The most disjoint pairs among people joined by edge(a, b): every choice tried."""
    people = tuple(people)

    @cache
    def best(left):
        if len(left) < 2:
            return 0
        first, rest = left[0], left[1:]
        found = best(rest)
        for i, other in enumerate(rest):
            if edge(first, other):
                found = max(found, 1 + best(rest[:i] + rest[i + 1 :]))
        return found

    return best(people)
