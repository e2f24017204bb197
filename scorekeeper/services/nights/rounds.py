"""A club night's rounds seated (issue 29): the next round seated with each table's game
started, its seating drawn again before it is seated, or a round seated drawn again while no
table has a deal. What the engine is asked, and its seed for each draw: `night_seating.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import (
    Club,
    Deal,
    DealPart,
    Game,
    Night,
    NightPlayer,
    NightRound,
    NightTable,
)
from scorekeeper.rules import Round, Table
from scorekeeper.rules.terms import PARTNERS
from scorekeeper.services import clubs, figures, games
from scorekeeper.services.nights import pairs as night_pairs
from scorekeeper.services.nights import place as night_place
from scorekeeper.services.nights.seating import (
    NightRefused,
    is_fixed,
    new_draw,
    next_round,
    pairs_drawn,
    player_key,
    round_over,
    still_playing,
    why_no_draw,
)


@dataclass(frozen=True)
class Seated:
    """A round seated: its number and its tables' games."""

    number: int
    games: tuple[int, ...]


class RoundAhead(NightRefused):
    """A round asked for further on than the next to seat: a wrong figure sent (the API's 422),
    where one seated already is a request sent twice (a plain NightRefused, its 409)."""


def seat_round(night: Night, drawn: int | None = None, number: int | None = None) -> Seated:
    """The next round (round `number`, if given) seated by the engine, each table's game
    started; or NightRefused ("Round 1 is seated already.").

    `drawn`: the draw the organiser saw (the page's); another since is refused, so what is
    seated is what was shown. `number`: the round asked for; one seated already is refused,
    so a request sent twice seats one round.
    """
    following = len(night.rounds) + 1
    if number is not None and number < following:
        raise NightRefused([("round", f"Round {number} is seated already.")])
    if number is not None and number > following:
        raise RoundAhead([("round", f"Round {number} is not next: round {following} is.")])
    number = following
    _may_seat(night, number)
    if drawn is not None and drawn != night.draw:
        raise _drawn_meanwhile(number)
    try:
        _seat(night, number, next_round(night))
        # The last round's phones are told where their players go next (night_place.py).
        night_place.touch_round(night.id, number - 1)
        # Counted in the database: two phones changing the night at once both count.
        night.version = Night.version + 1
        db.session.commit()
    except IntegrityError:
        # Another tap of Seat round N got there first (one round N a night).
        db.session.rollback()
        raise NightRefused([("round", f"Round {number} was seated meanwhile.")]) from None
    return _seated(night)


def draw_again(night: Night, drawn: int | None = None) -> Round:
    """The next round's seating drawn again, before it is seated: a new seed, partners still
    spread as every draw spreads them; or NightRefused."""
    number = len(night.rounds) + 1
    _may_seat(night, number)
    if why_no_draw(night, number):
        raise NightRefused([("round", why_no_draw(night, number))])
    draw, planned = new_draw(night, night.rounds)
    _claim(night, night.draw if drawn is None else drawn, draw, number)
    db.session.commit()
    return planned


def redraw_round(night: Night, drawn: int | None = None, number: int | None = None) -> Seated:
    """The last round seated (round `number`, if given) drawn again while no table has a deal:
    its games deleted and the round seated anew, in one transaction; or NightRefused ("Table 2
    has a deal: round 1 has started")."""
    if not night.rounds:
        raise NightRefused([("round", "No round is seated yet: draw the next seating again.")])
    last = night.rounds[-1]
    if number is not None and number != last.number:
        words = f"Round {number} is not the last round seated: only round {last.number} may be."
        raise NightRefused([("round", words)])
    number = last.number
    if night.finished_at is not None:
        raise NightRefused([("round", "The night has ended: no round is drawn again.")])
    if why_no_draw(night, number):
        raise NightRefused([("round", why_no_draw(night, number))])
    draw, planned = new_draw(night, night.rounds[:-1])
    # The draw claimed first: it takes the night's row, so a second tap waits, then is refused.
    _claim(night, night.draw if drawn is None else drawn, draw, number)
    started = _started(last)
    if started:
        db.session.rollback()
        raise NightRefused([("round", f"{started}: round {number} has started.")])
    for table in last.tables:
        if table.game is not None:
            db.session.delete(table.game)
    night.rounds.remove(last)
    db.session.flush()
    try:
        _seat(night, number, planned)
        night_place.touch_round(night.id, number - 1)  # their next places changed
        figures.refresh_member_days(night.club_id, [night.played_on])
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise _drawn_meanwhile(number) from None
    return _seated(night)


