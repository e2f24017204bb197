"""Seat tonight's tables (issue 29, before nights are stored): a club night's seating planned
from the members present and the season's games so far, nothing saved.

The engine (`rules/nights.py`) seats players named by strings: here a member is their id as a
string (a name can change, an id cannot) and a guest is `guest:` and the name typed; names are
put back only for the page. The season's games are folded into the engine's `History`: each
side's members partnered one another and opposed every member of the other sides. Guests are
left out of it: a name typed at one game is no one the next time (two Sues may be two people).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Player, Side
from scorekeeper.rules import History, Round, SeatingRefused, Shape, plan_night, saved_ruleset
from scorekeeper.rules.nights import MOST_ROUNDS, history_of_games, pairs_in
from scorekeeper.rules.terms import MAX_NAME, PARTNERS
from scorekeeper.rules.whist import whist_rounds
from scorekeeper.services import clubs
from scorekeeper.services.members import split_names
from scorekeeper.services.names import name_problem

# With no season holding today (none yet, or between seasons), the last this many days count.
RECENT_DAYS = 90
# A round is one game; a game of Hand and Foot takes about an hour, so an evening holds three.
DEFAULT_ROUNDS = 3
MOST_GUESTS = 20
# As many as the engine's property tests seat (issue 29: 4 to 40 players).
MOST_PLAYERS = 40
GUEST = "guest:"

# The tables a night may have, as the page offers them.
SHAPES: dict[str, tuple[Shape, str]] = {
    "fours": (Shape.FOURS, "Partnerships, tables of 4"),
    "sixes": (Shape.SIXES, "Three teams of two, tables of 6"),
    "singles": (Shape.SINGLES, "Every player for themselves, tables of 3 to 5"),
}


@dataclass(frozen=True)
class Span:
    """The dates whose games the seating is measured against, and those dates in words."""

    start: date
    end: date
    words: str
    season: bool  # a season holds today; else the last RECENT_DAYS days


def history_span(club: Club, today: date) -> Span:
    """The season that holds today; with none (no season yet, or between two), the last 90 days.

    A season that has ended is not tonight's: its partners are long ago, and standings' "this
    season" (`clubs.current_season`, the latest to have started) would keep it for months.
    """
    season = clubs.current_season(club, today)
    if season is not None and season.starts_on <= today <= season.ends_on:
        dates = f"{_day(season.starts_on)} to {_day(season.ends_on)}"
        return Span(season.starts_on, today, f"this season ({season.name}, {dates})", True)
    start = today - timedelta(days=RECENT_DAYS)
    return Span(start, today, f"the last {RECENT_DAYS} days (since {_day(start)})", False)


def _day(day: date) -> str:
    """ "1 Apr 2024"."""
    return f"{day.day} {day:%b %Y}"


def _season_sides(club: Club, span: Span) -> list[list[list[str]]]:
    """The members of each side of each game in the span (finished or not), in one query."""
    rows = db.session.execute(
        select(Side.game_id, Side.id, Player.member_id)
        .join(Player, Player.side_id == Side.id)
        .join(Game, Game.id == Side.game_id)
        .where(
            Game.club_id == club.id,
            Game.played_on >= span.start,
            Game.played_on <= span.end,
            Player.member_id.is_not(None),
        )
        .order_by(Side.game_id, Side.position, Player.position)
    ).all()
    games: dict[int, dict[int, list[str]]] = defaultdict(dict)
    for game_id, side_id, member_id in rows:
        games[game_id].setdefault(side_id, []).append(str(member_id))
    return [list(sides.values()) for sides in games.values()]


def season_history(club: Club, span: Span) -> History:
    """The club's games in the span folded into the engine's history, members by id."""
    return history_of_games(_season_sides(club, span))


# --- the shape of the tables ---------------------------------------------------------------


@dataclass(frozen=True)
class ShapeChoices:
    """The shapes offered (key, words), the one chosen at first, why, and why not tables of 6."""

    offered: tuple[tuple[str, str], ...]
    default: str
    because: str = ""
    no_sixes: str = ""


def shape_choices(club: Club) -> ShapeChoices:
    """From the club's default saved rule set: individuals play at tables of 3 to 5, anyone else
    in partnerships of 4; tables of 6 are offered where those rules allow three sides. With no
    default rule set, every shape is offered, partnerships first."""
    saved = clubs.default_rules(club)
    if saved is None:
        return ShapeChoices(tuple((key, words) for key, (_, words) in SHAPES.items()), "fours")
    rules = saved_ruleset(saved.ruleset, saved.house_rules)
    called = f"{saved.name}, the club's default rules,"
    no_sixes = ""
    if rules.individuals:
        no_sixes = f"{called} seat every player for themselves"
    elif rules.max_sides is not None and rules.max_sides < 3:
        no_sixes = f"{called} allow at most {rules.max_sides} sides"
    keys = ["fours", "singles"] if no_sixes else ["fours", "sixes", "singles"]
    default = "singles" if rules.individuals else "fours"
    because = f"{called} seat " + (
        "every player for themselves." if rules.individuals else "partnerships."
    )
    return ShapeChoices(tuple((key, SHAPES[key][1]) for key in keys), default, because, no_sixes)


def seed_for(club: Club, today: date, draw: int = 0) -> int:
    """The same seed all day for a club (a reload shows the same plan); each draw another."""
    text = f"{club.id}/{today.isoformat()}/{draw}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


# --- the plan ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlanRefused:
    """Why no plan: (field, words) for each problem found."""

    problems: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class SeatedTable:
    """A table by names: its sides, and its chairs in playing order (the first deals first)."""

    number: int
    sides: tuple[tuple[str, ...], ...]
    seats: tuple[str, ...]

    @property
    def title(self) -> str:
        """ "Ann & Bob v Cat & Dan"."""
        return " v ".join(PARTNERS.join(side) for side in self.sides)

    @property
    def first_dealer(self) -> str:
        return self.seats[0]


@dataclass(frozen=True)
class SeatedRound:
    number: int
    tables: tuple[SeatedTable, ...]
    sitting_out: tuple[str, ...]


@dataclass(frozen=True)
class Repeat:
    """Two partners again: in which round, and how often they had partnered before it."""

    round: int
    partners: tuple[str, str]
    before: int


@dataclass(frozen=True)
class NightPlan:
    rounds: tuple[SeatedRound, ...]
    shape: Shape
    players: int
    span: Span
    games_counted: int
    whist: bool  # the rounds are a whist schedule's (every two partner once, oppose twice)
    whist_length: int  # the rounds of that schedule
    repeats: tuple[Repeat, ...]


def plan_for_tonight(
    club: Club,
    present_member_ids: Sequence[int],
    guests: str,
    shape: str,
    rounds: int,
    seed: int,
    today: date,
) -> NightPlan | PlanRefused:
    """Tonight's rounds for the members ticked and the guests typed (one a line, or separated
    by commas), partners rotating against the season's history; or every reason it cannot be.

    Partners rotate: fixed partnerships come with club nights, which store them.
    """
    problems: list[tuple[str, str]] = []
    if not 1 <= rounds <= MOST_ROUNDS:
        problems.append(("rounds", f"A night has 1 to {MOST_ROUNDS} rounds; {rounds} cannot be."))
    offered = shape_choices(club)
    if shape not in dict(offered.offered):
        problems.append(("shape", _shape_refused(shape, offered)))
    names = {m.id: m.name for m in club.members if not m.archived}
    for member_id in dict.fromkeys(present_member_ids):
        if member_id not in names:
            problems.append(("members", f"Member {member_id} is not one of {club.name}'s members."))
    guest_names, guest_problems = _guests(guests, names.values())
    problems += [("guests", problem) for problem in guest_problems]
    players = {str(m): names[m] for m in dict.fromkeys(present_member_ids) if m in names}
    players.update({GUEST + name: name for name in guest_names})
    if len(players) > MOST_PLAYERS:
        problems.append(
            ("members", f"At most {MOST_PLAYERS} players a night; {len(players)} are present.")
        )
    if problems:
        return PlanRefused(tuple(problems))
    span = history_span(club, today)
    games = _season_sides(club, span)
    history = history_of_games(games)
    try:
        night, whist = _seated(list(players), SHAPES[shape][0], rounds, history, seed)
    except SeatingRefused as refused:
        return PlanRefused((("members", str(refused)),))
    return NightPlan(
        tuple(_named(r, players) for r in night),
        SHAPES[shape][0],
        len(players),
        span,
        len(games),
        whist,
        len(whist_rounds(len(players)) or ()) if whist else 0,
        tuple(
            Repeat(n, (players[a], players[b]), before)
            for n, a, b, before in _repeats(night, history)
        ),
    )


def _shape_refused(shape: str, offered: ShapeChoices) -> str:
    if shape == "sixes" and offered.no_sixes:
        return f"Tables of 6 seat three teams of two; {offered.no_sixes}."
    return f"Choose how the tables are made: {shape!r} is none of the choices."


def _guests(text: str, members: Sequence[str]) -> tuple[list[str], list[str]]:
    """The guests' names from the list typed, and what is wrong with it."""
    guests = split_names(text)
    if len(guests) > MOST_GUESTS:
        return [], [f"At most {MOST_GUESTS} guests a night; this list has {len(guests)}."]
    problems = []
    taken = {name.casefold(): name for name in members}
    seen: set[str] = set()
    for n, name in enumerate(guests, 1):
        problem = name_problem(name, f"Guest {n}'s name")
        if problem is None and len(name) > MAX_NAME:
            problem = f"Guest {n}'s name is {len(name):,} characters long: at most {MAX_NAME}."
        if problem is None and name.casefold() in taken:
            problem = f"{name} is a member: tick {taken[name.casefold()]} instead."
        if problem is None and name.casefold() in seen:
            problem = f"{name} is in the list of guests twice."
        if problem:
            problems.append(problem)
        seen.add(name.casefold())
    return guests, problems


