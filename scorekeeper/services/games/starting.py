"""Starting a game: its rules, sides and players checked, who deals first; or every reason not."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import select

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Member, Player, SavedRules, Side
from scorekeeper.rules import Refusal, RulesError, RuleSet
from scorekeeper.rules.terms import MAX_ERRORS_LISTED, MAX_NAME, PARTNERS
from scorekeeper.services import creations
from scorekeeper.services.games.replay import seats_of
from scorekeeper.services.names import name_key, name_problem, squeezed
from scorekeeper.services.ratings import chances, scopes


class GameRefused(ValueError):
    """A game that cannot start as asked, with every reason."""

    def __init__(self, refusals: list[Refusal]) -> None:
        super().__init__("; ".join(r.message for r in refusals))
        self.refusals = refusals


@dataclass(frozen=True)
class SideSetup:
    """A side as someone asked for it at the start of a game."""

    name: str
    players: list[str]


@dataclass(frozen=True)
class LastTable:
    """Who sat at a phone's last game of a club: each side's players, as the club names them."""

    played_on: date
    sides: list[list[str]]


def now() -> datetime:
    """The time stamps games and deals are saved with."""
    return datetime.now(UTC)


def rules_for(ruleset_key: str, house_rules: Any) -> RuleSet:
    """A preset with house rules, or GameRefused naming the preset or each rule at fault.

    `house_rules` is taken as sent: the engine refuses anything but named rules and values.
    """
    if ruleset_key not in engine.PRESETS:
        known = ", ".join(engine.PRESETS)
        raise GameRefused([Refusal(None, "ruleset", f"No rule set '{ruleset_key}'; try {known}.")])
    try:
        return engine.ruleset(ruleset_key, house_rules or None)
    except RulesError as exc:
        # As many as an answer lists, the last saying how many more (not each made into one).
        found = list(zip(exc.messages, exc.rules, strict=True))
        shown = found if len(found) <= MAX_ERRORS_LISTED else found[: MAX_ERRORS_LISTED - 1]
        refusals = [
            Refusal(None, "rules", message, ((None, f"rules.{rule}" if rule else "rules"),))
            for message, rule in shown
        ]
        if len(shown) < len(found):
            more = f"{len(found) - len(shown):,} more house rules are refused too (not listed)."
            refusals.append(Refusal(None, "rules", more, ()))
        raise GameRefused(refusals) from exc


def start_game(
    ruleset_key: str,
    sides: Sequence[SideSetup],
    decks: int | None = None,
    house_rules: dict[str, Any] | None = None,
    club: Club | None = None,
    played_on: date | None = None,
    commit: bool = True,
    *,
    saved_rules: SavedRules | None = None,
    first_dealer: int = 0,
    balance: bool = False,
    by_table_link: bool = False,
    made_from: str | None = None,
) -> Game:
    """Create a game, or GameRefused saying what is wrong; or OverAllowance (creations.py) if
    the address it is `made_from` has started its allowance of games (None: not counted).

    In a club game, a player whose name is a member's is that member; anyone else is a guest.
    `saved_rules` is the club's saved rule set the game starts from: the caller passes its
    preset and numbers, which the game keeps (held to today's ceilings, as every saved rule is
    read); `first_dealer` is the seat of the first dealer. `balance` (a club game of partners)
    regroups the same players into the partnership whose sides' chances, from the club's
    ratings, are nearest even, each side named by its players. `by_table_link`: a club game
    started by a phone holding the table link, judged when it finishes (`holding.judge`).
    """
    if saved_rules is not None:
        house_rules = engine.held_to_ceilings(house_rules)
    rules = rules_for(ruleset_key, house_rules)
    players = sum(max(1, len(side.players)) for side in sides)
    if decks is None:
        decks = rules.decks_for(players)
    # Checked as typed (a tab is refused, not squeezed), then kept as every name is kept.
    name_refusals = _check_names(sides)
    sides = [SideSetup(squeezed(s.name), [squeezed(p) for p in s.players]) for s in sides]
    table = [engine.Side(side.name, max(1, len(side.players))) for side in sides]
    refusals = engine.check_setup(rules, decks, table) + name_refusals
    seats = sum(side.players for side in table)
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
        first_dealer = -1
    if not 0 <= first_dealer < seats:
        message = f"The first dealer is a seat from 1 to {seats}, one for each player."
        refusals.append(Refusal(None, "first_dealer", message, ((None, "first_dealer"),)))
    if refusals:
        raise GameRefused(refusals)
    members = {name_key(m.name): m for m in club.members} if club else {}
    if balance:
        sides = _balanced(club, sides, members)
    # Counted once the game is sure to start: a game refused above is not counted.
    creations.count(creations.GAME, made_from)
    game = Game(
        ruleset=ruleset_key,
        house_rules=dict(house_rules or {}),
        decks=decks,
        club=club,
        played_on=played_on or now().date(),
        saved_rules=saved_rules,
        rules_name=saved_rules.name if saved_rules else None,
        first_dealer=first_dealer,
        started_by_table=by_table_link and club is not None,
    )
    seated = [side.players or [side.name] for side in sides]
    par = chances.pars(club.id, [[_who(n, members) for n in s] for s in seated]) if club else None
    for position, (side, names) in enumerate(zip(sides, seated, strict=True)):
        players = [
            Player(position=i, name=n, member=members.get(name_key(n))) for i, n in enumerate(names)
        ]
        kept_par = par[position] if par else None
        game.sides.append(Side(position=position, name=side.name, players=players, par=kept_par))
    db.session.add(game)
    if commit:
        db.session.commit()
    return game


def _balanced(club: Club | None, sides: Sequence[SideSetup], members: dict) -> list[SideSetup]:
    """The same players regrouped into the partnership nearest even by the club's ratings (a
    member by id, a guest by name, as the ratings know them); or GameRefused in words."""
    if club is None:
        words = "Partners are balanced by a club's ratings: a game without a club has none."
        raise GameRefused([Refusal(None, "balance", words, ())])
    names = [side.players or [side.name] for side in sides]

    by_who = {_who(n, members): n for side in names for n in side}
    try:
        skills = chances.skills_of(club.id, by_who)
        drawn = chances.balance([[_who(n, members) for n in side] for side in names], skills)
    except ValueError as refused:
        raise GameRefused([Refusal(None, "balance", str(refused), ())]) from None
    regrouped = [[by_who[w] for w in side] for side in drawn]
    # Held to a name's length, as a renamed member's sides are (members._cut).
    named = [PARTNERS.join(side) for side in regrouped]
    named = [n if len(n) <= MAX_NAME else n[: MAX_NAME - 1] + "…" for n in named]
    return [SideSetup(n, side) for n, side in zip(named, regrouped, strict=True)]


def _check_names(sides: Sequence[SideSetup]) -> list[Refusal]:
    """Every side's and player's name printable, visible and short; nobody on two sides."""
    refusals = []
    seen: set[str] = set()
    for index, side in enumerate(sides):
        problem = name_problem(side.name, f"Side {index + 1} name")
        if problem:
            refusals.append(Refusal(index, "name", problem))
        # Messages quote the side's name only once it is known to be fit to show.
        who = f"Side {index + 1}" if problem else squeezed(side.name)
        # A side given without players plays as its name.
        for name in side.players or [side.name]:
            problem = name_problem(name, f"A player's name on side {index + 1}")
            if problem:
                if side.players:  # a side without players was refused for its name above
                    refusals.append(Refusal(index, "players", problem))
                break
            kept = squeezed(name)
            if not kept or len(kept) > MAX_NAME:
                refusals.append(
                    Refusal(index, "players", f"{who}: each player needs a short name.")
                )
                break
            if name_key(kept) in seen:
                refusals.append(Refusal(index, "players", f"{kept} cannot play on two sides."))
            seen.add(name_key(kept))
    return refusals


def choose_first_dealer(game: Game, seat: int) -> None:
    """Set who deals deal 1, or GameRefused: only before it is saved, and a seat at the table."""
    seats = seats_of(game)
    refusals = []
    if game.deals:
        message = "The first dealer is chosen before the first deal; deal 1 is already saved."
        refusals.append(Refusal(None, "first_dealer", message, ((None, "first_dealer"),)))
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(seats):
        message = f"The first dealer is a seat from 1 to {len(seats)}, one for each player."
        refusals.append(Refusal(None, "first_dealer", message, ((None, "first_dealer"),)))
    if refusals:
        raise GameRefused(refusals)
    game.first_dealer = seat
    game.live_version = Game.live_version + 1  # the table's phones show who deals now
    db.session.commit()


def last_table(club: Club, secrets: Sequence[str]) -> LastTable | None:
    """The players of the newest of these games (the ones a phone started or opened) that this
    club played, each by the name the club knows them by now; None if the phone played none."""
    if not secrets:
        return None
    query = (
        select(Game)
        .where(Game.club_id == club.id, Game.secret.in_(list(secrets)))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(1)
    )
    game = db.session.execute(query).scalar_one_or_none()
    if game is None:
        return None
    # A member renamed since is offered by the name the club's list shows now.
    sides = [[p.member.name if p.member else p.name for p in side.players] for side in game.sides]
    return LastTable(game.played_on, sides)


def _who(name: str, members: dict[str, Member]) -> tuple[int | None, str | None]:
    """A player as the ratings know them: the member of that name by id, else a guest."""
    member = members.get(name_key(name))
    return (member.id, None) if member else scopes.guest(name)