def _may_seat(night: Night, number: int) -> None:
    """Refuse a round while the last plays, after the night ended, or past the rounds planned."""
    if not round_over(night):
        raise still_playing(night)
    if night.finished_at is not None:
        raise NightRefused([("round", "The night has ended: no round is seated after it.")])
    if number > night.rounds_planned:
        most = night.rounds_planned
        raise NightRefused([("round", f"All {most} rounds planned are seated.")])


def _drawn_meanwhile(number: int) -> NightRefused:
    return NightRefused(
        [("round", f"Round {number}'s seating was drawn again meanwhile: check it, then seat it.")]
    )


def _claim(night: Night, seen: int, draw: int, number: int) -> None:
    """Move the night from draw `seen` to `draw` in one UPDATE, or refuse: drawn meanwhile."""
    moved = db.session.execute(
        update(Night)
        .where(Night.id == night.id, Night.draw == seen)
        .values(draw=draw, version=Night.version + 1)
        .execution_options(synchronize_session=False)
    )
    if moved.rowcount != 1:
        db.session.rollback()
        raise _drawn_meanwhile(number)
    set_committed_value(night, "draw", draw)
    db.session.expire(night, ["version"])


def _started(played: NightRound) -> str:
    """ "Table 2 has a deal" for the first table with a deal saved or a line sent; else ""."""
    by_game = {t.game_id: t.number for t in played.tables if t.game_id is not None}
    if not by_game:
        return ""
    # Each game's next deal taken, as a deal saved takes it: none is saved while this looks.
    db.session.execute(select(Game.id).where(Game.id.in_(by_game)).with_for_update())
    dealt = db.session.execute(select(Deal.game_id).where(Deal.game_id.in_(by_game))).scalars()
    lines = db.session.execute(select(DealPart.game_id).where(DealPart.game_id.in_(by_game)))
    tables = sorted({by_game[g] for g in dealt} | {by_game[g] for g in lines.scalars()})
    return f"Table {tables[0]} has a deal" if tables else ""


def _seat(night: Night, number: int, planned: Round) -> None:
    """The round as planned added to the night, each table's game started; uncommitted. Fixed
    partners' round 1 keeps the pairs it was drawn with, which every later round follows."""
    by_key = {player_key(p): p for p in night.players}
    if is_fixed(night.partners) and number == 1:
        night.pairs = night_pairs.kept_form(night, pairs_drawn(night))
    club = db.session.get(Club, night.club_id)
    saved = clubs.saved_rules(club, night.saved_rules_id) if night.saved_rules_id else None
    played = NightRound(
        number=number, sitting_out=[by_key[k].id for k in planned.sitting_out], tables=[]
    )
    night.rounds.append(played)
    for table in planned.tables:
        sides = [[by_key[k] for k in side] for side in table.sides]
        played.tables.append(
            NightTable(
                number=table.number,
                sides=[[p.id for p in side] for side in sides],
                game=_start(night, club, saved, sides, table),
            )
        )
    db.session.flush()


def _seated(night: Night) -> Seated:
    last = night.rounds[-1]
    return Seated(last.number, tuple(t.game_id for t in last.tables if t.game_id))


def _start(night: Night, club, saved, sides: list[list[NightPlayer]], table: Table):
    """The table's game, as a club game from the night's rules is started; uncommitted."""
    setup = [games.SideSetup(PARTNERS.join(p.name for p in s), [p.name for p in s]) for s in sides]
    try:
        return games.start_game(
            night.ruleset,
            setup,
            house_rules=night.house_rules,
            club=club,
            played_on=night.played_on,
            commit=False,
            saved_rules=saved,
            first_dealer=table.first_dealer,
        )
    except games.GameRefused as refused:
        db.session.rollback()
        raise NightRefused([("round", f"Table {table.number}: {refused}")]) from None
