"""What the engine is asked for a club night's next round (issue 29), and its seating: the
players present, the season's history, tonight's rounds, a whist schedule continued, and a
seed for each draw (a seating drawn again is the next draw's). Seated and drawn again by
`night_rounds.py`.

The seating is the engine's (`rules.plan_round`), measured against the season's games
(`planning.season_history`) less tonight's, plus tonight's rounds; the players are the engine's as
`services/nights/planning.py` names them (a member by id, a guest as `guest:` and the name).
Partners rotating at tables of 4, a group whose number has a whist schedule goes on with it where
the club's earlier nights this season left off. Partners balanced by rating: the engine draws the
tables as for rotating partners, then each table's partnership is the one whose sides' chances
are nearest even (`ratings.chances.balance`); the tables stay as drawn, so partners may repeat
where balance asks it. Opening a night and its comings and goings are
`night_play.py`, which names all of this too.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import (
    Club,
    Night,
    NightPlayer,
    NightRound,
)
from scorekeeper.rules import (
    History,
    Round,
    SeatingRefused,
    Shape,
    Table,
    history_of,
    plan_round,
    saved_ruleset,
)
from scorekeeper.rules.fixed_pairs import Pairs, draw_pairs
from scorekeeper.rules.whist import whist_rounds
from scorekeeper.services.nights import groups as night_groups
from scorekeeper.services.nights import pairs as night_pairs
from scorekeeper.services.nights import planning
from scorekeeper.services.nights.pairs import player_key
from scorekeeper.services.ratings import chances, scopes
from scorekeeper.services.ratings.kept import Who
from scorekeeper.services.ratings.model import Skill

ROTATING, FIXED, BALANCED = "rotating", "fixed", "balanced"
# Fixed partners whose pairs are drawn balanced by rating (issue 38): fixed in every other way.
FIXED_BALANCED = "fixed_balanced"
# A draw again that happens to seat the room as before is drawn again, up to this many times:
# with few players and the season's partners avoided there may be one fair seating only.
DRAWS_TRIED = 8


class NightRefused(ValueError):
    """What the organiser asked cannot be: (field, words) for each problem found."""

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        super().__init__("; ".join(words for _, words in problems))
        self.problems = tuple(problems)


def is_fixed(partners: str) -> bool:
    """Whether a night's partners are fixed all night (by lot, or balanced by rating)."""
    return partners in (FIXED, FIXED_BALANCED)


def present_for(night: Night, number: int) -> list[NightPlayer]:
    """Who is at the night for round `number`: come by then and not yet gone."""
    return [
        p
        for p in night.players
        if p.from_round <= number and (p.left_after is None or p.left_after >= number)
    ]


def round_over(night: Night) -> bool:
    """Whether the last round seated is over: every table's game finished (or deleted)."""
    if not night.rounds:
        return True
    return all(t.game is None or t.game.finished_at for t in night.rounds[-1].tables)


def still_playing(night: Night) -> NightRefused:
    """ "Round 1 is still playing at table 2, 3." """
    tables = night.rounds[-1].tables
    at = ", ".join(str(t.number) for t in tables if t.game and not t.game.finished_at)
    return NightRefused([("round", f"Round {len(night.rounds)} is still playing at table {at}.")])


@dataclass(frozen=True)
class SchedulePlace:
    """Where a round stands in its group's whist schedule: its round of how many, for how many."""

    round: int
    length: int
    players: int

    @property
    def words(self) -> str:
        """ "Round 3 of 7 of the whist schedule for 8: everyone partners everyone once"."""
        return (
            f"Round {self.round} of {self.length} of the whist schedule for {self.players}: "
            "everyone partners everyone once"
        )


@dataclass(frozen=True)
class _Asked:
    """What the engine is asked for the night's next round, all but the seed."""

    number: int
    present: tuple[str, ...]
    shape: Shape
    # Fixed partners: the night's pairs; None before round 1, whose seed draws them.
    fixed_pairs: Pairs | None
    history: History
    so_far: tuple[Round, ...]
    schedule_played: int | None
    # Partners balanced by rating: each present player's kept rating (else None).
    skills: Mapping[str, Skill] | None = None
    fixed: bool = False
    # Fixed partners balanced by rating: each player's strength, their pairs drawn by it.
    strength: Mapping[str, float] | None = None
    rounds_planned: int | None = None
    fours_allowed: bool = True


def seed_of(night: Night, draw: int) -> int:
    """The engine's seed for a draw of the night: its id at first (as nights were seated before
    draws were kept), then a seed of its own for every draw again."""
    if draw == 0:
        return night.id
    text = f"night {night.id}/draw {draw}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def next_round(night: Night) -> Round:
    """The next round as the engine seats it now (the same each time it is asked, until a
    player comes or goes, a game is played or it is drawn again): the board shows it,
    `seat_round` keeps it."""
    return _plan(_asked(night, night.rounds), seed_of(night, night.draw))


