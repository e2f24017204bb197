"""The board's and the night link's words (issue 37, services/board_words.py): how a night
ended, said only as it happened; its winners, shared or not; each player's own line."""

from __future__ import annotations

from datetime import date

from scorekeeper.services.board_words import how_it_ended, share_lines, winners_of
from scorekeeper.services.nights.board import Standing


def standing(rank, name, points, games) -> Standing:
    return Standing(rank, name, points, games, 0, 0)


def test_every_round_played_is_said_only_when_true():
    assert how_it_ended(3, 3) == "every round played."
    assert how_it_ended(2, 3) == "ended after 2 of 3 rounds."
    assert how_it_ended(1, 1) == "every round played."
    assert how_it_ended(0, 3) == "ended before any round was played."


def test_the_winner_or_those_sharing_first_place():
    one = [standing(1, "Ann", 900, 3), standing(2, "Bob", 800, 3)]
    assert winners_of(one) == "Winner: Ann"
    three = [standing(1, n, 900, 3) for n in ("Ann", "Bob", "Cat")] + [standing(4, "Dan", 1, 3)]
    assert winners_of(three) == "Winners, sharing first place: Ann, Bob and Cat"
    assert winners_of([standing(None, "Eve", 0, 0)]) == ""


def test_each_players_line_names_the_club_the_day_the_place_among_the_ranked_points_and_games():
    rows = [
        standing(1, "Ann", 7200, 3),
        standing(2, "Olga", 6450, 3),
        standing(2, "Bob", 6450, 3),
        standing(None, "Cat", -35, 1),
    ]
    lines = share_lines("Olga's Tuesday Club", date(2026, 12, 3), rows)
    assert lines["Ann"] == "Olga's Tuesday Club, 3 Dec: place 1 of 3 · 7,200 points · 3 games"
    assert lines["Olga"] == (
        "Olga's Tuesday Club, 3 Dec: place 2 of 3 (shared) · 6,450 points · 3 games"
    )
    assert lines["Cat"] == "Olga's Tuesday Club, 3 Dec: not ranked · −35 points · 1 game"
