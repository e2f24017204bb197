"""services/standings.py: which finished games count, members ranked, games listed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest

from scorekeeper.plumbing.models import Club, Game
from scorekeeper.services import clubs, games, standings
from scorekeeper.services.games import SideSetup
from scorekeeper.services.standings import Filters, Result

from ._support import NOTHING, ONE_CLEAN, club_game, entries

MARCH = date(2025, 3, 4)
APRIL = date(2025, 4, 1)
MAY = date(2025, 5, 6)
THURSDAY = {"red_three_caught": 300}


def one_on_one(first: str, second: str) -> list[SideSetup]:
    return [SideSetup(first, [first]), SideSetup(second, [second])]


@dataclass
class Night:
    """A club's records: who played what, when (each first side wins 2,000 to 0)."""

    club: Club
    thursday: int  # the saved rule set's id
    first: Game  # March: Ann beats Cat
    second: Game  # March: Cat beats Bob
    third: Game  # April, Thursday rules: Ann beats Bob
    fourth: Game  # May, classic: Ann and Bob beat Cat and Dan (a guest)
    unfinished: Game  # May: Ann and Cat, one deal in


@pytest.fixture
def night(club) -> Night:
    clubs.add_member(club, "Bob")
    saved = clubs.create_saved_rules(club, "Thursday", "club", THURSDAY)
    made = [
        club_game(club, finished=True, played_on=MARCH),
        club_game(club, finished=True, sides=one_on_one("Cat", "Bob"), played_on=MARCH),
        club_game(
            club,
            finished=True,
            sides=one_on_one("Ann", "Bob"),
            played_on=APRIL,
            saved_rules=saved,
            house_rules=THURSDAY,
        ),
        games.record_game(
            "classic",
            [SideSetup("Us", ["Ann", "Bob"]), SideSetup("Them", ["Cat", "Dan"])],
            [entries(ONE_CLEAN, NOTHING)] * 4,
            club=club,
            played_on=MAY,
        ),
        club_game(club, finished=False, played_on=MAY),
    ]
    return Night(club, saved.id, *made)


def lines(rows: list[standings.Standing]) -> list[tuple]:
    """Each line as (rank, player, games, wins, points, deals, clean books)."""
    return [
        (r.rank, r.player, r.games, r.wins, r.total_points, r.deals, r.clean_books) for r in rows
    ]


def test_every_finished_game_counts_members_alone_and_ties_share_a_rank(night):
    rows = standings.standings(night.club, Filters())
    assert lines(rows) == [
        (1, "Ann", 3, 3, 6000, 12, 12),
        # A third each: the same rank, by name.
        (2, "Bob", 3, 1, 2000, 12, 4),
        (2, "Cat", 3, 1, 2000, 12, 4),
    ]
    assert [round(r.win_rate, 4) for r in rows] == [1.0, 0.3333, 0.3333]
    assert (rows[0].average_score, rows[0].average_per_deal) == (2000.0, 500.0)


def test_too_few_games_leave_a_member_unranked_below_the_ranked(night):
    clubs.update_settings(night.club, name="Tuesday Club", public=False, min_games=2)
    rows = standings.standings(night.club, Filters(end=date(2025, 3, 31)))
    assert lines(rows) == [
        (1, "Cat", 2, 1, 2000, 8, 4),
        (None, "Ann", 1, 1, 2000, 4, 4),
        (None, "Bob", 1, 0, 0, 4, 0),
    ]


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        pytest.param(
            Filters(ruleset="club"),
            [(1, "Ann", 2, 2), (2, "Cat", 2, 1), (3, "Bob", 2, 0)],
            id="club-preset",
        ),
        pytest.param(
            Filters(ruleset="classic"),
            [(1, "Ann", 1, 1), (1, "Bob", 1, 1), (3, "Cat", 1, 0)],
            id="classic-preset",
        ),
        pytest.param(
            Filters(start=APRIL, end=APRIL), [(1, "Ann", 1, 1), (2, "Bob", 1, 0)], id="april"
        ),
    ],
)
def test_filters_choose_the_games_counted(night, filters, expected):
    clubs.update_settings(night.club, name="Tuesday Club", public=False, min_games=1)
    rows = standings.standings(night.club, filters)
    assert [(r.rank, r.player, r.games, r.wins) for r in rows] == expected


def test_a_saved_rule_set_filters_its_own_games(night):
    clubs.update_settings(night.club, name="Tuesday Club", public=False, min_games=1)
    rows = standings.standings(night.club, Filters(saved_rules_id=night.thursday))
    assert [(r.rank, r.player, r.games, r.wins) for r in rows] == [
        (1, "Ann", 1, 1),
        (2, "Bob", 1, 0),
    ]


def test_rank_by_another_figure_and_an_unknown_sort_by_win_rate(night):
    by_games = standings.standings(night.club, Filters(), sort="games")
    assert [(r.rank, r.player) for r in by_games] == [(1, "Ann"), (1, "Bob"), (1, "Cat")]
    unknown = standings.standings(night.club, Filters(), sort="nonsense")
    assert [(r.rank, r.player) for r in unknown] == [(1, "Ann"), (2, "Bob"), (2, "Cat")]


