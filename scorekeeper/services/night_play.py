"""A club night kept and played (issue 29): opened, seated round by round with each table's
game started for it, players come late or gone early.

The seating is the engine's (`rules.plan_round`), measured against the season's games
(`nights.season_history`) and tonight's rounds; the players are the engine's as
`services/nights.py` names them (a member by id, a guest as `guest:` and the name). What the
night board reads is `night_board.py`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Night, NightPlayer, NightRound, NightTable, SavedRules
from scorekeeper.rules import (
    PRESETS,
    History,
    Round,
    SeatingRefused,
    Table,
    history_of,
    plan_round,
)
from scorekeeper.rules.terms import MAX_NAME
from scorekeeper.services import clubs, games, nights
from scorekeeper.services.members import PARTNERS, split_names
from scorekeeper.services.names import name_problem

ROTATING, FIXED = "rotating", "fixed"
PARTNERS_MODES = {ROTATING: "Partners rotate every round", FIXED: "Fixed partners all night"}
NO_GAME, ZERO = "no game", "zero"
SIT_OUTS = {
    NO_GAME: "A round sat out is no game: players are ranked by their average per game played",
    ZERO: "A round sat out counts as a game of 0 points",
}


class NightRefused(ValueError):
    """What the organiser asked cannot be: (field, words) for each problem found."""

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        super().__init__("; ".join(words for _, words in problems))
        self.problems = tuple(problems)


def player_key(player: NightPlayer) -> str:
    """The player as the engine and the season's history name them."""
    if player.member_id is not None:
        return str(player.member_id)
    return nights.GUEST + player.name


def open_night(
    club: Club,
    member_ids: Sequence[int],
    guests: str,
    rules: SavedRules | str,
    rounds: int,
    partners: str,
    sit_out: str,
    shape: str = "",
    today: date | None = None,
) -> Night:
    """Tonight's night, its players and rules kept, no round seated yet; or NightRefused.

    `rules` is one of the club's saved rule sets or a preset's key; `shape` ("fours", "sixes",
    "singles") is the rules' own when not given: individual tables for every player for
    themselves, else partnership tables of 4.
    """
    today = today or games.now().date()
    problems: list[tuple[str, str]] = []
    ruleset, house, called = _rules(club, rules, problems)
    individuals = ruleset is not None and ruleset.individuals
    shape = shape or ("singles" if individuals else "fours")
    if ruleset is not None:
        problems += _shape_fits(shape, ruleset, called)
    if partners not in PARTNERS_MODES:
        problems.append(("partners", f"Partners rotate or stay fixed; {partners!r} is neither."))
    elif partners == FIXED and shape == "singles":
        problems.append(("partners", "Individual tables have no partners to keep fixed."))
    if sit_out not in SIT_OUTS:
        problems.append(("sit_out", f"A round sat out is no game or 0 points; not {sit_out!r}."))
    # The members, the guests, the rounds and whether this many can be seated: as the plan
    # of tonight's tables checks them, in its words.
    plan = nights.plan_for_tonight(
        club, member_ids, guests, shape if shape in nights.SHAPES else "fours", rounds, 0, today
    )
    if isinstance(plan, nights.PlanRefused):
        problems += [p for p in plan.problems if p[0] != "shape"]
    if problems:
        raise NightRefused(_once(problems))
    assert ruleset is not None
    saved = rules if isinstance(rules, SavedRules) else None
    night = Night(
        club_id=club.id,
        played_on=today,
        ruleset=saved.ruleset if saved else str(rules),
        house_rules=dict(house),
        saved_rules_id=saved.id if saved else None,
        rules_name=saved.name if saved else None,
        shape=shape,
        partners=partners,
        rounds_planned=rounds,
        sit_out=sit_out,
    )
    names = {m.id: m.name for m in club.members}
    for member_id in dict.fromkeys(member_ids):
        night.players.append(NightPlayer(member_id=member_id, name=names[member_id]))
    for guest in split_names(guests):
        night.players.append(NightPlayer(name=guest))
    db.session.add(night)
    db.session.commit()
    return night


