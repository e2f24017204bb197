"""Recognising a game already held: what makes two games one, as a digest."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Deal, Game, Side
from scorekeeper.services.names import name_key


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

    canonical = {
        "played_on": played_on.isoformat(),
        "ruleset": ruleset,
        "decks": decks,
        "house_rules": dict(house_rules or {}),
        "sides": [
            [name_key(side), [name_key(p) for p in players or [side]]] for side, players in sides
        ],
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
