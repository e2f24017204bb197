"""Play again: a finished game's one next game, started by the first tap on any phone."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select, update

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.rules import Refusal
from scorekeeper.services.games.loading import get_game
from scorekeeper.services.games.replay import same_rules, seats_of
from scorekeeper.services.games.starting import GameRefused, SideSetup, start_game
from scorekeeper.services.names import SOMEONE, phone_name
from scorekeeper.services.nights import place as night_place


@dataclass(frozen=True)
class NextGame:
    """A finished game's next game: started by this tap (`started_here`), or earlier by another."""

    game: Game
    started_by: str
    started_here: bool


def play_again(
    game: Game,
    started_by: str | None = None,
    *,
    by_table_link: bool = False,
    made_from: str | None = None,
) -> NextGame:
    """The table's next game after a finished one, or GameRefused if it is not over or is a
    club night's game (its night seats the next round: `night_game`).

    A finished game has one next game: the first tap, on any phone, starts it; every later tap
    opens it. The same sides and players (a club's members stay those members), rules, decks
    and club; played today, so a club's season follows the date. The deal keeps passing to the
    left: the new game's first dealer sits after the last deal's dealer. `started_by` is the
    phone's name, which the table's other phones are shown. The next game is from the table
    link (`rating_holds`) if the finished one was, or if `by_table_link` (the phone tapping).
    A game started here counts toward the allowance of the address it is `made_from`
    (OverAllowance past it); opening the next game another tap started does not.
    """
    refused = night_game(game)
    if refused:
        raise GameRefused([Refusal(None, "game", refused)])
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
        by_table_link=game.started_by_table or by_table_link,
        made_from=made_from,
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


def night_game(game: Game) -> str:
    """Why a club night's game is not played again, in words ("" for any other game): its
    night seats the next round, and a game started here would be outside the night."""
    place = night_place.live_place(game.id) if game.club_id is not None else None
    if place is None:
        return ""
    return (
        f"This game is table {place.table} of round {place.round} at the club night of "
        f"{night_place.day_of(place.played_on)}: the night seats its players' next games, "
        "so Play again starts none (it would be a game outside the night)."
    )


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
