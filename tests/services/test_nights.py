"""Seat tonight's tables (issue 29): the season's games folded into the seating engine's
history, and a night planned from the members ticked and the guests typed, or refused in words.

Members are the engine's players by id (as strings); the plan names them.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, timedelta

import pytest

from scorekeeper.rules import Shape
from scorekeeper.services import clubs, games
from scorekeeper.services.games import SideSetup
from scorekeeper.services.nights import planning

TODAY = date(2024, 5, 14)
NINE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


@pytest.fixture
def nine(club):
    """Tuesday Club with nine members (Ann and Cat, then seven more), by name: id."""
    for name in NINE[1:]:
        if name != "Cat":
            clubs.add_member(club, name)
    return {m.name: m.id for m in club.members}


def game(club, *sides: list[str], on: date = TODAY, ruleset: str = "classic"):
    """A club game of these sides (each a list of players), no deal yet: it counts all the same."""
    setup = [SideSetup(" & ".join(players), players) for players in sides]
    return games.start_game(ruleset, setup, club=club, played_on=on)


def key(ids, *names):
    return frozenset(str(ids[n]) for n in names)


def plan(club, ids, names, shape="fours", rounds=3, guests="", draw=0, today=TODAY):
    return planning.plan_for_tonight(
        club,
        [ids[n] for n in names],
        guests,
        shape,
        rounds,
        planning.seed_for(club, today, draw),
        today,
    )


def partners(night):
    """Every partnership of the night: (round, the two names sorted)."""
    return [
        (r.number, tuple(sorted(pair)))
        for r in night.rounds
        for table in r.tables
        for side in table.sides
        for pair in [side]
        if len(side) == 2
    ]


# ------------------------------------------------------------------ the season's history


def test_the_season_folds_partners_and_opponents_members_by_id_guests_left_out(club, nine):
    clubs.add_season(club, "Spring", date(2024, 4, 1), date(2024, 6, 30))
    game(club, ["Ann", "Bob"], ["Cat", "Dan"])
    # A guest (Zed) partners Eve: neither a partnership nor an opponent of anyone.
    game(club, ["Ann", "Cat"], ["Eve", "Zed"], on=date(2024, 4, 2))
    # Individuals: every two of them opposed; before the season, nothing counts.
    game(club, ["Fay"], ["Gus"], ["Hal"], on=date(2024, 5, 1), ruleset="club")
    game(club, ["Ann", "Bob"], ["Ivy", "Hal"], on=date(2024, 3, 31))
    span = planning.history_span(club, TODAY)
    assert (span.start, span.end, span.season) == (date(2024, 4, 1), TODAY, True)
    assert span.words == "this season (Spring, 1 Apr 2024 to 30 Jun 2024)"

    history = planning.season_history(club, span)

    assert history.partnered == {
        key(nine, "Ann", "Bob"): 1,
        key(nine, "Cat", "Dan"): 1,
        key(nine, "Ann", "Cat"): 1,
    }
    assert history.opposed == {
        key(nine, "Ann", "Cat"): 1,
        key(nine, "Ann", "Dan"): 1,
        key(nine, "Bob", "Cat"): 1,
        key(nine, "Bob", "Dan"): 1,
        key(nine, "Ann", "Eve"): 1,
        key(nine, "Cat", "Eve"): 1,
        key(nine, "Fay", "Gus"): 1,
        key(nine, "Fay", "Hal"): 1,
        key(nine, "Gus", "Hal"): 1,
    }


def test_with_no_season_holding_today_the_last_90_days_count(club, nine):
    clubs.add_season(club, "Winter", date(2024, 1, 1), date(2024, 3, 31))
    game(club, ["Ann", "Bob"], ["Cat", "Dan"], on=TODAY - timedelta(days=90))
    game(club, ["Ann", "Cat"], ["Bob", "Dan"], on=TODAY - timedelta(days=91))

    span = planning.history_span(club, TODAY)

    assert (span.start, span.season) == (TODAY - timedelta(days=90), False)
    assert span.words == "the last 90 days (since 14 Feb 2024)"
    assert planning.season_history(club, span).partnered == {
        key(nine, "Ann", "Bob"): 1,
        key(nine, "Cat", "Dan"): 1,
    }


# ------------------------------------------------------------------ the plan


def test_nine_at_tables_of_four_one_sits_out_a_round_never_twice_no_partner_repeated(club, nine):
    game(club, ["Ann", "Bob"], ["Cat", "Dan"])
    game(club, ["Eve", "Fay"], ["Gus", "Hal"])

    night = plan(club, nine, NINE)

    assert isinstance(night, planning.NightPlan), night
    assert (night.shape, night.players, night.games_counted) == (Shape.FOURS, 9, 2)
    out = Counter()
    for r in night.rounds:
        seated = [p for table in r.tables for p in table.seats]
        assert len(r.tables) == 2 and len(seated) == 8 and len(r.sitting_out) == 1
        assert sorted(seated + list(r.sitting_out)) == NINE
        for table in r.tables:
            assert len(table.sides) == 2 and all(len(side) == 2 for side in table.sides)
            # Partners sit apart, and the first in the chairs deals first.
            assert table.seats == (*[s[0] for s in table.sides], *[s[1] for s in table.sides])
            assert table.first_dealer == table.seats[0]
        out.update(r.sitting_out)
    assert sorted(out.values()) == [1, 1, 1]
    pairs = [pair for _, pair in partners(night)]
    assert len(pairs) == len(set(pairs)) == 12
    assert not {("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")} & set(pairs)
    assert night.repeats == ()


def test_a_repeat_that_cannot_be_avoided_is_named(club, nine):
    """Four players, two rounds, having partnered everyone but Ann with Dan: round 2 repeats."""
    game(club, ["Ann", "Bob"], ["Cat", "Dan"])
    game(club, ["Ann", "Cat"], ["Bob", "Dan"])

    night = plan(club, nine, ["Ann", "Bob", "Cat", "Dan"], rounds=2)

    assert {pair for n, pair in partners(night) if n == 1} == {("Ann", "Dan"), ("Bob", "Cat")}
    assert len(night.repeats) == 2 and {r.round for r in night.repeats} == {2}
    assert all(r.before == 1 for r in night.repeats)


def test_the_same_day_the_same_plan_and_drawing_again_changes_it(club, nine):
    first = plan(club, nine, NINE)
    assert plan(club, nine, NINE) == first
    others = [plan(club, nine, NINE, draw=n) for n in range(1, 4)]
    assert any(other.rounds != first.rounds for other in others)
    assert plan(club, nine, NINE, today=TODAY + timedelta(days=7)).rounds != first.rounds


def test_a_whist_schedule_goes_on_where_last_week_left_off(club, nine):
    """Eight players: 7 rounds in which every two partner once. Last week's four rounds, played
    as games, leave three; this week's three rounds repeat nobody."""
    eight = NINE[:8]
    last_week = plan(club, nine, eight, rounds=4, today=TODAY - timedelta(days=7))
    assert last_week.whist and last_week.whist_length == 7 and last_week.repeats == ()
    for r in last_week.rounds:
        for table in r.tables:
            game(club, *[list(side) for side in table.sides], on=TODAY - timedelta(days=7))

    tonight = plan(club, nine, eight, rounds=3)

    assert tonight.whist and tonight.repeats == ()
    assert tonight.games_counted == 8
    every = [pair for _, pair in partners(last_week) + partners(tonight)]
    assert len(set(every)) == len(every) == 28  # each of the 28 pairs once


