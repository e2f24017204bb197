"""Fixed partners' pairs as a night keeps them (issue 38): drawn with round 1 by the engine
(`rules/fixed_pairs.draw_pairs`, asked by `night_seating.pairs_drawn`), kept on the night as
night_player ids (`Night.pairs`) when round 1 is seated (`night_rounds`), and read back for
every later round. A night kept before issue 38 has none kept: its pairs are each player's
round 1 partner, as they were then.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorekeeper.plumbing.models import Night, NightPlayer, NightRound
from scorekeeper.rules import Round
from scorekeeper.rules.fixed_pairs import Pairs
from scorekeeper.services.nights import planning


def player_key(player: NightPlayer) -> str:
    """The player as the engine and the season's history name them."""
    if player.member_id is not None:
        return str(player.member_id)
    return planning.GUEST + player.name


def kept_form(night: Night, pairs: Pairs) -> dict[str, list[Any]]:
    """The pairs as the night keeps them: night_player ids."""
    ids = {player_key(p): p.id for p in night.players}
    return {
        "teams": [[ids[a], ids[b]] for a, b in pairs.teams],
        "spare": [ids[p] for p in pairs.spare],
    }


def kept(night: Night, rounds: Sequence[NightRound], so_far: Sequence[Round]) -> Pairs | None:
    """The night's pairs for the round after `rounds`: None for round 1 (its draw makes them);
    those kept with round 1; a night kept before issue 38: each player's round 1 partner."""
    if not rounds:
        return None
    if night.pairs:
        keys = {p.id: player_key(p) for p in night.players}
        teams = tuple((keys[a], keys[b]) for a, b in night.pairs["teams"])
        return Pairs(teams, tuple(keys[p] for p in night.pairs.get("spare", [])))
    return Pairs(tuple(first_partners(so_far)))


def first_partners(so_far: Sequence[Round]) -> list[tuple[str, str]]:
    """Each player's first partner tonight is their partner all night."""
    pairs: list[tuple[str, str]] = []
    paired: set[str] = set()
    for played in so_far:
        for table in played.tables:
            for side in table.sides:
                if len(side) == 2 and not paired & set(side):
                    pairs.append((side[0], side[1]))
                    paired.update(side)
    return pairs
