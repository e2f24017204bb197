"""A small room planned to the night's end (issue 38): one or two tables of 4, so few seatings
a round that every one is counted.

Each round the seatings that sit out whoever has missed fewest, cheapest first; the first plan
is each round's cheapest in turn (ties drawn by the seed), then a bounded search for a night of
less cost in all, pruned by the least the rounds left can add; the search starts again a few
times with other ties. The plan found is then polished: each round in turn is seated again as
cheaply as the rest of the night allows, sitting out others where every round's sit-outs stay
fair, until no round can be bettered.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from math import comb

from .tally import Cost, Groups, Tally, sit_out_choice

# After its first plan the search tries this many rounds more for a cheaper night.
SEARCH_ROUNDS = 200
# ...and at most this many seatings costed in all (a room of 8 has 315 a round, of 7 105).
SEARCH_SEATINGS = 10_000
# The search starts again this many times, ties taken in another order each time.
RESTARTS = 2
# Two rounds are seated again together where each has at most this many seatings (a table).
TOGETHER = 3


def _tables_of(players: Sequence[str]) -> Iterator[Groups]:
    """Every way to seat these players (4 or 8) at tables of two teams of two."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for three in itertools.combinations(rest, 3):
        others = [p for p in rest if p not in three]
        b, c, d = three
        for table in ([(first, b), (c, d)], [(first, c), (b, d)], [(first, d), (b, c)]):
            for more in _tables_of(others):
                yield [table, *more]


def tablings(players: int) -> int:
    """Ways to seat this many players at tables of two teams of two (3 for 4, 315 for 8): the
    first player left takes three others, who make one of three tables, and so on."""
    ways = 1
    for left in range(players, 0, -4):
        ways *= comb(left - 1, 3) * 3
    return ways


def plan_small(
    present: Sequence[str], need: int, tally: Tally, rounds: int, rng: random.Random
) -> list[tuple[Groups, list[str]]]:
    """The next `rounds` rounds of a small room, `need` sitting out each: the cheapest night of
    the searches' plans, polished."""
    best: tuple[Cost, list[Step], _Search] | None = None
    for restart in range(RESTARTS):
        search = _Search(present, need, tally, rng, alike=restart % 2 == 1)
        search.go(rounds, [], (0, 0, 0))
        assert search.best_cost is not None
        if best is None or search.best_cost < best[0]:
            best = (search.best_cost, search.best, search)
    assert best is not None
    _, plan, search = best
    return search.named(search.polish(plan))


# A round of the plan: who sits out (numbers) and which of their seatings.
Step = tuple[tuple[int, ...], int]


