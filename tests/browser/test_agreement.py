"""The other side agrees (issue 40): a table of four phones, Ann's and Bob's on Ann & Bob's side,
Cat's and Dan's on Cat & Dan's. A deal Ann & Bob entered is agreed with one tap on Cat's phone,
and the mark shows on Ann's; a deal queried shows on both sides' phones, and at a club night on
the organiser's night page and the night's board, within 2 s of the tap."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Night
from scorekeeper.rules import DealEntry
from scorekeeper.services import accounts, clubs, deals, games
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup
from scorekeeper.services.links import path_of
from scorekeeper.services.nights import play as night_play

from .conftest import check_axe, open_phone

IN_STEP_MS = 2000
PHONE = "small-375x667"
WON = DealEntry(books={"clean": 2, "dirty": 2, "wild": 1}, went_out=True, melded_points=320)
CAUGHT = DealEntry(books={"clean": 1}, melded_points=240, leftover_points=85)


def entered_by_ann(game: Game, times: int) -> None:
    """Deals entered whole on Ann's phone, on Ann & Bob's side: their agreement comes with it."""
    for _ in range(times):
        scores = [WON.to_dict(), CAUGHT.to_dict()]
        saved = deals.enter_deal(game, Level.TABLE, scores, sent_by="Ann", side=0)
        assert isinstance(saved, deals.Saved), saved


def a_casual_game(app) -> str:
    with app.app_context():
        sides = [SideSetup("Ann & Bob", ["Ann", "Bob"]), SideSetup("Cat & Dan", ["Cat", "Dan"])]
        game = games.start_game("classic", sides)
        entered_by_ann(game, 2)
        return path_of(game)


def four_phones(browser, live_server: str, link: str) -> dict:
    """Four phones on the game's scoreboard, each named as the table knows it."""
    phones = {}
    for name in ("Ann", "Bob", "Cat", "Dan"):
        page = open_phone(browser, PHONE, live_server)
        page.context.add_init_script(f"localStorage.setItem('hf-name', '{name}');")
        page.goto(live_server + link)
        phones[name] = page
    return phones


@pytest.fixture
def table(browser, live_server, app):
    """A casual game's four phones on its scoreboard, by name; put away after the test."""
    phones = four_phones(browser, live_server, a_casual_game(app))
    yield phones
    for page in phones.values():
        page.context.close()


def deal_row(page, number: int):
    return page.locator(f"#deal-{number} summary")


def test_the_other_side_agrees_with_one_tap_and_a_query_shows_on_every_phone(table):
    ann, cat, dan = table["Ann"], table["Cat"], table["Dan"]
    # Cat's phone is on no side yet: it sees each side's state and answers for its own.
    asked = cat.locator("#agree")
    expect(asked).to_contain_text("Deal 1: Ann & Bob agreed · Cat & Dan to agree")
    expect(asked.get_by_role("button", name="Agree for Ann & Bob")).to_have_count(0)
    expect(deal_row(ann, 1)).not_to_contain_text("✓ agreed")
    check_axe(cat)

    cat.locator("#agree form", has_text="Deal 1:").get_by_role(
        "button", name="Agree for Cat & Dan"
    ).tap()
    tapped = time.monotonic()
    expect(cat.get_by_text("Cat & Dan agreed deal 1.")).to_be_visible()
    expect(deal_row(cat, 1)).to_contain_text("✓ agreed")
    expect(deal_row(ann, 1)).to_contain_text("✓ agreed", timeout=IN_STEP_MS)
    seen = time.monotonic() - tapped
    # Deal 2 is not agreed yet; Cat's phone is on Cat & Dan's side from now on.
    expect(deal_row(ann, 2)).not_to_contain_text("✓ agreed")
    expect(cat.locator("#agree-h")).to_have_text("Deals for Cat & Dan to agree")

    # Dan's phone queries deal 2 with its words; every phone of the table sees it.
    query = dan.locator("#query-2")
    query.get_by_text("Query deal 2").tap()
    query.get_by_label("What looks wrong (optional)").fill("We had 2 red threes")
    query.get_by_role("button", name="Send the query for Cat & Dan").tap()
    tapped = time.monotonic()
    words = "Deal 2 queried by Cat & Dan (Dan): We had 2 red threes"
    expect(dan.get_by_text(words)).to_be_visible()
    for page in (ann, cat, table["Bob"]):
        expect(page.get_by_text(words)).to_be_visible(timeout=IN_STEP_MS)
    queried = time.monotonic() - tapped
    check_axe(ann)
    # The opponents' phones are asked nothing of it: their side's agreement came with it.
    expect(ann.locator("#agree")).not_to_contain_text("Agree for Ann & Bob")
    print(f"\nthe agreement seen on Ann's phone in {seen:.2f} s, the query in {queried:.2f} s")


