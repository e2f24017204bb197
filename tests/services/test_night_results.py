"""A club's nights in its records (issue 29): every night within the filters ranked by the
night's own standings in a fixed few queries, the finished ones in the history and a member's
page, the standings filtered to the games played at nights, and night wins.

Figures by hand, classic rules: a clean book is 500, a dirty one 300, nothing else is scored
here, and a game ends after 4 deals. At Ann's table her side makes 2 clean books a deal (4,000)
against 1 dirty book (1,200); at every other table the first side makes 1 clean book a deal
(2,000) against 1 dirty book (1,200). So Ann ends with 8,000 over 2 games, and nobody else can
reach more than 4,000 + 2,000 = 6,000: Ann alone ranks first.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from sqlalchemy import event

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night, NightRound
from scorekeeper.rules import DealEntry
from scorekeeper.services import clubs, deals, standings
from scorekeeper.services.access import Level
from scorekeeper.services.deal_outcomes import Saved
from scorekeeper.services.games import SideSetup, record_game
from scorekeeper.services.nights import board as night_board
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights import results as night_results
from scorekeeper.services.nights.board import BoardRound, BoardSide, BoardTable
from scorekeeper.services.nights.board import standings as night_standings
from scorekeeper.services.standings import Filters

TODAY = date(2024, 5, 14)
EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
ANNS_BOOKS = {"books": {"clean": 2}}
ONE_CLEAN = {"books": {"clean": 1}}
ONE_DIRTY = {"books": {"dirty": 1}}


@pytest.fixture
def ids(club):
    """Tuesday Club with eight members, by name: id."""
    for name in EIGHT:
        if name not in ("Ann", "Cat"):
            clubs.add_member(club, name)
    return {m.name: m.id for m in club.members}


def open_eight(club, ids, rounds: int = 2, today: date = TODAY) -> Night:
    return night_play.open_night(
        club, [ids[n] for n in EIGHT], "", "classic", rounds, "rotating", "no game", today=today
    )


def play_round(night: Night) -> dict[str, int]:
    """Seat the next round and play every table out as the module's notes say; each player's
    points at it, by hand."""
    night_play.seat_round(night)
    db.session.refresh(night)
    names = {p.id: p.name for p in night.players}
    points: dict[str, int] = {}
    for table in night.rounds[-1].tables:
        sides = [[names[i] for i in side] for side in table.sides]
        anns = next((n for n, side in enumerate(sides) if "Ann" in side), None)
        winner = 0 if anns is None else anns
        for _ in range(4):
            figures = [ONE_DIRTY, ONE_DIRTY]
            figures[winner] = ANNS_BOOKS if anns is not None else ONE_CLEAN
            assert isinstance(deals.enter_deal(table.game, Level.TABLE, figures), Saved)
        for n, side in enumerate(sides):
            won = 4000 if anns is not None else 2000
            for name in side:
                points[name] = won if n == winner else 1200
    return points


def queries_of(call):
    """What `call` returns, and how many queries it sent to the database."""
    asked: list[str] = []

    def count(_connection, _cursor, statement, *_):
        if statement.lstrip().upper().startswith("SELECT"):
            asked.append(statement)

    engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        answer = call()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return answer, len(asked)


def test_a_finished_night_is_ranked_as_its_board_ranks_it(club, ids):
    night = open_eight(club, ids)
    first = play_round(night)
    second = play_round(night)
    (found,) = standings.nights(club, Filters())
    assert found.id == night.id and found.done and found.rounds == 2
    assert found.played_on == TODAY and found.rules == "Classic partnership"
    assert found.winners == ("Ann",)
    by_hand = {name: first[name] + second[name] for name in EIGHT}
    assert {s.name: s.points for s in found.standings} == by_hand
    assert by_hand["Ann"] == 8000 and max(v for n, v in by_hand.items() if n != "Ann") <= 6000
    assert all(s.games == 2 for s in found.standings)
    # The one ranking of a night: the page's board says the same.
    assert found.standings == night_board.night_view(db.session.get(Night, night.id)).standings


def test_many_nights_cost_two_queries_none_one(club, ids):
    club_id = club.id
    _, none = queries_of(lambda: night_results.nights_within(club_id, []))
    assert none == 1
    for day in (1, 2, 3):
        night = open_eight(club, ids, rounds=1, today=date(2024, 5, day))
        play_round(night)
    found, asked = queries_of(lambda: night_results.nights_within(club_id, []))
    assert asked == 2
    assert [n.played_on.day for n in found] == [3, 2, 1]  # the newest first
    # One round each: Ann and her partner share first place.
    assert all(n.done and "Ann" in n.winners and len(n.winners) == 2 for n in found)


def test_standings_at_nights_count_only_the_nights_games_and_night_wins(club, ids):
    club.min_games_ranked = 2
    night = open_eight(club, ids)
    play_round(night)
    play_round(night)
    # A club game outside the night: Cat beats Ann, 2,000 to 0.
    cat_and_ann = [SideSetup("Cat", ["Cat"]), SideSetup("Ann", ["Ann"])]
    record_game(
        "club", cat_and_ann, [[_entry(ONE_CLEAN, 0), _entry({}, 1)]] * 4, club=club,
        played_on=TODAY,
    )  # fmt: skip
    every = {r.player: r for r in standings.standings(club, Filters())}
    at_nights = {r.player: r for r in standings.standings(club, Filters(at_nights=True))}
    assert (every["Ann"].games, every["Cat"].games) == (3, 3)
    assert (at_nights["Ann"].games, at_nights["Cat"].games) == (2, 2)
    assert at_nights["Ann"].total_points == 8000 and at_nights["Ann"].wins == 2
    assert every["Ann"].total_points == 8000  # 0 in the club game
    assert {n: r.night_wins for n, r in at_nights.items()} == {n: n == "Ann" for n in EIGHT}
    assert every["Ann"].night_wins == 1
    ranked = standings.standings(club, Filters(at_nights=True), "night_wins")
    assert ranked[0].player == "Ann" and ranked[0].rank == 1
    assert {r.rank for r in ranked[1:]} == {2}  # the seven others share second place
    # The games' list and a member's results keep to the nights' games too.
    games = db.session.execute(standings.club_games(club, Filters(at_nights=True))).scalars()
    assert len(list(games)) == 4
    ann = clubs.member(club, ids["Ann"])
    assert len(standings.results_of(ann, Filters(at_nights=True))) == 2
    assert len(standings.results_of(ann, Filters())) == 3


def test_the_filters_dates_and_rules_hold_for_nights(club, ids):
    night = open_eight(club, ids, rounds=1)
    play_round(night)
    assert standings.nights(club, Filters(start=TODAY, end=TODAY, ruleset="classic"))
    assert standings.nights(club, Filters(end=date(2024, 5, 13))) == []
    assert standings.nights(club, Filters(ruleset="club")) == []
    outside = standings.standings(club, Filters(end=date(2024, 5, 13)))
    assert outside == []


def test_an_unfinished_night_is_not_listed_and_counts_no_win(club, ids):
    night = open_eight(club, ids)
    play_round(night)  # round 1 of 2: Ann and her partner lead, 4,000 each
    (kept,) = night_results.nights_within(club.id, [])
    assert not kept.done and "Ann" in kept.winners and len(kept.winners) == 2
    assert standings.nights(club, Filters()) == []
    assert standings.night_history(club, Filters()) == ([], False)
    assert all(r.night_wins == 0 for r in standings.standings(club, Filters()))
    assert standings.nights_of(clubs.member(club, ids["Ann"]), Filters()) == []
    # Ended by its organisers after round 1: finished, first place shared by Ann and her
    # partner, a night win for each.
    night_play.finish_night(db.session.get(Night, night.id))
    (ended,) = standings.nights(club, Filters())
    assert ended.done and ended.rounds == 1 and ended.winners == kept.winners
    wins = {r.player: r.night_wins for r in standings.standings(club, Filters())}
    assert wins == {name: int(name in kept.winners) for name in EIGHT}


def test_a_night_with_no_game_played_is_not_listed(club, ids):
    night = open_eight(club, ids)
    night_play.finish_night(night)
    (kept,) = night_results.nights_within(club.id, [])
    assert kept.done and kept.ranked == ()
    assert standings.nights(club, Filters()) == []


def test_a_members_nights_give_their_place_of_how_many(club, ids):
    night = open_eight(club, ids)
    first = play_round(night)
    second = play_round(night)
    by_hand = {name: first[name] + second[name] for name in EIGHT}
    better = {name: sum(v > by_hand[name] for v in by_hand.values()) for name in EIGHT}
    for name in EIGHT:
        (mine,) = standings.nights_of(clubs.member(club, ids[name]), Filters())
        assert mine.night.id == night.id and mine.of == 8
        assert mine.line.rank == better[name] + 1, name
        assert (mine.line.points, mine.line.games) == (by_hand[name], 2)
    # The player filter of the history keeps to the member's nights.
    assert standings.nights(club, Filters(member_id=ids["Bob"]))
    clubs.add_member(club, "Ivy")
    ivy = clubs.member(club, max(m.id for m in club.members))
    assert standings.nights(club, Filters(member_id=ivy.id)) == []
    assert standings.nights_of(ivy, Filters()) == []


def test_history_pages_the_nights_as_it_pages_the_games(club, ids, monkeypatch):
    monkeypatch.setattr(standings, "PAGE_SIZE", 2)
    for day in (1, 2, 3):
        play_round(open_eight(club, ids, rounds=1, today=date(2024, 5, day)))
    page_one, more = standings.night_history(club, Filters(), 1)
    assert [n.played_on.day for n in page_one] == [3, 2] and more
    page_two, more = standings.night_history(club, Filters(), 2)
    assert [n.played_on.day for n in page_two] == [1] and not more


def _board(*tables: tuple[tuple[tuple[str, ...], int, bool], ...]) -> BoardRound:
    """A round of finished tables from (players, total, won) per side."""
    return BoardRound(
        1,
        tuple(
            BoardTable(
                n,
                tuple(players for players, _, _ in sides),
                "secret",
                tuple(BoardSide(" & ".join(p), total, won) for p, total, won in sides),
                4,
                True,
            )
            for n, sides in enumerate(tables, 1)
        ),
    )


def test_a_first_place_shared_is_a_night_win_for_each():
    played = (
        _board(
            ((("Ann", "Bob"), 2000, True), (("Cat", "Dan"), 1200, False)),
            ((("Eve", "Fay"), 2000, True), (("Gus", "Hal"), 1200, False)),
        ),
    )
    ranked = night_standings(EIGHT, "no game", played, ranking="half")
    assert [s.name for s in ranked if s.rank == 1] == ["Ann", "Bob", "Eve", "Fay"]
    result = night_results.NightResult(
        1, TODAY, "classic", None, 1, True, ranked, tuple((n, i) for i, n in enumerate(EIGHT))
    )
    assert result.winning_members() == {0, 1, 4, 5}
    guests_too = replace(result, members=(("Ann", 0),))  # Bob, Eve and Fay came as guests
    wins = night_results.night_wins([result, guests_too, replace(result, done=False)])
    assert wins == {0: 2, 1: 1, 4: 1, 5: 1}


def _entry(figures, side):
    return DealEntry.from_dict(figures, side)


def test_night_rounds_are_read_for_every_night_asked_in_one_query(club, ids):
    """`night_board.tables_of` with the night's id first: one query for all nights' tables."""
    night = open_eight(club, ids, rounds=1)
    play_round(night)
    rows = db.session.execute(night_board.tables_of(NightRound.night_id)).all()
    assert {row[0] for row in rows} == {night.id} and len(rows) == 4  # 2 tables, 2 sides


def test_a_member_merged_keeps_their_nights(club, ids):
    night = open_eight(club, ids)
    play_round(night)
    play_round(night)
    harold = clubs.add_member(club, "Harold")
    clubs.merge_members(clubs.member(club, ids["Ann"]), harold)
    (mine,) = standings.nights_of(harold, Filters())
    assert mine.line.name == "Ann" and mine.line.rank == 1  # the name she came as
    wins = {r.player: r.night_wins for r in standings.standings(club, Filters())}
    assert wins["Harold"] == 1 and "Ann" not in wins
