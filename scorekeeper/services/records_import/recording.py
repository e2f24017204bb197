"""The games read from a file, added to the club: each checked again by the rules engine, those
the club already holds skipped."""

from __future__ import annotations

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Member, SavedRules
from scorekeeper.rules import DealEntry, DealRefused, Refusal
from scorekeeper.services.games import (
    GameRefused,
    SideSetup,
    fingerprint,
    held_fingerprints,
    record_game,
    rules_of,
    same_rules,
    sides_of,
    start_game,
)
from scorekeeper.services.names import name_key
from scorekeeper.services.records_import.history import keep_history
from scorekeeper.services.records_import.refusals import ImportRefused, column_for
from scorekeeper.services.records_import.report import ImportReport, SkippedGame
from scorekeeper.services.records_import.rows import FileGame, FileSide


def record_games(club: Club, games: list[FileGame]) -> ImportReport:
    """Add the members and games to the session, each checked by the engine; skip games held.

    A game the club already holds (same day, rules, sides, players and entries) is skipped, so
    a file imported twice, or a club's own export, adds nothing the second time. Each game held
    answers for one game of the file: a club with two identical games skips two copies.
    """
    skipped = set(skipped_of(club, games))
    members = members_of(club)
    added: list[str] = []
    deals = 0
    for index, game in enumerate(games):
        if index not in skipped:
            deals += record_one(club, game, members, added)
    return ImportReport(
        games=len(games) - len(skipped),
        deals=deals,
        members_added=added,
        skipped=[skipped_game(games[index]) for index in sorted(skipped)],
    )


def skipped_of(club: Club, games: list[FileGame]) -> list[int]:
    """The file's games (by index) the club already holds, each held game answering for one."""
    held = held_fingerprints(club, (game.played_on for game in games))
    skipped = []
    for index, game in enumerate(games):
        print_ = _fingerprint(game, _sides(game))
        if held[print_] > 0:
            held[print_] -= 1
            skipped.append(index)
    return skipped


def skipped_game(game: FileGame) -> SkippedGame:
    """A game of the file the club holds, as the report names it."""
    return SkippedGame(game.ref, game.line, game.last_line)


def members_of(club: Club) -> set[str]:
    """The club's members' names as a file's players are matched to them (`names.name_key`, as
    `start_game` matches a player to a member: "Ann  smith" in a file is member Ann Smith)."""
    return {name_key(member.name) for member in club.members}


def record_one(club: Club, game: FileGame, members: set[str], added: list[str]) -> int:
    """Add one game (and its players not yet members) to the session; how many deals it has.

    `members` and `added` grow with the players it makes members.
    """
    sides = _sides(game)
    for side in sides:
        for player in side.players or [side.name]:
            folded = name_key(player)
            if folded not in members and folded not in side.guests:
                club.members.append(Member(name=player))
                members.add(folded)
                added.append(player)
    entries = _entries(game, sides)
    setups = [SideSetup(side.name, side.players) for side in sides]
    try:
        saved = record_game(
            game.ruleset,
            setups,
            entries,
            decks=game.decks,
            house_rules=game.house_rules,
            club=club,
            played_on=game.played_on,
            commit=False,
            saved_rules=_saved_match(club, game) if game.rule_set else None,
            rules_name=game.rule_set or None,
        )
    except GameRefused as refused:
        raise _setup_refused(game, refused.refusals) from refused
    except DealRefused as refused:
        raise _deal_refused(game, sides, entries, refused) from refused
    keep_history(saved, {number: deal.history for number, deal in game.deals.items()})
    return len(entries)


def check_by_engine(game: FileGame) -> None:
    """What `record_one` would refuse of the game, found without saving anything (a job checks
    every game before it saves the first): ImportRefused, in the same words."""
    sides = _sides(game)
    entries = _entries(game, sides)
    setups = [SideSetup(side.name, side.players) for side in sides]
    with db.session.no_autoflush:
        try:
            # The game `record_game` would start, let go of at once: its checks are its own.
            started = start_game(game.ruleset, setups, game.decks, game.house_rules, commit=False)
        except GameRefused as refused:
            raise _setup_refused(game, refused.refusals) from refused
        db.session.expunge(started)
    try:
        engine.play(rules_of(started), started.decks, sides_of(started), entries)
    except DealRefused as refused:
        raise _deal_refused(game, sides, entries, refused) from refused


def _sides(game: FileGame) -> list[FileSide]:
    return [game.sides[n] for n in sorted(game.sides)]


def _entries(game: FileGame, sides: list[FileSide]) -> list[list[DealEntry]]:
    return [[game.deals[n].entries[s.position][1] for s in sides] for n in sorted(game.deals)]


def _saved_match(club: Club, game: FileGame) -> SavedRules | None:
    """The club's saved rule set of the game's rule-set name, if the numbers are still its own.

    A name the club has no rule set of, or one whose numbers have changed since (or another
    club's, same name but other numbers), links to nothing: the game keeps the name alone.
    """
    folded = game.rule_set.casefold()
    named = next((s for s in club.saved_rules if s.name.casefold() == folded), None)
    if named is not None and same_rules(named, game.ruleset, game.house_rules):
        return named
    return None


def _fingerprint(game: FileGame, sides: list[FileSide]) -> str:
    """The game's fingerprint, as `games.fingerprint_of` gives it for a saved game."""
    deals = [
        [game.deals[n].entries[side.position][1].to_dict() for side in sides]
        for n in sorted(game.deals)
    ]
    return fingerprint(
        game.played_on,
        game.ruleset,
        game.decks,
        game.house_rules,
        [(side.name, side.players) for side in sides],
        deals,
    )


def _setup_refused(game: FileGame, refusals: list[Refusal]) -> ImportRefused:
    first = refusals[0]
    line = game.line
    if first.side is not None and first.side + 1 in game.sides:
        line = game.sides[first.side + 1].line
    message = "; ".join(refusal.message for refusal in refusals)
    return ImportRefused(line, column_for(first.field), f"Game {game.ref} cannot start: {message}")


def _deal_refused(
    game: FileGame,
    sides: list[FileSide],
    entries: list[list[DealEntry]],
    refused: DealRefused,
) -> ImportRefused:
    """Point at the deal the engine refused: the side's row if it names one, else the deal's."""
    rules = engine.ruleset(game.ruleset, game.house_rules or None)
    table = [engine.Side(side.name, max(1, len(side.players))) for side in sides]
    number = len(entries)
    for count in range(1, len(entries) + 1):
        try:
            engine.play(rules, game.decks, table, entries[:count])
        except DealRefused as found:
            number, refused = count, found
            break
    deal = game.deals[sorted(game.deals)[number - 1]]
    first = refused.refusals[0]
    line = deal.line
    if first.side is not None and 0 <= first.side < len(sides):
        line = deal.entries[sides[first.side].position][0]
    return ImportRefused(
        line, column_for(first.field), f"Deal {number} of game {game.ref} is refused: {refused}"
    )
