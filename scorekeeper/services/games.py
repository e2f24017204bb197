"""Games kept in the database, scored by the rules engine: start, record, load, list, delete.

Entering and correcting deals is `deals.py`; the stored figures' upkeep is `figures.py`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import joinedload, selectinload

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Deal, DealScore, Game, Player, SavedRules, Side
from scorekeeper.rules import DealEntry, DealRefused, Progress, Refusal, RulesError, RuleSet
from scorekeeper.rules.terms import (
    MAX_ERRORS_LISTED,
    MAX_NAME,
    MELDED_BLACK_THREES,
    MELDED_BLACK_THREES_LABEL,
    figure,
    signed,
)
from scorekeeper.services import figures
from scorekeeper.services.names import SOMEONE, name_problem, phone_name


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


def now() -> datetime:
    """The time stamps games and deals are saved with."""
    return datetime.now(UTC)


# --- a game as the engine sees it ----------------------------------------------------------


def rules_of(game: Game) -> RuleSet:
    """The game's rule set with its house rules (held to today's ceilings: a game still opens)."""
    return engine.saved_ruleset(game.ruleset, game.house_rules or None)


def rules_of_saved(saved: SavedRules) -> RuleSet:
    """A club's saved rule set as the engine plays it (held to today's ceilings)."""
    return engine.saved_ruleset(saved.ruleset, saved.house_rules or None)


def same_rules(saved: SavedRules, ruleset_key: str, house_rules: Mapping[str, Any]) -> bool:
    """Whether a preset with these house rules plays exactly as the saved rule set does."""
    try:
        return rules_of_saved(saved) == engine.ruleset(ruleset_key, dict(house_rules) or None)
    except RulesError:
        return False


def seats_of(game: Game) -> list[engine.Seat]:
    """The game's table, seat by seat (partners alternate), as the dealer passes round it."""
    return engine.seating([[p.name for p in side.players] for side in game.sides])


def dealer_of(game: Game, deal_number: int) -> engine.Seat:
    """Who deals the given deal of this game."""
    return engine.dealer(seats_of(game), game.first_dealer, deal_number)


def sides_of(game: Game) -> list[engine.Side]:
    """The game's sides as the engine sees them."""
    return [engine.Side(side.name, max(1, len(side.players))) for side in game.sides]


def entries_of(game: Game) -> list[list[DealEntry]]:
    """Every saved deal's entries, in deal and side order."""
    return [[_entry_of(score) for score in deal.scores] for deal in game.deals]


# Each score's entry is read once per request, however often the game's entries are asked for
# (a save asks twice: to replay the game, then for the sides' figures). Kept beside the entry it
# was read from, so a score given a new entry (a correction) is read afresh.
_ENTRY = "_scoresheet_entry"


def _entry_of(score: DealScore) -> DealEntry:
    kept = getattr(score, _ENTRY, None)
    if kept is not None and kept[0] is score.entry:
        return kept[1]
    entry = DealEntry.from_dict(score.entry)
    setattr(score, _ENTRY, (score.entry, entry))
    return entry


def entries_from(scores: Any, game: Game) -> list[DealEntry]:
    """One entry per side from JSON-like data, or DealRefused naming every bad figure."""
    if not isinstance(scores, list):
        raise DealRefused([Refusal(None, "scores", "Give 'scores': one entry per side.")])
    names = [side.name for side in game.sides]
    if len(scores) > len(names):
        # Refused before any is read: a list of a million entries is no deal of this game.
        message = f"Enter one score for each of the {len(names)} sides, not {len(scores):,}."
        raise DealRefused([Refusal(None, "scores", message, ((None, "scores"),))])
    entries, refusals = [], []
    for index, entry in enumerate(scores):
        try:
            entries.append(DealEntry.from_dict(entry, index))
        except DealRefused as exc:
            who = names[index] if index < len(names) else f"Entry {index + 1}"
            refusals.extend(
                Refusal(r.side, r.field, f"{who}: {r.message}", r.inputs) for r in exc.refusals
            )
    if refusals:
        raise DealRefused(refusals)
    return entries


