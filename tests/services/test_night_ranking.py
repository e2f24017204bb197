"""How a club night ranks (issue 37): nobody wins a night by leaving early under the default
rule, each rule a club may choose ranks as its words say, and nights kept before rank as they
did.

A night of nine members on two tables of 4 (one sits out each round), three rounds, classic
rules (a clean book 500, a dirty one 300, a game of 4 deals). At the table of the player who
leaves after round 1, her side makes 2 clean books a deal (4,000) against 1 dirty book (1,200);
at every other table the first side makes 1 clean book a deal (2,000) against 1 dirty (1,200).
So the leaver's one game (4,000) is better than anyone's average over the night: at best her
partner's (4,000 + 2,000 + 2,000) / 3. The expected order of each rule is worked out here from
the games' stored totals, apart from the code under test.
"""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from sqlalchemy import select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night, Side
from scorekeeper.services import clubs, deals, standings
from scorekeeper.services.access import Level
from scorekeeper.services.deal_outcomes import Saved
from scorekeeper.services.nights import board as night_board
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights import results as night_results
from scorekeeper.services.nights.board import BoardRound, BoardSide, BoardTable
from scorekeeper.services.nights.play import NightRefused
from scorekeeper.services.nights.ranking import (
    AVERAGE,
    HALF,
    NO_GAME,
    OFFERED,
    OWN_AVERAGE,
    RANKINGS,
    TOTAL,
    ZERO,
    needed,
)
from scorekeeper.services.nights.ranking import standings as ranked
from scorekeeper.services.standings import Filters

TODAY = date(2024, 5, 14)
NINE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
TWO_CLEAN = {"books": {"clean": 2}}
ONE_CLEAN = {"books": {"clean": 1}}
ONE_DIRTY = {"books": {"dirty": 1}}


@pytest.fixture
def ids(club):
    """Tuesday Club with nine members, by name: id."""
    for name in NINE:
        if name not in ("Ann", "Cat"):
            clubs.add_member(club, name)
    return {m.name: m.id for m in club.members}


def open_nine(club, ids, **more) -> Night:
    return night_play.open_night(
        club, [ids[n] for n in NINE], "", "classic", 3, "rotating", "no game", today=TODAY, **more
    )


def play_round(night: Night, star: str | None = None) -> str:
    """Seat the next round and play every table out; the first player seated at its first
    table is the star (in round 1), whose side scores 4,000. The star's name."""
    night_play.seat_round(night)
    db.session.refresh(night)
    names = {p.id: p.name for p in night.players}
    tables = night.rounds[-1].tables
    star = star or names[tables[0].sides[0][0]]
    for table in tables:
        starring = any(names[i] == star for i in table.sides[0])
        figures = [TWO_CLEAN if starring else ONE_CLEAN, ONE_DIRTY]
        for _ in range(4):
            assert isinstance(deals.enter_deal(table.game, Level.TABLE, figures), Saved)
    return star


def night_with_a_leaver(club, ids, **more) -> tuple[Night, str]:
    """Three rounds played; the star of round 1 left after it."""
    night = open_nine(club, ids, **more)
    star = play_round(night)
    gone = next(p for p in night.players if p.name == star)
    night_play.player_leaves(night, gone.id)
    play_round(night, star)
    play_round(night, star)
    return db.session.get(Night, night.id), star


def by_hand(night: Night) -> dict[str, dict[str, int]]:
    """Each player's points, games, rounds sat out and rounds here, from the games' sides."""
    names = {p.id: p.name for p in night.players}
    kept = {n: {"points": 0, "games": 0, "out": 0, "here": 0} for n in names.values()}
    for r in night.rounds:
        for i in r.sitting_out:
            kept[names[i]]["out"] += 1
            kept[names[i]]["here"] += 1
        for table in r.tables:
            totals = db.session.execute(
                select(Side.final_total)
                .where(Side.game_id == table.game_id)
                .order_by(Side.position)
            ).scalars()
            for seated, total in zip(table.sides, totals, strict=True):
                for i in seated:
                    kept[names[i]]["points"] += total
                    kept[names[i]]["games"] += 1
                    kept[names[i]]["here"] += 1
    return kept


def stated(ranking: str, kept: dict[str, dict[str, int]], rounds: int) -> dict[str, Fraction]:
    """Each ranked player's figure as the rule's words say it (the unranked left out)."""
    figures = {}
    for name, k in kept.items():
        if not k["games"]:
            continue
        average = Fraction(k["points"], k["games"])
        if ranking == TOTAL:
            figures[name] = Fraction(k["points"])
        elif ranking == OWN_AVERAGE:
            figures[name] = k["points"] + average * k["out"]  # a round missed scores nothing
        elif ranking == AVERAGE or 2 * k["here"] >= rounds:  # half: here for half, rounded up
            figures[name] = average
    return figures


def ranks_of(figures: dict[str, Fraction]) -> dict[str, int]:
    """Standard competition ranks: equal figures share one, the next skips."""
    return {n: 1 + sum(v > f for v in figures.values()) for n, f in figures.items()}