def round_after(night: Night, rounds: Sequence[NightRound]) -> tuple[Round, bool]:
    """The round after `rounds` (the night's, then rounds as they will be kept) as the engine
    seats it at the night's draw, and whether a schedule says it rather than a draw made round
    by round (movement cards print only those): a whist schedule's round, fixed pairs' round
    robin with every player present paired, or fixed partners' round 1, which their pairs and
    round robin follow."""
    asked = _asked(night, rounds)
    pairs = asked.fixed_pairs
    scheduled = asked.shape is Shape.FOURS and (
        asked.schedule_played is not None
        or (is_fixed(night.partners) and (pairs is None or pairs.players == set(asked.present)))
    )
    return _plan(asked, seed_of(night, night.draw)), scheduled


def schedule_place(night: Night) -> SchedulePlace | None:
    """Where the next round stands in its group's whist schedule; None if it follows none."""
    if night.partners != ROTATING:
        return None
    asked = _asked(night, night.rounds)
    schedule = whist_rounds(len(asked.present))
    if asked.schedule_played is None or schedule is None:
        return None
    group = {*asked.present}
    same = sum(1 for r in asked.so_far if {*r.seated, *r.sitting_out} == group)
    at = (asked.schedule_played + same) % len(schedule)
    return SchedulePlace(at + 1, len(schedule), len(asked.present))


def why_no_draw(night: Night, number: int) -> str:
    """Why round `number`'s seating may not be drawn again ("" if it may): with fixed partners,
    round 1 draws the pairs and the order of their round robin, which later rounds follow."""
    if is_fixed(night.partners) and number > 1:
        return (
            "Partners are fixed: round 1 drew the pairs and the order they meet in, each pair "
            "once, so a later round is not drawn again."
        )
    return ""


def new_draw(night: Night, rounds: Sequence[NightRound]) -> tuple[int, Round]:
    """The next draw of the round after `rounds` whose seating differs from the current draw's
    (or the last tried), and that seating."""
    asked = _asked(night, rounds)
    shown = _plan(asked, seed_of(night, night.draw))
    # Fixed partners by lot, round 1: a draw again draws other pairs where it can.
    other_pairs = asked.fixed and asked.fixed_pairs is None and asked.strength is None
    first = None
    for step in range(1, DRAWS_TRIED + 1):
        planned = _plan(asked, seed_of(night, night.draw + step))
        if planned != shown:
            first = first or (step, planned)
            if not other_pairs or _pairs_of(planned) != _pairs_of(shown):
                return night.draw + step, planned
    step, planned = first or (step, planned)
    return night.draw + step, planned


def _pairs_of(planned: Round) -> set[frozenset[str]]:
    """A round's partnerships."""
    return {frozenset(side) for table in planned.tables for side in table.sides}


# --- what the engine is asked --------------------------------------------------------------


def _plan(asked: _Asked, seed: int) -> Round:
    pairs = asked.fixed_pairs
    if asked.fixed and pairs is None:
        pairs = _draw_pairs(asked, seed)
    try:
        planned = plan_round(
            asked.present,
            asked.shape,
            pairs or (),
            asked.history,
            asked.so_far,
            seed=seed,
            schedule_played=asked.schedule_played,
            rounds_planned=asked.rounds_planned,
            fours_allowed=asked.fours_allowed,
        )
    except SeatingRefused as refused:
        words = f"Round {asked.number} cannot be seated: {refused}"
        raise NightRefused([("round", words)]) from None
    return planned if asked.skills is None else _balanced(planned, asked.skills)


def who_is(key: str) -> Who:
    """A player as the engine names them, as the ratings do: a member by id, a guest by name."""
    if key.startswith(planning.GUEST):
        return scopes.guest(key.removeprefix(planning.GUEST))
    return (int(key), None)


def _balanced(planned: Round, skills: Mapping[str, Skill]) -> Round:
    """Each partnership table's players regrouped into the sides nearest an even chance; the
    tables, their numbers and who sits out stay as the engine drew them."""
    tables = []
    for table in planned.tables:
        if len(table.sides) >= 2 and all(len(side) >= 2 for side in table.sides):
            sides = chances.balance(table.sides, skills)
            table = replace(table, sides=tuple(tuple(side) for side in sides))
        tables.append(table)
    return replace(planned, tables=tuple(tables))


