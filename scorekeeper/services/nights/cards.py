"""A club night's movement cards (issue 37): each player's table, partner and opponents round
by round, and each table's sides, when the seating is known in advance.

Known in advance means a schedule says it, not a draw made as each round comes: a whist schedule
(partners rotating at tables of 4, the same players all night) or fixed pairs' round robin
(round 1 draws the pairs and the order they meet in). The rounds seated are as they were seated;
the rest are the engine's, asked as `seat_round` will ask it (`night_seating.round_after`, the
night's draw as its seed), each on top of the ones before, so the cards say what will be seated
while nobody comes or goes and no round is drawn again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.plumbing.models import Night, NightPlayer, NightRound, NightTable
from scorekeeper.rules import Round, Shape, Table
from scorekeeper.rules.terms import PARTNERS
from scorekeeper.rules.whist import whist_sizes_said
from scorekeeper.services.nights import planning
from scorekeeper.services.nights.seating import (
    BALANCED,
    NightRefused,
    is_fixed,
    player_key,
    present_for,
    round_after,
)

ROUND_BY_ROUND = (
    "Tonight's seating is drawn round by round, so there are no movement cards; each round's "
    "tables show on the board."
)
# Said on every card: what makes it wrong, so a card printed earlier is not trusted blindly.
HOLDS = "A player who comes or goes, or a round drawn again, changes these cards: print them again."
SITS_OUT, NOT_YET, GONE = "Sits out", "Not here yet", "Gone"


@dataclass(frozen=True)
class Place:
    """One player's round: their table, partners and opposing sides; or `away` says why none."""

    round: int
    table: int | None = None
    partners: tuple[str, ...] = ()
    against: tuple[tuple[str, ...], ...] = ()
    away: str = ""

    @property
    def partner(self) -> str:
        """ "Bob" (or "Bob & Cat" at a side of three); "" when alone or away."""
        return PARTNERS.join(self.partners)

    @property
    def opponents(self) -> str:
        """ "Cat & Dan" (sides apart by commas at a table of 6)."""
        return ", ".join(PARTNERS.join(side) for side in self.against)


@dataclass(frozen=True)
class PlayerCard:
    """One player's card: their name and each round's place."""

    name: str
    places: tuple[Place, ...]


@dataclass(frozen=True)
class TableRound:
    """One table in one round: its sides by name (none: the table is not used that round)."""

    round: int
    sides: tuple[tuple[str, ...], ...]

    @property
    def title(self) -> str:
        """ "Ann & Bob v Cat & Dan"."""
        return " v ".join(PARTNERS.join(side) for side in self.sides)


@dataclass(frozen=True)
class TableCard:
    """One table's card: its number and each round's sides."""

    number: int
    rounds: tuple[TableRound, ...]


@dataclass(frozen=True)
class Cards:
    """A night's movement cards, or why there are none (`none`)."""

    night: Night
    # The engine's rounds the cards print (players as `player_key` names them): seated, then
    # planned; the tests hold them to what seat_round seats.
    seating: tuple[Round, ...]
    seated: int  # how many of them were seated already
    players: tuple[PlayerCard, ...]
    tables: tuple[TableCard, ...]
    sitting_out: tuple[tuple[int, tuple[str, ...]], ...]  # (round, names), rounds with any
    none: str = ""  # why there are no cards ("" when there are)
    stops: str = ""  # why the cards stop before the last round planned ("" if they do not)
    holds: str = HOLDS

    @property
    def numbers(self) -> tuple[int, ...]:
        """The rounds the cards print."""
        return tuple(r.number for r in self.seating)


def movement_cards(night: Night) -> Cards:
    """The night's movement cards: its rounds seated, then each round to come that a schedule
    says, as it will be seated; none (and why, in words) when the next round is drawn."""
    kept = list(night.rounds)
    planned: list[NightRound] = []
    stopped = ""
    if night.finished_at is None:
        for number in range(len(kept) + 1, night.rounds_planned + 1):
            try:
                upcoming, scheduled = round_after(night, [*kept, *planned])
            except NightRefused as refused:
                stopped = str(refused)
                break
            if not scheduled:
                stopped = _why_drawn(night, number)
                break
            planned.append(_as_kept(night, upcoming))
    keys = {p.id: player_key(p) for p in night.players}
    seating = tuple(_engine(r, keys) for r in [*kept, *planned])
    if night.finished_at is not None:
        return _none(night, "The night has ended: no round is left to seat.")
    if len(kept) >= night.rounds_planned:
        return _none(night, "Every round planned is seated: their tables show on the night's page.")
    if not planned:
        return _none(night, f"{ROUND_BY_ROUND} {stopped}".strip())
    stops = ""
    if len(kept) + len(planned) < night.rounds_planned:
        after = len(kept) + len(planned)
        stops = (
            f"The cards stop at round {after}: round {after + 1} is drawn when it comes "
            f"({stopped[:1].lower()}{stopped[1:].rstrip('.')}), and its tables show on the board."
        )
    return Cards(
        night,
        seating,
        len(kept),
        _player_cards(night, seating),
        _table_cards(night, seating),
        _sitting_out(night, seating),
        stops=stops,
    )