def test_history_lists_finished_games_newest_first_a_page_at_a_time(night, monkeypatch):
    monkeypatch.setattr(standings, "PAGE_SIZE", 2)
    page, more = standings.history(night.club, Filters())
    assert ([g.id for g in page], more) == ([night.fourth.id, night.third.id], True)
    page, more = standings.history(night.club, Filters(), page=2)
    # One night's games: the later first.
    assert ([g.id for g in page], more) == ([night.second.id, night.first.id], False)
    assert standings.history(night.club, Filters(), page=3) == ([], False)


def test_history_of_one_member(night):
    bob = next(m for m in night.club.members if m.name == "Bob")
    page, more = standings.history(night.club, Filters(member_id=bob.id))
    assert ([g.id for g in page], more) == (
        [night.fourth.id, night.third.id, night.second.id],
        False,
    )


def test_in_progress_lists_the_unfinished(night):
    assert standings.in_progress(night.club) == [night.unfinished]


def test_a_members_results_oldest_first(night):
    ann = night.club.members[0]
    assert standings.results_of(ann, Filters()) == [
        Result(night.first.id, night.first.secret, MARCH, "club", "Ann", 2000, True),
        Result(night.third.id, night.third.secret, APRIL, "club", "Ann", 2000, True, "Thursday"),
        Result(night.fourth.id, night.fourth.secret, MAY, "classic", "Us", 2000, True),
    ]
    # Named as the club calls each game's rules: its saved rule set, else the preset.
    rules = [r.rules for r in standings.results_of(ann, Filters())]
    assert rules == ["Club individual", "Thursday", "Classic partnership"]
    assert [r.game_id for r in standings.results_of(ann, Filters(), limit=2)] == [
        night.third.id,
        night.fourth.id,
    ]


def test_rule_set_choices_and_what_a_choice_means(night):
    choices = standings.ruleset_choices(night.club)
    assert choices[-1] == (f"saved:{night.thursday}", "Thursday (Club individual)")
    assert choices[:2] == [("classic", "Classic partnership"), ("club", "Club individual")]
    assert len(standings.ruleset_choices()) == 6
    assert standings.chosen_rules(night.club, f"saved:{night.thursday}") == (None, night.thursday)
    assert standings.chosen_rules(night.club, "classic") == ("classic", None)
    assert standings.chosen_rules(night.club, "saved:999") == (None, None)
    assert standings.chosen_rules(night.club, None) == (None, None)


def test_a_seasons_filters_are_its_dates(club):
    spring = clubs.add_season(club, "Spring", APRIL, date(2025, 6, 30))
    assert Filters.for_season(spring, ruleset="club") == Filters(
        start=APRIL, end=date(2025, 6, 30), ruleset="club", season_id=spring.id
    )
    assert Filters.for_season(None, member_id=3) == Filters(member_id=3)


# --- who is not yet ranked: the line above the standings --------------------------------------


def line(player: str, games: int, wins: int = 0) -> standings.Standing:
    """A member's line with only games and wins that count for this (the rest 0)."""
    return standings.Standing(len(player), player, games, wins, 0, 0, 0, 0, 0, 0, 0, 0)


def test_unranked_are_named_nearest_first_and_the_threshold_is_the_clubs(night):
    clubs.update_settings(night.club, name="Tuesday Club", public=False, min_games=4)
    rows = standings.standings(night.club, Filters())
    # Nobody has 4 games: each of the three is named, the most games first, then by name.
    stated = standings.unranked(night.club, rows)
    assert (stated.needed, stated.ranked, stated.more) == (4, 0, 0)
    assert [(r.player, r.games) for r in stated.named] == [("Ann", 3), ("Bob", 3), ("Cat", 3)]

    clubs.update_settings(night.club, name="Tuesday Club", public=False, min_games=2)
    rows = standings.standings(night.club, Filters(end=date(2025, 3, 31)))
    stated = standings.unranked(night.club, rows)
    assert (stated.needed, stated.ranked, stated.more) == (2, 1, 0)
    assert [(r.player, r.games) for r in stated.named] == [("Ann", 1), ("Bob", 1)]


def test_many_unranked_name_a_few_and_count_the_rest(night):
    # Seven below 3 games, listed by win rate (Gil and Hal first); named by games, then name.
    rows = standings.rank(
        [line("Ann", 5, 1), line("Bob", 2)]
        + [line("Cat", 1), line("Dan", 2), line("Eve", 1), line("Fay", 1)]
        + [line("Gil", 1, 1), line("Hal", 2, 2)],
        "win_rate",
        night.club.min_games_ranked,
    )
    stated = standings.unranked(night.club, rows)
    assert (stated.needed, stated.ranked) == (3, 1)
    assert [r.player for r in stated.named] == ["Bob", "Dan", "Hal"]
    assert stated.more == standings.UNRANKED_NAMED + 1 == 4
    # One more than the few named is named too, rather than "and 1 more".
    stated = standings.unranked(night.club, rows[:5])
    assert [r.player for r in stated.named] == ["Bob", "Hal", "Cat", "Gil"]
    assert stated.more == 0


def test_everyone_ranked_names_nobody(night):
    rows = standings.standings(night.club, Filters())
    assert standings.unranked(night.club, rows) == standings.Unranked(3, 3, (), 0)
    clubs.update_settings(night.club, name="Tuesday Club", public=False, min_games=0)
    rows = standings.standings(night.club, Filters(start=MAY))
    assert standings.unranked(night.club, rows) == standings.Unranked(0, 3, (), 0)
