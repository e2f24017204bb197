"""The games read from a file, added to the club: each checked again by the rules engine, those
the club already holds skipped."""

from __future__ import annotations

from scorekeeper import rules as engine
from scorekeeper.plumbing.models import Club, Member, SavedRules
from scorekeeper.rules import DealEntry, DealRefused, Refusal
from scorekeeper.services.games import (
    GameRefused,
    SideSetup,
    fingerprint,
    held_fingerprints,
    record_game,
    same_rules,
)
from scorekeeper.services.records_import.refusals import ImportRefused, column_for
from scorekeeper.services.records_import.report import ImportReport, SkippedGame
from scorekeeper.services.records_import.rows import FileGame, FileSide


def record_games(club: Club, games: list[FileGame]) -> ImportReport:
    """Add the members and games to the session, each checked by the engine; skip games held.

    A game the club already holds (same day, rules, sides, players and entries) is skipped, so
    a file imported twice, or a club's own export, adds nothing the second time. Each game held
    answers for one game of the file: a club with two identical games skips two copies.
    """
    members = {member.name.casefold() for member in club.members}
    held = held_fingerprints(club, (game.played_on for game in games))
    added: list[str] = []
    skipped: list[SkippedGame] = []
    deals = 0
    for game in games:
        sides = [game.sides[n] for n in sorted(game.sides)]
        print_ = _fingerprint(game, sides)
        if held[print_] > 0:
            held[print_] -= 1
            skipped.append(SkippedGame(game.ref, game.line, game.last_line))
            continue
        for side in sides:
            for player in side.players or [side.name]:
                folded = player.casefold()
                if folded not in members and folded not in side.guests:
                    club.members.append(Member(name=player))
                    members.add(folded)
                    added.append(player)
        entries = [
            [game.deals[n].entries[s.position][1] for s in sides] for n in sorted(game.deals)
        ]
        setups = [SideSetup(side.name, side.players) for side in sides]
        try:
            record_game(
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
        deals += len(entries)
    return ImportReport(
        games=len(games) - len(skipped), deals=deals, members_added=added, skipped=skipped
    )


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
