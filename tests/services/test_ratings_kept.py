"""Ratings kept beside the games: each stored figure is exactly the model's fold of the games in
the order of play, and stays so through corrections, deletions, late games and merges.

The expected ratings are folded here with `model.rate` alone, over the games as the test
played them, so a stored figure that drifted from the model fails on either database.
"""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import delete, event, select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Player, Rating, RatingStep
from scorekeeper.services import clubs, deals, figures, games, recompute
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup
from scorekeeper.services.names import name_key
from scorekeeper.services.ratings import kept, model
from scorekeeper.services.ratings.model import Skill

from ._support import NOTHING, ONE_CLEAN, entries

DAY = date(2026, 3, 10)
# Issue 40: these games are kept whole with no history, so they count as agreed and are locked
# once finished (services/locking.py); an organiser corrects a locked game only with a reason.
WHY = "The wrong side was credited"


@pytest.fixture
def four(club: Club) -> Club:
    """The club with four members: Ann and Cat, Bob and Dan; and Eve, who sits out."""
    for name in ("Bob", "Dan", "Eve"):
        clubs.add_member(club, name)
    return club


def play(
    club: Club | None,
    sides: list[list[str]],
    winner: int | None = 0,
    *,
    played_on: date = DAY,
    ruleset: str = "casual",
    saved_rules=None,
):
    """A finished game: side `winner` makes a clean book in each of four deals (None: a tie)."""
    setups = [SideSetup(" & ".join(names), names) for names in sides]
    deal = [
        ONE_CLEAN if winner is None or index == winner else NOTHING for index in range(len(sides))
    ]
    game = games.record_game(
        ruleset,
        setups,
        [entries(*deal)] * 4,
        club=club,
        played_on=played_on,
        saved_rules=saved_rules,
    )
    assert game.finished_at is not None
    return game


def folded(played: list[tuple[list[list[str]], int | None]]) -> dict[str, tuple[Skill, int]]:
    """Each name's rating from `model.rate` over the games in this order: the expected figures."""
    state: dict[str, tuple[Skill, int]] = {}
    for sides, winner in played:
        totals = [2000 if winner is None or i == winner else 0 for i in range(len(sides))]
        before = [[state.get(n, (model.NEW, 0))[0] for n in side] for side in sides]
        after = model.rate(before, totals)
        for names, skills in zip(sides, after, strict=True):
            for name, skill in zip(names, skills, strict=True):
                state[name] = (skill, state.get(name, (model.NEW, 0))[1] + 1)
    return state


def stored(club: Club, scope: str = kept.ALL) -> dict[str, tuple[Skill, int]]:
    """The club's kept ratings in a scope by member's name (and guests by theirs), as committed."""
    db.session.rollback()
    names = {m.id: m.name for m in club.members}
    found = {names[i]: (k.skill, k.games) for i, k in kept.ratings_of(club, scope).items()}
    guests = kept.ratings_of(club, scope, guests=True)
    # A guest is rated by their name's key ("zed"); named here as they played ("Zed").
    query = select(Player.name).where(Player.member_id.is_(None))
    as_played = {name_key(name): name for name in db.session.scalars(query)}
    found.update({as_played.get(key, key): (k.skill, k.games) for key, k in guests.items()})
    return found


def member(club: Club, name: str):
    return next(m for m in club.members if m.name == name)


# Partners rotate, a tie, a three-sided game and a guest (Zed).
GAMES: list[tuple[list[list[str]], int | None]] = [
    ([["Ann", "Bob"], ["Cat", "Dan"]], 0),
    ([["Ann", "Cat"], ["Bob", "Dan"]], 1),
    ([["Ann", "Dan"], ["Bob", "Cat"]], None),
    ([["Ann"], ["Cat"], ["Dan"]], 2),
    ([["Bob", "Zed"], ["Cat", "Ann"]], 0),
]