# The replay is kept on the game object, so one request replays a game once however many times
# it asks. The key names every deal's number and version: a new or corrected deal misses it.
_PROGRESS = "_scoresheet_progress"


def _replay_key(game: Game) -> tuple[Any, ...]:
    deals = tuple((deal.number, deal.version) for deal in game.deals)
    return (game.ruleset, repr(game.house_rules), game.decks, len(game.sides), deals)


def progress_of(game: Game) -> Progress:
    """Where the game stands, recomputed from its deals (once per request and deal list)."""
    key = _replay_key(game)
    kept = getattr(game, _PROGRESS, None)
    if kept is not None and kept[0] == key:
        return kept[1]
    # Saved deals were checked when they were entered: replaying them checks nothing again.
    entries = entries_of(game)
    progress = engine.play(rules_of(game), game.decks, sides_of(game), entries, check=False)
    keep_progress(game, progress)
    return progress


def keep_progress(game: Game, progress: Progress) -> None:
    """Remember where the game stands after its current deals, for the rest of the request."""
    setattr(game, _PROGRESS, (_replay_key(game), progress))


# --- loading and listing -------------------------------------------------------------------


def get_game(game_id: int) -> Game | None:
    """A game by id with its sides, players, deals and scores, in two queries; or None."""
    if not 0 < game_id < 2**63:  # beyond any database's integer: no such game
        return None
    # Scoring reads every deal's scores: load them together, not one lazy query per deal. Sides
    # and players join the game's row; deals come in one more query with their scores joined
    # (joining both lists in one query would multiply their rows).
    query = (
        select(Game)
        .where(Game.id == game_id)
        .options(
            joinedload(Game.sides).joinedload(Side.players),
            selectinload(Game.deals).joinedload(Deal.scores),
        )
    )
    return db.session.execute(query).unique().scalar_one_or_none()


@dataclass(frozen=True)
class GameSummary:
    """A line for a list of games."""

    game: Game
    rules: RuleSet
    sides: list[tuple[str, int]]
    deals: int
    finished: bool


def summary(game: Game) -> GameSummary:
    """A game in brief, from the totals the engine left on its sides."""
    return GameSummary(
        game=game,
        rules=rules_of(game),
        sides=[(side.name, side.final_total) for side in game.sides],
        deals=game.sides[0].deals_played if game.sides else 0,
        finished=game.finished_at is not None,
    )


# --- recognising a game already held ------------------------------------------------------


def fingerprint(
    played_on: date,
    ruleset: str,
    decks: int,
    house_rules: Mapping[str, Any] | None,
    sides: Sequence[tuple[str, Sequence[str]]],
    deals: Sequence[Sequence[Mapping[str, Any]]],
) -> str:
    """What makes two games one: day, rules, sides and players in order, every deal's entries.

    Names are compared whatever their case and spacing, as members are matched; a side without
    players plays as its name, as `start_game` makes it.
    """

    def name(text: str) -> str:
        return " ".join(text.split()).casefold()

    canonical = {
        "played_on": played_on.isoformat(),
        "ruleset": ruleset,
        "decks": decks,
        "house_rules": dict(house_rules or {}),
        "sides": [[name(side), [name(p) for p in players or [side]]] for side, players in sides],
        "deals": [[dict(entry) for entry in entries] for entries in deals],
    }
    return digest(canonical)


def digest(value: Any) -> str:
    """The sha256 of JSON-like data in one canonical form: the same data, the same digest."""
    # Sorted keys and no spaces: the same figures give the same hash however they were sent.
    # `default=repr` so that no value a parser can produce makes the hash itself fail.
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(canonical.encode()).hexdigest()


def fingerprint_of(game: Game) -> str:
    """A saved game's fingerprint (see `fingerprint`)."""
    return fingerprint(
        game.played_on,
        game.ruleset,
        game.decks,
        game.house_rules,
        [(side.name, [player.name for player in side.players]) for side in game.sides],
        [[score.entry for score in deal.scores] for deal in game.deals],
    )


