"""One read model of a game: what the scoreboard, the API's game answer and the phone's scorer show.

`game_view(game)` reads the game once into a `GameView`: its rules, sides and players, the
table's seats, the first dealer and every deal as entered. What needs the game replayed (the
totals, minimums, each deal's scores, the winners, who deals next, whether a deal can be
entered now) or another query (the sides' own lines of the next deal, the next game, its
place in a club night) is worked out the first time it is read and kept: the phone's scorer,
which replays the deals itself, costs the server no replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from scorekeeper import rules as engine
from scorekeeper.plumbing.models import DealPart, Game
from scorekeeper.rules import Progress, Refusal, RuleSet
from scorekeeper.rules.game import deal_limit_reached
from scorekeeper.services import deals, games, links, live, side_lines
from scorekeeper.services.names import SOMEONE
from scorekeeper.services.nights import place as night_place


@dataclass(frozen=True)
class SideView:
    """A side as the table set it up: its place, its name and its players in seat order."""

    position: int
    name: str
    players: list[str]


@dataclass(frozen=True)
class Dealer:
    """Who deals a deal: the seat (from 0), the side it belongs to, the player in it."""

    seat: int
    side: int
    player: str


@dataclass(frozen=True)
class DealView:
    """One saved deal: each side's score with its breakdown, the totals after it, as entered."""

    number: int
    version: int
    dealer: Dealer
    scores: list[engine.SideScore]
    # Each side's running total after this deal, and the opening minimum that applied in it.
    totals: list[int]
    minimums: list[int]
    warnings: list[str]
    # Each side's figures as entered and kept, in side order.
    entries: list[dict[str, Any]]


@dataclass(frozen=True)
class NextGame:
    """The table's next game (Play again): its id, its private link and who started it."""

    id: int
    secret: str
    path: str
    started_by: str


@dataclass(frozen=True)
class GameView:
    """A game as every view of it reads it; see the module's notes for what is worked out when."""

    game: Game
    rules: RuleSet
    decks: int
    sides: list[SideView]
    # Who sits where (partners apart): the deal passes to the left, from the first dealer's seat.
    seats: list[engine.Seat]
    first_dealer: int
    # Every saved deal's entries as entered, in deal and side order.
    entries: list[list[dict[str, Any]]]

    # --- where the game stands (the game replayed, once a request: games.progress_of) ---

    @cached_property
    def progress(self) -> Progress:
        """The engine's account of the game after its deals."""
        return games.progress_of(self.game)

    @property
    def totals(self) -> list[int]:
        """Each side's running total."""
        return self.progress.totals

    @property
    def next_minimums(self) -> list[int]:
        """What each side needs to open in the next deal."""
        return self.progress.minimums

    @property
    def finished(self) -> bool:
        """Whether the game has ended by its rules."""
        return self.progress.finished

    @cached_property
    def winners(self) -> list[SideView]:
        """The sides that won (more than one: a shared win); none before the end."""
        return [self.sides[i] for i in self.progress.winners]

    @cached_property
    def closed(self) -> deals.Ended | deals.LimitReached | None:
        """Why no deal can be entered now (over, or holding its most deals); None if one can."""
        return deals.no_deal_now(self.game, self.progress)

    @cached_property
    def deal_limit_reached(self) -> bool:
        """Whether the game holds as many deals as its rules allow (over or not)."""
        return deal_limit_reached(self.rules, self.progress) is not None

    @property
    def next_deal(self) -> int | None:
        """The number of the deal to enter next; None when no deal can be entered."""
        return None if self.closed is not None else self.progress.next_deal

    @cached_property
    def dealers(self) -> list[Dealer]:
        """Who dealt each deal so far, then who deals the one after the last (the last here).

        After the end that one deals first in the next game (Play again).
        """
        return [self.dealer(n) for n in range(1, self.progress.next_deal + 1)]

    @property
    def next_dealer(self) -> Dealer | None:
        """Who deals the next deal; None when no deal can be entered."""
        return None if self.closed is not None else self.dealers[-1]

    @cached_property
    def frozen(self) -> Refusal | None:
        """Why none of the deals may be corrected (it holds more than a game may); or None."""
        return deals.correction_refused(self.game)

    # --- the deals, one page at a time ---

    def dealer(self, number: int) -> Dealer:
        """Who deals deal `number`."""
        seat = engine.dealer_seat(self.seats, self.first_dealer, number)
        return Dealer(seat, self.seats[seat].side, self.seats[seat].player)

    def deal(self, number: int) -> DealView:
        """Saved deal `number` (from 1)."""
        result = self.progress.deals[number - 1]
        return DealView(
            number=result.number,
            version=self.game.deals[number - 1].version,
            dealer=self.dealer(number),
            scores=result.scores,
            totals=result.totals,
            minimums=result.minimums,
            warnings=result.warnings,
            entries=self.entries[number - 1],
        )

    def deals(self, first: int, last: int) -> list[DealView]:
        """The saved deals from `first` to `last` (from 1; those past the last deal left out)."""
        return [self.deal(n) for n in range(max(1, first), min(last, len(self.entries)) + 1)]

    # --- the next deal's lines, the next game (each one more query, when first read) ---

    @cached_property
    def lines(self) -> list[side_lines.Line]:
        """Each side's own line of the next deal, in or not yet; none once no deal can be."""
        return [] if self.closed is not None else self.next_lines

    @cached_property
    def next_lines(self) -> list[side_lines.Line]:
        """Each side's line of the deal after the last, in or not yet, even once none can be."""
        return side_lines.lines_from(self.game, self._next_rows)

    @property
    def lines_token(self) -> str:
        """The token of the deal after the last's lines as they stand (live.lines_token)."""
        return live.lines_token(self.progress.next_deal, self._next_rows.values())

    @cached_property
    def _next_rows(self) -> dict[int, DealPart]:
        """The sides' own lines in for the deal after the last, by side position."""
        return deals.lines_in(self.game, self.progress.next_deal)

    @cached_property
    def running(self) -> list[engine.SideScore] | None:
        """What each line in so far scores in the next deal; None while no line is in."""
        if not any(line.is_in for line in self.lines):
            return None
        return side_lines.running(self.game, self.lines)

    @cached_property
    def night_place(self) -> night_place.NightPlace | None:
        """Where the game sits in its club night, and where its players go next; None for a
        game of no night (services/nights/place.py: one query, two once the next is seated;
        none for a casual game)."""
        return None if self.game.club_id is None else night_place.place_of(self.game)

    @cached_property
    def next_game(self) -> NextGame | None:
        """The game the table played next (one per finished game), if any."""
        after = self.game.next_game
        if after is None:
            return None
        # The column may be empty (it is nullable): read as a phone that gave no name.
        started_by = self.game.next_started_by or SOMEONE
        return NextGame(after.id, after.secret, links.path_of(after), started_by)


def game_view(game: Game) -> GameView:
    """The game as its views read it (the replay and further queries wait until first read)."""
    return GameView(
        game=game,
        rules=games.rules_of(game),
        decks=game.decks,
        sides=[
            SideView(side.position, side.name, [player.name for player in side.players])
            for side in game.sides
        ],
        seats=games.seats_of(game),
        first_dealer=game.first_dealer,
        entries=[[score.entry for score in deal.scores] for deal in game.deals],
    )
