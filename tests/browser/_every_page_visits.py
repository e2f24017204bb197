"""How each page of the every-page tests is reached: loaded afresh and counted, signed in or
not, a refused form sent back, a deal saved meanwhile, a line arrived, a club night's pages.

Each visit takes the phone's page and the seeded World (_every_page_world.py), and the app
where it changes the database first (those are listed in NEEDS_APP, _every_page_checks.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Night
from scorekeeper.services import clubs, deals, demo, games
from scorekeeper.services.access import Level

from ._every_page_world import (
    CLASSIC_OUT,
    DEMO_SLUG,
    NIGHT_ROUNDS,
    World,
    caught,
    demo_night,
    save_deal,
    send_line,
    won,
)
from .conftest import settled

# ------------------------------------------------------------------------- loading pages


def count_from_here(page: Page) -> None:
    """Count only what comes next, once what came before has settled."""
    settled(page)
    page.transfers.clear()


def as_typed(page: Page) -> None:
    """The form goes to the server as typed, as from a phone without its scorer: the phone's
    own scorer refuses these figures before sending them (static/scorer_form.js), and this visit
    is of the server's refusal page."""
    page.evaluate("document.querySelector('form[data-preview]').dataset.resend = ''")


def load(page: Page, path: str) -> None:
    """Open a page afresh, counting only what this load transfers."""
    count_from_here(page)
    page.goto(page.base + path)
    settled(page)


def sign_in(page: Page) -> None:
    """Sign in as the demo club's organiser through the form."""
    page.goto(page.base + "/login")
    page.fill("#username", demo.ORGANISER)
    page.fill("#password", demo.PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_text(f"Signed in as {demo.ORGANISER}")).to_be_visible()


def as_organiser(path: str) -> Callable[[Page, World], None]:
    """A page seen by the club's organiser."""

    def visit(page: Page, world: World) -> None:
        sign_in(page)
        load(page, path.format(w=world))

    return visit


def plain(path: str) -> Callable[[Page, World], None]:
    """A page seen by anyone, with no account."""
    return lambda page, world: load(page, path.format(w=world))


def deal_with_counter(page: Page, world: World) -> None:
    """Deal 3 of a game in progress, the first side counting its cards."""
    load(page, f"{world.playing}/deals/new")
    page.locator("details.counter summary").first.click()
    settled(page)


def refused_deal(page: Page, world: World) -> None:
    """A typo on the longest deal form (six sides): sent back, explained, nothing lost."""
    page.goto(f"{page.base}{world.six_playing}/deals/new")
    page.fill("#s0-melded_points", "233")
    page.fill("#s5-leftover_points", "1x")
    count_from_here(page)
    as_typed(page)
    page.get_by_role("button", name="Save deal 2").click()
    expect(page.locator(".problems")).to_contain_text("not '1x'")
    settled(page)


def refused_by_the_decks(page: Page, world: World) -> None:
    """More red threes than the decks hold: the limit stands beside each figure that counted."""
    page.goto(f"{page.base}{world.playing}/deals/new")
    page.fill("#s0-red_threes_down", "6")
    page.fill("#s1-red_threes_caught", "6")
    count_from_here(page)
    as_typed(page)
    page.get_by_role("button", name=re.compile(r"Save deal \d+")).click()
    expect(page.locator(".problems li")).to_have_count(1)
    for figure in ("#s0-red_threes_down", "#s1-red_threes_caught"):
        expect(page.locator(figure)).to_have_attribute("aria-invalid", "true")
    settled(page)


def refused_house_rule(page: Page, world: World) -> None:
    """A going-out bonus off the fives: the house rules open, the reason beside the number."""
    page.goto(f"{page.base}/games/new?ruleset=classic")
    page.fill("#side0_players", "Ann, Bob")
    page.fill("#side1_players", "Cat, Dan")
    page.locator("details.house-rules summary").click()
    page.fill("#rule_going_out_bonus", "103")
    count_from_here(page)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#rule_going_out_bonus")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#rule_going_out_bonus")).to_be_visible()
    settled(page)