def _none(night: Night, words: str) -> Cards:
    return Cards(night, (), len(night.rounds), (), (), (), none=words)


def _why_drawn(night: Night, number: int) -> str:
    """Why round `number` is drawn when it comes, not said by a schedule."""
    if night.partners == BALANCED:
        return "Partners are balanced by the club's ratings as each round comes."
    if planning.SHAPES[night.shape][0] is not Shape.FOURS:
        return "Only partnership tables of 4 follow a schedule."
    present = present_for(night, number)
    if is_fixed(night.partners):
        return (
            f"Not every player here for round {number} has a partner kept from the rounds "
            "before: a pair is apart, or a player came late."
        )
    if any(p.from_round > 1 or p.left_after is not None for p in night.players):
        return "A player came or went, so the players are not the group the night began with."
    return f"A whist schedule is known for {whist_sizes_said()}; {len(present)} are here."


def _as_kept(night: Night, planned: Round) -> NightRound:
    """A round planned, as the night would keep it: never added to the database, only asked
    about (the next round is planned on top of it)."""
    ids = {player_key(p): p.id for p in night.players}
    return NightRound(
        number=planned.number,
        sitting_out=[ids[k] for k in planned.sitting_out],
        tables=[
            NightTable(number=t.number, sides=[[ids[k] for k in side] for side in t.sides])
            for t in planned.tables
        ],
    )


def _engine(kept: NightRound, keys: dict[int, str]) -> Round:
    """A round kept (or as it will be kept) as the engine names its players."""
    return Round(
        kept.number,
        tuple(
            Table(t.number, tuple(tuple(keys[i] for i in side) for side in t.sides))
            for t in kept.tables
        ),
        tuple(keys[i] for i in kept.sitting_out),
    )


def _names(night: Night) -> dict[str, NightPlayer]:
    return {player_key(p): p for p in night.players}


def _player_cards(night: Night, seating: Sequence[Round]) -> tuple[PlayerCard, ...]:
    """A card for every player here for any round the cards print, by name."""
    by_key = _names(night)
    cards = []
    for key, player in by_key.items():
        places = tuple(_place(key, player, r, by_key) for r in seating)
        if any(not place.away or place.away == SITS_OUT for place in places):
            cards.append(PlayerCard(player.name, places))
    return tuple(sorted(cards, key=lambda c: (c.name.casefold(), c.name)))


def _place(key: str, player: NightPlayer, played: Round, by_key: dict[str, NightPlayer]) -> Place:
    for table in played.tables:
        for side in table.sides:
            if key in side:
                return Place(
                    played.number,
                    table.number,
                    tuple(by_key[k].name for k in side if k != key),
                    tuple(tuple(by_key[k].name for k in s) for s in table.sides if s != side),
                )
    if key in played.sitting_out:
        return Place(played.number, away=SITS_OUT)
    return Place(played.number, away=NOT_YET if player.from_round > played.number else GONE)


def _table_cards(night: Night, seating: Sequence[Round]) -> tuple[TableCard, ...]:
    """Each table number used in any round, with its sides round by round."""
    by_key = _names(night)
    numbers = sorted({t.number for r in seating for t in r.tables})
    cards = []
    for number in numbers:
        rounds = []
        for played in seating:
            sides: tuple[tuple[str, ...], ...] = ()
            for table in played.tables:
                if table.number == number:
                    sides = tuple(tuple(by_key[k].name for k in side) for side in table.sides)
            rounds.append(TableRound(played.number, sides))
        cards.append(TableCard(number, tuple(rounds)))
    return tuple(cards)


def _sitting_out(night: Night, seating: Sequence[Round]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    by_key = _names(night)
    return tuple(
        (r.number, tuple(sorted(by_key[k].name for k in r.sitting_out)))
        for r in seating
        if r.sitting_out
    )


def has_cards(night: Night) -> bool:
    """Whether the night has movement cards: a round is left to seat and a schedule says it."""
    if night.finished_at is not None or len(night.rounds) >= night.rounds_planned:
        return False
    try:
        return round_after(night, night.rounds)[1]
    except NightRefused:
        return False
