"""What a club night's board shows (issue 29): every table's game as it stands, the night's
standings of players (ranked by the night's rule: `night_ranking.py`), the next round's seating
once a round is over; and the board's version.

Every table's figures come in one query from the sides' stored figures (`Side.final_total`,
`deals_played`, `won`, kept in step with every deal saved): no game is replayed for the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Select, func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Night, NightRound, NightTable, Side
from scorekeeper.rules.terms import PARTNERS
from scorekeeper.services import agreement_shown
from scorekeeper.services.games.words import rules_called
from scorekeeper.services.nights import partners as night_partners
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights.play import BALANCED, SIT_OUTS, NightRefused

# A night's standings are night_ranking.py's, named here too as the board's readers know them.
from scorekeeper.services.nights.ranking import (
    AVERAGE,
    RANKED_BY,
    RANKINGS,
    RankedBy,
    Standing,
    standings,
)
from scorekeeper.services.ratings import chances, scopes


@dataclass(frozen=True)
class BoardSide:
    name: str
    total: int
    won: bool
    par: int | None = None  # its chance in percent as the game started (Side.par)


@dataclass(frozen=True)
class BoardTable:
    """A table of a round: its sides as seated, and its game as it stands (if it has one)."""

    number: int
    sides: tuple[tuple[str, ...], ...]
    secret: str | None = None
    scores: tuple[BoardSide, ...] = ()
    deals: int = 0
    finished: bool = False
    game_id: int | None = None  # the API names a game by its id (and its secret, X-Game-Key)
    # Partners balanced by rating: each side's chance in percent, before the table's deal 1.
    chances: tuple[int, ...] = ()

    @property
    def title(self) -> str:
        """ "Ann & Bob v Cat & Dan"."""
        return " v ".join(PARTNERS.join(side) for side in self.sides)

    @property
    def odds(self) -> str:
        """ "Ann & Bob 54% · Cat & Dan 46%"; "" without chances."""
        sides = zip(self.sides, self.chances, strict=False)
        return " · ".join(f"{PARTNERS.join(side)} {pc}%" for side, pc in sides)


@dataclass(frozen=True)
class BoardRound:
    number: int
    tables: tuple[BoardTable, ...]
    sitting_out: tuple[str, ...] = ()


@dataclass(frozen=True)
class NightView:
    night: Night
    rounds: tuple[BoardRound, ...]
    round_over: bool  # every table of the last round seated has finished (or none seated)
    next_round: BoardRound | None  # the engine's seating of the next, once the last is over
    why_no_next: str  # why none can be seated, in words ("" if one can, or the night is done)
    standings: tuple[Standing, ...]
    sit_out_rule: str
    ranking_rule: str  # how the night ranks, in words (night_ranking.RANKINGS)
    ranked_by: RankedBy  # the figure it ranks by: the standings' column next to the name
    here: tuple[tuple[int, str], ...]  # (night player id, name) of those still here
    gone: tuple[str, ...]
    # Fixed partners: the pairs once drawn and who has no partner (night_partners.py's words).
    pairs: night_partners.PairsShown | None = None
    # The tables whose sides queried a deal, each asking for the organiser (agreement.py):
    # "Table 2 asks for the organiser: deal 3 queried by Linda & Sue".
    queries: tuple[str, ...] = ()

    @property
    def par_shown(self) -> bool:
        """Whether any player has a par: the results show the column then."""
        return any(s.par is not None for s in self.standings)

    @property
    def rules_called(self) -> str:
        """The saved rule set's name the night started with, else the preset's."""
        return rules_called(self.night.rules_name, self.night.ruleset)

    @property
    def done(self) -> bool:
        """Ended by the organiser, or every round planned played."""
        return night_done(
            self.night.finished_at is not None, self.rounds, self.night.rounds_planned
        )


def round_over(played: Sequence[BoardRound]) -> bool:
    """Whether every table of the last round seated has finished (True if none is seated)."""
    return all(t.finished for t in played[-1].tables) if played else True


def night_done(ended: bool, played: Sequence[BoardRound], rounds_planned: int) -> bool:
    """Whether a night is over: ended by its organisers, or every round planned played out."""
    return ended or (round_over(played) and len(played) >= rounds_planned)


def board_version(club_id: int, night_id: int) -> str | None:
    """The board's ETag in one query: the night's version and its games' live versions (a deal
    saved at any table raises one); None for no such night of this club."""
    row = db.session.execute(
        select(Night.version, func.coalesce(func.sum(Game.live_version), 0), func.count(Game.id))
        .select_from(Night)
        .outerjoin(NightRound, NightRound.night_id == Night.id)
        .outerjoin(NightTable, NightTable.round_id == NightRound.id)
        .outerjoin(Game, Game.id == NightTable.game_id)
        .where(Night.id == night_id, Night.club_id == club_id)
        .group_by(Night.version)
    ).first()
    return None if row is None else f"n{row[0]}.{row[1]}.{row[2]}"


# A table's figures as the board reads them: one row per side of its game (or one row with
# no side, for a table whose game was deleted).
TABLE_COLUMNS = (
    NightRound.number,
    NightRound.sitting_out,
    NightTable.number,
    NightTable.sides,
    Game.secret,
    Game.finished_at,
    Side.position,
    Side.name,
    Side.final_total,
    Side.deals_played,
    Side.won,
    Game.id,
    Side.par,
)


def tables_of(*columns: Any) -> Select:
    """Every table of the nights asked (with `columns` first) and its sides' stored figures,
    round by round and table by table: the caller adds which nights."""
    return (
        select(*columns, *TABLE_COLUMNS)
        .select_from(NightRound)
        .join(NightTable, NightTable.round_id == NightRound.id)
        .outerjoin(Game, Game.id == NightTable.game_id)
        .outerjoin(Side, Side.game_id == Game.id)
        .order_by(*columns, NightRound.number, NightTable.number, Side.position)
    )


def rounds_from(rows: Iterable[Sequence[Any]], names: Mapping[int, str]) -> tuple[BoardRound, ...]:
    """A night's rounds from its rows of `tables_of` (without the extra columns), players named
    by `names` (night player id: name)."""
    rounds: dict[int, dict] = {}
    tables: dict[tuple[int, int], dict] = {}
    for row in rows:
        number, out, table, sides, secret, finished, *of_side = row
        position, name, total, deals, won, game, par = of_side
        rounds.setdefault(number, {"out": out, "tables": []})
        here = tables.get((number, table))
        if here is None:
            here = {"number": table, "sides": sides, "secret": secret, "scores": [], "deals": 0}
            here["game_id"] = game
            here["finished"] = finished is not None
            tables[number, table] = here
            rounds[number]["tables"].append(here)
        if position is not None:
            here["scores"].append(BoardSide(name, total, won, par))
            here["deals"] = deals
    return tuple(
        BoardRound(
            number,
            tuple(
                BoardTable(
                    t["number"],
                    tuple(tuple(names[i] for i in side) for side in t["sides"]),
                    t["secret"],
                    tuple(t["scores"]),
                    t["deals"],
                    t["finished"] or t["secret"] is None,
                    t["game_id"],
                )
                for t in kept["tables"]
            ),
            tuple(sorted((names[i] for i in kept["out"]), key=str.casefold)),
        )
        for number, kept in rounds.items()
    )


def night_view(night: Night) -> NightView:
    """The night as its page and board show it: its players, then every table in one query."""
    names = {p.id: p.name for p in night.players}
    rows = db.session.execute(tables_of().where(NightRound.night_id == night.id)).all()
    played = rounds_from(rows, names)
    over = round_over(played)
    upcoming, why = None, ""
    if over and len(played) < night.rounds_planned and night.finished_at is None:
        try:
            upcoming = _named(night_play.next_round(night), night)
        except NightRefused as refused:
            why = str(refused)
    if night.partners == BALANCED:
        played, upcoming = _with_chances(night, played, upcoming)
    return NightView(
        night,
        played,
        over,
        upcoming,
        why,
        standings([p.name for p in night.players], night.sit_out, played, ranking=night.ranking),
        SIT_OUTS[night.sit_out],
        RANKINGS.get(night.ranking, ""),
        RANKED_BY.get(night.ranking, RANKED_BY[AVERAGE]),
        tuple((p.id, p.name) for p in night.players if p.left_after is None),
        tuple(p.name for p in night.players if p.left_after is not None),
        night_partners.shown(night),
        _queries(played),
    )


def _queries(played: Sequence[BoardRound]) -> tuple[str, ...]:
    """Every table's queries standing, the latest round first, in one query for the night."""
    tables = [(r.number, t) for r in reversed(played) for t in r.tables if t.game_id is not None]
    standing = agreement_shown.open_queries(t.game_id for _, t in tables)
    rounds = len({number for number, _ in tables}) > 1
    return tuple(
        (f"Round {number}: " if rounds else "") + q.for_organiser(t.number)
        for number, t in tables
        for q in standing.get(t.game_id, [])  # type: ignore[arg-type]
    )


