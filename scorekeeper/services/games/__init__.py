"""Games kept in the database, scored by the rules engine: start, record, load, list, delete.

replay        a game as the engine sees it (rules, table, sides, entries) and where it stands
loading       a game loaded with all that scoring reads, its history locked for a write;
              a game in brief for lists
starting      a new game checked and started; who deals first; who sat at a phone's last game
recording     a whole game at once (an import, the demo club); a game deleted
again         Play again: a finished game's one next game
fingerprints  recognising a game already held
words         the rules' name and changes, the winners, the whole game as text to share

Entering and correcting deals is `deals.py`; the stored figures' upkeep is `figures.py`; a game
as its pages and answers read it is `game_view.py`.
"""

from __future__ import annotations

from scorekeeper.services.games.again import NextGame, next_game_of, play_again
from scorekeeper.services.games.fingerprints import (
    digest,
    fingerprint,
    fingerprint_of,
    held_fingerprints,
)
from scorekeeper.services.games.loading import GameSummary, get_game, lock_history, summary
from scorekeeper.services.games.recording import delete_game, record_game
from scorekeeper.services.games.replay import (
    entries_from,
    entries_of,
    finished_when,
    keep_progress,
    progress_corrected,
    progress_of,
    rules_of,
    rules_of_saved,
    same_rules,
    seats_of,
    sides_of,
)
from scorekeeper.services.games.starting import (
    GameRefused,
    LastTable,
    SideSetup,
    choose_first_dealer,
    last_table,
    now,
    rules_for,
    start_game,
)
from scorekeeper.services.games.words import (
    changed_rules,
    rules_called,
    rules_described,
    rules_title,
    summary_text,
    winners_text,
)

__all__ = [
    "GameRefused",
    "GameSummary",
    "LastTable",
    "NextGame",
    "SideSetup",
    "changed_rules",
    "choose_first_dealer",
    "delete_game",
    "digest",
    "entries_from",
    "entries_of",
    "fingerprint",
    "fingerprint_of",
    "finished_when",
    "get_game",
    "held_fingerprints",
    "keep_progress",
    "last_table",
    "lock_history",
    "next_game_of",
    "now",
    "play_again",
    "progress_corrected",
    "progress_of",
    "record_game",
    "rules_called",
    "rules_described",
    "rules_for",
    "rules_of",
    "rules_of_saved",
    "rules_title",
    "same_rules",
    "seats_of",
    "sides_of",
    "start_game",
    "summary",
    "summary_text",
    "winners_text",
]