def _seated(
    players: list[str], shape: Shape, rounds: int, history: History, seed: int
) -> tuple[tuple[Round, ...], bool]:
    """The night, and whether it is a whist schedule's rounds.

    Partners rotating at tables of 4, a whist schedule is used where one is known for this many
    players and it repeats no more partners than seating round by round does: of its starting
    rounds, the one that repeats fewest of the season's partners (the seed settles ties), so a
    group that met last week goes on where its schedule left off.
    """
    night = plan_night(players, rounds, shape, history=history, seed=seed)
    schedule = whist_rounds(len(players)) if shape is Shape.FOURS else None
    if schedule is None:
        return night, False
    # The schedule's rounds planned once, a night's worth at a time: each start's night is a
    # window of them (the same tables, wrapping round), so its repeats are counted there and only
    # the best start is planned again (for 40 players 5 nights planned, not 39; issue 38).
    most = min(MOST_ROUNDS, len(schedule))
    whole = [
        played
        for at in range(0, len(schedule), most)
        for played in plan_night(
            players, most, shape, history=history, seed=seed, schedule_played=at
        )
    ][: len(schedule)]
    ties = random.Random(seed)
    starts = sorted(range(len(schedule)), key=lambda _: ties.random())
    start = min(
        starts,
        key=lambda s: len(_repeats([whole[(s + i) % len(whole)] for i in range(rounds)], history)),
    )
    best = plan_night(players, rounds, shape, history=history, seed=seed, schedule_played=start)
    if len(_repeats(best, history)) <= len(_repeats(night, history)):
        return best, True
    return night, False


def _repeats(night: Sequence[Round], history: History) -> list[tuple[int, str, str, int]]:
    """Partners seated together again, over the season and the night: (round, a, b, before)."""
    seen = Counter(history.partnered)
    found = []
    for played in night:
        for table in played.tables:
            for side in table.sides:
                for pair in pairs_in(side):
                    if seen[pair]:
                        a, b = sorted(pair)
                        found.append((played.number, a, b, seen[pair]))
                    seen[pair] += 1
    return found


def _named(played: Round, names: dict[str, str]) -> SeatedRound:
    """A round with names for keys, the sitting out in the order the club lists them."""
    return SeatedRound(
        played.number,
        tuple(
            SeatedTable(
                table.number,
                tuple(tuple(names[p] for p in side) for side in table.sides),
                tuple(names[seat.player] for seat in table.seats),
            )
            for table in played.tables
        ),
        tuple(sorted((names[p] for p in played.sitting_out), key=str.casefold)),
    )
