"""How many rounds a night plans when its form leaves them blank (issue 37): as its schedule
needs, so the page never speaks of a 13-round schedule over a 3-round night.

Partners rotating at tables of 4, a number of players a whist schedule is known for plays that
schedule's rounds (`rules/whist.py`); fixed partners at tables of 4, their round robin's for
half the players' pairs (every pair meets every other once; an odd one out, the spare, plays in
every round for whoever sits out); anything else the usual `DEFAULT_ROUNDS`.
Never more than a night may have (`MOST_ROUNDS`): a longer schedule goes on at the group's next
night this season, where it left off (`night_seating.schedule_place`).
"""

from __future__ import annotations

from scorekeeper.rules.nights import MOST_ROUNDS
from scorekeeper.rules.whist import whist_rounds
from scorekeeper.services.nights.planning import DEFAULT_ROUNDS
from scorekeeper.services.nights.seating import ROTATING, is_fixed

# What a blank rounds field means, said beside the field on the new-night form.
AS_NEEDED = (
    "Left blank, as the schedule needs: partners rotating at tables of 4, a whist schedule's "
    "rounds for that many players; fixed partners, their round robin (every pair meets every "
    "other once; with an odd number of players, the one without a partner plays in for "
    f"whoever sits out); else {DEFAULT_ROUNDS}. At most {MOST_ROUNDS} a night: a longer "
    "schedule goes on at the same players' next night."
)


def rounds_needed(players: int, shape: str, partners: str) -> int:
    """The rounds a night of this many players, tables and partners plans when none is asked."""
    if shape == "fours" and partners == ROTATING:
        schedule = whist_rounds(players)
        if schedule:
            return min(len(schedule), MOST_ROUNDS)
    if shape == "fours" and is_fixed(partners) and players >= 4:
        # An odd one out is the spare, who plays in every round for whoever sits out: the
        # round robin is the pairs' all the same (rules/fixed_pairs.py).
        pairs = players // 2
        # The circle method: an odd number of pairs rests one each round, as many rounds as
        # pairs; an even number meets every other pair in one round fewer.
        return min(pairs if pairs % 2 else pairs - 1, MOST_ROUNDS)
    return DEFAULT_ROUNDS
