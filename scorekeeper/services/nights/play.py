"""A club night kept and played (issue 29): opened, players come late or gone early, ended.

Each round seated with its tables' games, or its seating drawn again, is `night_rounds.py`;
what the engine is asked for it (the season's history, a whist schedule continued, the seed of
each draw) is `night_seating.py`; both named here too; the players are the engine's as
`services/nights/planning.py` names them (a member by id, a guest as `guest:` and the name).
What the night board reads is `night_board.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Night, NightPlayer, SavedRules
from scorekeeper.plumbing.models.games import new_secret
from scorekeeper.rules import PRESETS
from scorekeeper.rules.terms import MAX_NAME
from scorekeeper.services import games
from scorekeeper.services.members import split_names
from scorekeeper.services.names import name_problem, squeezed
from scorekeeper.services.nights import place as night_place
from scorekeeper.services.nights import planning
from scorekeeper.services.nights import ranking as night_ranking
from scorekeeper.services.nights.length import rounds_needed

# Rounds seated and drawn again are night_rounds.py's, what the engine is asked for them
# night_seating.py's; named here too, as the night's pages and the API know them.
from scorekeeper.services.nights.rounds import (
    RoundAhead,
    Seated,
    draw_again,
    redraw_round,
    seat_round,
)
from scorekeeper.services.nights.seating import (
    BALANCED,
    FIXED,
    FIXED_BALANCED,
    ROTATING,
    NightRefused,
    is_fixed,
    next_round,
    player_key,
    present_for,
    round_over,
    schedule_place,
    still_playing,
    why_no_draw,
)

__all__ = [
    "BALANCED",
    "FIXED",
    "FIXED_BALANCED",
    "NO_GAME",
    "PARTNERS_MODES",
    "ROTATING",
    "SIT_OUTS",
    "ZERO",
    "NightRefused",
    "RoundAhead",
    "Seated",
    "add_player",
    "draw_again",
    "finish_night",
    "is_fixed",
    "next_round",
    "night_of",
    "nights_of",
    "open_night",
    "player_key",
    "player_leaves",
    "present_for",
    "redraw_round",
    "round_over",
    "schedule_place",
    "seat_round",
    "why_no_draw",
]

PARTNERS_MODES = {
    ROTATING: "Partners rotate every round",
    FIXED: "Fixed partners all night",
    BALANCED: "Partners balanced by rating every round",
    FIXED_BALANCED: "Fixed partners all night, pairs balanced by rating",
}
# What balancing by rating does and does not do, said on the night's form and page.
BALANCED_RULING = (
    "Partners balanced by rating: the tables are drawn as for rotating partners, then at each "
    "table the partners are the pairing whose sides' chances, from the club's ratings, are "
    "nearest even. Balancing within each table keeps the tables spread as drawn, so partners "
    "may repeat where balance asks it."
)
# How a round sat out counts and how the night ranks: night_ranking.py's, named here too.
NO_GAME, ZERO, SIT_OUTS = night_ranking.NO_GAME, night_ranking.ZERO, night_ranking.SIT_OUTS


def open_night(
    club: Club,
    member_ids: Sequence[int],
    guests: str,
    rules: SavedRules | str,
    rounds: int | None,
    partners: str,
    sit_out: str,
    shape: str = "",
    today: date | None = None,
    ranking: str = night_ranking.DEFAULT,
) -> Night:
    """Tonight's night, its players and rules kept, no round seated yet; or NightRefused.

    `rules` is one of the club's saved rule sets or a preset's key; `shape` ("fours", "sixes",
    "singles") is the rules' own when not given: individual tables for every player for
    themselves, else partnership tables of 4. `rounds` None: as the night's schedule needs
    (`night_length.rounds_needed`).
    """
    today = today or games.now().date()
    problems: list[tuple[str, str]] = []
    ruleset, house, called = _rules(club, rules, problems)
    individuals = ruleset is not None and ruleset.individuals
    shape = shape or ("singles" if individuals else "fours")
    if ruleset is not None:
        problems += _shape_fits(shape, ruleset, called)
    if partners not in PARTNERS_MODES:
        words = (
            f"Partners rotate, stay fixed or are balanced by rating; {partners!r} is none of these."
        )
        problems.append(("partners", words))
    elif is_fixed(partners) and shape == "singles":
        problems.append(("partners", "Individual tables have no partners to keep fixed."))
    elif partners == BALANCED and shape == "singles":
        problems.append(("partners", "Individual tables have no partners to balance."))
    if sit_out not in SIT_OUTS:
        problems.append(("sit_out", f"A round sat out is no game or 0 points; not {sit_out!r}."))
    if (why := night_ranking.refused(ranking, sit_out)) is not None:
        problems.append(("ranking", why))
    if rounds is None:  # left blank: as the schedule needs
        players = len(dict.fromkeys(member_ids)) + len(split_names(guests))
        rounds = rounds_needed(players, shape, partners)
    # The members, the guests, the rounds and whether this many can be seated: as the plan
    # of tonight's tables checks them, in its words.
    plan = planning.plan_for_tonight(
        club, member_ids, guests, shape if shape in planning.SHAPES else "fours", rounds, 0, today
    )
    if isinstance(plan, planning.PlanRefused):
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
        ranking=ranking,
        board_secret=new_secret(),  # its read-only link (services/nights/links.py)
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
    if shape not in planning.SHAPES:
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


# --- round by round: night_seating.py ------------------------------------------------------


def finish_night(night: Night) -> Night:
    """The night ended (its last round over, or earlier): no round is seated after; or
    NightRefused while a table still plays."""
    if night.finished_at is not None:
        raise NightRefused([("round", "The night has already ended.")])
    if not round_over(night):
        raise still_playing(night)
    night.finished_at = games.now()
    night.version = Night.version + 1
    night_place.touch_round(night.id, len(night.rounds))  # its phones: the night is over
    db.session.commit()
    return night


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
        name = squeezed(guest)
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
        key = planning.GUEST + name
    if len(here) >= planning.MOST_PLAYERS and key not in here:
        raise NightRefused([("member", f"At most {planning.MOST_PLAYERS} players a night.")])
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
