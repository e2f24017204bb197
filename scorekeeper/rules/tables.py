"""How many tables of which size a night's room makes of the players present (issue 38).

Individual tables hold 3 to 5 players, as near 4 as the room allows. Partnership tables hold two
teams of two; where the rules seat three teams of two, tables of 6 are filled first and tables
of 4 take the rest (when the rules allow a game of two sides), so that the fewest sit out.
"""

from __future__ import annotations

from dataclasses import dataclass

# Individual tables: at least and at most this many players, as near 4 as the room allows.
FEWEST_AT_A_TABLE = 3
MOST_AT_A_TABLE = 5


class SeatingRefused(ValueError):
    """A room that cannot be seated as asked; the message names the figure and why."""


def table_sizes(n: int) -> tuple[int, ...]:
    """Individual tables for n players: 3 to 5 at each, sizes at most one apart, nearest 4.

    Of the numbers of tables that can hold everyone, the one whose tables are nearest 4 in all
    (summed); on a tie the more tables, so nobody plays at a table of 5 who could play at 4.
    """
    if n < FEWEST_AT_A_TABLE:
        raise SeatingRefused(f"An individual table needs at least 3 players; {n} are present.")
    best: tuple[int, ...] = ()
    best_key: tuple[int, int] | None = None
    for count in range(1, n // FEWEST_AT_A_TABLE + 1):
        small, extra = divmod(n, count)
        sizes = (small + 1,) * extra + (small,) * (count - extra)
        if min(sizes) < FEWEST_AT_A_TABLE or max(sizes) > MOST_AT_A_TABLE:
            continue
        key = (sum(abs(s - 4) for s in sizes), -count)
        if best_key is None or key < best_key:
            best, best_key = sizes, key
    return best


@dataclass(frozen=True)
class TeamTables:
    """A room of teams of two: how many tables of 6 (three teams) and of 4 (two teams)."""

    sixes: int
    fours: int

    @property
    def teams(self) -> int:
        """The teams seated."""
        return 3 * self.sixes + 2 * self.fours

    @property
    def sizes(self) -> tuple[int, ...]:
        """Teams at each table, tables of 6 first."""
        return (3,) * self.sixes + (2,) * self.fours

    @property
    def words(self) -> str:
        """ "2 tables of 6 and 1 table of 4"."""
        parts = [
            f"{count} table{'s' if count != 1 else ''} of {size}"
            for count, size in ((self.sixes, 6), (self.fours, 4))
            if count
        ]
        return " and ".join(parts) or "no table"


def team_tables(teams: int, teams_a_table: int, fours_allowed: bool = True) -> TeamTables:
    """The tables for this many teams: with three teams a table, as many tables of 6 as leave
    the fewest teams without a table once tables of 4 (if allowed) take the rest."""
    if teams_a_table == 2:
        return TeamTables(0, teams // 2)
    best = TeamTables(teams // 3, 0)
    if fours_allowed:
        for sixes in range(teams // 3, -1, -1):
            candidate = TeamTables(sixes, (teams - 3 * sixes) // 2)
            if candidate.teams > best.teams:
                best = candidate
    return best


def room_words(players: int, teams_a_table: int, fours_allowed: bool = True) -> str:
    """What a room of this many players gives, as the night's form says it: "10 players: 1
    table of 6 and 1 table of 4, nobody sits out"."""
    if teams_a_table == 0:
        if players < FEWEST_AT_A_TABLE:
            return f"{players} players: too few for a table of 3."
        sizes = table_sizes(players)
        return f"{players} players: tables of {', '.join(map(str, sizes))}, nobody sits out."
    tables = team_tables(players // 2, teams_a_table, fours_allowed)
    out = players - 2 * tables.teams
    if not tables.teams:
        return f"{players} players: too few for a table."
    rest = "nobody sits out" if not out else f"{out} sit{'s' if out == 1 else ''} out each round"
    return f"{players} players: {tables.words}, {rest}."