def _asked(night: Night, rounds: Sequence[NightRound]) -> _Asked:
    """The engine's inputs for the round after `rounds` (the night's, or all but its last)."""
    number = len(rounds) + 1
    present = tuple(player_key(p) for p in present_for(night, number))
    so_far = tuple(_engine_round(r, night) for r in rounds)
    shape = planning.SHAPES[night.shape][0]
    fixed = is_fixed(night.partners)
    # A whist schedule for the group present at every round tonight; a player come or gone
    # makes another group, seated round by round so tonight's partners are not met again.
    same_group = all({*r.seated, *r.sitting_out} == {*present} for r in so_far)
    # Balancing regroups the schedule's partners, so a balanced night follows no schedule.
    whist = (
        night.partners == ROTATING
        and shape is Shape.FOURS
        and whist_rounds(len(present)) is not None
    )
    whist = whist and same_group
    history = _before_tonight(night)
    return _Asked(
        number,
        present,
        shape,
        _pairs(night, rounds, so_far) if fixed else None,
        history,
        so_far,
        _schedule_played(night, present) if whist else None,
        _skills(night, present) if night.partners == BALANCED else None,
        fixed=fixed,
        strength=_strength(night, present) if night.partners == FIXED_BALANCED else None,
        rounds_planned=night.rounds_planned,
        fours_allowed=saved_ruleset(night.ruleset, night.house_rules).min_sides <= 2,
    )


def _pairs(night: Night, rounds: Sequence[NightRound], so_far: Sequence[Round]) -> Pairs | None:
    """Fixed partners' pairs for the round after `rounds`: those kept, or, for rounds planned
    before round 1 is kept (movement cards), those round 1's draw makes."""
    if rounds and not night.rounds:
        return pairs_drawn(night)
    return night_pairs.kept(night, rounds, so_far)


def pairs_drawn(night: Night) -> Pairs:
    """The pairs round 1 is seated with (fixed partners): drawn at the night's current draw
    from the players present for round 1 and the season's partnerships, as `_plan` draws them."""
    return _draw_pairs(_asked(night, night.rounds[:0]), seed_of(night, night.draw))


def _draw_pairs(asked: _Asked, seed: int) -> Pairs:
    """Fixed partners' pairs by the draw's seed: by rating where asked, else by lot with the
    season's partners spread."""
    return draw_pairs(asked.present, seed, asked.history.partnered, asked.strength)


def _strength(night: Night, present: Sequence[str]) -> dict[str, float]:
    """Each player's strength for pairs balanced by rating: the kept rating's mu, the expected
    skill, not the displayed ordinal (mu less three sigmas), which ranks the unrated lowest
    and would pair every newcomer with the strongest as if they were the weakest."""
    return {key: skill.mu for key, skill in _skills(night, present).items()}


def _skills(night: Night, present: Sequence[str]) -> dict[str, Skill]:
    """The kept rating of each player present (one query), by the engine's name for them."""
    found = chances.skills_of(night.club_id, (who_is(k) for k in present))
    return {key: found[who_is(key)] for key in present}


def _schedule_played(night: Night, present: Sequence[str]) -> int:
    """Rounds this same group (the same players present, no more, no fewer) played at the
    club's earlier nights this season with partners rotating at tables of 4: where its whist
    schedule goes on from. Tonight's rounds are the engine's to count."""
    rounds = night_groups.earlier(night, ROTATING).rounds
    return sum(1 for _, group in rounds if group == {*present})


def _engine_round(played: NightRound, night: Night, kept_games: bool = False) -> Round:
    """A round kept, as the engine seated it (`kept_games`: its tables whose game is kept)."""
    keys = {p.id: player_key(p) for p in night.players}
    return Round(
        played.number,
        tuple(
            Table(t.number, tuple(tuple(keys[i] for i in side) for side in t.sides))
            for t in played.tables
            if not kept_games or t.game_id is not None
        ),
        tuple(keys[i] for i in played.sitting_out),
    )


def _before_tonight(night: Night) -> History:
    """The season's history without tonight's games, which the engine counts from the rounds.

    The season's games include tonight's tables that still have their game (played today, in
    the club): their partners and opponents among members are taken off again, so tonight
    counts once; a round being drawn again counts neither there nor among the rounds.
    """
    club = db.session.get(Club, night.club_id)
    season = planning.season_history(club, planning.history_span(club, night.played_on))
    tonight = _members_only([_engine_round(r, night, kept_games=True) for r in night.rounds])
    partnered = Counter(season.partnered)
    partnered.subtract(tonight.partnered)
    opposed = Counter(season.opposed)
    opposed.subtract(tonight.opposed)
    return History(+partnered, +opposed)


def _members_only(so_far: Sequence[Round]) -> History:
    members = [
        Round(
            r.number,
            tuple(Table(t.number, tuple(_members(side) for side in t.sides)) for t in r.tables),
        )
        for r in so_far
    ]
    return history_of(members)


def _members(side: Sequence[str]) -> tuple[str, ...]:
    return tuple(p for p in side if not p.startswith(planning.GUEST))
