"""One rounding of a night's averages (issue 38): halves up, to the whole point, from the exact
figure, the same on the night's standings (its page, board, API) and its CSV; Python's `round`
(halves to the even figure) said 2,512 for 10,050 over 4 games, the CSV 2512.5.

The expected figures are worked out here with `decimal`'s ROUND_HALF_UP, apart from the code
under test (`rules/rounding.py`).
"""

from __future__ import annotations

import csv
import io
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from sqlalchemy import select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night, Side
from scorekeeper.rules import rounding, terms
from scorekeeper.services import clubs, deals, records, standings
from scorekeeper.services.access import Level
from scorekeeper.services.nights import board as night_board
from scorekeeper.services.nights import export as night_export
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights.board import BoardRound, BoardSide, BoardTable
from scorekeeper.services.nights.ranking import AVERAGE, HALF, NO_GAME, OWN_AVERAGE, TOTAL
from scorekeeper.services.nights.ranking import standings as ranked


def half_up(exact: Fraction, places: int = 0) -> Decimal:
    """The reference: `exact` to `places` decimals, halves away from zero, by `decimal`."""
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
        Decimal(1).scaleb(-places), ROUND_HALF_UP
    )


# --- the rule itself ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "games", "shown", "even"),
    [
        (10_050, 4, 2_513, 2_512),  # 2,512.5: round() sends it down to the even 2,512
        (10_054, 4, 2_514, 2_514),  # 2,513.5: round() agrees, to the even 2,514
        (-10_050, 4, -2_513, -2_512),  # a half below zero goes away from it, as above it
        (5_025, 2, 2_513, 2_512),
        (7, 3, 2, 2),
    ],
)
def test_a_half_goes_up_where_round_sends_it_to_even(points, games, shown, even):
    exact = Fraction(points, games)
    assert round(exact) == even  # what the pages said before
    assert rounding.whole(exact) == rounding.average(points, games) == shown
    assert rounding.per(points, games) == shown == int(half_up(exact))
    assert terms.figure(exact) == f"{shown:,}".replace("-", terms.MINUS)


def test_every_fraction_rounds_as_decimal_rounds_halves_up():
    for denominator in range(1, 41):
        for numerator in range(-400, 401):
            exact = Fraction(numerator, denominator)
            assert rounding.whole(exact) == int(half_up(exact)), exact
            # A float made by dividing whole figures rounds as its exact figure.
            assert rounding.whole(numerator / denominator) == int(half_up(exact)), exact
            assert rounding.to_places(exact, 1) == half_up(exact, 1), exact
    # A float is rounded at its exact value: the one just short of a half is not a half.
    assert rounding.whole(0.49999999999999994) == rounding.whole(-0.49999999999999994) == 0
    assert (rounding.whole(2.5), rounding.whole(-2.5), rounding.whole(-0.0)) == (3, -3, 0)
    assert rounding.average(10, 0) is None
    assert str(rounding.ratio(100, 8, 1)) == "12.5" and str(rounding.ratio(1, 0, 1)) == "0.0"
    assert str(rounding.to_places(Fraction(-1, 30), 1)) == "0.0"  # never "-0.0"


# --- a night's standings, from plain rounds ------------------------------------------------------


def _round(number: int, out: tuple[str, ...], *tables: tuple[tuple[str, int], ...]) -> BoardRound:
    """A round of finished tables of singles, from (player, total) per side."""
    return BoardRound(
        number,
        tuple(
            BoardTable(
                n,
                tuple((name,) for name, _ in sides),
                "secret",
                tuple(BoardSide(name, total, False) for name, total in sides),
                4,
                True,
            )
            for n, sides in enumerate(tables, 1)
        ),
        out,
    )


# Each sits out one round of three. Ann: 5,025 over 2 games (2,512.5, which round() made
# 2,512); Bob: 5,027 (2,513.5, 2,514 either way); Cat: 5,026 (2,513, whole).
PLAYERS = ("Ann", "Bob", "Cat")
PLAYED = (
    _round(1, ("Cat",), (("Ann", 2_500), ("Bob", 2_510))),
    _round(2, ("Ann",), (("Bob", 2_517), ("Cat", 2_512))),
    _round(3, ("Bob",), (("Ann", 2_525), ("Cat", 2_514))),
)