def test_words_being_written_for_a_query_stay_while_the_other_side_agrees(table, app):
    ann, cat, dan = table["Ann"], table["Cat"], table["Dan"]
    query = dan.locator("#query-2")
    query.get_by_text("Query deal 2").tap()
    words = query.get_by_label("What looks wrong (optional)")
    words.fill("We had 2 red threes")
    asked = dan.locator("[data-live]").get_attribute("data-live")
    before = dan.locator("[data-live]").get_attribute("data-answers")

    def news(response) -> bool:
        return (
            asked in response.url
            and response.status == 200
            and (response.json().get("answers") != before)
        )

    # Cat agrees deal 1 while Dan writes: Dan's phone hears of it and then asks again.
    with dan.expect_response(news, timeout=IN_STEP_MS * 3):
        cat.locator("#agree form", has_text="Deal 1:").get_by_role(
            "button", name="Agree for Cat & Dan"
        ).tap()
    dan.wait_for_event("request", lambda request: asked in request.url)
    # The page is not replaced under Dan's fingers: the keyboard stays, and the words.
    expect(words).to_be_focused()
    expect(words).to_have_value("We had 2 red threes")
    # Dan looks up from the box, the words still there: a poll later they are kept still.
    dan.locator("#agree-h").tap()
    dan.wait_for_event("response", lambda response: asked in response.url)
    dan.wait_for_event("request", lambda request: asked in request.url)
    expect(query).to_have_attribute("open", "")
    expect(words).to_have_value("We had 2 red threes")
    expect(deal_row(dan, 1)).not_to_contain_text("✓ agreed")
    # Ann saves deal 3 meanwhile: Dan's phone tells the news, his words still kept.
    with app.app_context():
        entered_by_ann(db.session.execute(select(Game)).scalar_one(), 1)
    expect(dan.locator("[data-live-status]")).to_contain_text("deal 3", timeout=IN_STEP_MS)
    expect(words).to_have_value("We had 2 red threes")
    # Dan empties the box and looks up: the page catches up, the query left open.
    words.fill("")
    dan.locator("#agree-h").tap()
    expect(deal_row(dan, 1)).to_contain_text("✓ agreed", timeout=IN_STEP_MS * 2)
    expect(query).to_have_attribute("open", "")
    words.fill("We had 2 red threes")
    query.get_by_role("button", name="Send the query for Cat & Dan").tap()
    said = "Deal 2 queried by Cat & Dan (Dan): We had 2 red threes"
    expect(dan.get_by_text(said)).to_be_visible()
    expect(ann.get_by_text(said)).to_be_visible(timeout=IN_STEP_MS)


