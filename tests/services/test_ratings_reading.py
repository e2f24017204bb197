"""What a member's page reads of the ratings kept (services/ratings/reading.py), and the games
as the fold reads them (services/ratings/played.py).

The expected figures are the model folded over the games as played here (`folded`, with
`model.rate` alone), so reading gives what the fold stored, figure for figure.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, RatingMark
from scorekeeper.services import clubs
from scorekeeper.services.ratings import kept, model, reading
from scorekeeper.services.ratings.played import played_games

from .test_ratings_kept import GAMES, folded, member, play

DAY = date(2026, 3, 10)


@pytest.fixture
def four(club: Club) -> Club:
    """The club with four members: Ann and Cat, Bob and Dan; and Eve, who sits out."""
    for name in ("Bob", "Dan", "Eve"):
        clubs.add_member(club, name)
    return club


def test_a_members_rating_is_what_the_fold_kept(four):
    for sides, winner in GAMES:
        play(four, sides, winner)
    expected = folded(GAMES)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        found = reading.rating_of(member(four, name))
        assert found is not None
        assert (found.skill, found.games) == expected[name]
    assert reading.rating_of(member(four, "Eve")) is None  # never played: not yet rated


def test_a_members_course_is_each_game_they_played_oldest_first(four):
    made = []
    for day, (sides, winner) in enumerate(GAMES):
        made.append(play(four, sides, winner, played_on=DAY + timedelta(days=day)))
    ann = member(four, "Ann")
    course = reading.course_of(ann, kept.ALL)
    # Ann played every game: a point after each, numbered, linked and dated as played.
    assert [p.number for p in course.points] == [1, 2, 3, 4, 5]
    assert [(p.game_id, p.secret) for p in course.points] == [(g.id, g.secret) for g in made]
    assert [p.played_on for p in course.points] == [g.played_on for g in made]
    # Each point is the figure shown after that game; the last is the rating now.
    after = [folded(GAMES[: n + 1])["Ann"][0] for n in range(len(GAMES))]
    assert [p.rating for p in course.points] == [model.shown(s) for s in after]
    assert course.shown == model.shown(after[-1]) == course.points[-1].rating
    changes = [
        round(b - a, 1)
        for a, b in zip(
            [model.shown(model.NEW)] + [p.rating for p in course.points],
            [p.rating for p in course.points],
            strict=False,
        )
    ]
    assert [p.change for p in course.points] == changes
    assert course.earlier == 0


def test_a_long_course_draws_only_the_latest_games(four):
    for sides, winner in GAMES:
        play(four, sides, winner)
    course = reading.course_of(member(four, "Ann"), kept.ALL, most=2)
    assert [p.number for p in course.points] == [4, 5]
    assert course.earlier == 3 and course.now is not None and course.now.games == 5
    # The first drawn point's change is from the figure shown after the game before it.
    before = model.shown(folded(GAMES[:3])["Ann"][0])
    assert course.points[0].change == round(course.points[0].rating - before, 1)


def test_a_member_not_yet_rated_has_an_empty_course(four):
    course = reading.course_of(member(four, "Eve"), kept.ALL)
    assert (course.now, course.points, course.shown, course.earlier) == (None, [], None, 0)


def test_updating_words_only_while_a_change_waits_to_be_folded(four):
    play(four, *GAMES[0])
    assert reading.updating_words(four.id) is None
    # A save's mark, written in its transaction and not yet folded (the fold runs after commit).
    db.session.add(RatingMark(club_id=four.id, whole=True))
    db.session.flush()
    assert reading.updating_words(four.id) == reading.UPDATING


def test_the_fold_reads_the_club_games_in_order_with_their_sides_and_players(four):
    later = play(four, [["Ann"], ["Cat"]], 1, played_on=DAY + timedelta(days=1))
    # The guest Zed, rated by his name's key (`names.name_key`), as names are told apart.
    first = play(four, [["Bob", "Zed"], ["Cat", "Dan"]], 0, played_on=DAY)
    play(None, [["Ann"], ["Cat"]])  # a casual game: not the club's
    found = played_games([Game.club_id == four.id])
    assert [g.id for g in found] == [first.id, later.id]  # the order of play, not of entry
    ids = {m.name: m.id for m in four.members}
    assert [[s.players for s in g.sides] for g in found] == [
        [[(ids["Bob"], None), (None, "zed")], [(ids["Cat"], None), (ids["Dan"], None)]],
        [[(ids["Ann"], None)], [(ids["Cat"], None)]],
    ]
    assert [[s.final_total for s in g.sides] for g in found] == [
        [s.final_total for s in first.sides],
        [s.final_total for s in later.sides],
    ]
    assert found[0].sides[0].final_total > found[0].sides[1].final_total
    assert [g.id for g in played_games([Game.club_id == four.id], skip=1)] == [later.id]