def held_fingerprints(club: Club, days: Iterable[date]) -> Counter[str]:
    """The fingerprints of the club's games played on these days, each counted once per game."""
    held: Counter[str] = Counter()
    wanted = sorted(set(days))
    # A few hundred days a query: far below any database's limit on bound parameters.
    for start in range(0, len(wanted), 500):
        query = (
            select(Game)
            .where(Game.club_id == club.id, Game.played_on.in_(wanted[start : start + 500]))
            .options(
                selectinload(Game.sides).selectinload(Side.players),
                selectinload(Game.deals).selectinload(Deal.scores),
            )
        )
        held.update(fingerprint_of(game) for game in db.session.execute(query).scalars())
    return held


def changed_rules(game: Game) -> list[tuple[str, str, str]]:
    """A game's house rules: (what, the preset's rule, the game's rule), as a card shows them."""
    preset_rules, played_rules = engine.PRESETS[game.ruleset], rules_of(game)
    preset = {k.path: k for k in engine.knobs(preset_rules)}
    played = {k.path: k for k in engine.knobs(played_rules)}
    changed = [
        (knob.label, f"{preset[path].value:,}" if path in preset else "0", f"{knob.value:,}")
        for path, knob in played.items()
        if path not in preset or preset[path].value != knob.value
    ]
    if preset_rules.melded_black_threes != played_rules.melded_black_threes:
        changed.append(
            (
                MELDED_BLACK_THREES_LABEL,
                MELDED_BLACK_THREES[preset_rules.melded_black_threes],
                MELDED_BLACK_THREES[played_rules.melded_black_threes],
            )
        )
    return changed


# --- starting, recording and deleting ------------------------------------------------------


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
) -> Game:
    """Create a game, or GameRefused saying what is wrong.

    In a club game, a player whose name is a member's is that member; anyone else is a guest.
    `saved_rules` is the club's saved rule set the game starts from: the caller passes its
    preset and numbers, which the game keeps (held to today's ceilings, as every saved rule is
    read); `first_dealer` is the seat of the first dealer.
    """
    if saved_rules is not None:
        house_rules = engine.held_to_ceilings(house_rules)
    rules = rules_for(ruleset_key, house_rules)
    players = sum(max(1, len(side.players)) for side in sides)
    if decks is None:
        decks = rules.decks_for(players)
    table = [engine.Side(side.name.strip(), max(1, len(side.players))) for side in sides]
    refusals = engine.check_setup(rules, decks, table) + _check_names(sides)
    seats = sum(side.players for side in table)
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
        first_dealer = -1
    if not 0 <= first_dealer < seats:
        message = f"The first dealer is a seat from 1 to {seats}, one for each player."
        refusals.append(Refusal(None, "first_dealer", message, ((None, "first_dealer"),)))
    if refusals:
        raise GameRefused(refusals)
    members = {m.name.casefold(): m for m in club.members} if club else {}
    game = Game(
        ruleset=ruleset_key,
        house_rules=dict(house_rules or {}),
        decks=decks,
        club=club,
        played_on=played_on or now().date(),
        saved_rules=saved_rules,
        rules_name=saved_rules.name if saved_rules else None,
        first_dealer=first_dealer,
    )
    for position, side in enumerate(sides):
        names = [n.strip() for n in side.players] or [side.name.strip()]
        players = [
            Player(position=i, name=n, member=members.get(n.casefold()))
            for i, n in enumerate(names)
        ]
        game.sides.append(Side(position=position, name=side.name.strip(), players=players))
    db.session.add(game)
    if commit:
        db.session.commit()
    return game


