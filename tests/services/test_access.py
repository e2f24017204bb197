"""services/access.py: who may enter, correct and delete, by level, for each kind of game."""

from __future__ import annotations

import pytest

from scorekeeper.services import access
from scorekeeper.services.access import Level

from ._support import club_game

ALL = list(Level)


def test_levels_rise_from_none_to_organiser():
    assert [int(level) for level in ALL] == [0, 1, 2, 3]
    assert access.TO_ENTER is Level.TABLE


@pytest.mark.parametrize("finished", [False, True], ids=["unfinished", "finished"])
def test_a_casual_game_is_the_tables_to_correct_and_nobodys_to_delete(finished):
    game = club_game(finished=finished)
    assert access.needed_to_correct(game) is Level.TABLE
    assert [access.may_correct(game, level) for level in ALL] == [False, False, True, True]
    assert [access.may_enter(game, level) for level in ALL] == [False, False, True, True]
    assert [access.may_delete(game, level) for level in ALL] == [False] * 4


def test_an_unfinished_club_game_is_corrected_at_the_table(club):
    game = club_game(club, finished=False)
    assert access.needed_to_correct(game) is Level.TABLE
    assert [access.may_correct(game, level) for level in ALL] == [False, False, True, True]
    assert [access.may_delete(game, level) for level in ALL] == [False, False, False, True]


def test_a_finished_club_game_is_corrected_by_an_organiser_alone(club):
    game = club_game(club, finished=True)
    assert access.needed_to_correct(game) is Level.ORGANISER
    assert [access.may_correct(game, level) for level in ALL] == [False, False, False, True]
    # Entering is the table's whatever the game (whether it is over is the deal's to say).
    assert [access.may_enter(game, level) for level in ALL] == [False, False, True, True]
    assert [access.may_delete(game, level) for level in ALL] == [False, False, False, True]
