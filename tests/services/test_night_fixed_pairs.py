"""Fixed partners through the night services (issue 38): the pairs drawn before round 1 and
kept with it, then every round, round 1 included, one round of one round robin, checked from
what the night KEPT (its rounds and `Night.pairs`), never from the engine's own answers.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

import pytest

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Night, Rating
from scorekeeper.rules.nights import MOST_ROUNDS
from scorekeeper.services import clubs
from scorekeeper.services.nights import board as night_board
from scorekeeper.services.nights import play as night_play
from scorekeeper.services.nights import seating as night_seating
from scorekeeper.services.ratings.scopes import ALL

from ._support import end_round

TODAY = date(2024, 5, 14)


def full_cycle(players: int) -> int:
    """Rounds for every pair to meet every other once: as many as pairs when they are odd (one
    rests each round), one fewer when even; at most a night's most."""
    pairs = players // 2
    return min(pairs if pairs % 2 else pairs - 1, MOST_ROUNDS)


@pytest.fixture
def club(club):
    """Tuesday Club with Bob, Dan, Eve and Fay too: six members, so 24 players need only the
    18 guests a night allows."""
    for name in ("Bob", "Dan", "Eve", "Fay"):
        clubs.add_member(club, name)
    return club


def open_fixed(club, players: int, **more) -> Night:
    """A night of the club's members (as many as fit) and guests, fixed partners, tables of 4."""
    members = [m.id for m in club.members][:players]
    guests = ", ".join(f"Guest {i:02}" for i in range(players - len(members)))
    asked = {"rounds": None, "partners": "fixed", "sit_out": "no game", "today": TODAY}
    asked.update({"shape": "fours", "rules": "classic"}, **more)
    return night_play.open_night(club, members, guests, **asked)


def kept_pairs(night: Night) -> tuple[list[frozenset[int]], list[int]]:
    db.session.refresh(night)
    assert night.pairs is not None, "round 1 seated keeps the night's pairs"
    return [frozenset(t) for t in night.pairs["teams"]], list(night.pairs.get("spare", []))


def pair_of(side: list[int], teams: list[frozenset[int]], spare: list[int]) -> frozenset[int]:
    """The pair a side plays for: a side with the spare plays for its other member's pair."""
    assert len(side) == 2, side
    if set(side) & set(spare):
        (other,) = [p for p in side if p not in spare]
        return next(t for t in teams if other in t)
    assert frozenset(side) in teams, f"{side} is no pair kept: {teams}"
    return frozenset(side)


def seat_all(night: Night) -> None:
    for _ in range(night.rounds_planned):
        night_play.seat_round(night)
        end_round(night)
    db.session.refresh(night)


