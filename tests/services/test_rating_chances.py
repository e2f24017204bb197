"""Chances before deal 1 and partners balanced by rating (issue 30): from the club's kept
ratings, summing to 100, favouring the stronger side; a casual game has none; a balanced night
seats each strong player with a weak one; a club game started balanced."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from sqlalchemy import event

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club
from scorekeeper.services import clubs, deals, games
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup
from scorekeeper.services.nights import board as night_board
from scorekeeper.services.nights import planning, seating
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights.play import NightRefused
from scorekeeper.services.ratings import chances, model, scopes

from ._support import NOTHING, ONE_CLEAN, entries

DAY = date(2026, 3, 10)
STRONG, WEAK = ("Ann", "Bob"), ("Cat", "Dan")


@pytest.fixture
def rated(club: Club) -> Club:
    """Ann and Bob have beaten Cat and Dan, and the guest Zed, six times: Ann and Bob are rated
    strong, Cat and Dan weak; Eve has never played."""
    for name in ("Bob", "Dan", "Eve"):
        clubs.add_member(club, name)
    for _ in range(6):
        sides = [SideSetup("Ann & Bob", [*STRONG]), SideSetup("Cat & Dan", [*WEAK])]
        games.record_game("classic", sides, [entries(ONE_CLEAN, NOTHING)] * 4, club=club)
    return club


def start(club: Club | None, *sides: list[str], **more) -> object:
    setups = [SideSetup(" & ".join(side), side) for side in sides]
    return games.start_game("classic", setups, club=club, played_on=DAY, **more)


def test_percents_sum_to_100():
    assert chances.percents([0.545, 0.455]) == [55, 45]
    assert chances.percents([1 / 3] * 3) == [34, 33, 33]
    assert chances.percents([0.5, 0.5]) == [50, 50]
    assert chances.percents([0.996, 0.004]) == [100, 0]


def test_the_stronger_side_is_favoured_and_the_chances_sum_to_100(rated):
    game = start(rated, ["Ann", "Bob"], ["Cat", "Dan"])
    [(strong, high), (weak, low)] = chances.game_chances(game)
    assert (strong, weak) == ("Ann & Bob", "Cat & Dan")
    assert high + low == 100 and high > 60 > 40 > low


def test_the_ratings_are_read_in_one_query(rated):
    game = start(rated, ["Ann", "Eve"], ["Cat", "Zed"])
    # What the scoreboard has read already: the game, its deals, sides and players.
    assert not game.deals and [p.member_id for s in game.sides for p in s.players]
    said: list[str] = []

    def note(*args) -> None:
        said.append(args[2])

    event.listen(db.engine, "before_cursor_execute", note)
    try:
        shown = chances.game_chances(game)
    finally:
        event.remove(db.engine, "before_cursor_execute", note)
    assert [q for q in said if q.startswith("SELECT")] == [said[-1]], said
    assert "FROM rating" in said[-1]
    # Eve, never rated, is a newcomer; Ann strong: their side is favoured over Cat's.
    assert shown[0][1] > shown[1][1] and sum(pc for _, pc in shown) == 100


def test_a_guest_is_rated_by_name():
    skills = {(None, "Zed"): model.Skill(30.0, 2.0), (None, "Yan"): model.Skill(20.0, 2.0)}
    assert chances.side_percents([[(None, "Zed")], [(None, "Yan")]], skills)[0] > 50


def test_a_casual_game_and_a_dealt_game_show_none(rated):
    assert chances.game_chances(start(None, ["Ann", "Bob"], ["Cat", "Dan"])) == []
    game = start(rated, ["Ann", "Bob"], ["Cat", "Dan"])
    assert chances.game_chances(game)
    saved = deals.enter_deal(game, Level.TABLE, [ONE_CLEAN, NOTHING])
    assert isinstance(saved, deals.Saved), saved
    assert chances.game_chances(game) == []


def test_a_club_game_started_balanced_pairs_strong_with_weak(rated):
    game = start(rated, ["Ann", "Bob"], ["Cat", "Dan"], balance=True)
    sides = [[p.name for p in side.players] for side in game.sides]
    assert all(len(set(side) & set(STRONG)) == 1 for side in sides), sides
    assert [s.name for s in game.sides] == [" & ".join(side) for side in sides]
    assert all(p.member is not None for side in game.sides for p in side.players)
    [(_, one), (_, two)] = chances.game_chances(game)
    assert abs(one - two) <= 10
    # Without the flag the sides stay as asked.
    plain = start(rated, ["Ann", "Bob"], ["Cat", "Dan"])
    assert [p.name for p in plain.sides[0].players] == ["Ann", "Bob"]


def test_six_players_in_three_sides_are_balanced_too(rated):
    game = start(rated, ["Ann", "Bob"], ["Cat", "Dan"], ["Eve", "Zed"], balance=True)
    sides = [{p.name for p in side.players} for side in game.sides]
    assert sorted(len(side & set(STRONG)) for side in sides) == [0, 1, 1]


@pytest.mark.parametrize(
    ("sides", "ruleset", "words"),
    [
        (
            [["Ann", "Bob", "Eve"], ["Cat", "Dan"]],
            "classic",
            "sides of one size; these sides hold 3, 2",
        ),
        ([["Ann"], ["Cat"], ["Bob"]], "club", "no partners to balance"),
    ],
)
def test_a_game_that_cannot_be_balanced_is_refused_in_words(rated, sides, ruleset, words):
    setups = [SideSetup(" & ".join(side), side) for side in sides]
    with pytest.raises(games.GameRefused) as refused:
        games.start_game(ruleset, setups, club=rated, balance=True)
    assert words in str(refused.value)
    assert refused.value.refusals[0].field == "balance"


def test_a_casual_game_is_not_balanced():
    with pytest.raises(games.GameRefused, match="a game without a club has none"):
        start(None, ["Ann", "Bob"], ["Cat", "Dan"], balance=True)


def ids(club: Club) -> dict[str, int]:
    return {m.name: m.id for m in club.members}


def test_a_balanced_night_seats_each_strong_player_with_a_weak_one(rated):
    found = ids(rated)
    night = night_play.open_night(
        rated, [found[n] for n in (*STRONG, *WEAK)], "", "classic", 3, "balanced", "no game"
    )
    assert night.partners == "balanced"
    for number in (1, 2, 3):
        planned = night_play.next_round(night)
        [table] = planned.tables
        assert all(len(set(side) & {str(found[n]) for n in STRONG}) == 1 for side in table.sides)
        assert night_play.schedule_place(night) is None
        night_play.seat_round(night)
        db.session.refresh(night)
        kept = night.rounds[-1].tables[0]
        names = {p.id: p.name for p in night.players}
        assert all(len({names[i] for i in side} & set(STRONG)) == 1 for side in kept.sides)
        for t in night.rounds[-1].tables:
            t.game.finished_at = games.now()
        db.session.commit()
        assert number == len(night.rounds)


def test_a_balanced_night_shows_each_table_its_chances(rated):
    found = ids(rated)
    night = night_play.open_night(
        rated, [found[n] for n in (*STRONG, *WEAK)], "", "classic", 2, "balanced", "no game"
    )
    upcoming = night_board.night_view(night).next_round
    [table] = upcoming.tables
    assert sum(table.chances) == 100 and len(table.chances) == 2
    assert table.odds.count("%") == 2
    night_play.seat_round(night)
    [seated] = night_board.night_view(night).rounds[-1].tables
    assert sum(seated.chances) == 100
    # Rotating partners show none.
    plain = night_play.open_night(
        rated, [found[n] for n in (*STRONG, *WEAK)], "", "classic", 2, "rotating", "no game"
    )
    assert night_board.night_view(plain).next_round.tables[0].chances == ()


def test_individual_tables_have_no_partners_to_balance(rated):
    found = ids(rated)
    with pytest.raises(NightRefused, match="Individual tables have no partners to balance."):
        night_play.open_night(
            rated, [found[n] for n in (*STRONG, *WEAK)], "", "club", 2, "balanced", "no game"
        )


def test_a_rated_guest_is_known_at_a_night_whatever_the_case_typed(club):
    """A guest is rated by their name's key (issue 42): "ZED" at tonight's balanced night, or
    at a game started balanced, is the Zed who beat Cat and Dan, not a newcomer."""
    clubs.add_member(club, "Dan")
    for _ in range(6):
        sides = [SideSetup("Ann & Zed", ["Ann", "Zed"]), SideSetup("Cat & Dan", [*WEAK])]
        games.record_game("classic", sides, [entries(ONE_CLEAN, NOTHING)] * 4, club=club)
    zed = scopes.guest("ZED")
    assert zed == scopes.guest("zed") == seating.who_is(planning.GUEST + "Zed ")
    assert chances.skills_of(club.id, [zed])[zed].mu > model.NEW.mu
    found = ids(club)
    night = night_play.open_night(
        club, [found[n] for n in ("Ann", *WEAK)], "ZED", "classic", 2, "balanced", "no game"
    )
    [table] = night_board.night_view(night).next_round.tables
    who = {name: (found[name], None) if name in found else scopes.guest(name) for name in found}
    who["ZED"] = zed
    sides = [[who[n] for n in side] for side in table.sides]
    kept = chances.skills_of(club.id, [w for side in sides for w in side])
    assert table.chances == tuple(chances.side_percents(sides, kept))
    as_newcomer = {**kept, zed: model.NEW}
    assert table.chances != tuple(chances.side_percents(sides, as_newcomer))


def test_a_club_game_keeps_its_par_as_it_starts(rated):
    """Par (issue 42): each side's chance as the game starts, kept on its side; none for a
    casual game or a table where nobody is rated yet (Eve and three guests)."""
    game = start(rated, ["Ann", "Bob"], ["Cat", "Dan"])
    strong, weak = (side.par for side in game.sides)
    assert strong + weak == 100 and strong > 60
    assert chances.game_par(game) == [("Ann & Bob", strong), ("Cat & Dan", weak)]
    assert chances.game_par(game) == chances.game_chances(game)
    unrated = start(rated, ["Eve", "Yan"], ["Xan", "Wes"])
    assert [side.par for side in unrated.sides] == [None, None]
    assert chances.game_par(unrated) == [] and chances.game_chances(unrated)
    casual = start(None, ["Ann", "Bob"], ["Cat", "Dan"])
    assert [side.par for side in casual.sides] == [None, None]


def test_a_nights_results_give_each_player_their_par(rated):
    """Par over a night (issue 42): each player's wins expected, their side's par summed over
    their finished games; none before a game finishes, and the results show the column then."""
    found = ids(rated)
    night = night_play.open_night(
        rated, [found[n] for n in (*STRONG, *WEAK)], "", "classic", 2, "balanced", "no game"
    )
    night_play.seat_round(night)
    [table] = night.rounds[-1].tables
    pars = {p.name: side.par for side in table.game.sides for p in side.players}
    assert sum(side.par or 0 for side in table.game.sides) == 100 and None not in pars.values()
    saved = deals.enter_deal(table.game, Level.TABLE, [ONE_CLEAN, NOTHING])
    assert isinstance(saved, deals.Saved)
    view = night_board.night_view(night)
    assert not view.par_shown and all(s.par is None for s in view.standings)
    for _ in range(3):
        deals.enter_deal(table.game, Level.TABLE, [ONE_CLEAN, NOTHING])
    view = night_board.night_view(night)
    assert view.par_shown
    for s in view.standings:
        assert s.par == Fraction(pars[s.name], 100), s
        assert s.par_wins == f"{pars[s.name] / 100:.1f}"
