"""What a night's board and results say in words (issue 37): the next seating not final until
seated, the round just seated sending everyone to their tables, how the night ended and who
won, and each player's own line to share.

The one home of these sentences: the board (templates/clubs/_night_board.html), the results
page of the night's read-only link and its share buttons read them; static/board.js copies
none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from scorekeeper.rules.terms import figure
from scorekeeper.services.nights.board import NightView, Standing
from scorekeeper.services.nights.place import day_of, listed
from scorekeeper.services.nights.play import why_no_draw

NOT_FINAL = "Not final: the organiser may still draw again."
# A round that may not be drawn again (fixed partners after round 1) may still change with a
# player come late or gone early, until it is seated.
NOT_FINAL_FIXED = "Not final until it is seated: players may still come or go."
# "Page 2 of 3" as the board turns its pages by itself (static/board.js fills in the figures).
PAGE_WORDS = "Page {page} of {pages}"


@dataclass(frozen=True)
class BoardWords:
    """The board's sentences for the night as it stands ("" where one does not apply)."""

    not_final: str  # under the next seating, until it is seated
    go_to_tables: str  # the round just seated, until its first deal
    end: str  # once the night is over: how it ended
    winners: str  # once the night is over: "Winner: Ann", or those sharing first place


def words_of(view: NightView) -> BoardWords:
    """The board's sentences for this night."""
    not_final = ""
    if view.next_round is not None:
        may_draw = not why_no_draw(view.night, view.next_round.number)
        not_final = NOT_FINAL if may_draw else NOT_FINAL_FIXED
    go = ""
    last = view.rounds[-1] if view.rounds else None
    seated_now = last is not None and not any(t.deals or t.finished for t in last.tables)
    if seated_now and not view.done:
        go = f"Round {last.number} is seated: go to your tables."
    end = winners = ""
    if view.done:
        end = "The night is over: " + how_it_ended(len(view.rounds), view.night.rounds_planned)
        winners = winners_of(view.standings)
    return BoardWords(not_final, go, end, winners)


def how_it_ended(played: int, planned: int) -> str:
    """ "every round played" only when true, else "ended after 2 of 3 rounds"."""
    if played >= planned:
        return "every round played."
    if played == 0:
        return "ended before any round was played."
    return f"ended after {played} of {planned} round{'s' if planned != 1 else ''}."


def winners_of(standings: Sequence[Standing]) -> str:
    """ "Winner: Ann"; "Winners, sharing first place: Ann and Bob"; "" if nobody is ranked."""
    first = [s.name for s in standings if s.rank == 1]
    if not first:
        return ""
    if len(first) == 1:
        return f"Winner: {first[0]}"
    return "Winners, sharing first place: " + listed(first)


def share_lines(club: str, played_on: date, standings: Sequence[Standing]) -> dict[str, str]:
    """Each player's own line of the night, to share: "Tuesday Club, 3 Dec: place 2 of 13 ·
    6,450 points · 3 games" (of the players ranked; a shared place says so; a player not
    ranked, "not ranked")."""
    ranked = sum(1 for s in standings if s.rank is not None)
    shared = {s.rank for s in standings if s.rank is not None}
    shared = {r for r in shared if sum(1 for s in standings if s.rank == r) > 1}
    lines = {}
    for s in standings:
        if s.rank is None:
            place = "not ranked"
        else:
            place = f"place {s.rank} of {ranked}" + (" (shared)" if s.rank in shared else "")
        games = f"{s.games} game{'s' if s.games != 1 else ''}"
        lines[s.name] = (
            f"{club}, {day_of(played_on)}: {place} · {figure(s.points)} points · {games}"
        )
    return lines