def _check_names(sides: Sequence[SideSetup]) -> list[Refusal]:
    """Every side's and player's name printable, visible and short; nobody on two sides."""
    refusals = []
    seen: set[str] = set()
    for index, side in enumerate(sides):
        problem = name_problem(side.name, f"Side {index + 1} name")
        if problem:
            refusals.append(Refusal(index, "name", problem))
        # Messages quote the side's name only once it is known to be fit to show.
        who = f"Side {index + 1}" if problem else side.name
        # A side given without players plays as its name.
        for name in side.players or [side.name]:
            problem = name_problem(name, f"A player's name on side {index + 1}")
            if problem:
                if side.players:  # a side without players was refused for its name above
                    refusals.append(Refusal(index, "players", problem))
                break
            if not name.strip() or len(name.strip()) > MAX_NAME:
                refusals.append(
                    Refusal(index, "players", f"{who}: each player needs a short name.")
                )
                break
            if name.strip().casefold() in seen:
                refusals.append(
                    Refusal(index, "players", f"{name.strip()} cannot play on two sides.")
                )
            seen.add(name.strip().casefold())
    return refusals


def record_game(
    ruleset_key: str,
    sides: Sequence[SideSetup],
    deals: Sequence[Sequence[DealEntry]],
    *,
    decks: int | None = None,
    house_rules: dict[str, Any] | None = None,
    club: Club | None = None,
    played_on: date | None = None,
    commit: bool = True,
    saved_rules: SavedRules | None = None,
    rules_name: str | None = None,
) -> Game:
    """A whole game with all its deals at once (an import, the demo club), checked by the engine.

    Raises GameRefused for the setup and DealRefused for a deal, before anything is saved.
    `rules_name` names its rules where no saved rule set matches (a name from an import file).
    """
    game = start_game(
        ruleset_key,
        sides,
        decks,
        house_rules,
        club,
        played_on,
        commit=False,
        saved_rules=saved_rules,
    )
    game.rules_name = rules_name or game.rules_name
    try:
        progress = engine.play(rules_of(game), game.decks, sides_of(game), deals)
    except DealRefused:
        db.session.expunge(game)
        raise
    for number, entries in enumerate(deals, start=1):
        deal = Deal(number=number, version=1)
        game.deals.append(deal)
        for side, entry, score in zip(
            game.sides, entries, progress.deals[number - 1].scores, strict=True
        ):
            deal.scores.append(
                DealScore(
                    side=side,
                    side_position=side.position,
                    entry=entry.to_dict(),
                    total=score.total,
                )
            )
    figures.keep_side_figures(game, progress, deals)
    game.finished_at = now() if progress.finished else None
    if commit:
        db.session.commit()
    return game


def delete_game(game: Game) -> None:
    """Remove a game and its deals for good (an organiser's decision)."""
    club_id, day = game.club_id, game.played_on
    db.session.delete(game)
    if club_id is not None:
        figures.refresh_member_days(club_id, [day])
    db.session.commit()


# --- who deals, the next game, the result in words ------------------------------------------


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


@dataclass(frozen=True)
class NextGame:
    """A finished game's next game: started by this tap (`started_here`), or earlier by another."""

    game: Game
    started_by: str
    started_here: bool