def conflict(page: Page, world: World, app) -> None:
    """A correction sent after another phone corrected the same deal: 409."""
    page.goto(f"{page.base}{world.playing}/deals/1/edit")
    with app.app_context():
        game = db.session.get(Game, world.playing_id)
        scores = [won(CLASSIC_OUT, 500).to_dict(), caught(130, 30).to_dict()]
        assert isinstance(deals.correct_deal(game, Level.TABLE, 1, scores, 1), deals.Saved)
    page.fill("#s0-melded_points", "520")
    count_from_here(page)
    page.get_by_role("button", name="Save correction").click()
    expect(page.get_by_role("heading", name="Deal 1 was changed meanwhile")).to_be_visible()
    settled(page)


def saved_meanwhile(page: Page, world: World, app) -> None:
    """A new deal sent after another phone saved that deal: 409, both shown."""
    page.goto(f"{page.base}{world.playing}/deals/new")
    with app.app_context():
        game = games.get_game(world.playing_id)
        save_deal(game, [won(CLASSIC_OUT, 500), caught(130, 30)])
    page.fill("#s0-melded_points", "520")
    count_from_here(page)
    page.get_by_role("button", name=re.compile(r"Save deal \d+")).click()
    expect(page.get_by_role("alert")).to_contain_text("saved on another phone meanwhile")
    settled(page)


def lines_arrived(page: Page, world: World, app) -> None:
    """The whole deal sent after a side sent its own line from its phone: 409, the line shown."""
    page.goto(f"{page.base}{world.playing}/deals/new")
    with app.app_context():
        send_line(games.get_game(world.playing_id), 1, caught(240, 55, clean=1), "Cat")
    page.fill("#s0-melded_points", "520")
    count_from_here(page)
    page.get_by_role("button", name=re.compile(r"Save deal \d+")).click()
    heading = "Sides' own lines came in while you were entering"
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
    settled(page)


def showing(path: str, where: str, *texts: str) -> Callable[[Page, World], None]:
    """A page seen by anyone, showing these texts in this part of it (the state is reached)."""

    def visit(page: Page, world: World) -> None:
        load(page, path.format(w=world))
        for text in texts:
            expect(page.locator(where)).to_contain_text(text)

    return visit


def line_refused_with_another(page: Page, world: World) -> None:
    """Cat & Dan say they went out too: refused with Ann & Bob's line in, and why (422)."""
    page.goto(f"{page.base}{world.lines_in}/deals/next/1")
    page.get_by_label("Cat & Dan went out").check()
    page.get_by_label("Melded card points").fill("240")
    count_from_here(page)
    page.get_by_role("button", name="Send this line").click()
    expect(page.locator("#went_out-error")).to_contain_text("Only one side can go out")
    settled(page)


def line_refused(page: Page, world: World) -> None:
    """A typo in a side's own line: refused alone, the figures kept (422)."""
    page.goto(f"{page.base}{world.playing}/deals/next/1")
    page.get_by_label("Melded card points").fill("240")
    page.get_by_label("Card points left in hands and feet").fill("1x")
    count_from_here(page)
    as_typed(page)
    page.get_by_role("button", name="Send this line").click()
    expect(page.locator(".problems")).to_contain_text("not '1x'")
    settled(page)


def line_saved_meanwhile(page: Page, world: World, app) -> None:
    """A side's line of deal 1 sent after another phone saved deal 1: 409, the deal shown."""
    page.goto(f"{page.base}{world.empty}/deals/next/0")
    with app.app_context():
        save_deal(games.get_game(world.empty_id), [won(CLASSIC_OUT, 500), caught(130, 30)])
    page.get_by_label("Melded card points").fill("520")
    count_from_here(page)
    page.get_by_role("button", name="Send this line").click()
    expect(page.get_by_role("heading", name="Deal 1 was saved meanwhile")).to_be_visible()
    settled(page)


def later_line_stands(page: Page, world: World) -> None:
    """A line entered before the one Ann's phone sent for the same side: theirs stands (409).
    The phone is on Ann & Bob's side (as "This phone is on Ann & Bob's side" sends it)."""
    page.goto(f"{page.base}{world.lines_in}/deals/next/0?on_side=0")
    page.get_by_label("Melded card points").fill("420")
    # Entered a minute ago on this phone, kept with no signal until now: Ann's is later.
    page.evaluate(
        "document.querySelector('input[name=entered_at]').value = String(Date.now() - 60000)"
    )
    count_from_here(page)
    page.get_by_role("button", name="Send this line").click()
    expect(page.get_by_role("heading", name="Ann sent a later line for Ann & Bob")).to_be_visible()
    settled(page)


