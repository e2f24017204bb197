"""How the standings rank a club's members: a member's line, the figures it can be sorted by
(the club's own choice, or the one asked), shared ranks, and who is not yet ranked."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.plumbing.models import Club
from scorekeeper.rules import rounding
from scorekeeper.rules.terms import MINUS
from scorekeeper.services.ratings import model
from scorekeeper.services.standings_filters import Filters, rating_scope


@dataclass
class Standing:
    """One member's line in the standings (made a thousand at a time for a big club's page: not
    frozen, since a frozen dataclass sets each of its fields by a call, which took 3 ms there)."""

    member_id: int
    player: str
    games: int
    wins: int
    total_points: int
    deals: int
    clean_books: int
    dirty_books: int
    wild_books: int
    special_books: int
    went_out: int
    red_threes_caught: int
    rank: int | None = None
    # The finished nights within the filters at which the member ranked first (`night_results`).
    night_wins: int = 0
    # The member's rating within the filters as a page shows it (`model.shown`), and the games
    # behind it; None where no rating is kept for these filters (`rating_scope`).
    rating: float | None = None
    rated_games: int = 0
    # The conservative figure unrounded: what the rating sort orders by.
    rating_exact: float | None = None
    # The skill and its uncertainty the figure is made of (openskill's mu and sigma).
    rating_mu: float | None = None
    rating_sigma: float | None = None
    # Whom the member always partnered in the scope (`scopes.partners_key`; "": told apart).
    rating_partners: str | None = None

    @property
    def always_partnered(self) -> bool:
        """Every rated game with the same partner: the ratings cannot tell them apart yet."""
        return self.rating is not None and bool(self.rating_partners)

    @property
    def provisional(self) -> bool:
        """A rating on too few games to stand (`model.PROVISIONAL_GAMES`); no rating, no mark."""
        return self.rating is not None and model.provisional(self.rated_games)

    @property
    def win_rate(self) -> float:
        """Wins over games, 0 to 1."""
        return self.wins / self.games if self.games else 0.0

    @property
    def win_percent(self) -> int:
        """Wins over games as the pages show it: a whole percent, halves up (1 of 8 is 13)."""
        return rounding.per(100 * self.wins, self.games) if self.games else 0

    @property
    def average_score(self) -> float:
        """The average final total of the member's side."""
        return self.total_points / self.games if self.games else 0.0

    @property
    def average_per_deal(self) -> float:
        """Points per deal played."""
        return self.total_points / self.deals if self.deals else 0.0

    @property
    def rating_cell(self) -> str:
        """The Rating column's cell: "12.3 (40)", "2.4 (3)*" (provisional), "8.1 (12)†" (always
        partnered), a true minus; "–" where none is kept."""
        if self.rating is None:
            return "–"
        mark = PROVISIONAL_MARK if self.provisional else ""
        mark += PARTNERED_MARK if self.always_partnered else ""
        return f"{self.rating:.1f} ({self.rated_games}){mark}".replace("-", MINUS)


SORTS = {
    "win_rate": ("Win %", lambda s: s.win_rate),
    "wins": ("Wins", lambda s: s.wins),
    "night_wins": ("Night wins", lambda s: s.night_wins),
    "games": ("Games", lambda s: s.games),
    "average_score": ("Average score", lambda s: round(s.average_score, 6)),
    "average_per_deal": ("Average per deal", lambda s: round(s.average_per_deal, 6)),
    "total_points": ("Total points", lambda s: s.total_points),
    "clean_books": ("Clean books", lambda s: s.clean_books),
    "dirty_books": ("Dirty books", lambda s: s.dirty_books),
    "wild_books": ("Wild books", lambda s: s.wild_books),
    "went_out": ("Went out", lambda s: s.went_out),
    # Fewer red threes caught is better: the negative puts the fewest first.
    "red_threes_caught": ("Red threes caught", lambda s: -s.red_threes_caught),
    "special_books": ("Special books", lambda s: s.special_books),
    # The conservative figure (mu less 3 sigmas), a provisional one after every other; no
    # rating kept, last.
    "rating": (
        "Rating",
        lambda s: (
            (-1, -math.inf)
            if s.rating_exact is None
            else (0 if s.provisional else 1, s.rating_exact)
        ),
    ),
}
DEFAULT_SORT = "win_rate"