def test_guests_play_by_name_and_individual_tables_seat_everyone(club, nine):
    night = plan(club, nine, ["Ann", "Bob"], shape="singles", rounds=2, guests="Zoë\nYan, Xu")

    assert isinstance(night, planning.NightPlan), night
    for r in night.rounds:
        assert [len(t.sides) for t in r.tables] == [5] and r.sitting_out == ()
        assert sorted(p for t in r.tables for p in t.seats) == ["Ann", "Bob", "Xu", "Yan", "Zoë"]
        assert all(len(side) == 1 for side in r.tables[0].sides)


@pytest.mark.parametrize(
    ("names", "shape", "rounds", "guests", "problem"),
    [
        (NINE, "fours", 0, "", ("rounds", "A night has 1 to 12 rounds; 0 cannot be.")),
        (NINE, "fours", 13, "", ("rounds", "A night has 1 to 12 rounds; 13 cannot be.")),
        (
            NINE[:3],
            "fours",
            3,
            "",
            ("members", "A partnership table needs 4 players; 3 are present."),
        ),
        (NINE[:5], "sixes", 3, "", ("members", "A table of 6 needs 6 players; 5 are present.")),
        (
            NINE[:2],
            "singles",
            3,
            "",
            ("members", "An individual table needs at least 3 players; 2 are present."),
        ),
        (
            NINE,
            "fours",
            3,
            "Zed\u200b",
            (
                "guests",
                "Guest 1's name cannot hold invisible or text-direction characters "
                "(zero-width spaces, joiners, right-to-left marks).",
            ),
        ),
        (NINE, "fours", 3, "Zed, ann", ("guests", "ann is a member: tick Ann instead.")),
        (NINE, "fours", 3, "Zed\nZED", ("guests", "ZED is in the list of guests twice.")),
        (
            NINE,
            "fours",
            3,
            ",".join(f"Guest {n}" for n in range(21)),
            ("guests", "At most 20 guests a night; this list has 21."),
        ),
        (
            NINE,
            "pairs",
            3,
            "",
            ("shape", "Choose how the tables are made: 'pairs' is none of the choices."),
        ),
    ],
)
def test_refused_in_words_naming_the_figure(club, nine, names, shape, rounds, guests, problem):
    refused = plan(club, nine, names, shape=shape, rounds=rounds, guests=guests)
    assert isinstance(refused, planning.PlanRefused)
    assert refused.problems == (problem,)