def test_the_kept_ratings_are_exactly_the_model_folded_over_the_games_in_order(four):
    for sides, winner in GAMES:
        play(four, sides, winner)
    assert stored(four) == folded(GAMES)
    chart = kept.steps_of(member(four, "Ann"))
    assert [s.position for s in chart] == [1, 2, 3, 4, 5]
    assert chart[-1].skill == folded(GAMES)["Ann"][0]
    assert [s.skill for s in kept.steps_of(member(four, "Eve"))] == []


def test_a_rating_does_not_change_from_games_the_player_was_not_in(four):
    play(four, [["Eve", "Ann"], ["Cat", "Dan"]])
    before = stored(four)["Eve"]
    for sides, winner in GAMES:
        play(four, sides, winner)
    assert stored(four)["Eve"] == before
    assert len(kept.steps_of(member(four, "Eve"))) == 1


def test_a_casual_game_is_never_rated(four):
    play(None, [["Ann"], ["Cat"]])
    db.session.rollback()
    assert db.session.execute(select(Rating)).first() is None
    assert db.session.execute(select(RatingStep)).first() is None


def test_a_correction_of_an_old_game_gives_the_ratings_of_entering_it_right(four):
    first = play(four, *GAMES[0])
    for sides, winner in GAMES[1:]:
        play(four, sides, winner)
    # Deal 1 of the first game corrected: Cat & Dan made the book, so they end 1,500 to 1,500
    # ... a tie; then every deal, so Cat & Dan win 2,000 to 0.
    for number in range(1, 5):
        deals.correct_deal(first, Level.ORGANISER, number, [NOTHING, ONE_CLEAN], None, None, WHY)
    right = [(GAMES[0][0], 1), *GAMES[1:]]
    assert stored(four) == folded(right)
    assert kept.recompute_club(four) == 0


def test_deleting_a_finished_game_gives_the_ratings_of_never_playing_it(four):
    played = [play(four, sides, winner) for sides, winner in GAMES]
    games.delete_game(played[1])
    assert stored(four) == folded([GAMES[0], *GAMES[2:]])
    games.delete_game(played[-1])  # the newest: only it goes
    assert stored(four) == folded([GAMES[0], *GAMES[2:-1]])
    assert kept.recompute_club(four) == 0


def test_a_game_entered_late_with_an_earlier_day_is_rated_in_its_place(four):
    play(four, *GAMES[0], played_on=date(2026, 3, 10))
    play(four, *GAMES[1], played_on=date(2026, 3, 12))
    play(four, *GAMES[2], played_on=date(2026, 3, 11))
    assert stored(four) == folded([GAMES[0], GAMES[2], GAMES[1]])
    days = [s.played_on.day for s in kept.steps_of(member(four, "Ann"))]
    assert days == [10, 11, 12]
    assert kept.recompute_club(four) == 0


def test_a_correction_of_the_newest_game_refolds_only_it(four):
    for sides, winner in GAMES[:3]:
        last = play(four, sides, winner)
    steps_before = kept.steps_of(member(four, "Bob"))
    for number in range(1, 5):
        deals.correct_deal(last, Level.ORGANISER, number, [ONE_CLEAN, NOTHING], None, None, WHY)
    assert stored(four) == folded([*GAMES[:2], (GAMES[2][0], 0)])
    assert kept.steps_of(member(four, "Bob"))[:2] == steps_before[:2]


def test_a_game_un_finished_by_a_correction_is_no_longer_rated(four):
    first = play(four, *GAMES[0])
    for sides, winner in GAMES[1:3]:
        play(four, sides, winner)
    # As a correction that leaves a game short of its end does: the figures kept from the
    # engine's verdict (not finished) while the game still holds its finished mark, then cleared.
    figures.keep_member_results(first, False)
    first.finished_at = None
    db.session.commit()
    assert stored(four) == folded(GAMES[1:3])
    assert kept.recompute_club(four) == 0