def test_leaving_after_one_good_game_does_not_win_a_night_by_default(club, ids):
    night, star = night_with_a_leaver(club, ids)
    assert night.ranking == HALF  # the default a new night takes
    kept = by_hand(night)
    assert kept[star]["games"] == 1 and kept[star]["points"] == 4000
    full = [n for n, k in kept.items() if k["games"] == 3]
    assert full and all(kept[n]["points"] < 3 * 4000 for n in full)  # her average is the best
    view = night_board.night_view(night)
    lines = {s.name: s for s in view.standings}
    assert lines[star].rank is None
    assert lines[star].unranked == "here for 1 of 3 rounds; ranked from 2"
    assert view.standings[-1].name == star  # listed after every player ranked
    assert all(lines[n].rank is not None and lines[n].rank >= 1 for n in full)
    assert view.ranking_rule == RANKINGS[HALF] and view.ranked_by.key == "average"


@pytest.mark.parametrize("ranking", [HALF, TOTAL, OWN_AVERAGE])
def test_each_rule_ranks_as_its_words_say(club, ids, ranking):
    night, star = night_with_a_leaver(club, ids, ranking=ranking)
    assert night.ranking == ranking
    kept = by_hand(night)
    assert sum(k["out"] for k in kept.values()) == 1  # round 1's ninth player sat out
    expected = ranks_of(stated(ranking, kept, 3))
    view = night_board.night_view(night)
    assert {s.name: s.rank for s in view.standings if s.rank is not None} == expected
    assert [s.rank for s in view.standings][: len(expected)] == sorted(expected.values())
    figures = stated(ranking, kept, 3)
    assert {s.name: s.exact for s in view.standings if s.rank is not None} == figures
    # Under every rule a club may choose, one good game and gone is not first.
    assert view.standings[0].name != star and view.standings[0].rank == 1
    # The club's records of the night say the same.
    (kept_night,) = night_results.nights_within(club.id, [])
    assert kept_night.standings == view.standings


def test_a_night_kept_before_keeps_its_old_order(club, ids):
    night, star = night_with_a_leaver(club, ids)
    # As the migration keeps every night from before: ranked by average, everyone with a game.
    db.session.execute(update(Night).where(Night.id == night.id).values(ranking=AVERAGE))
    db.session.commit()
    night = db.session.get(Night, night.id)
    kept = by_hand(night)
    averages = {n: Fraction(k["points"], k["games"]) for n, k in kept.items()}
    view = night_board.night_view(night)
    assert [s.name for s in view.standings] == sorted(averages, key=lambda n: (-averages[n], n))
    assert {s.name: s.rank for s in view.standings} == ranks_of(averages)
    assert view.standings[0].name == star and view.standings[0].rank == 1
    assert view.ranking_rule == RANKINGS[AVERAGE]


def test_the_records_rank_each_night_by_its_own_rule(club, ids):
    old, star = night_with_a_leaver(club, ids)
    db.session.execute(update(Night).where(Night.id == old.id).values(ranking=AVERAGE))
    db.session.commit()
    new, new_star = night_with_a_leaver(club, ids)
    found = {n.id: n for n in standings.nights(club, Filters())}
    assert star in found[old.id].winners
    assert new_star not in found[new.id].winners
    assert found[new.id].winners and all(
        by_hand(new)[w]["here"] == 3 for w in found[new.id].winners
    )
    # The history counts everyone who played, ranked or not; the night's place "of" the ranked.
    assert len(found[new.id].played) == 9 and len(found[new.id].ranked) == 8
    wins = {r.player: r.night_wins for r in standings.standings(club, Filters())}
    for name in NINE:
        assert wins[name] == sum(name in found[n].winners for n in found), name
    assert wins[star] >= 1


def test_a_new_night_chooses_its_ranking_in_words(club, ids):
    with pytest.raises(NightRefused) as refused:
        open_nine(club, ids, ranking="best")
    assert list(refused.value.problems) == [
        ("ranking", "Choose how the night ranks: 'best' is none of 'half', 'total', 'own_average'.")
    ]
    # The old rule only keeps the nights kept before: a new night is not offered it.
    with pytest.raises(NightRefused) as refused:
        open_nine(club, ids, ranking=AVERAGE)
    assert [field for field, _ in refused.value.problems] == ["ranking"]
    assert AVERAGE not in OFFERED
    # A round sat out cannot be scored at the player's own average and as 0 points at once.
    with pytest.raises(NightRefused) as refused:
        night_play.open_night(
            club, [ids[n] for n in NINE], "", "classic", 3, "rotating", "zero",
            today=TODAY, ranking=OWN_AVERAGE,
        )  # fmt: skip
    (problem,) = refused.value.problems
    assert problem[0] == "ranking" and "own average" in problem[1]
    assert db.session.execute(select(Night)).first() is None


