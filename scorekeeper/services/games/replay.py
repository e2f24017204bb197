"""A game as the engine sees it: its rules, table, sides and entries, and where it stands (the
game replayed once a request, however often it is asked)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from scorekeeper import rules as engine
from scorekeeper.plumbing.models import DealScore, Game, SavedRules
from scorekeeper.rules import DealEntry, DealRefused, Progress, Refusal, RulesError, RuleSet


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
            refusals.extend(r.of_side(who) for r in exc.refusals)
    if refusals:
        raise DealRefused(refusals)
    return entries


# The replay is kept on the game object, so one request replays a game once however many times
# it asks. The key names every deal's number and version: a new or corrected deal misses it.
_PROGRESS = "_scoresheet_progress"


def _replay_key(game: Game) -> tuple[Any, ...]:
    deals = tuple((deal.number, deal.version) for deal in game.deals)
    return (game.ruleset, repr(game.house_rules), game.decks, len(game.sides), deals)


def progress_corrected(game: Game, number: int, entries: Sequence[DealEntry]) -> Progress:
    """Where the game would stand with deal `number` entered as `entries` (DealRefused if not).

    A correction's preview and the correction itself score it here: both check it the same way.
    """
    return engine.correct_deal(
        rules_of(game), game.decks, sides_of(game), entries_of(game), number, entries
    )


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


def finished_when(game: Game, progress: Progress, now: datetime) -> datetime | None:
    """When the game finished, as its deals now stand (`progress`): the one place it is decided.

    The moment it first finished, kept through a correction that leaves it over; `now` if these
    deals end it; None while it plays on (a correction can make a finished game unfinished).
    """
    return (game.finished_at or now) if progress.finished else None


def keep_progress(game: Game, progress: Progress) -> None:
    """Remember where the game stands after its current deals, for the rest of the request."""
    setattr(game, _PROGRESS, (_replay_key(game), progress))
