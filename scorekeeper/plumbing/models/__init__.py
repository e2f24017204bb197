"""What the app keeps, one module per part of it; every model is importable from here.

accounts   an organiser's account
clubs      a club, its organisers, members, seasons and saved rule sets
games      a game, its sides and players, its deals and what each side entered
standings  a member's figures per game and per club night, summed by the standings
live       who is entering a deal, and each side's line of the next deal
nights     a club night: its players, rounds and each round's tables' games
ratings    each club player's rating within a scope, and its steps game by game
guards     rows that count what one address does: failed sign-ins, link misses, creations,
           writes
jobs       long work off the request: a club's records file being imported
history    what happened to each deal: entered, corrected, agreed, queried (issue 40)
"""

from __future__ import annotations

from scorekeeper.plumbing.models.accounts import Organiser
from scorekeeper.plumbing.models.clubs import Club, Member, SavedRules, Season, club_organiser
from scorekeeper.plumbing.models.games import (
    SECRET_BYTES,
    SECRET_LENGTH,
    Deal,
    DealScore,
    Game,
    Player,
    Side,
    new_secret,
)
from scorekeeper.plumbing.models.guards import Creation, LinkMiss, LoginAttempt, WriteTally
from scorekeeper.plumbing.models.history import DealEvent
from scorekeeper.plumbing.models.jobs import ImportJob
from scorekeeper.plumbing.models.live import DealPart, Entering
from scorekeeper.plumbing.models.nights import Night, NightPlayer, NightRound, NightTable
from scorekeeper.plumbing.models.ratings import Rating, RatingFold, RatingMark, RatingStep
from scorekeeper.plumbing.models.standings import COUNTS, RESULT_FIGURES, MemberDay, MemberResult

__all__ = [
    "COUNTS",
    "RESULT_FIGURES",
    "SECRET_BYTES",
    "SECRET_LENGTH",
    "Club",
    "Creation",
    "Deal",
    "DealEvent",
    "DealPart",
    "DealScore",
    "Entering",
    "Game",
    "ImportJob",
    "LinkMiss",
    "LoginAttempt",
    "Member",
    "MemberDay",
    "MemberResult",
    "Night",
    "NightPlayer",
    "NightRound",
    "NightTable",
    "Organiser",
    "Player",
    "Rating",
    "RatingFold",
    "RatingMark",
    "RatingStep",
    "SavedRules",
    "Season",
    "Side",
    "WriteTally",
    "club_organiser",
    "new_secret",
]