def _rules(club: Club, rules: SavedRules | str, problems: list[tuple[str, str]]):
    """The engine's rule set, the house rules a game keeps, and what the club calls them."""
    if isinstance(rules, SavedRules):
        if rules.club_id != club.id:
            problems.append(("rules", f"{rules.name} is not one of {club.name}'s rule sets."))
            return None, {}, ""
        return games.rules_of_saved(rules), rules.house_rules or {}, rules.name
    if rules not in PRESETS:
        problems.append(("rules", f"Choose the night's rules: {rules!r} is none of them."))
        return None, {}, ""
    return PRESETS[rules], {}, PRESETS[rules].name


def _shape_fits(shape: str, ruleset, called: str) -> list[tuple[str, str]]:
    if shape not in nights.SHAPES:
        return [("shape", f"Choose how the tables are made: {shape!r} is none of the choices.")]
    if ruleset.individuals and shape != "singles":
        return [("shape", f"{called} seat every player for themselves: individual tables.")]
    if not ruleset.individuals and shape == "singles":
        return [("shape", f"{called} seat partnerships: tables of 4 or 6.")]
    if shape == "sixes" and ruleset.max_sides is not None and ruleset.max_sides < 3:
        return [("shape", f"Tables of 6 seat three teams; {called} allow {ruleset.max_sides}.")]
    return []