def test_seasons_and_rules_rate_only_their_games(four):
    spring = clubs.add_season(four, "Spring", date(2026, 3, 1), date(2026, 3, 31))
    play(four, *GAMES[0], played_on=date(2026, 2, 20))
    play(four, *GAMES[1], played_on=date(2026, 3, 5), ruleset="family")
    play(four, *GAMES[2], played_on=date(2026, 3, 6))
    play(four, *GAMES[3], played_on=date(2026, 4, 2), ruleset="family")
    assert stored(four, kept.season_scope(spring)) == folded(GAMES[1:3])
    assert stored(four, "rules:family") == folded([GAMES[1], GAMES[3]])
    assert stored(four, "rules:casual") == folded([GAMES[0], GAMES[2]])
    assert stored(four) == folded(GAMES[:4])
    # A season added after its games rates them at once.
    march = clubs.add_season(four, "Early March", date(2026, 3, 1), date(2026, 3, 5))
    assert stored(four, kept.season_scope(march)) == folded(GAMES[1:2])
    assert kept.recompute_club(four) == 0


def test_a_saved_rule_set_rates_its_games_until_it_is_deleted(four):
    thursday = clubs.create_saved_rules(four, "Thursday", "casual")
    play(four, *GAMES[0])
    play(four, *GAMES[1], saved_rules=thursday)
    scope = f"{kept.SAVED}{thursday.id}"
    assert stored(four, scope) == folded(GAMES[1:2])
    clubs.delete_saved_rules(thursday)
    assert stored(four, scope) == {}
    assert stored(four) == folded(GAMES[:2])
    assert kept.recompute_club(four) == 0


def test_a_merged_member_is_rated_as_the_one_they_were_merged_into(four):
    clubs.add_member(four, "Annie")
    play(four, [["Ann", "Bob"], ["Cat", "Dan"]], 0)
    play(four, [["Annie", "Dan"], ["Cat", "Bob"]], 0)
    clubs.merge_members(member(four, "Annie"), member(four, "Ann"))
    expected = folded(
        [([["Ann", "Bob"], ["Cat", "Dan"]], 0), ([["Ann", "Dan"], ["Cat", "Bob"]], 0)]
    )
    assert stored(four) == expected
    assert kept.recompute_club(four) == 0


def test_recompute_finds_nothing_on_a_clean_club_and_puts_a_tampered_rating_right(four):
    for sides, winner in GAMES:
        play(four, sides, winner)
    assert kept.recompute_club(four) == 0
    report = recompute.recompute()
    assert report.ratings == 0 and not report.changed
    ann = member(four, "Ann").id
    db.session.execute(update(Rating).where(Rating.member_id == ann).values(mu=30.0))
    db.session.execute(update(RatingStep).where(RatingStep.member_id == ann).values(sigma=1.0))
    db.session.commit()
    report = recompute.recompute(dry_run=True)
    assert report.ratings > 0 and report.changed
    assert stored(four)["Ann"][0].mu == 30.0  # a dry run changes nothing
    tampered = len(kept.steps_of(member(four, "Ann"))) * 2  # her steps, in "all" and "rules:"
    report = recompute.recompute()
    assert report.ratings == tampered + 2  # and her rating in both scopes
    assert any("ratings" in line.lower() for line in report.lines())
    assert stored(four) == folded(GAMES)
    assert recompute.recompute().ratings == 0


def test_saving_a_deal_that_finishes_nothing_touches_no_rating(four, monkeypatch):
    play(four, *GAMES[0])
    game = games.record_game(
        "club",
        [SideSetup("A", ["Ann"]), SideSetup("C", ["Cat"])],
        [entries(ONE_CLEAN, NOTHING)],
        club=four,
    )
    assert game.finished_at is None
    # It costs nothing: no mark (so no club lock), no statement on the ratings' tables.
    marked: list[int] = []
    monkeypatch.setattr(kept, "_pending", lambda club_id: marked.append(club_id))
    sent: list[str] = []

    def heard(_conn, _cursor, statement, *_args) -> None:
        sent.append(statement.lower())

    event.listen(db.engine, "before_cursor_execute", heard)
    try:
        deals.enter_deal(game, Level.TABLE, [ONE_CLEAN, NOTHING])
    finally:
        event.remove(db.engine, "before_cursor_execute", heard)
    assert sent and marked == []
    assert not [s for s in sent if "rating" in s]
    monkeypatch.undo()
    assert stored(four) == folded([GAMES[0]])


