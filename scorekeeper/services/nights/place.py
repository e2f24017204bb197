"""Where a game sits in a club night (issue 37), and where its players go next.

A night's game is one table of one round: its pages name the night, the round and the table,
and once the game has finished they tell each of its players their place in the next round as
soon as it is seated ("Round 3: Table 1, Ann with Bob against Cat & Dan"), or how many tables
of this round are still playing until then, or that the night is over. Read from the night's
rows in one query (`place_of`), and one more for the next round's seating once it is seated:
no game is replayed. The night's tonight line on the club's pages is `tonight`.

A round seated, drawn again or a night ended moves the live version of the games whose phones
wait on it (`touch_round`, one UPDATE), and so does a table finishing for its round's other
finished tables (`touch_round_of`): their phones fetch the page again (`static/live.js`, the
live answer's `night` token and `waiting`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from sqlalchemy import func, select, update
from sqlalchemy.orm import aliased

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Night, NightRound, NightTable, Player, Side
from scorekeeper.rules.terms import PARTNERS


def listed(names: Sequence[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cat"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def day_of(played_on: date) -> str:
    """ "3 Dec": the night's day as its pages name it."""
    return f"{played_on.day} {played_on:%b}"


def tables_words(count: int) -> str:
    """ "1 table", "3 tables"."""
    return f"{count} table{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class NightPlace:
    """A game's place in its night: the night, its round and table, how the night stands, and
    each of its players' place in the next round once that is seated (`next`)."""

    night_id: int
    played_on: date
    board_secret: str | None
    round: int
    table: int
    rounds_planned: int
    ended: bool  # ended by its organisers
    draw: int  # the night's draw: a round drawn again is another seating
    finished: bool  # this game
    seated: int  # rounds seated in the night so far
    playing: int  # tables of this game's round still playing (this one included)
    last_playing: int  # tables of the night's last round seated still playing
    next: tuple[str, ...] = ()  # "Round 3: Table 1, Ann with Bob against Cat & Dan", ...
    # The link secret of this table's game in the next round, once seated: the phone stays at
    # its table (as a bridge table's terminal does) and scores whoever sits down there next.
    table_next: str | None = None

    @property
    def title(self) -> str:
        """ "Club night of 3 Dec · Round 2 · Table 3"."""
        return f"Club night of {day_of(self.played_on)} · Round {self.round} · Table {self.table}"

    @property
    def over(self) -> bool:
        """Whether the night is over: ended, or every round planned seated and played."""
        played_out = self.seated >= self.rounds_planned and self.last_playing == 0
        return self.ended or played_out

    @property
    def in_progress(self) -> bool:
        """Whether the night still plays (not over)."""
        return not self.over

    @property
    def next_seated(self) -> bool:
        """Whether the round after this game's is seated."""
        return self.seated > self.round

    @property
    def waiting(self) -> bool:
        """Whether this finished game's phones wait for the next round to be seated."""
        return self.finished and not self.next_seated and not self.over

    @property
    def then(self) -> str:
        """What this finished game's phones are told besides each player's next place."""
        if not self.finished:
            return ""
        if self.next_seated:
            return f"Round {self.round + 1} is seated: go to your tables."
        if self.over:
            return "The night is over."
        if self.playing:
            return (
                f"{tables_words(self.playing)} still playing; "
                "the next round is seated when they finish."
            )
        return (
            f"Every table has finished round {self.round}: round {self.round + 1} is being seated."
        )

    @property
    def token(self) -> str:
        """Changes whenever what this game's pages say of the night changes (the live answer's
        `night`, the page's `data-night`): nothing but the place while the game plays."""
        if not self.finished:
            return f"{self.night_id}.{self.round}.{self.table}"
        return (
            f"{self.night_id}.{self.round}.{self.table}.{self.seated}.{self.playing}."
            f"{self.last_playing}.{int(self.ended)}.{self.draw}"
        )


def _place_query(game_id: int):
    """One row: the game's night, round and table, with how the night's rounds stand."""
    later = aliased(NightRound)
    here_t, here_g = aliased(NightTable), aliased(Game)
    last_r, last_t, last_g = aliased(NightRound), aliased(NightTable), aliased(Game)
    seated = select(func.max(later.number)).where(later.night_id == Night.id).scalar_subquery()
    playing = (
        select(func.count())
        .select_from(here_t)
        .join(here_g, here_g.id == here_t.game_id)
        .where(here_t.round_id == NightRound.id, here_g.finished_at.is_(None))
        .scalar_subquery()
    )
    last_playing = (
        select(func.count())
        .select_from(last_t)
        .join(last_r, last_r.id == last_t.round_id)
        .join(last_g, last_g.id == last_t.game_id)
        .where(last_r.night_id == Night.id, last_r.number == seated, last_g.finished_at.is_(None))
        .scalar_subquery()
    )
    return (
        select(
            Night.id,
            Night.played_on,
            Night.board_secret,
            Night.rounds_planned,
            Night.finished_at,
            Night.draw,
            NightRound.number,
            NightTable.number,
            NightTable.sides,
            Game.finished_at,
            seated,
            playing,
            last_playing,
        )
        .select_from(NightTable)
        .join(NightRound, NightRound.id == NightTable.round_id)
        .join(Night, Night.id == NightRound.night_id)
        .join(Game, Game.id == NightTable.game_id)
        .where(NightTable.game_id == game_id)
    )