def play_again(game: Game, started_by: str | None = None) -> NextGame:
    """The table's next game after a finished one, or GameRefused if it is not over.

    A finished game has one next game: the first tap, on any phone, starts it; every later tap
    opens it. The same sides and players (a club's members stay those members), rules, decks
    and club; played today, so a club's season follows the date. The deal keeps passing to the
    left: the new game's first dealer sits after the last deal's dealer. `started_by` is the
    phone's name, which the table's other phones are shown.
    """
    if game.finished_at is None:
        message = "This game is not over yet: finish it before playing again."
        raise GameRefused([Refusal(None, "game", message)])
    started_by = phone_name(started_by)
    # The finished game's row, locked on PostgreSQL: of two taps at once the second waits here,
    # then reads the first one's game (SQLite's write transactions are one at a time, db.py).
    found = next_game_of(game, lock=True)
    if found is not None:
        return found
    saved = game.saved_rules
    # Saved rules changed since are no longer this game's: the numbers played are what repeat,
    # held to today's ceilings (a game from before a ceiling was lowered plays again under it).
    house_rules = engine.held_to_ceilings(game.house_rules or {}) or {}
    if saved is not None and not same_rules(saved, game.ruleset, house_rules):
        saved = None
    seats = seats_of(game)
    again = start_game(
        game.ruleset,
        [SideSetup(side.name, [p.name for p in side.players]) for side in game.sides],
        game.decks,
        house_rules or None,
        game.club,
        commit=False,
        saved_rules=saved,
        first_dealer=engine.dealer_seat(seats, game.first_dealer, len(game.deals) + 1),
    )
    # Matched by the member itself, not by name: a member renamed since is still that member.
    for side, old_side in zip(again.sides, game.sides, strict=True):
        for player, old in zip(side.players, old_side.players, strict=True):
            player.member = old.member
    db.session.flush()
    # Claimed only if no other tap claimed it first: the last guard, whatever the database.
    # The finished game's live version moves on, so its phones are told at their next poll.
    claimed = db.session.execute(
        update(Game)
        .where(Game.id == game.id, Game.next_game_id.is_(None))
        .values(
            next_game_id=again.id,
            next_started_by=started_by,
            live_version=Game.live_version + 1,
        )
    )
    if claimed.rowcount != 1:
        db.session.rollback()
        found = next_game_of(game)
        if found is None:  # claimed, then deleted meanwhile: not worth a second try
            raise GameRefused([Refusal(None, "game", "Tap Play again once more.")])
        return found
    db.session.commit()
    return NextGame(again, started_by, True)


def next_game_of(game: Game, lock: bool = False) -> NextGame | None:
    """The game the table played after this one, as the database holds it now; None if none."""
    query = select(Game.next_game_id, Game.next_started_by).where(Game.id == game.id)
    row = db.session.execute(query.with_for_update() if lock else query).one_or_none()
    if row is None or row.next_game_id is None:
        return None
    after = get_game(row.next_game_id)
    if after is None:
        return None
    # The column may be empty (it is nullable): read as a phone that gave no name.
    return NextGame(after, row.next_started_by or SOMEONE, False)


def rules_title(game: Game) -> str:
    """The name a game's rules go by: the club's saved rule set, else the preset's."""
    return game.rules_name or rules_of(game).name


def winners_text(game: Game, progress: Progress) -> str:
    """Who won, for any side name: "Winner: Us, 7,975" or "Shared win: A and B, 2,000 each"."""
    if not progress.winners:
        return ""
    names = " and ".join(game.sides[i].name for i in progress.winners)
    best = figure(progress.totals[progress.winners[0]])
    if len(progress.winners) > 1:
        return f"Shared win: {names}, {best} each"
    return f"Winner: {names}, {best}"


def summary_text(game: Game) -> str:
    """The game in plain text to share: rules, date, sides, every deal, the totals, the winner."""
    progress = progress_of(game)

    def line(figures: Sequence[int], shown: Callable[[int], str] = figure) -> str:
        pairs = zip(game.sides, figures, strict=True)
        return ", ".join(f"{side.name} {shown(n)}" for side, n in pairs)

    lines = [f"Hand and Foot: {rules_title(game)}, {game.played_on.strftime('%d %b %Y')}"]
    for side in game.sides:
        players = [p.name for p in side.players]
        lines.append(side.name if players == [side.name] else f"{side.name}: {', '.join(players)}")
    lines.append("")
    for result in progress.deals:
        lines.append(f"Deal {result.number}: {line([s.total for s in result.scores], signed)}")
    lines.append(f"Final: {line(progress.totals)}")
    if progress.finished:
        lines.append(winners_text(game, progress))
    return "\n".join(lines) + "\n"


ASIDE = re.compile(r" \(.*?\)")


def rules_described(game: Game, longest: int = 120) -> str:
    """A game's rules in a line: the preset's name and what the table changed in it."""
    # "Red three caught (points lost)" reads as "red three caught" in a name.
    changes = [f"{ASIDE.sub('', what).lower()} {played}" for what, _, played in changed_rules(game)]
    text = ", ".join([rules_of(game).name, *changes])
    return text if len(text) <= longest else text[: longest - 1].rstrip(", ") + "…"
