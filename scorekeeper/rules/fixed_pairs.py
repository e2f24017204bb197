"""Fixed partners (issue 38): the pairs drawn before round 1, then every round, round 1
included, one round of one round robin.

At tables of 4 the round robin is the circle method (`whist.round_robin`): each pair meets each
other pair once before any pair meets one again, and with an odd number of pairs one rests each
round, each in turn, so no pair rests twice before every pair has rested once.

With an odd number of players one is left without a pair: the spare. Each round one player sits
out and the spare plays in their place beside their partner, so the player without a pair
changes every round and nobody sits out all night. Who sits out: whoever has missed fewest
rounds tonight (a pair's rest counts), then whoever sat out least this season, then whoever's
pair rests latest in the round robin (the spare, whose pair never rests, first), so nobody sits
out twice before everyone has sat out once.

At tables of 6 no round robin of three pairs a table exists for most numbers: the pairs are put
at tables so pairs that have met meet again as seldom as can be, and the pairs that rest are
those that have missed fewest rounds. A night whose pairs are not all present (a partner away,
a player come late) is seated that way too: the complete pairs as they are, the others paired
among themselves with the fewest repeats.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .matching import pair_up
from .rotating import grid_of, seat_teams
from .tables import team_tables
from .tally import Groups, Tally, Team
from .whist import round_robin


@dataclass(frozen=True)
class Pairs:
    """A night's fixed partnerships in their round robin's order, and the player without one."""

    teams: tuple[tuple[str, str], ...]
    spare: tuple[str, ...] = ()

    @property
    def players(self) -> set[str]:
        """Everyone in a pair, and the spare."""
        return {p for team in self.teams for p in team} | set(self.spare)


def draw_pairs(
    players: Sequence[str],
    seed: int,
    partnered: Mapping[frozenset[str], int] | None = None,
    strength: Mapping[str, float] | None = None,
) -> Pairs:
    """The night's pairs: by lot, players who partnered least this season first; or, given each
    player's strength, the strongest with the weakest so the pairs are as even as can be. An
    odd one out is the spare (by lot; by strength, the middle player)."""
    rng = random.Random(f"{seed}/pairs")
    people = sorted(players)
    rng.shuffle(people)
    spare: tuple[str, ...] = ()
    if strength is not None:
        people.sort(key=lambda p: -strength[p])
        if len(people) % 2:
            spare = (people.pop(len(people) // 2),)
        half = len(people) // 2
        teams = [(people[i], people[-1 - i]) for i in range(half)]
    else:
        if len(people) % 2:
            spare = (people.pop(),)
        counts = partnered or {}
        teams = pair_up(people, lambda a, b: counts.get(frozenset((a, b)), 0))
    teams = [tuple(sorted(team)) for team in teams]
    rng.shuffle(teams)
    return Pairs(tuple((a, b) for a, b in teams), spare)


def complete(pairs: Pairs, present: Sequence[str]) -> bool:
    """Whether the players present are exactly the night's pairs (and its spare)."""
    return pairs.players == set(present)


def fixed_round(
    pairs: Pairs,
    present: Sequence[str],
    teams_a_table: int,
    index: int,
    tally: Tally,
    rng: random.Random,
    fours_allowed: bool = True,
) -> tuple[Groups, list[str]]:
    """One round for fixed pairs: its tables (each its sides) and who sits out. `index` is the
    round's place in the round robin (this group's rounds before it)."""
    if teams_a_table == 2 and complete(pairs, present):
        return _round_robin(pairs, index, tally, rng)
    teams, left = _teams_present(pairs, present, tally, rng)
    sizes = team_tables(len(teams), teams_a_table, fours_allowed).sizes
    resting = len(teams) - sum(sizes)
    # The pairs that have missed fewest rounds rest first.
    order = list(teams)
    rng.shuffle(order)
    order.sort(key=lambda team: sum(tally.missed[p] for p in team))
    out = [p for team in order[:resting] for p in team]
    playing = order[resting:]
    if left:
        # The one without a pair plays in the place of whoever has missed fewest rounds.
        ties = {p: rng.random() for team in playing for p in team}
        ties[left] = rng.random()
        sitting = min(ties, key=lambda p: (tally.missed[p], tally.season_out.get(p, 0), ties[p]))
        out.append(sitting)
        playing = [tuple(left if p == sitting else p for p in team) for team in playing]

    # Put at tables as rotating partners' teams are: pairs that have met kept apart.
    return seat_teams(playing, sizes, grid_of(tally.opposed, present)), out


def _round_robin(
    pairs: Pairs, index: int, tally: Tally, rng: random.Random
) -> tuple[Groups, list[str]]:
    """Tables of 4, every pair present: the round robin's round `index`, a spare played in."""
    teams = list(pairs.teams)
    meets, rests = round_robin(len(teams), index)
    out = [p for t in rests for p in teams[t]]
    if pairs.spare:
        resting = set(rests)
        # How many rounds until each pair rests again (a pair that never rests: never).
        until = {t: _next_rest(len(teams), index, t) for t in range(len(teams))}
        candidates = [(p, None) for p in pairs.spare] + [
            (p, t) for t, team in enumerate(teams) if t not in resting for p in team
        ]
        ties = {p: rng.random() for p, _ in candidates}
        season = tally.season_out

        def first(candidate: tuple[str, int | None]) -> tuple[int, int, float, float]:
            p, t = candidate
            later = float("inf") if t is None else until[t]
            return (tally.missed[p], season.get(p, 0), -later, ties[p])

        sitting, team_of = min(candidates, key=first)
        out.append(sitting)
        if team_of is not None:
            a, b = teams[team_of]
            teams[team_of] = (pairs.spare[0], b) if a == sitting else (a, pairs.spare[0])
    groups = [[teams[a], teams[b]] for a, b in meets]
    return groups, out


def _next_rest(teams: int, index: int, team: int) -> float:
    """Rounds after `index` until this pair's next rest in the round robin (never: inf)."""
    if teams % 2 == 0:
        return float("inf")
    for ahead in range(1, teams + 1):
        if team in round_robin(teams, index + ahead)[1]:
            return ahead
    return float("inf")


def _teams_present(
    pairs: Pairs, present: Sequence[str], tally: Tally, rng: random.Random
) -> tuple[list[Team], str | None]:
    """The complete pairs, then everyone else paired afresh (fewest repeats), and the one left
    without a pair, if any (the spare, or whoever the pairing leaves)."""
    here = set(present)
    teams: list[Team] = [team for team in pairs.teams if set(team) <= here]
    teamed = {p for team in teams for p in team}
    loose = sorted(p for p in present if p not in teamed)
    rng.shuffle(loose)
    left = None
    if len(loose) % 2:
        # The spare stays the one without a pair; else whoever has missed fewest rounds.
        spare = [p for p in loose if p in pairs.spare]
        left = spare[0] if spare else min(loose, key=lambda p: tally.missed[p])
        loose.remove(left)
    teams += pair_up(loose, lambda a, b: tally.partnered[frozenset((a, b))])
    return teams, left