# What the Rating column is, and where it is kept, as the standings page states them.
# How a provisional rating is marked in the Rating column: short, for a phone's column and a
# printed sheet's width (the rule below says what it means).
PROVISIONAL_MARK = "*"
RATING_RULE = (
    "Rating (OpenSkill{over}): skill from who won, with and against whom. In brackets, its "
    f"games; {PROVISIONAL_MARK} provisional: under {model.PROVISIONAL_GAMES} games."
)


# How a rating is marked whose every game was with the same partner, and what that means: said
# only on a page where a rating is so marked.
PARTNERED_MARK = "†"
PARTNERED_RULE = f" {PARTNERED_MARK} always with the same partner: not yet told apart."


def rating_rule(over: str | None, partnered: bool = False) -> str:
    """The Rating column's rule, naming the scope its ratings are kept over ("Autumn 2026"),
    with what the partnered mark means where a rating carries it."""
    said = RATING_RULE.format(over=f", {over}" if over else "")
    return said + PARTNERED_RULE if partnered else said


# Said beside the sort when the standings are sorted by rating (and only then: a page's first
# visit is held to 10 KiB).
PROVISIONAL_LAST = f"Provisional ratings ({PROVISIONAL_MARK}) come after the rest."
RATING_KEPT_RULE = (
    "Ratings are kept over all seasons, per season and per rule set, one at a time: with dates "
    "of your own, a season and a rule set together, or the nights' games only, the Rating "
    "column is left blank."
)


# How night wins are counted, as the standings page states it.
NIGHT_WINS_RULE = (
    "Night wins: the club nights, finished and within these dates and rules, at which the "
    "member ranked first in the night's own standings; a first place shared is a win for each "
    "who shares it."
)


def sort_of(club: Club, filters: Filters, sort: str | None = None) -> str:
    """The order the standings take: the one asked if known, else the club's own; by rating
    only where ratings are kept for the filters (else win %)."""
    if sort not in SORTS:
        sort = club.standings_sort if club.standings_sort in SORTS else DEFAULT_SORT
    if sort == "rating" and rating_scope(filters) is None:
        return DEFAULT_SORT
    return sort


def rank(rows: Sequence[Standing], sort: str, min_games: int) -> list[Standing]:
    """Sort by a figure, best first; equal figures share a rank; too few games, no rank."""
    key = SORTS.get(sort, SORTS[DEFAULT_SORT])[1]
    # By name, then (a stable sort, so the names stay in order among equals) best first.
    by_name = sorted(rows, key=lambda r: r.player.casefold())
    ranked = sorted((r for r in by_name if r.games >= min_games), key=key, reverse=True)
    unranked = sorted((r for r in by_name if r.games < min_games), key=key, reverse=True)
    result: list[Standing] = []
    for position, row in enumerate(ranked, start=1):
        shared = result and key(result[-1]) == key(row)
        place = result[-1].rank if shared else position
        result.append(_with_rank(row, place))
    return result + [_with_rank(row, None) for row in unranked]


def _with_rank(row: Standing, place: int | None) -> Standing:
    """A copy of the line with its rank (the caller's line is left as it was)."""
    return Standing(**{**row.__dict__, "rank": place})


# How many members not yet ranked the line above the standings names; past one more than that,
# it names this many and counts the rest ("and 5 more").
UNRANKED_NAMED = 3


@dataclass(frozen=True)
class Unranked:
    """Who is not yet ranked, for the line stated above the standings (its words: the page's)."""

    needed: int  # games a member needs to be ranked: the club's threshold
    ranked: int  # members ranked
    named: tuple[Standing, ...]  # the unranked to name, most games first
    more: int  # the unranked left unnamed


def unranked(club: Club, rows: Sequence[Standing]) -> Unranked:
    """The club's threshold, and who the ranked rows (`rank`) left out, the nearest first."""
    waiting = sorted(
        (r for r in rows if r.rank is None), key=lambda r: (-r.games, r.player.casefold())
    )
    named = waiting if len(waiting) <= UNRANKED_NAMED + 1 else waiting[:UNRANKED_NAMED]
    return Unranked(
        club.min_games_ranked, len(rows) - len(waiting), tuple(named), len(waiting) - len(named)
    )