@pytest.mark.parametrize("ranking", [HALF, AVERAGE, TOTAL, OWN_AVERAGE])
def test_each_rules_figure_is_rounded_halves_up_from_the_exact(ranking):
    lines = {s.name: s for s in ranked(PLAYERS, NO_GAME, PLAYED, ranking=ranking)}
    assert (lines["Ann"].average, lines["Bob"].average) == (2_513, 2_514)
    for s in lines.values():
        assert s.average == int(half_up(Fraction(s.points, s.games)))
        assert s.score == int(half_up(s.exact))
    if ranking == OWN_AVERAGE:
        # Bob: 5,027 and his round sat out at his own 2,513.5: 7,540.5, shown 7,541; Ann's
        # 7,537.5 is 7,538 (round() made it 7,538 too: the even one).
        assert (lines["Bob"].exact, lines["Bob"].score) == (Fraction(15_081, 2), 7_541)
        assert (lines["Ann"].exact, lines["Ann"].score) == (Fraction(15_075, 2), 7_538)


# --- a night kept and played: its standings and its CSV --------------------------------------

FOUR = ["Ann", "Bob", "Cat", "Dan"]
# Each round's two sides' totals, set once the round is played: a player's two games add up
# to 5,025 or 5,027 (partners kept) or 5,017 or 5,035 (partners changed), every average a half.
TOTALS = ((2_500, 2_510), (2_525, 2_517))


def played_night(club, ranking: str = HALF) -> Night:
    """Four members, two rounds at one table of 4, each round's sides given `TOTALS`."""
    for name in ("Bob", "Dan"):
        clubs.add_member(club, name)
    ids = {m.name: m.id for m in club.members}
    members = [ids[n] for n in FOUR]
    night = night_play.open_night(
        club, members, "", "classic", 2, "rotating", NO_GAME, ranking=ranking
    )
    for totals in TOTALS:
        night_play.seat_round(night)
        db.session.refresh(night)
        (table,) = night.rounds[-1].tables
        for _ in range(4):
            deals.enter_deal(table.game, Level.TABLE, [{"books": {"clean": 1}}, {}])
        for position, total in enumerate(totals):
            db.session.execute(
                update(Side)
                .where(Side.game_id == table.game_id, Side.position == position)
                .values(final_total=total)
            )
        db.session.commit()
    return db.session.get(Night, night.id)


def exact_averages(night: Night) -> dict[str, Fraction]:
    """Each player's points over games, from the games' sides as kept."""
    names = {p.id: p.name for p in night.players}
    points = dict.fromkeys(names.values(), 0)
    for r in night.rounds:
        for table in r.tables:
            totals = db.session.execute(
                select(Side.final_total)
                .where(Side.game_id == table.game_id)
                .order_by(Side.position)
            ).scalars()
            for seated, total in zip(table.sides, totals, strict=True):
                for i in seated:
                    points[names[i]] += total
    return {name: Fraction(p, 2) for name, p in points.items()}


def test_a_nights_standings_and_csv_show_one_rounding(club):
    night = played_night(club)
    exact = exact_averages(night)
    # Every average is a half; at least one is where round() and halves up part.
    assert {f.denominator for f in exact.values()} == {2}
    assert any(round(f) != int(half_up(f)) for f in exact.values())
    view = night_board.night_view(night)
    shown = {s.name: (s.average, s.score) for s in view.standings}
    assert shown == {name: (int(half_up(f)),) * 2 for name, f in exact.items()}

    rows = list(csv.reader(io.StringIO(night_export.export_night(night), newline="")))
    header = rows[0]
    written = {
        row[1]: (row[header.index("average")], row[header.index("score")])
        for row in rows[1 : rows.index([])]
    }
    assert written == {name: (str(a), str(s)) for name, (a, s) in shown.items()}


# --- the club's standings: the same rule for their win % and averages ----------------------------


def test_the_club_standings_round_their_rates_and_averages_halves_up():
    # 1 win of 8 games is 12.5 %; 20,098 points over 8 games (and 8 deals) is 2,512.25.
    row = standings.Standing(7, "Ann", 8, 1, 20_098, 8, 0, 0, 0, 0, 0, 0, None)
    assert round(Fraction(100, 8)) == 12 and round(row.average_score, 1) == 2512.2  # as before
    assert row.win_percent == int(half_up(Fraction(100 * 1, 8))) == 13
    assert terms.figure(row.average_score) == "2,512"
    cells = dict(zip(*(r.split(",") for r in records.export_standings([row]).split()), strict=True))
    assert (cells["win_rate"], cells["average_score"], cells["average_per_deal"]) == (
        str(half_up(Fraction(100, 8), 1)),
        str(half_up(Fraction(20_098, 8), 1)),
        "2512.3",
    )