def a_night(app) -> tuple[str, str, str]:
    """A club night of four, round 1 seated at one table whose Ann & Bob entered two deals:
    the night's page, the table's game and the club's table code."""
    with app.app_context():
        olga = accounts.register("olga", "table-for-four")
        club = clubs.create_club("Tuesday Club", "tuesday", olga)
        ids = [clubs.add_member(club, name).id for name in ("Ann", "Bob", "Cat", "Dan")]
        night = night_play.open_night(club, ids, "", "classic", 2, "rotating", "no game")
        night_play.seat_round(night)
        game = db.session.get(Night, night.id).rounds[0].tables[0].game
        entered_by_ann(game, 1)
        return f"/clubs/tuesday/nights/{night.id}", path_of(game), club.table_code


def test_a_query_at_a_club_night_asks_for_the_organiser(browser, live_server, app):
    night, link, code = a_night(app)
    table = open_phone(browser, PHONE, live_server)
    organiser = open_phone(browser, PHONE, live_server)
    wall = open_phone(browser, PHONE, live_server)
    try:
        for page in (organiser, wall):
            page.goto(f"{live_server}/clubs/tuesday/table/{code}")
            page.get_by_role("button", name="Keep the table link on this phone").first.click()
        organiser.goto(live_server + night)
        wall.goto(f"{live_server}{night}/board")
        table.goto(live_server + link)
        name = table.locator("#agree form").first.get_by_role("button").inner_text()
        name = name.removeprefix("Agree for ")
        side = table.locator("#agree details", has_text="Query deal 1")
        side.get_by_text("Query deal 1").tap()
        side.get_by_role("button", name=f"Send the query for {name}").tap()
        asks = f"Table 1 asks for the organiser: deal 1 queried by {name}"
        for page in (organiser, wall):
            expect(page.get_by_text(asks)).to_be_visible(timeout=IN_STEP_MS)
        expect(table.get_by_text(f"Deal 1 queried by {name}")).to_be_visible()
        expect(table.get_by_text("The organiser is asked to look at it.").first).to_be_visible()
    finally:
        for page in (table, organiser, wall):
            page.context.close()


def test_a_query_reaches_phones_long_past_their_first_quick_seconds(browser, live_server, app):
    """A phone past its first quick seconds asks every 5 s, unless a deal still waits for a
    side's answer (the live answer's `asking`): then every second, so a query sent long after
    the deal still reaches every phone within 2 s."""
    link = a_casual_game(app)
    phones = {}
    for name in ("Ann", "Cat", "Dan"):
        page = open_phone(browser, PHONE, live_server)
        # "Just loaded" over after 1 ms: only the deals waiting for an answer keep the pace.
        page.context.add_init_script(
            f"localStorage.setItem('hf-name', '{name}'); window.hf = {{ quickFor: 1 }};"
        )
        with page.expect_response(lambda answer: "/live" in answer.url):
            page.goto(live_server + link)
        phones[name] = page
    ann, cat, dan = phones["Ann"], phones["Cat"], phones["Dan"]
    try:
        query = dan.locator("#query-2")
        query.get_by_text("Query deal 2").tap()
        query.get_by_role("button", name="Send the query for Cat & Dan").tap()
        tapped = time.monotonic()
        words = "Deal 2 queried by Cat & Dan (Dan)"
        expect(dan.get_by_text(words)).to_be_visible()
        for page in (ann, cat):
            expect(page.get_by_text(words)).to_be_visible()
        # The 2 s is a target, printed; what is held is the pace that meets it: Ann's phone asks
        # again within 3 s each time (at the resting pace it would wait 5), on a loaded machine too.
        print(f"\nthe query seen on Ann's and Cat's phones in {time.monotonic() - tapped:.2f} s")
        asked = []
        for _ in range(3):
            ann.wait_for_event("request", lambda request: "/live" in request.url, timeout=10_000)
            asked.append(time.monotonic())
        gaps = [later - earlier for earlier, later in zip(asked, asked[1:], strict=False)]
        print(f"Ann's phone asked again at gaps of {[round(g, 2) for g in gaps]} s")
        assert max(gaps) < 3.0, f"Ann's phone asked at gaps of {gaps} s while a deal waits"
    finally:
        for page in phones.values():
            page.context.close()