class _Search:
    """A small room's rounds to the night's end, every seating of each round considered.

    Players are numbered and pairs indexed, and every seating of the room is listed once as
    the pairs it partners and the pairs it opposes, so costing a seating is a few lookups.
    """

    def __init__(
        self, present: Sequence[str], need: int, tally: Tally, rng: random.Random, alike: bool
    ):
        self.names = list(present)
        self.rng = rng
        n = len(self.names)
        self.need = need
        self.partnered = [0] * (n * n)
        self.opposed = [0] * (n * n)
        for a, one in enumerate(self.names):
            for b, two in enumerate(self.names):
                pair = frozenset((one, two))
                self.partnered[a * n + b] = tally.partnered[pair]
                self.opposed[a * n + b] = tally.opposed[pair]
        self.missed = [tally.missed[p] for p in self.names]
        self.out_together = [0] * (n * n)
        self.season = [tally.season_out.get(p, 0) for p in self.names]
        self.seatings = self._every_seating()
        self.pairs = [a * n + b for a in range(n) for b in range(a + 1, n)]
        self.rows = [[min(a, b) * n + max(a, b) for b in range(n)] for a in range(n)]
        self.others = [[self.rows[a][b] for b in range(n) if b != a] for a in range(n)]
        self.seated = n - need
        self.best: list[Step] = []
        self.best_cost: Cost | None = None
        self.tried = 0
        each = max(len(ways) for ways in self.seatings.values())
        self.budget = min(SEARCH_ROUNDS, SEARCH_SEATINGS // each)
        self.reached: dict[tuple[int, ...], Cost] = {}
        # Whether states alike up to the players' names count as reached (else only the same).
        self.alike = alike

    def _every_seating(self) -> dict[tuple[int, ...], list[tuple[list[int], list[int]]]]:
        """For each set who may sit out, every seating of the rest: (pairs partnered, pairs
        opposed), each pair as its smaller number's row."""
        n = len(self.names)
        found: dict[tuple[int, ...], list[tuple[list[int], list[int]]]] = {}
        for out in itertools.combinations(range(n), self.need):
            seated = [p for p in range(n) if p not in out]
            ways = []
            for groups in _tables_of(seated):
                teams = [a * n + b for group in groups for a, b in group]
                met = [min(x, y) * n + max(x, y) for one, two in groups for x in one for y in two]
                ways.append((teams, met))
            found[out] = ways
        return found

    def named(self, plan: list[Step]) -> list[tuple[Groups, list[str]]]:
        """The plan's rounds by name: tables (each two teams) and who sits out."""
        n, names = len(self.names), self.names
        rounds = []
        for out, k in plan:
            teams = [(names[t // n], names[t % n]) for t in self.seatings[out][k][0]]
            groups = [[teams[i], teams[i + 1]] for i in range(0, len(teams), 2)]
            rounds.append((groups, [names[p] for p in out]))
        return rounds

    def cost(self, out: tuple[int, ...], k: int) -> Cost:
        """What one seating adds to the counts as they stand."""
        teams, met = self.seatings[out][k]
        again = sum(1 for t in teams if self.partnered[t])
        return (again, sum(self.season[p] for p in out), sum(self.opposed[m] for m in met))

    def choices(self) -> list[tuple[Cost, tuple[int, ...], int]]:
        """This round's seatings that sit out whoever has missed fewest, cheapest first."""
        n = len(self.names)
        forced, tier, pick = sit_out_choice(range(n), self.need, dict(enumerate(self.missed)))
        partnered, opposed = self.partnered.__getitem__, self.opposed.__getitem__
        ranked = []
        for chosen in itertools.combinations(tier, pick):
            out = tuple(sorted((*forced, *chosen)))
            season, apart = sum(self.season[p] for p in out), self.apart(out)
            for k, (teams, met) in enumerate(self.seatings[out]):
                again = list(map(partnered, teams))
                meetings = sum(map(opposed, met))
                cost = (len(teams) - again.count(0), season, meetings)
                # Then those who have sat out together least, and shared a table least (as
                # partners or opponents), so the rounds left keep the most ways round a repeat.
                shared = sum(again) + sum(map(partnered, met)) + sum(map(opposed, teams))
                ranked.append((cost, (apart, shared + meetings), out, k))
        # Among seatings of equal cost the order is drawn: each restart tries other ties.
        self.rng.shuffle(ranked)
        ranked.sort(key=lambda choice: choice[:2])
        return [(cost, out, k) for cost, _, out, k in ranked]

    def apart(self, out: tuple[int, ...]) -> int:
        """How often these have sat out together before."""
        n = len(self.names)
        return sum(self.out_together[a * n + b] for a, b in itertools.combinations(out, 2))

    def add(self, out: tuple[int, ...], k: int, times: int) -> None:
        """Count a seating in (times 1) or out again (times -1)."""
        teams, met = self.seatings[out][k]
        n = len(self.names)
        for a, b in itertools.combinations(out, 2):
            self.out_together[a * n + b] += times
        for p in out:
            self.missed[p] += times
        for t in teams:
            self.partnered[t] += times
        for m in met:
            self.opposed[m] += times

    def floor(self, left: int) -> Cost:
        """The least the next `left` rounds can add.

        Partnerships: those still to seat beyond the pairs never partnered; and each player's
        rounds still to play beyond the partners they have not had (a repeat counted by both
        its players). Opponents: the oppositions still to come spread as evenly as can be,
        over all pairs and over each player's own. Each player's rounds still to play: the
        sit-outs still to come go to whoever has missed fewest, so all end with `low` or
        `low + 1`; which players take the `high` extra ones is chosen cheapest for the floor.
        """
        if left == 0:
            return (0, 0, 0)
        n, partnered, opposed = len(self.names), self.partnered, self.opposed
        teams = self.seated // 2 * left
        again = max(0, teams - sum(1 for t in self.pairs if not partnered[t]))
        met = _spread([opposed[t] for t in self.pairs], 2 * teams)
        low, high = divmod(sum(self.missed) + self.need * left, n)
        if max(self.missed) > low + 1 or self.seated % 4:
            return (again, 0, met)
        own_p = own_o = forced = 0
        gains_p, gains_o = [], []
        for a in range(n):
            row = self.others[a]
            fresh = sum(1 for t in row if not partnered[t])
            counts = [opposed[t] for t in row]
            if self.missed[a] > low:  # sits out no more: plays every round left
                forced += 1
                own_p += max(0, left - fresh)
                own_o += _spread(counts, 2 * left)
                continue
            plays = left - (low - self.missed[a])
            more_p, more_o = max(0, plays - fresh), _spread(counts, 2 * plays)
            own_p, own_o = own_p + more_p, own_o + more_o
            if high:  # one sit-out more is one round fewer
                gains_p.append(more_p - max(0, plays - 1 - fresh))
                gains_o.append(more_o - _spread(counts, 2 * plays - 2))
        extra = high - forced
        if extra > 0:
            own_p -= sum(sorted(gains_p, reverse=True)[:extra])
            own_o -= sum(sorted(gains_o, reverse=True)[:extra])
        return (max(again, -(-own_p // 2)), 0, max(met, -(-own_o // 2)))

    def go(self, left: int, plan: list[Step], spent: Cost) -> None:
        """Depth first over the rounds left, cheapest seatings first, within the budget."""
        if left == 0:
            if self.best_cost is None or spent < self.best_cost:
                self.best, self.best_cost = list(plan), spent
            return
        if self.best_cost is not None and _plus(spent, self.floor(left)) >= self.best_cost:
            return
        for cost, out, k in self.choices():
            total = _plus(spent, cost)
            if self.best_cost is not None:
                if self.tried >= self.budget or total >= self.best_cost:
                    return
                self.tried += 1
            self.add(out, k, 1)
            if self._new(total) and (
                self.best_cost is None or _plus(total, self.floor(left - 1)) < self.best_cost
            ):
                plan.append((out, k))
                self.go(left - 1, plan, total)
                plan.pop()
            self.add(out, k, -1)

    def _new(self, spent: Cost) -> bool:
        """Whether no state alike was reached before at no more cost. The same rounds in
        another order, or with the players named otherwise, reach alike counts, from which the
        same can follow; alike is judged by each player's counts with each other player,
        refined twice by the others' (so two states told alike are nearly always the same up
        to names: the search may skip a state it need not, never seat wrongly)."""
        state = self._alike() if self.alike else (*self.missed, *self.partnered, *self.opposed)
        if state in self.reached and self.reached[state] <= spent:
            return False
        self.reached[state] = spent
        return True

    def _alike(self) -> tuple[int, ...]:
        """The state up to the players' names, nearly: each player's counts with each other,
        refined twice by the others' (Weisfeiler and Leman's colouring)."""
        n = len(self.names)
        links = [
            [(self.partnered[self.rows[a][b]], self.opposed[self.rows[a][b]]) for b in range(n)]
            for a in range(n)
        ]
        colour = [hash((self.missed[a], tuple(sorted(links[a])))) for a in range(n)]
        for _ in range(2):
            colour = [
                hash(
                    (colour[a], tuple(sorted((links[a][b], colour[b]) for b in range(n) if b != a)))
                )
                for a in range(n)
            ]
        return tuple(sorted(colour))

    def polish(self, plan: list[Step]) -> list[Step]:
        """Each round in turn seated again as cheaply as the other rounds allow, then two
        rounds at a time trading one player who sits out for one who plays (where every
        round's sit-outs stay fair), until no change betters the night."""
        plan = list(plan)
        for out, k in plan:
            self.add(out, k, 1)
        better = True
        while better:
            better = any([self._reseat(plan, i) for i in range(len(plan))])
            if max(len(ways) for ways in self.seatings.values()) <= TOGETHER:
                for i, j in itertools.combinations(range(len(plan)), 2):
                    better = self._trade(plan, i, j) or better
        return plan

    def _best_seating(self, out: tuple[int, ...]) -> tuple[Cost, int]:
        """The cheapest seating of the rest when `out` sit out, as the counts stand."""
        return min((self.cost(out, k), k) for k in range(len(self.seatings[out])))

    def _reseat(self, plan: list[Step], i: int) -> bool:
        """Round i seated again with the cheapest seating of the same players."""
        out, k = plan[i]
        self.add(out, k, -1)
        cost, best = self._best_seating(out)
        changed = cost < self.cost(out, k)
        plan[i] = (out, best if changed else k)
        self.add(*plan[i], 1)
        return changed

    def _trade(self, plan: list[Step], i: int, j: int) -> bool:
        """Rounds i and j seated again together, trading a player who sits out for one who
        plays or not (where every round's sit-outs stay fair), if that is cheaper; True if
        they changed."""
        (out_i, k_i), (out_j, k_j) = plan[i], plan[j]
        self.add(out_i, k_i, -1)
        self.add(out_j, k_j, -1)
        now = self._pair_cost(out_i, k_i, out_j, k_j)
        found = None
        trades = [(out_i, out_j)]
        for a in set(out_i) - set(out_j):
            for b in set(out_j) - set(out_i):
                new_i = tuple(sorted({*out_i} - {a} | {b}))
                new_j = tuple(sorted({*out_j} - {b} | {a}))
                trial = [*plan]
                trial[i], trial[j] = (new_i, 0), (new_j, 0)
                if self._fair(trial, i, new_i) and self._fair(trial, j, new_j):
                    trades.append((new_i, new_j))
        for new_i, new_j in trades:
            for x in range(len(self.seatings[new_i])):
                for y in range(len(self.seatings[new_j])):
                    cost = self._pair_cost(new_i, x, new_j, y)
                    if cost < now:
                        now, found = cost, ((new_i, x), (new_j, y))
        if found is not None:
            plan[i], plan[j] = found
        self.add(*plan[i], 1)
        self.add(*plan[j], 1)
        return found is not None

    def _pair_cost(self, out: tuple[int, ...], k: int, out2: tuple[int, ...], k2: int) -> Cost:
        """What two seatings cost, the second counted after the first."""
        first = self.cost(out, k)
        self.add(out, k, 1)
        second = self.cost(out2, k2)
        self.add(out, k, -1)
        return _plus(first, second)

    def _fair(self, plan: list[Step], i: int, out: tuple[int, ...]) -> bool:
        """Whether round i sitting `out` out keeps every round's sit-outs fair: whoever sits
        out has missed fewest rounds before it (this night's rounds, after those kept)."""
        # The counts before tonight's plan: round i is out of them already.
        missed = list(self.missed)
        for r, (was, _) in enumerate(plan):
            if r != i:
                for p in was:
                    missed[p] -= 1
        for r, (was, _) in enumerate(plan):
            sits = out if r == i else was
            forced, tier, pick = sit_out_choice(
                range(len(missed)), self.need, dict(enumerate(missed))
            )
            if not set(forced) <= set(sits) or not set(sits) <= {*forced, *tier}:
                return False
            for p in sits:
                missed[p] += 1
        return True


def _spread(counts: list[int], more: int) -> int:
    """The least `more` meetings added to pairs met `counts` times can cost, a pair met c
    times costing c more: each to the pair met least so far."""
    if more <= 0:
        return 0
    levels = [0] * (max(counts) + 2)
    for times in counts:
        levels[times] += 1
    cost = level = 0
    while more > 0:
        if level + 1 >= len(levels):
            levels.append(0)
        take = min(more, levels[level])
        cost += take * level
        more -= take
        levels[level + 1] += take
        level += 1
    return cost


def _plus(a: Cost, b: Cost) -> Cost:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])