def test_more_than_forty_players_are_refused(club, nine):
    guests = ",".join(f"Guest {n}" for n in range(20))
    for n in range(20):
        clubs.add_member(club, f"Member {n}")
    ids = {m.name: m.id for m in club.members}
    refused = plan(club, ids, list(ids)[:21], guests=guests)
    assert refused.problems == (("members", "At most 40 players a night; 41 are present."),)


def test_a_member_of_another_club_or_archived_is_not_seated(club, nine, olga):
    other = clubs.create_club("Thursday Club", "thursday", olga)
    stranger = clubs.add_member(other, "Zed")
    clubs.set_archived(clubs.member(club, nine["Ivy"]), True)
    refused = planning.plan_for_tonight(
        club, [nine["Ann"], stranger.id, nine["Ivy"]], "", "fours", 3, 1, TODAY
    )
    assert refused.problems == (
        ("members", f"Member {stranger.id} is not one of Tuesday Club's members."),
        ("members", f"Member {nine['Ivy']} is not one of Tuesday Club's members."),
    )


# ------------------------------------------------------------------ the shape of the tables


def test_the_shape_comes_from_the_club_s_default_rules(club, nine):
    everyone = planning.shape_choices(club)
    assert ([k for k, _ in everyone.offered], everyone.default) == (
        ["fours", "sixes", "singles"],
        "fours",
    )

    solo = clubs.create_saved_rules(club, "Tuesday rules", "club")
    clubs.make_default(club, solo)
    chosen = planning.shape_choices(club)
    assert ([k for k, _ in chosen.offered], chosen.default) == (["fours", "singles"], "singles")
    assert (
        chosen.because
        == "Tuesday rules, the club's default rules, seat every player for themselves."
    )
    refused = plan(club, nine, NINE[:6], shape="sixes")
    assert refused.problems == (
        (
            "shape",
            "Tables of 6 seat three teams of two; Tuesday rules, the club's default rules, "
            "seat every player for themselves.",
        ),
    )

    two_teams = clubs.create_saved_rules(club, "Cutthroat nights", "cutthroat")
    clubs.make_default(club, two_teams)
    assert [k for k, _ in planning.shape_choices(club).offered] == ["fours", "singles"]
    assert "allow at most 2 sides" in plan(club, nine, NINE[:6], shape="sixes").problems[0][1]

    clubs.make_default(club, clubs.create_saved_rules(club, "Classic nights", "classic"))
    assert [k for k, _ in planning.shape_choices(club).offered] == ["fours", "sixes", "singles"]
    six = plan(club, nine, NINE, shape="sixes", rounds=2)
    # Nine at tables of 6: two tables of 4 seat eight, where a table of 6 would leave 3 out.
    assert [sorted(len(t.sides) for t in r.tables) for r in six.rounds] == [[2, 2], [2, 2]]
    assert [len(r.sitting_out) for r in six.rounds] == [1, 1]
    six = plan(club, nine, NINE[:8], shape="sixes", rounds=1)
    assert [sorted(len(t.sides) for t in r.tables) for r in six.rounds] == [[2, 2]]