@pytest.mark.parametrize("players", range(6, 25))
def test_fixed_pairs_play_one_round_robin_from_round_1(club, players):
    rounds = full_cycle(players)
    night = open_fixed(club, players)
    # Rounds left blank: the round robin's full cycle, odd numbers of players too.
    assert night.rounds_planned == rounds
    seat_all(night)
    teams, spare = kept_pairs(night)
    everyone = {p.id for p in night.players}
    assert len(teams) == players // 2 and len(spare) == players % 2
    assert {p for t in teams for p in t} | set(spare) == everyone

    met: Counter[frozenset[frozenset[int]]] = Counter()
    rested: Counter[frozenset[int]] = Counter()
    out: Counter[int] = Counter()
    alone: list[int] = []  # with an odd number: who sat out without their pair, round by round
    assert len(night.rounds) == rounds
    for played in night.rounds:
        seated = [p for t in played.tables for side in t.sides for p in side]
        assert sorted(seated + list(played.sitting_out)) == sorted(everyone), played.number
        playing = []
        for table in played.tables:
            assert len(table.sides) == 2, table.sides
            a, b = (pair_of(side, teams, spare) for side in table.sides)
            assert a != b
            playing += [a, b]
            # (a) no pair meets another again before every pair has met every other once
            assert met[frozenset((a, b))] == 0 or len(met) == len(teams) * (len(teams) - 1) // 2
            met[frozenset((a, b))] += 1
        assert len(playing) == len(set(playing)), "a pair plays twice in one round"
        resting = [t for t in teams if t not in playing]
        # (b) no pair rests a second time before every pair has rested once
        for team in resting:
            assert rested[team] == 0 or len(rested) == len(teams), (played.number, team)
            rested[team] += 1
        assert len(resting) == len(teams) % 2
        out.update(played.sitting_out)
        # (c) nobody sits out twice while anyone has not sat out (counting this round: with
        # an odd number of pairs and a spare, the last pair to rest rests beside someone's
        # second time out, which no seating avoids)
        if out and max(out.values()) >= 2:
            assert set(out) == everyone, (played.number, out)
        individually = [p for p in played.sitting_out if not any(p in t for t in resting)]
        assert len(individually) == players % 2, (played.number, played.sitting_out)
        alone += individually
    assert sum(met.values()) == rounds * (len(teams) // 2)
    if rounds == (len(teams) if len(teams) % 2 else len(teams) - 1):
        assert len(met) == len(teams) * (len(teams) - 1) // 2, "the round robin is complete"
    if len(teams) % 2:
        assert set(rested) == set(teams), "every pair rested once"
    if players % 2:
        # (d) the player without a pair changes every round: never one player all night
        assert all(a != b for a, b in zip(alone, alone[1:], strict=False)), alone
        assert len(set(alone)) > 1, alone


def test_the_pairs_are_drawn_before_round_1_and_kept_as_seated(club):
    night = open_fixed(club, 9)
    preview = night_board.night_view(night).next_round
    shown = night_play.next_round(night)
    drawn = night_seating.pairs_drawn(night)
    night_play.seat_round(night)
    db.session.refresh(night)
    kept = night_seating._engine_round(night.rounds[0], night)
    assert kept == shown
    # The board's preview named the same tables and the same sitting out.
    names = {night_seating.player_key(p): p.name for p in night.players}
    assert [t.sides for t in preview.tables] == [
        tuple(tuple(names[k] for k in side) for side in t.sides) for t in kept.tables
    ]
    assert preview.sitting_out == tuple(
        sorted((names[k] for k in kept.sitting_out), key=str.casefold)
    )
    teams, spare = kept_pairs(night)
    ids = {night_seating.player_key(p): p.id for p in night.players}
    assert teams == [frozenset((ids[a], ids[b])) for a, b in drawn.teams]
    assert spare == [ids[p] for p in drawn.spare]
    # Every side seated in round 1 is a pair kept, or the spare beside a kept pair's member.
    for table in night.rounds[0].tables:
        for side in table.sides:
            pair_of(side, teams, spare)


def test_drawing_round_1_again_draws_other_pairs_and_keeps_those_seated(club):
    night = open_fixed(club, 8)
    before = night_seating.pairs_drawn(night)
    shown = night_play.next_round(night)
    again = night_play.draw_again(night)
    db.session.refresh(night)
    after = night_seating.pairs_drawn(night)
    assert again != shown and again == night_play.next_round(night)
    assert set(after.teams) != set(before.teams)
    night_play.seat_round(night)
    teams, spare = kept_pairs(night)
    ids = {night_seating.player_key(p): p.id for p in night.players}
    assert teams == [frozenset((ids[a], ids[b])) for a, b in after.teams] and spare == []
    seated = {frozenset(side) for t in night.rounds[0].tables for side in t.sides}
    assert seated == set(teams)
    assert night_seating._engine_round(night.rounds[0], night) == again


def rate(club, mus: dict[str, float]) -> None:
    """Kept ratings ("all") for members by name: mu as given, the same sigma for each."""
    by_name = {m.name: m.id for m in club.members}
    for name, mu in mus.items():
        db.session.add(
            Rating(club_id=club.id, scope=ALL, member_id=by_name[name], mu=mu, sigma=2.0, games=9)
        )
    db.session.commit()


@pytest.fixture
def nine(club):
    """Nine members rated 10, 12, ..., 26: Ann the weakest, Ivy the strongest."""
    for name in ("Gus", "Hal", "Ivy"):
        clubs.add_member(club, name)
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
    rate(club, {name: 10.0 + 2 * i for i, name in enumerate(names)})
    return names


def test_pairs_balanced_by_rating_pair_the_strongest_with_the_weakest(club, nine):
    night = open_fixed(club, 9, partners=night_play.FIXED_BALANCED)
    assert night.rounds_planned == full_cycle(9)
    seat_all(night)
    teams, spare = kept_pairs(night)
    name = {p.id: p.name for p in night.players}
    # By mu: Ivy with Ann, Hal with Bob, Gus with Cat, Fay with Dan; Eve, the middle, the spare.
    assert {frozenset(name[i] for i in t) for t in teams} == {
        frozenset(("Ivy", "Ann")),
        frozenset(("Hal", "Bob")),
        frozenset(("Gus", "Cat")),
        frozenset(("Fay", "Dan")),
    }
    assert [name[i] for i in spare] == ["Eve"]
    # Fixed in every other way: later rounds are not drawn again, every round the pairs' own.
    assert night_seating.why_no_draw(night, 2)
    for played in night.rounds:
        for table in played.tables:
            for side in table.sides:
                pair_of(side, teams, spare)
    alone = [p for r in night.rounds for p in r.sitting_out]
    assert len(alone) == len(set(alone)) == 3, "with four pairs only the odd one out sits out"


def test_pairs_by_lot_ignore_the_ratings(club, nine):
    """The same nine by lot: not the pairs by rating for every draw (else the lot is a sham)."""
    by_rating = night_seating.pairs_drawn(open_fixed(club, 9, partners=night_play.FIXED_BALANCED))
    by_lot = [night_seating.pairs_drawn(open_fixed(club, 9)) for _ in range(3)]
    assert any(set(p.teams) != set(by_rating.teams) for p in by_lot)


def test_individual_tables_refuse_fixed_pairs_balanced_by_rating(club):
    with pytest.raises(night_play.NightRefused) as refused:
        open_fixed(club, 6, partners=night_play.FIXED_BALANCED, shape="", rules="club")
    # The club's own rules seat every player for themselves: only the partners are refused.
    assert refused.value.problems == (
        ("partners", "Individual tables have no partners to keep fixed."),
    )


def test_fixed_pairs_balanced_by_rating_are_a_partners_mode(club):
    assert night_play.FIXED_BALANCED in night_play.PARTNERS_MODES
    assert night_seating.is_fixed(night_play.FIXED_BALANCED)
    assert night_seating.is_fixed(night_play.FIXED)
    assert not night_seating.is_fixed(night_play.BALANCED)
    assert not night_seating.is_fixed(night_play.ROTATING)