def test_games_played_before_ratings_were_kept_are_rated_when_the_next_game_finishes(four):
    # A club upgraded to ratings (0016 makes the tables empty) before `flask recompute` ran.
    for sides, winner in GAMES[:3]:
        play(four, sides, winner)
    db.session.execute(delete(RatingStep))
    db.session.execute(delete(Rating))
    db.session.commit()
    play(four, *GAMES[3])
    assert stored(four) == folded(GAMES[:4])
    assert [s.position for s in kept.steps_of(member(four, "Ann"))] == [1, 2, 3, 4]
    assert kept.recompute_club(four) == 0


def test_a_merge_folds_every_scope_the_two_members_were_rated_in(four):
    spring = clubs.add_season(four, "Spring", date(2026, 3, 1), date(2026, 3, 31))
    thursday = clubs.create_saved_rules(four, "Thursday", "casual")
    clubs.add_member(four, "Annie")
    first = ([["Ann", "Bob"], ["Cat", "Dan"]], 0)
    second = ([["Annie", "Dan"], ["Cat", "Bob"]], 0)
    third = ([["Annie", "Zed"], ["Cat", "Bob"]], None)
    play(four, *first, saved_rules=thursday)
    play(four, *second, ruleset="family", played_on=date(2026, 4, 1))
    play(four, *third)
    clubs.merge_members(member(four, "Annie"), member(four, "Ann"))
    # Annie's games are Ann's now; the April game comes last in the order of play.
    second_, third_ = (
        ([[("Ann" if n == "Annie" else n) for n in side] for side in sides], winner)
        for sides, winner in (second, third)
    )
    assert stored(four) == folded([first, third_, second_])
    assert stored(four, kept.season_scope(spring)) == folded([first, third_])
    assert stored(four, "rules:family") == folded([second_])
    assert stored(four, f"{kept.SAVED}{thursday.id}") == folded([first])
    assert kept.recompute_club(four) == 0


def test_a_three_sided_tie_with_guests_corrected_gives_the_ratings_of_entering_it_right(four):
    sides = [["Ann", "Zed"], ["Cat", "Yul"], ["Bob", "Dan"]]
    first = play(four, sides, None)
    play(four, *GAMES[0])
    # Ann & Zed and Cat & Yul share first place; Bob & Dan third.
    for number in range(1, 5):
        deals.correct_deal(
            first, Level.ORGANISER, number, [ONE_CLEAN, ONE_CLEAN, NOTHING], None, None, WHY
        )
    expected: dict[str, tuple[Skill, int]] = {}
    before = [[model.NEW] * 2] * 3
    for names, skills in zip(sides, model.rate(before, [2000, 2000, 0]), strict=True):
        expected.update({n: (s, 1) for n, s in zip(names, skills, strict=True)})
    after = model.rate(
        [[expected["Ann"][0], expected["Bob"][0]], [expected["Cat"][0], expected["Dan"][0]]],
        [2000, 0],
    )
    for names, skills in zip(GAMES[0][0], after, strict=True):
        expected.update({n: (s, 2) for n, s in zip(names, skills, strict=True)})
    assert stored(four) == expected
    assert kept.recompute_club(four) == 0


def test_games_of_earlier_days_entered_in_one_commit_are_rated_in_their_places(four):
    play(four, *GAMES[0], played_on=date(2026, 3, 12))
    for day, (sides, winner) in zip((11, 13, 10), GAMES[1:4], strict=True):
        setups = [SideSetup(" & ".join(names), names) for names in sides]
        deal = [ONE_CLEAN if i == winner else NOTHING for i in range(len(sides))]
        games.record_game(
            "casual",
            setups,
            [entries(*deal)] * 4,
            club=four,
            played_on=date(2026, 3, day),
            commit=False,
        )
    db.session.commit()
    assert stored(four) == folded([GAMES[3], GAMES[1], GAMES[0], GAMES[2]])
    assert kept.recompute_club(four) == 0
