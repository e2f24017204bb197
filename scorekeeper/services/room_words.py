"""What a number of players gives (issue 38): "10 players: 1 table of 6 and 1 table of 4, nobody
sits out." The sentence is the engine's (`rules.tables.room_words`); this module says which
sentence each page shows: every count on the new night's form, the count ticked when the form
comes back, the plan of tonight's tables, and a kept night's next round.

Tables of 4 take the teams tables of 6 leave over only where the night's rules allow a game of
two sides (`min_sides <= 2`), as the engine is asked (`night_seating._asked`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.plumbing.models import Club, Night, SavedRules
from scorekeeper.rules import PRESETS, RuleSet, saved_ruleset
from scorekeeper.rules.tables import room_words
from scorekeeper.services.games import rules_of_saved
from scorekeeper.services.members import split_names
from scorekeeper.services.nights import planning
from scorekeeper.services.nights.seating import present_for

# The form lists every count up to the club's members and this many more (guests), at least
# up to FEWEST_LISTED, never past what a night seats.
GUESTS_LISTED = 4
FEWEST_LISTED = 16


def fours_allowed(rules: RuleSet) -> bool:
    """Whether tables of 4 may take the teams that tables of 6 leave over: a game of two sides."""
    return rules.min_sides <= 2


def said(players: int, shape: str, rules: RuleSet) -> str:
    """ "10 players: 1 table of 6 and 1 table of 4, nobody sits out." for this shape's key."""
    teams_a_table = planning.SHAPES[shape][0].pairs_a_table
    return room_words(players, teams_a_table, fours_allowed(rules))


@dataclass(frozen=True)
class Counts:
    """The form's words: each shape the rules seat, with what each count gives; the count
    ticked (0 if none) and what it gives in the shape chosen ("" if nothing is ticked)."""

    rules_called: str
    shapes: tuple[tuple[str, tuple[str, ...]], ...]
    ticked: int = 0
    ticked_words: str = ""


def form_counts(
    club: Club, rules: SavedRules | str, shape: str, member_ids: Sequence[int], guests: str
) -> Counts | None:
    """What each count gives under the rules the form has chosen, and what the members ticked
    and guests typed give (None for rules it does not know: the form says why when sent)."""
    ticked = len(dict.fromkeys(member_ids)) + len(split_names(guests))
    found = _rules(rules)
    if found is None:
        return None
    ruleset, called = found
    keys = ["singles"] if ruleset.individuals else ["fours", "sixes"]
    if not ruleset.individuals and ruleset.max_sides is not None and ruleset.max_sides < 3:
        keys = ["fours"]
    members = sum(1 for m in club.members if not m.archived)
    most = min(planning.MOST_PLAYERS, max(FEWEST_LISTED, members + GUESTS_LISTED))
    shapes = tuple(
        (
            planning.SHAPES[key][1],
            tuple(said(n, key, ruleset) for n in range(_fewest(key), most + 1)),
        )
        for key in keys
    )
    chosen = shape if shape in keys else keys[0]
    words = said(ticked, chosen, ruleset) if ticked else ""
    return Counts(called, shapes, ticked, words)


def plan_words(plan: planning.NightPlan) -> str:
    """The plan of tonight's tables: what its count gives in its shape, as the plan seats it
    (`planning.plan_for_tonight` lets tables of 4 take what tables of 6 leave, whatever the
    rules' fewest sides)."""
    return room_words(plan.players, plan.shape.pairs_a_table, fours_allowed=True)


def next_round_words(night: Night) -> str:
    """A kept night's next round: what the players present for it give, in the night's shape
    under the night's rules."""
    number = len(night.rounds) + 1
    ruleset = saved_ruleset(night.ruleset, night.house_rules)
    return said(len(present_for(night, number)), night.shape, ruleset)


def _rules(rules: SavedRules | str) -> tuple[RuleSet, str] | None:
    if isinstance(rules, SavedRules):
        return rules_of_saved(rules), rules.name
    if rules in PRESETS:
        return PRESETS[rules], PRESETS[rules].name
    return None


def _fewest(shape: str) -> int:
    """The fewest players a shape seats at one table."""
    return {"fours": 4, "sixes": 6, "singles": 3}[shape]