def _with_chances(
    night: Night, played: tuple[BoardRound, ...], upcoming: BoardRound | None
) -> tuple[tuple[BoardRound, ...], BoardRound | None]:
    """The tables yet to deal (the last round's with no deal, the next round's) with each
    side's chance from the club's ratings, read once for the night's players."""
    who = {
        p.name: (p.member_id, None) if p.member_id is not None else scopes.guest(p.name)
        for p in night.players
    }
    skills = chances.skills_of(night.club_id, who.values())

    def weighed(r: BoardRound) -> BoardRound:
        tables = tuple(
            replace(
                t,
                chances=tuple(
                    chances.side_percents([[who[n] for n in side] for side in t.sides], skills)
                ),
            )
            if len(t.sides) >= 2 and not t.finished and not t.deals
            else t
            for t in r.tables
        )
        return replace(r, tables=tables)

    if played:
        played = (*played[:-1], weighed(played[-1]))
    return played, weighed(upcoming) if upcoming else None


def _named(planned, night: Night) -> BoardRound:
    by_key = {night_play.player_key(p): p.name for p in night.players}
    return BoardRound(
        planned.number,
        tuple(
            BoardTable(t.number, tuple(tuple(by_key[k] for k in side) for side in t.sides))
            for t in planned.tables
        ),
        tuple(sorted((by_key[k] for k in planned.sitting_out), key=str.casefold)),
    )
