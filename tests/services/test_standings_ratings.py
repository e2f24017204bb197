"""services/standings.py and ratings (issue 30): which kept scope the filters mean, each member's
rating on their line, the rating sort and the club's own order, in no query more."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import event

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club
from scorekeeper.services import clubs, games, standings
from scorekeeper.services.games import SideSetup
from scorekeeper.services.ratings import kept, model
from scorekeeper.services.standings import Filters

from ._support import NOTHING, ONE_CLEAN, entries

MARCH = date(2025, 3, 4)
APRIL = date(2025, 4, 1)


def play(club: Club, first: list[str], second: list[str], *, on: date, ruleset: str = "club"):
    """A finished game the first side wins, 2,000 to 0."""
    sides = [SideSetup(" & ".join(first), first), SideSetup(" & ".join(second), second)]
    return games.record_game(
        ruleset, sides, [entries(ONE_CLEAN, NOTHING)] * 4, club=club, played_on=on
    )


@pytest.fixture
def played(club) -> Club:
    """March: Ann beats Cat twice. April (the Spring season): Cat beats Ann, and Bob beats
    Ann, classic."""
    clubs.add_member(club, "Bob")
    play(club, ["Ann"], ["Cat"], on=MARCH)
    play(club, ["Ann"], ["Cat"], on=MARCH)
    play(club, ["Cat"], ["Ann"], on=APRIL)
    play(club, ["Bob"], ["Ann"], on=APRIL, ruleset="casual")
    return club


def queries_of(call):
    """What `call` returns, and how many queries it sent to the database."""
    asked: list[str] = []

    def count(_connection, _cursor, statement, *_):
        if statement.lstrip().upper().startswith("SELECT"):
            asked.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        return call(), len(asked)
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def test_the_filters_map_to_one_kept_scope_or_none(club):
    spring = clubs.add_season(club, "Spring", APRIL, date(2025, 6, 30))
    season = Filters.for_season(spring)
    scope = standings.rating_scope
    assert scope(Filters()) == "all"
    assert scope(season) == f"season:{spring.id}"
    assert scope(Filters(ruleset="classic")) == "rules:classic"
    assert scope(Filters(saved_rules_id=7)) == "saved:7"
    # The player filter leaves every member's line, so it leaves the ratings too.
    assert scope(Filters(member_id=3)) == "all"
    # None kept: a season with a rule set, dates of one's own, the nights' games only.
    assert scope(Filters.for_season(spring, ruleset="classic")) is None
    assert scope(Filters.for_season(spring, saved_rules_id=7)) is None
    assert scope(Filters(start=MARCH)) is None
    assert scope(Filters(end=APRIL)) is None
    assert scope(Filters(at_nights=True)) is None
    assert scope(Filters(ruleset="classic", saved_rules_id=7)) is None


def test_each_line_carries_the_kept_rating_and_its_games(played):
    rows = {r.player: r for r in standings.standings(played, Filters())}
    new = model.NEW
    ann, cat = new, new
    for winner in ("Ann", "Ann", "Cat"):
        won, lost = model.rate([[ann], [cat]] if winner == "Ann" else [[cat], [ann]], [1, 0])
        ann, cat = (won[0], lost[0]) if winner == "Ann" else (lost[0], won[0])
    bob, ann = (side[0] for side in model.rate([[new], [ann]], [1, 0]))
    assert (rows["Ann"].rating, rows["Ann"].rated_games) == (model.shown(ann), 4)
    assert rows["Ann"].rating_exact == ann.ordinal
    assert (rows["Cat"].rating, rows["Cat"].rated_games) == (model.shown(cat), 3)
    assert (rows["Bob"].rating, rows["Bob"].rated_games) == (model.shown(bob), 1)


def test_a_season_and_a_rule_set_rate_within_themselves(played):
    spring = clubs.add_season(played, "Spring", APRIL, date(2025, 6, 30))
    everything = {r.player: r for r in standings.standings(played, Filters())}
    season = {r.player: r for r in standings.standings(played, Filters.for_season(spring))}
    new = model.NEW
    cat, ann = (side[0] for side in model.rate([[new], [new]], [1, 0]))
    bob, ann = (side[0] for side in model.rate([[new], [ann]], [1, 0]))
    assert (season["Ann"].rating, season["Ann"].rated_games) == (model.shown(ann), 2)
    assert season["Ann"].rating != everything["Ann"].rating
    casual = {r.player: r for r in standings.standings(played, Filters(ruleset="casual"))}
    assert set(casual) == {"Ann", "Bob"}
    assert casual["Ann"].rated_games == 1
    assert casual["Ann"].rating == model.shown(model.rate([[new], [new]], [1, 0])[1][0])
    # A season with a rule set keeps none: every line blank, none rated.
    both = standings.standings(played, Filters.for_season(spring, ruleset="club"))
    assert {(r.rating, r.rated_games) for r in both} == {(None, 0)}


def test_sorting_by_rating_orders_by_the_conservative_figure(played):
    kept_now = kept.ratings_of(played)
    rows = standings.standings(played, Filters(), "rating")
    # Ann (4 games) and Cat (3) ranked by the figure; Bob, short of the club's 3 games, after.
    figures = [kept_now[r.member_id].skill.ordinal for r in rows if r.rank is not None]
    assert figures == sorted(figures, reverse=True) and len(figures) == 2
    assert [r.rank for r in rows] == [1, 2, None]
    everyone = standings.rank(rows, "rating", 0)
    figures = [kept_now[r.member_id].skill.ordinal for r in everyone]
    assert figures == sorted(figures, reverse=True)
    assert [r.rank for r in everyone] == [1, 2, 3]
    # Where no rating is kept, a rating sort ranks by win % (said by `sort_of`).
    dated = Filters(start=MARCH)
    assert standings.sort_of(played, dated, "rating") == "win_rate"
    assert standings.standings(played, dated, "rating") == standings.standings(
        played, dated, "win_rate"
    )


def test_the_clubs_own_order_without_a_sort(played):
    assert standings.sort_of(played, Filters()) == "win_rate"
    assert standings.sort_of(played, Filters(), "no-such-sort") == "win_rate"
    clubs.update_settings(
        played, name=played.name, public=False, min_games=0, standings_sort="rating"
    )
    assert played.standings_sort == "rating"
    assert standings.sort_of(played, Filters()) == "rating"
    assert standings.sort_of(played, Filters(), "wins") == "wins"
    assert standings.standings(played, Filters()) == standings.standings(
        played, Filters(), "rating"
    )
    # Left as it is when not given; refused, naming the field, when unknown.
    clubs.update_settings(played, name=played.name, public=False, min_games=0)
    assert played.standings_sort == "rating"
    with pytest.raises(clubs.SortRefused, match="^Standings sorted by: 'luck' is not one"):
        clubs.update_settings(
            played, name=played.name, public=False, min_games=0, standings_sort="luck"
        )


def test_the_ratings_cost_no_query_more(played):
    dated = Filters(start=MARCH)  # no rating kept: the standings as they were
    _, without = queries_of(lambda: standings.standings(played, dated))
    rows, rated = queries_of(lambda: standings.standings(played, Filters()))
    # Joined in the standings' own query.
    assert rated == without and {r.rated_games for r in rows} == {4, 3, 1}
