"""What a night's page says when its group is not the group of a whist schedule (issue 38).

Partners rotating at tables of 4, a group whose number has a whist schedule plays its rounds
(`night_seating`): the same players go on where the club's earlier nights this season left
off, another group of that number starts the schedule afresh, and a player come or gone tonight
stops it, the rounds after drawn one at a time with partners spread. The page says which:

- "The whist schedule for 8 stopped after round 2: Eve came. From round 3 the rounds are drawn
  so nobody partners anyone twice where that can be avoided, tonight's and this season's
  partners counted."
- "The same 8 played 2 rounds of the whist schedule for 8 at the club's earlier nights this
  season: tonight it goes on from its round 3."
- "Tonight's 8 are not the 8 of the club's night of 14 May (Ivy is here, Ann is not): the whist
  schedule for 8 starts afresh from its round 1; partners of earlier nights may partner again."
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Night
from scorekeeper.rules import Shape
from scorekeeper.rules.whist import whist_rounds
from scorekeeper.services.nights import groups as night_groups
from scorekeeper.services.nights import planning
from scorekeeper.services.nights.pairs import player_key
from scorekeeper.services.nights.seating import ROTATING, present_for


def said(night: Night) -> str:
    """The sentence for the night's page ("" when the night follows no whist schedule, or
    follows it as any first group of its number does)."""
    if night.partners != ROTATING or planning.SHAPES[night.shape][0] is not Shape.FOURS:
        return ""
    groups = _groups(night)
    if whist_rounds(len(groups[0])) is None:
        return ""
    names = {player_key(p): p.name for p in night.players}
    for number, group in enumerate(groups[1:], 2):
        if group != groups[0]:
            return _stopped(len(groups[0]), number, groups[number - 2], group, names, night)
    return _season(night, groups[0], names)


def _groups(night: Night) -> list[frozenset[str]]:
    """Everyone present at each round seated tonight and at the next."""
    return [
        frozenset(player_key(p) for p in present_for(night, number))
        for number in range(1, len(night.rounds) + 2)
    ]


def _stopped(
    size: int,
    number: int,
    before: frozenset[str],
    group: frozenset[str],
    names: Mapping[str, str],
    night: Night,
) -> str:
    """Tonight's schedule stopped before round `number`: who came and who left."""
    came = _listed(names[k] for k in sorted(group - before, key=names.__getitem__))
    left = _listed(names[k] for k in sorted(before - group, key=names.__getitem__))
    who = " and ".join(part for part in (came and f"{came} came", left and f"{left} left") if part)
    return (
        f"The whist schedule for {size} stopped after round {number - 1}: {who}. From round "
        f"{number} the rounds are drawn so nobody partners anyone twice where that can be "
        f"avoided, tonight's and {_when(night)[1]} partners counted."
    )


def _season(night: Night, group: frozenset[str], names: Mapping[str, str]) -> str:
    """How tonight's group stands to the schedule of the club's earlier nights: it goes on, or
    starts afresh as another group of its number ("" if no earlier night had its number)."""
    size = len(group)
    length = len(whist_rounds(size) or ())
    earlier = night_groups.earlier(night, ROTATING)
    same = sum(1 for _, g in earlier.rounds if g == group)
    where = f"at the club's earlier nights {_when(night)[0]}"
    if same:
        played = f"all {length}" if same == length else str(same)
        again = "starts it again from" if same % length == 0 else "goes on from"
        return (
            f"The same {size} played {played} round{'s' if same != 1 else ''} of the whist "
            f"schedule for {size} {where}: tonight {again} its round {same % length + 1}."
        )
    others = [(day, g) for day, g in earlier.rounds if len(g) == size]
    if not others:
        return ""
    day, last = others[-1]
    every = {**earlier.names, **names}
    here = _listed(every[k] for k in sorted(group - last, key=every.__getitem__))
    away = _listed(every[k] for k in sorted(last - group, key=every.__getitem__))
    return (
        f"Tonight's {size} are not the {size} of the club's night of {day.day} {day:%B} "
        f"({here} {_is(group - last)} here, {away} {_is(last - group)} not): the whist schedule "
        f"for {size} starts afresh from its round 1; partners of earlier nights may partner "
        "again."
    )


def _when(night: Night) -> tuple[str, str]:
    """ "this season" and "this season's", or the days counted where no season holds the
    night's date."""
    club = db.session.get(Club, night.club_id)
    if planning.history_span(club, night.played_on).season:
        return "this season", "this season's"
    days = f"the last {planning.RECENT_DAYS} days"
    return f"of {days}", f"{days}'"


def _is(players: Collection[str]) -> str:
    return "is" if len(players) == 1 else "are"


def _listed(names: Iterable[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cat"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