def refused_game(page: Page, world: World) -> None:
    """One player on two sides: the form comes back saying so."""
    page.goto(f"{page.base}/games/new?ruleset=classic")
    page.fill("#side0_players", "Ann, Bob")
    page.fill("#side1_players", "Bob, Cat")
    count_from_here(page)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".problems")).to_be_visible()
    settled(page)


def table_link_opened(page: Page, world: World, app) -> None:
    """The table link, opened by a player with no account: a button keeps it on the phone."""
    with app.app_context():
        code = clubs.club_by_slug(DEMO_SLUG).table_code
    load(page, f"/clubs/{DEMO_SLUG}/table/{code}")


def table_link(page: Page, world: World, app) -> None:
    """The club as a table's phone sees it, once it keeps the table link."""
    table_link_opened(page, world, app)
    count_from_here(page)
    page.get_by_role("button", name="Keep the table link on this phone").click()
    settled(page)


def night(seated: int, played: int, suffix: str = "") -> Callable[[Page, World, object], None]:
    """A night's page (or its `suffix`: /board) as its organiser sees it."""

    def visit(page: Page, world: World, app) -> None:
        night_id = demo_night(app, seated, played)
        sign_in(page)
        load(page, f"/clubs/{DEMO_SLUG}/nights/{night_id}{suffix}")

    return visit


NIGHT_SEATED = night(1, 0)
NIGHT_FINISHED = night(NIGHT_ROUNDS, NIGHT_ROUNDS)
# The board between rounds: round 1's totals, the standings and round 2's seating.
NIGHT_BOARD = night(1, 1, "/board")


def night_link(seated: int, played: int, suffix: str = "") -> Callable[[Page, World, object], None]:
    """A night's read-only link (issue 37): its board (or `suffix`: /results), as anyone holding
    the link sees it, signed in to nothing."""

    def visit(page: Page, world: World, app) -> None:
        night_id = demo_night(app, seated, played)
        with app.app_context():
            secret = db.session.get(Night, night_id).board_secret
        load(page, f"/n/{secret}{suffix}")

    return visit


# The board link between rounds, and the results of a night every round of which was played.
NIGHT_LINK_BOARD = night_link(1, 1)
NIGHT_LINK_RESULTS = night_link(NIGHT_ROUNDS, NIGHT_ROUNDS, "/results")
# Its movement cards (issue 37): twelve follow the whist schedule, round 1 seated.
NIGHT_CARDS = night(1, 0, "/cards")


def night_game(page: Page, world: World, app) -> None:
    """A night table's game as the phone that scanned its code sees it (issue 37): round 1's
    table 1, finished, with round 2 seated: where each of its players goes next."""
    night_id = demo_night(app, 2, 1)
    with app.app_context():
        secret = db.session.get(Night, night_id).rounds[0].tables[0].game.secret
    load(page, f"/t/{secret}")


def my_games(page: Page, world: World) -> None:
    """The home page of a phone that opened games from their links: its own games listed."""
    # Three in progress and two finished; the six sides' long names make the widest lines.
    opened = (world.empty, world.playing, world.six_playing, world.finished, world.six_finished)
    for link in opened:
        # One after another, as a person opens them: each page settles before the next link.
        page.goto(page.base + link)
        settled(page)
    load(page, "/")
    playing = page.locator("section[aria-labelledby=playing] .game-line")
    finished = page.locator("section[aria-labelledby=finished] .game-line")
    expect(playing).to_have_count(3)
    expect(finished).to_have_count(2)
    links = [el.get_attribute("href") for el in (*playing.all(), *finished.all())]
    assert sorted(links) == sorted(opened)
    expect(page.get_by_role("button", name="Forget my games on this phone")).to_be_visible()


def not_found(path: str, heading: str) -> Callable[[Page, World], None]:
    """A page that finds nothing: it answers 404 and says so under this heading."""

    def visit(page: Page, world: World) -> None:
        count_from_here(page)
        response = page.goto(page.base + path.format(w=world))
        assert response is not None and response.status == 404, response
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        settled(page)

    return visit


def refused_sign_in(page: Page, world: World) -> None:
    """A wrong password: the form comes back saying so."""
    page.goto(page.base + "/login")
    page.fill("#username", demo.ORGANISER)
    page.fill("#password", "not the password")
    count_from_here(page)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".problems")).to_be_visible()
    settled(page)