@pytest.mark.parametrize(("seated", "least"), [(0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_half_the_rounds_rounded_up(seated, least):
    assert needed(seated) == least


# --- the rules over plain rounds, figures by hand ------------------------------------------
# Tables of singles. Lea wins round 1 with 5,800 and goes; Ann plays every round (2,000 + 4,600
# + 3,000 = 9,600, average 3,200); Bob and Cat each sit one out (3,000 + 3,000 and 2,500 +
# 3,500: 6,000 over 2 games, average 3,000); Dan comes for round 3 alone, and makes 100.
PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Lea"]


def _round(number: int, out: tuple[str, ...], *tables: tuple[tuple[str, int, bool], ...]):
    """A round of finished tables of singles, from (player, total, won) per side."""
    return BoardRound(
        number,
        tuple(
            BoardTable(
                n,
                tuple((name,) for name, _, _ in sides),
                "secret",
                tuple(BoardSide(name, total, won) for name, total, won in sides),
                4,
                True,
            )
            for n, sides in enumerate(tables, 1)
        ),
        out,
    )


PLAYED = (
    _round(1, (), (("Lea", 5800, True), ("Ann", 2000, False)),
           (("Bob", 3000, True), ("Cat", 2500, False))),
    _round(2, ("Cat",), (("Ann", 4600, True), ("Bob", 3000, False))),
    _round(3, ("Bob",), (("Cat", 3500, True), ("Ann", 3000, False), ("Dan", 100, False))),
)  # fmt: skip


@pytest.mark.parametrize(
    ("ranking", "order", "figures"),
    [
        # The old rule: Lea's one game wins; Bob and Cat share third.
        (AVERAGE, ["Lea", "Ann", "Bob", "Cat", "Dan"], [5800, 3200, 3000, 3000, 100]),
        # Half of 3 rounds, rounded up, is 2: Lea (1 round) and Dan (1) listed after, unranked.
        (HALF, ["Ann", "Bob", "Cat", "Lea", "Dan"], [3200, 3000, 3000, 5800, 100]),
        (TOTAL, ["Ann", "Bob", "Cat", "Lea", "Dan"], [9600, 6000, 6000, 5800, 100]),
        # A round sat out scores the player's own average: Bob and Cat 6,000 + 3,000.
        (OWN_AVERAGE, ["Ann", "Bob", "Cat", "Lea", "Dan"], [9600, 9000, 9000, 5800, 100]),
    ],
)
def test_each_rule_over_plain_rounds(ranking, order, figures):
    lines = ranked(PLAYERS, NO_GAME, PLAYED, ranking=ranking)
    assert [s.name for s in lines] == order
    assert [s.score for s in lines] == figures
    ranks = [s.rank for s in lines]
    if ranking == HALF:
        assert ranks == [1, 2, 2, None, None]
        assert [s.unranked for s in lines[3:]] == ["here for 1 of 3 rounds; ranked from 2"] * 2
    elif ranking == AVERAGE:
        assert ranks == [1, 2, 3, 3, 5]
    else:
        assert ranks == [1, 2, 2, 4, 5]
    assert {s.name: s.here for s in lines} == {"Ann": 3, "Bob": 3, "Cat": 3, "Dan": 1, "Lea": 1}


def test_a_round_sat_out_as_zero_counts_toward_the_average():
    lines = {s.name: s for s in ranked(PLAYERS, ZERO, PLAYED, ranking=HALF)}
    assert (lines["Bob"].games, lines["Bob"].score, lines["Bob"].rank) == (3, 2000, 2)
    assert (lines["Ann"].games, lines["Ann"].score, lines["Ann"].rank) == (3, 3200, 1)
    # Own average scores a round sat out at the player's own average whatever sit_out says.
    own = {s.name: s for s in ranked(PLAYERS, ZERO, PLAYED, ranking=OWN_AVERAGE)}
    assert (own["Bob"].games, own["Bob"].score) == (2, 9000)


def test_before_any_game_nobody_is_ranked_and_each_says_why():
    seated = (BoardRound(1, (BoardTable(1, (("Ann",), ("Bob",))),), ("Dan",)),)
    for ranking in RANKINGS:
        lines = ranked(["Ann", "Bob", "Dan"], NO_GAME, seated, ranking=ranking)
        assert [(s.rank, s.unranked) for s in lines] == [(None, "no game yet")] * 3


def test_a_round_sat_out_counts_as_here():
    # Dan here from round 2, which he sat out, then round 3: here for 2 of 3, ranked.
    sat = _round(2, ("Cat", "Dan"), (("Ann", 4600, True), ("Bob", 3000, False)))
    lines = {s.name: s for s in ranked(PLAYERS, NO_GAME, (PLAYED[0], sat, PLAYED[2]), ranking=HALF)}
    assert (lines["Dan"].here, lines["Dan"].sat_out, lines["Dan"].games) == (2, 1, 1)
    assert lines["Dan"].rank == 4 and lines["Lea"].rank is None  # after the three ranked