def _once(problems: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return list(dict.fromkeys(problems))


# --- round by round ------------------------------------------------------------------------


@dataclass(frozen=True)
class Seated:
    """A round seated: its number and its tables' games."""

    number: int
    games: tuple[int, ...]


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


def _still_playing(night: Night) -> NightRefused:
    """ "Round 1 is still playing at table 2, 3." """
    tables = night.rounds[-1].tables
    at = ", ".join(str(t.number) for t in tables if t.game and not t.game.finished_at)
    return NightRefused([("round", f"Round {len(night.rounds)} is still playing at table {at}.")])


def seat_round(night: Night) -> Seated:
    """The next round seated by the engine, each table's game started; or NightRefused."""
    number = len(night.rounds) + 1
    if not round_over(night):
        raise _still_playing(night)
    if night.finished_at is not None:
        raise NightRefused([("round", "The night has ended: no round is seated after it.")])
    if number > night.rounds_planned:
        most = night.rounds_planned
        raise NightRefused([("round", f"All {most} rounds planned are seated.")])
    by_key = {player_key(p): p for p in night.players}
    planned = next_round(night)
    club = db.session.get(Club, night.club_id)
    saved = clubs.saved_rules(club, night.saved_rules_id) if night.saved_rules_id else None
    played = NightRound(
        number=number, sitting_out=[by_key[k].id for k in planned.sitting_out], tables=[]
    )
    try:
        night.rounds.append(played)
        for table in planned.tables:
            sides = [[by_key[k] for k in side] for side in table.sides]
            played.tables.append(
                NightTable(
                    number=table.number,
                    sides=[[p.id for p in side] for side in sides],
                    game=_start(night, club, saved, sides, table),
                )
            )
        # Counted in the database: two phones changing the night at once both count.
        night.version = Night.version + 1
        db.session.commit()
    except IntegrityError:
        # Another tap of Seat round N got there first (one round N a night).
        db.session.rollback()
        raise NightRefused([("round", f"Round {number} was seated meanwhile.")]) from None
    return Seated(number, tuple(t.game_id for t in played.tables if t.game_id))


def finish_night(night: Night) -> Night:
    """The night ended (its last round over, or earlier): no round is seated after; or
    NightRefused while a table still plays."""
    if night.finished_at is not None:
        raise NightRefused([("round", "The night has already ended.")])
    if not round_over(night):
        raise _still_playing(night)
    night.finished_at = games.now()
    night.version = Night.version + 1
    db.session.commit()
    return night


def next_round(night: Night) -> Round:
    """The next round as the engine seats it now (the same each time it is asked, until a
    player comes or goes or a game is played): the board shows it, `seat_round` keeps it."""
    number = len(night.rounds) + 1
    present = [player_key(p) for p in present_for(night, number)]
    so_far = [_engine_round(r, night) for r in night.rounds]
    try:
        return plan_round(
            present,
            nights.SHAPES[night.shape][0],
            _fixed_pairs(so_far) if night.partners == FIXED else (),
            _before_tonight(night, so_far),
            so_far,
            seed=night.id,
        )
    except SeatingRefused as refused:
        raise NightRefused([("round", f"Round {number} cannot be seated: {refused}")]) from None


def _start(night: Night, club, saved, sides: list[list[NightPlayer]], table: Table):
    """The table's game, as a club game from the night's rules is started; uncommitted."""
    setup = [games.SideSetup(PARTNERS.join(p.name for p in s), [p.name for p in s]) for s in sides]
    try:
        return games.start_game(
            night.ruleset,
            setup,
            house_rules=night.house_rules,
            club=club,
            played_on=night.played_on,
            commit=False,
            saved_rules=saved,
            first_dealer=table.first_dealer,
        )
    except games.GameRefused as refused:
        db.session.rollback()
        raise NightRefused([("round", f"Table {table.number}: {refused}")]) from None


def _engine_round(played: NightRound, night: Night) -> Round:
    """A round kept, as the engine seated it."""
    keys = {p.id: player_key(p) for p in night.players}
    return Round(
        played.number,
        tuple(
            Table(t.number, tuple(tuple(keys[i] for i in side) for side in t.sides))
            for t in played.tables
        ),
        tuple(keys[i] for i in played.sitting_out),
    )


def _fixed_pairs(so_far: Sequence[Round]) -> list[tuple[str, str]]:
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


def _before_tonight(night: Night, so_far: Sequence[Round]) -> History:
    """The season's history without tonight's games, which the engine counts from the rounds.

    The season's games include tonight's tables (played today, in the club): their partners
    and opponents among members are taken off again, so tonight counts once.
    """
    club = db.session.get(Club, night.club_id)
    season = nights.season_history(club, nights.history_span(club, night.played_on))
    tonight = _members_only(so_far)
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
    return tuple(p for p in side if not p.startswith(nights.GUEST))


# --- players come and go ----------------------------------------------------------------


def add_player(night: Night, member_id: int | None = None, guest: str = "") -> NightPlayer:
    """Someone come late: seated from the next round on; or NightRefused."""
    club = db.session.get(Club, night.club_id)
    number = len(night.rounds) + 1
    here = {player_key(p): p for p in night.players}
    if member_id is not None:
        member = next((m for m in club.members if m.id == member_id and not m.archived), None)
        if member is None:
            raise NightRefused([("member", f"Member {member_id} is not one of {club.name}'s.")])
        key, name = str(member.id), member.name
    else:
        name = " ".join(guest.split())
        problem = name_problem(name, "The guest's name")
        if problem is None and not name:
            problem = "Choose the member come late, or type the guest's name."
        if problem is None and len(name) > MAX_NAME:
            problem = f"The guest's name is {len(name):,} characters long: at most {MAX_NAME}."
        member = next((m for m in club.members if m.name.casefold() == name.casefold()), None)
        if problem is None and member is not None:
            problem = f"{name} is a member: choose {member.name} from the members instead."
        if problem:
            raise NightRefused([("guest", problem)])
        key = nights.GUEST + name
    if len(here) >= nights.MOST_PLAYERS and key not in here:
        raise NightRefused([("member", f"At most {nights.MOST_PLAYERS} players a night.")])
    player = here.get(key)
    if player is not None and player.left_after is None:
        raise NightRefused([("member", f"{name} is already at tonight's night.")])
    if player is None:
        player = NightPlayer(member_id=member_id, name=name, from_round=number)
        night.players.append(player)
    else:  # back again: missed rounds count as missed
        player.left_after = None
    night.version = Night.version + 1
    db.session.commit()
    return player


def player_leaves(night: Night, player_id: int) -> NightPlayer:
    """Someone gone early: not seated from the next round on; or NightRefused."""
    player = next((p for p in night.players if p.id == player_id), None)
    if player is None or player.left_after is not None:
        raise NightRefused([("player", "That player is not at tonight's night.")])
    player.left_after = len(night.rounds)
    night.version = Night.version + 1
    db.session.commit()
    return player


def nights_of(club: Club, most: int = 10) -> list[Night]:
    """The club's newest nights, the newest first."""
    query = select(Night).where(Night.club_id == club.id).order_by(Night.id.desc()).limit(most)
    return list(db.session.execute(query).scalars())


def night_of(club: Club, night_id: int) -> Night | None:
    """One of the club's nights by id, or None (another club's is None too)."""
    found = db.session.get(Night, night_id) if 0 < night_id < 2**63 else None
    return found if found is not None and found.club_id == club.id else None
