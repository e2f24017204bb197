"""A club night's tables as the phone tests see them (issue 37): tonight's night opened for
Olga's twelve members (tests/night_club.py), its rounds seated by the organiser, each table's
game played to its end, and what a finished game's scoreboard says comes next. Shared by
tests/test_night_place.py and tests/test_night_club_pages.py.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from sqlalchemy import select
from test_clubs import SLUG
from test_night_pages import holder  # noqa: F401 (named here for its importers too)

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Night, NightPlayer, NightRound, NightTable
from scorekeeper.services import clubs, deals
from scorekeeper.services.access import Level
from scorekeeper.services.nights import play as night_play


@dataclass(frozen=True)
class Seat:
    """A table of a round as the night seated it: its number, its game and its sides' names."""

    number: int
    game_id: int
    secret: str
    sides: list[list[str]]

    @property
    def link(self) -> str:
        return f"/t/{self.secret}"


def open_tonight(app, rounds: int = 2, guests: str = "", deals_a_game: int | None = None) -> int:
    """Tonight's night for the twelve members (and guests), seated in fours; its id. With
    `deals_a_game`, its games end after that many deals (a saved rule set of the club's)."""
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        rules = "classic"
        if deals_a_game is not None:
            house = {"end_after_deals": deals_a_game}
            rules = clubs.create_saved_rules(club, "Quick", "classic", house)
        night = night_play.open_night(
            club,
            member_ids=[m.id for m in club.members],
            guests=guests,
            rules=rules,
            rounds=rounds,
            partners="rotating",
            sit_out="no game",
        )
        return night.id


def night_url(night_id: int) -> str:
    return f"/clubs/{SLUG}/nights/{night_id}"


def seat(olga, night_id: int) -> None:
    """The organiser seats the next round from the night's page."""
    assert olga.post(f"{night_url(night_id)}/seat").status_code == 302


def tables(app, night_id: int, number: int) -> list[Seat]:
    """Round `number`'s tables, read from the night's rows."""
    with app.app_context():
        names = {
            p.id: p.name
            for p in db.session.execute(
                select(NightPlayer).where(NightPlayer.night_id == night_id)
            ).scalars()
        }
        rows = db.session.execute(
            select(NightTable.number, Game.id, Game.secret, NightTable.sides)
            .join(NightRound, NightRound.id == NightTable.round_id)
            .join(Game, Game.id == NightTable.game_id)
            .where(NightRound.night_id == night_id, NightRound.number == number)
            .order_by(NightTable.number)
        ).all()
        return [
            Seat(n, g, s, [[names[i] for i in side] for side in sides]) for n, g, s, sides in rows
        ]


def sitting_out(app, night_id: int, number: int) -> list[str]:
    with app.app_context():
        night = db.session.get(Night, night_id)
        out = night.rounds[number - 1].sitting_out
        return [p.name for p in night.players if p.id in out]


def finish(app, table: Seat, deals_a_game: int = 4) -> None:
    """The table plays its game to the end, as its phones would."""
    with app.app_context():
        game = db.session.get(Game, table.game_id)
        for _ in range(deals_a_game):
            deals.enter_deal(game, Level.TABLE, [{"books": {"clean": 1}}, {}])
        db.session.remove()


def board_secret(app, night_id: int) -> str | None:
    with app.app_context():
        return db.session.get(Night, night_id).board_secret


def day(app, night_id: int) -> str:
    with app.app_context():
        played_on = db.session.get(Night, night_id).played_on
    return f"{played_on.day} {played_on:%b}"


def live(client, table: Seat, etag: str | None = None):
    headers = {"If-None-Match": etag} if etag else {}
    return client.get(f"{table.link}/live", headers=headers)


def next_section(page: str) -> str:
    """The words of the scoreboard's "Next" section of a night's game."""
    found = re.search(r'<div class="night-next" data-night-next>(.*?)</div>', page, re.S)
    assert found, "no night's next section"
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip())


def expected_place(number: int, seats: list[Seat], out: list[str], name: str) -> str:
    """Where `name` goes in round `number`, worded as a phone is told it."""
    for table in seats:
        for side in table.sides:
            if name in side:
                partners = [p for p in side if p != name]
                others = [" & ".join(s) for s in table.sides if s is not side]
                return (
                    f"Round {number}: Table {table.number}, {name} with {' and '.join(partners)}"
                    f" against {' and '.join(others)}"
                )
    assert name in out
    return f"{name} sits out round {number}"