def _place(row) -> tuple[NightPlace, list[list[int]]]:
    night, on, secret, planned, ended, draw, number, table, sides, done, seated, playing, last = row
    place = NightPlace(
        night_id=night,
        played_on=on,
        board_secret=secret,
        round=number,
        table=table,
        rounds_planned=planned,
        ended=ended is not None,
        draw=draw,
        finished=done is not None,
        seated=seated or number,
        playing=playing or 0,
        last_playing=last or 0,
    )
    return place, sides


def live_place(game_id: int) -> NightPlace | None:
    """The game's place without the next round's seating (the live answer's), in one query;
    None for a game of no night."""
    row = db.session.execute(_place_query(game_id)).one_or_none()
    return None if row is None else _place(row)[0]


def place_of(game: Game) -> NightPlace | None:
    """Where the game sits in its night, and once it has finished and the next round is seated,
    each of its players' place in it; None for a game of no night. One query, two then."""
    row = db.session.execute(_place_query(game.id)).one_or_none()
    if row is None:
        return None
    place, sides = _place(row)
    if not (place.finished and place.next_seated):
        return place
    # This game's players by the night's ids, in seat order: its sides are the table's sides.
    names = {
        player_id: player.name
        for ids, side in zip(sides, game.sides, strict=False)
        for player_id, player in zip(ids, side.players, strict=False)
    }
    words, table_next = _next_places(place, names)
    return replace(place, next=words, table_next=table_next)


def _next_places(place: NightPlace, mine: dict[int, str]) -> tuple[tuple[str, ...], str | None]:
    """Each of this game's players' place in the next round, in their seat order; and the link
    secret of this table's game in it (None if the table is not used then)."""
    number = place.round + 1
    rows = db.session.execute(
        select(
            NightRound.sitting_out,
            NightTable.number,
            NightTable.sides,
            Side.position,
            Player.position,
            Player.name,
            Game.secret,
        )
        .select_from(NightRound)
        .join(NightTable, NightTable.round_id == NightRound.id)
        .outerjoin(Game, Game.id == NightTable.game_id)
        .outerjoin(Side, Side.game_id == NightTable.game_id)
        .outerjoin(Player, Player.side_id == Side.id)
        .where(NightRound.night_id == place.night_id, NightRound.number == number)
        .order_by(NightTable.number, Side.position, Player.position)
    ).all()
    sitting_out: set[int] = set()
    tables: dict[int, list[list[int]]] = {}
    named: dict[int, str] = dict(mine)
    secrets: dict[int, str | None] = {}
    for out, table, sides, side, seat, name, secret in rows:
        sitting_out = set(out or ())
        tables[table] = sides
        secrets[table] = secret
        if side is not None and side < len(sides) and seat is not None and seat < len(sides[side]):
            named.setdefault(sides[side][seat], name)
    said = []
    for player_id, name in mine.items():
        at = next((t for t, sides in tables.items() if any(player_id in s for s in sides)), None)
        if at is not None:
            said.append(_seated_words(number, at, tables[at], player_id, named))
        elif player_id in sitting_out:
            said.append(f"{name} sits out round {number}")
        else:
            said.append(f"{name} is not seated in round {number}")
    return tuple(said), secrets.get(place.table)


def _seated_words(
    number: int, table: int, sides: Sequence[Sequence[int]], who: int, named: dict[int, str]
) -> str:
    """ "Round 3: Table 1, Ann with Bob against Cat & Dan"."""
    mine = next(side for side in sides if who in side)
    partners = [named.get(p, "?") for p in mine if p != who]
    others = [PARTNERS.join(named.get(p, "?") for p in side) for side in sides if side is not mine]
    partnered = f" with {listed(partners)}" if partners else ""
    return f"Round {number}: Table {table}, {named[who]}{partnered} against {listed(others)}"


# --- telling the phones ----------------------------------------------------------------------


def touch_round(night_id: int, number: int) -> None:
    """Round `number`'s games' live versions moved on, in one UPDATE of the caller's
    transaction: their phones are told the night changed (the next round seated or drawn
    again, the night ended)."""
    if number < 1:
        return  # no round before round 1
    games = (
        select(NightTable.game_id)
        .join(NightRound, NightRound.id == NightTable.round_id)
        .where(NightRound.night_id == night_id, NightRound.number == number)
    )
    db.session.execute(
        update(Game)
        .where(Game.id.in_(games))
        .values(live_version=Game.live_version + 1)
        .execution_options(synchronize_session=False)
    )


def touch_round_of(game_id: int) -> None:
    """A night's table has finished: the round's other finished tables' phones are told how
    many still play, in one UPDATE of the caller's transaction (none for a game of no night)."""
    finishing = aliased(NightTable)
    its_round = select(finishing.round_id).where(finishing.game_id == game_id)
    games = select(NightTable.game_id).where(NightTable.round_id.in_(its_round))
    db.session.execute(
        update(Game)
        .where(
            Game.id.in_(games),
            Game.id != game_id,
            Game.finished_at.is_not(None),
        )
        .values(live_version=Game.live_version + 1)
        .execution_options(synchronize_session=False)
    )
