"""A night table's phone (issue 37), in real Chromium: a fresh phone that opens only its
table's game link scores a deal through the form; once its game is over it is told how many
tables still play, then its players' next tables within 2 s of the organiser seating the next
round; it is offered no Play again, and the club's pages stay closed to it."""

from __future__ import annotations

import time

from playwright.sync_api import expect
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Night, NightRound, NightTable
from scorekeeper.services import accounts, clubs, deals
from scorekeeper.services.access import Level
from scorekeeper.services.nights import play as night_play

from .conftest import check_axe, open_phone

SLUG = "tuesday"
TWELVE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou"]
IN_STEP_MS = 2000


def quick_night(app) -> tuple[int, list[tuple[int, str]]]:
    """Twelve members' night of two rounds under the club's rules of one deal a game, round 1
    seated: its id, and each table's game (id, link)."""
    with app.app_context():
        olga = accounts.register("olga", "table-for-four")
        club = clubs.create_club("Tuesday Club", SLUG, olga)
        ids = [clubs.add_member(club, name).id for name in TWELVE]
        quick = clubs.create_saved_rules(club, "One deal", "classic", {"end_after_deals": 1})
        night = night_play.open_night(
            club,
            member_ids=ids,
            guests="",
            rules=quick,
            rounds=2,
            partners="rotating",
            sit_out="no game",
        )
        night_play.seat_round(night)
        tables = [
            (t.game.id, f"/t/{t.game.secret}")
            for t in db.session.get(Night, night.id).rounds[0].tables
        ]
        return night.id, tables


def play_out(app, game_id: int) -> None:
    """Another table's deal, saved from its own phone (the service, as its form would)."""
    with app.app_context():
        deals.enter_deal(db.session.get(Game, game_id), Level.TABLE, [{"books": {"clean": 1}}, {}])
        db.session.remove()


def next_places(app, night_id: int, game_id: int) -> list[str]:
    """Where each player of this round-1 game sits in round 2, as the night's rows say."""
    with app.app_context():
        night = db.session.get(Night, night_id)
        names = {p.id: p.name for p in night.players}
        mine = db.session.execute(
            select(NightTable.sides).where(NightTable.game_id == game_id)
        ).scalar_one()
        seated = db.session.execute(
            select(NightTable.number, NightTable.sides)
            .join(NightRound, NightRound.id == NightTable.round_id)
            .where(NightRound.night_id == night_id, NightRound.number == 2)
        ).all()
    said = []
    for player in (p for side in mine for p in side):
        number, sides = next((n, s) for n, s in seated if any(player in side for side in s))
        side = next(s for s in sides if player in s)
        partner = next(names[p] for p in side if p != player)
        others = " & ".join(names[p] for p in next(s for s in sides if s is not side))
        said.append(f"Round 2: Table {number}, {names[player]} with {partner} against {others}")
    return said


def test_a_fresh_phone_scores_its_tables_game_and_learns_its_next_table(browser, live_server, app):
    night_id, tables = quick_night(app)
    (game_id, link), *others = tables
    phone = open_phone(browser, "small-375x667", live_server)
    try:
        # Only the game's link, as scanned from the table's card: the game opens, named.
        phone.goto(f"{live_server}{link}")
        expect(phone.locator("[data-night-place]")).to_contain_text("Round 1 · Table 1")
        phone.get_by_role("link", name="Enter deal 1").click()
        phone.fill("#s0-books-clean", "1")
        phone.get_by_role("button", name="Save deal 1").click()
        expect(phone.get_by_text("Deal 1 saved.")).to_be_visible()
        expect(phone.get_by_role("heading", name="Game over")).to_be_visible()
        nexts = phone.locator("[data-night-next]")
        expect(nexts).to_contain_text("2 tables still playing")
        expect(phone.get_by_role("button", name="Play again")).to_have_count(0)

        # The other tables finish: this phone hears each, without a tap.
        play_out(app, others[0][0])
        expect(nexts).to_contain_text("1 table still playing", timeout=IN_STEP_MS)
        play_out(app, others[1][0])
        expect(nexts).to_contain_text("round 2 is being seated", timeout=IN_STEP_MS)

        # The organiser seats round 2: within 2 s, this phone shows where each player goes.
        with app.app_context():
            night_play.seat_round(db.session.get(Night, night_id))
            db.session.remove()
        seated = time.monotonic()
        expect(nexts).to_contain_text("Round 2 is seated: go to your tables.", timeout=IN_STEP_MS)
        assert time.monotonic() - seated < IN_STEP_MS / 1000
        for words in next_places(app, night_id, game_id):
            expect(nexts).to_contain_text(words)
        expect(phone.get_by_role("button", name="Play again")).to_have_count(0)
        check_axe(phone)

        # Nothing of the club opens to the game's link: no game outside the night from here.
        answer = phone.goto(f"{live_server}/clubs/{SLUG}/games/new")
        assert answer is not None and answer.status == 404
    finally:
        phone.context.close()
    assert phone.outside == []
