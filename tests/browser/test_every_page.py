"""Every page on both phones: axe, labels, page weight, no sideways scroll; and at 200% text.

Each page is seeded with realistic data (a demo club, casual games before, during and after
play), loaded with the browser cache off, and checked:

- axe-core finds no violation (any rule, best practices included);
- every visible control (input, select, textarea, button) has an accessible name;
- the page with all its CSS, JS, icons and fonts weighs under 50 KB transferred;
- nothing is fetched from another host (the `phone` fixture fails on any such request);
- a page that finds nothing (an old `/games/<id>` address, a wrong game link) answers 404;
- the page is no wider than the phone (no sideways scrolling);
- a screenshot is kept in test-artifacts/.

At 200% text (the browser's own text-size setting doubled, as a player with poor eyesight
sets it) the main pages still fit the phone's width with no control clipped or covering
another, and a whole deal is entered and saved.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Night
from scorekeeper.rules import DealEntry
from scorekeeper.services import clubs, deals, demo, games, night_play, side_lines
from scorekeeper.services.access import Level
from scorekeeper.services.games import SideSetup
from scorekeeper.services.links import path_of

from .conftest import ARTIFACTS, PHONES, check_axe, open_phone
from .seeded import kept

MAX_PAGE_BYTES = 50 * 1024
DEMO_SLUG = "demo"
# Chromium's default text size is 16 px; a player who doubles it sets 32 px.
LARGE_TEXT = {"standard": 32, "fixed": 26}
# The app's own root size (112.5% of the browser's), doubled.
LARGE_ROOT_PX = "36px"


def save_deal(game, entries: list[DealEntry]) -> None:
    """Enter the game's next deal as any phone at the table would."""
    outcome = deals.enter_deal(game, Level.TABLE, [entry.to_dict() for entry in entries])
    assert isinstance(outcome, deals.Saved), outcome


@pytest.fixture
def phone_options() -> dict:
    """No service worker on these phones: what a page weighs is what comes over the network.

    A page the worker fetches for the phone is counted by its headers alone (its body size is
    not known to the page), so a page opened after another (signed in, or after opening games
    from their links) would seem to weigh almost nothing.
    """
    return {"service_workers": "block"}


pytestmark = pytest.mark.usefixtures("quick_hashing")


# ------------------------------------------------------------------------- seeding


@dataclass
class World:
    """What the pages show: each game by its private link (`/t/<secret>`), a member by id."""

    empty: str  # a classic game with no deal yet
    playing: str  # a classic game two deals in, with house rules
    finished: str  # a casual game of club rules, over, with a winner
    cutthroat: str  # a game whose melds left open go to the other team
    club_playing: str  # a club game in progress
    club_finished: str  # a finished club game
    member: int  # the demo club member with the most games
    six_playing: str  # six sides of two, one deal in: the longest deal form
    six_finished: str  # six sides of two, four deals: the longest scoreboard
    playing_id: int  # the game in progress, by id: what another phone does to it meanwhile
    lines_in: str  # one deal in, Ann & Bob's line of the next sent from Ann's phone
    line_flagged: str  # as lines_in, and Cat & Dan's line refused with it: Ann & Bob's flagged
    six_lines: str  # six sides, one deal in, five lines of the next in, one of them flagged
    empty_id: int  # the game with no deal yet, by id: deal 1 saved meanwhile
    tonight: str  # nine of the demo club's members ticked, to seat tonight's tables


def won(books: dict[str, int], melded: int) -> DealEntry:
    """A side that went out with these books and card points."""
    return DealEntry(books=books, went_out=True, melded_points=melded, leftover_points=0)


def caught(melded: int, leftover: int, **books: int) -> DealEntry:
    """A side left holding cards."""
    return DealEntry(books=books, melded_points=melded, leftover_points=leftover)


# The phone the seeded lines were sent from: 32 hex digits, as app.js makes them.
SENDING_PHONE = "a" * 32


def send_line(game, side: int, entry: DealEntry, sent_by: str, kept=side_lines.LineKept) -> None:
    """A side's line of the next deal, sent from its own phone (kept, or refused as expected)."""
    next_deal = games.progress_of(game).next_deal
    outcome = side_lines.send_line(
        game,
        Level.TABLE,
        side,
        entry.to_dict(),
        opened_for=next_deal,
        device=SENDING_PHONE,
        sent_by=sent_by,
    )
    assert isinstance(outcome, kept), outcome


CLASSIC_OUT = {"clean": 2, "dirty": 2, "wild": 1}
CLUB_OUT = {"clean": 2, "dirty": 2}
SIX_TEAMS = [
    ("Margaret", "Harold"),
    ("Patricia", "Frank"),
    ("Beverly", "Walter"),
    ("Dorothy", "Ernie"),
    ("Rosalind", "Bartholomew"),
    ("Gwendolyn", "Maximilian"),
]


@kept
def seed(app) -> World:
    """A demo club with finished games, and casual games in every state."""
    with app.app_context():
        club = demo.fill_demo(DEMO_SLUG, games=8)
        playing_club = games.start_game(
            "club",
            [SideSetup(n, [n]) for n in ("Margaret", "Harold", "Linda")],
            club=club,
        )
        club_finished = db.session.execute(
            db.select(Game)
            .where(Game.club_id == club.id, Game.finished_at.is_not(None))
            .order_by(Game.id)
        ).scalar()
        counts = {m.id: clubs.games_of_member(m) for m in club.members}
        member = max(counts, key=counts.get)

        partners = [SideSetup("Ann & Bob", ["Ann", "Bob"]), SideSetup("Cat & Dan", ["Cat", "Dan"])]
        empty = games.start_game("classic", partners)
        playing = games.start_game("classic", partners, house_rules={"going_out_bonus": 200})
        save_deal(playing, [won(CLASSIC_OUT, 480), caught(130, 30)])
        save_deal(playing, [caught(240, 55, clean=1), won(CLASSIC_OUT, 395)])
        finished = games.record_game(
            "club",
            [SideSetup(n, [n]) for n in ("Ann", "Bob", "Cat")],
            [
                [won(CLUB_OUT, 400), caught(150, 60, clean=1), caught(90, 100)],
                [caught(200, 20, dirty=1), won(CLUB_OUT, 350), caught(120, 45)],
                [won(CLUB_OUT, 420), caught(180, 35), caught(130, 80, clean=1)],
                [caught(210, 15), caught(160, 70), won(CLUB_OUT, 380)],
            ],
        )
        cutthroat = games.start_game("cutthroat", [SideSetup(n, [n]) for n in ("Ann", "Bob")])
        # The most sides a game can have, each with a long name: the heaviest pages.
        six = [SideSetup(f"{a} & {b}", [a, b]) for a, b in SIX_TEAMS]
        six_deals = [
            [
                won(CLASSIC_OUT, 400 + 10 * i) if i == d else caught(150 + 5 * i, 45, clean=1)
                for i in range(len(six))
            ]
            for d in range(4)
        ]
        six_playing = games.record_game("casual", six, six_deals[:1])
        six_finished = games.record_game("classic", six, six_deals)
        # The sides' own lines of the next deal: in, counting, and one in question.
        lines_in = games.start_game("classic", partners)
        save_deal(lines_in, [won(CLASSIC_OUT, 480), caught(130, 30)])
        send_line(lines_in, 0, won(CLASSIC_OUT, 395), "Ann")
        line_flagged = games.start_game("classic", partners)
        save_deal(line_flagged, [won(CLASSIC_OUT, 480), caught(130, 30)])
        send_line(line_flagged, 0, won(CLASSIC_OUT, 395), "Ann")
        send_line(line_flagged, 1, won(CLASSIC_OUT, 240), "Cat", kept=deals.Refused)
        six_lines = games.record_game("casual", six, six_deals[:1])
        for i, (player, _) in enumerate(SIX_TEAMS[:5]):
            entry = won(CLASSIC_OUT, 410) if i == 0 else caught(150 + 5 * i, 45, clean=1)
            send_line(six_lines, i, entry, player)
        send_line(six_lines, 5, won(CLASSIC_OUT, 300), "Gwendolyn", kept=deals.Refused)
        return World(
            empty=path_of(empty),
            playing=path_of(playing),
            finished=path_of(finished),
            cutthroat=path_of(cutthroat),
            club_playing=path_of(playing_club),
            club_finished=path_of(club_finished),
            member=member,
            six_playing=path_of(six_playing),
            six_finished=path_of(six_finished),
            playing_id=playing.id,
            lines_in=path_of(lines_in),
            line_flagged=path_of(line_flagged),
            six_lines=path_of(six_lines),
            empty_id=empty.id,
            tonight="&".join(f"members={m.id}" for m in club.members[:9]) + "&seat=1",
        )


# ------------------------------------------------------------------------- loading pages


def count_from_here(page: Page) -> None:
    """Count only what comes next, once what came before has settled."""
    page.wait_for_load_state("networkidle")
    page.transfers.clear()


def load(page: Page, path: str) -> None:
    """Open a page afresh, counting only what this load transfers."""
    count_from_here(page)
    page.goto(page.base + path)
    page.wait_for_load_state("networkidle")


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
    page.wait_for_load_state("networkidle")


def refused_deal(page: Page, world: World) -> None:
    """A typo on the longest deal form (six sides): sent back, explained, nothing lost."""
    page.goto(f"{page.base}{world.six_playing}/deals/new")
    page.fill("#s0-melded_points", "233")
    page.fill("#s5-leftover_points", "1x")
    count_from_here(page)
    page.get_by_role("button", name="Save deal 2").click()
    expect(page.locator(".problems")).to_contain_text("not '1x'")
    page.wait_for_load_state("networkidle")


def refused_by_the_decks(page: Page, world: World) -> None:
    """More red threes than the decks hold: the limit stands beside each figure that counted."""
    page.goto(f"{page.base}{world.playing}/deals/new")
    page.fill("#s0-red_threes_down", "6")
    page.fill("#s1-red_threes_caught", "6")
    count_from_here(page)
    page.get_by_role("button", name=re.compile(r"Save deal \d+")).click()
    expect(page.locator(".problems li")).to_have_count(1)
    for figure in ("#s0-red_threes_down", "#s1-red_threes_caught"):
        expect(page.locator(figure)).to_have_attribute("aria-invalid", "true")
    page.wait_for_load_state("networkidle")


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
    page.wait_for_load_state("networkidle")


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
    page.wait_for_load_state("networkidle")


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
    page.wait_for_load_state("networkidle")


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
    page.wait_for_load_state("networkidle")


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
    page.wait_for_load_state("networkidle")


def line_refused(page: Page, world: World) -> None:
    """A typo in a side's own line: refused alone, the figures kept (422)."""
    page.goto(f"{page.base}{world.playing}/deals/next/1")
    page.get_by_label("Melded card points").fill("240")
    page.get_by_label("Card points left in hands and feet").fill("1x")
    count_from_here(page)
    page.get_by_role("button", name="Send this line").click()
    expect(page.locator(".problems")).to_contain_text("not '1x'")
    page.wait_for_load_state("networkidle")


def line_saved_meanwhile(page: Page, world: World, app) -> None:
    """A side's line of deal 1 sent after another phone saved deal 1: 409, the deal shown."""
    page.goto(f"{page.base}{world.empty}/deals/next/0")
    with app.app_context():
        save_deal(games.get_game(world.empty_id), [won(CLASSIC_OUT, 500), caught(130, 30)])
    page.get_by_label("Melded card points").fill("520")
    count_from_here(page)
    page.get_by_role("button", name="Send this line").click()
    expect(page.get_by_role("heading", name="Deal 1 was saved meanwhile")).to_be_visible()
    page.wait_for_load_state("networkidle")


def later_line_stands(page: Page, world: World) -> None:
    """A line entered before the one Ann's phone sent for the same side: theirs stands (409)."""
    page.goto(f"{page.base}{world.lines_in}/deals/next/0")
    page.get_by_label("Melded card points").fill("420")
    # Entered a minute ago on this phone, kept with no signal until now: Ann's is later.
    page.evaluate(
        "document.querySelector('input[name=entered_at]').value = String(Date.now() - 60000)"
    )
    count_from_here(page)
    page.get_by_role("button", name="Send this line").click()
    expect(page.get_by_role("heading", name="Ann sent a later line for Ann & Bob")).to_be_visible()
    page.wait_for_load_state("networkidle")


def refused_game(page: Page, world: World) -> None:
    """One player on two sides: the form comes back saying so."""
    page.goto(f"{page.base}/games/new?ruleset=classic")
    page.fill("#side0_players", "Ann, Bob")
    page.fill("#side1_players", "Bob, Cat")
    count_from_here(page)
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".problems")).to_be_visible()
    page.wait_for_load_state("networkidle")


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
    page.wait_for_load_state("networkidle")


# A club night of twelve of the demo club's members: 3 rounds planned of 3 tables of 4.
NIGHT_PLAYERS = 12
NIGHT_ROUNDS = 3


@kept
def demo_night(app, seated: int, played: int) -> int:
    """Twelve of the demo club's members' night: `seated` rounds seated, the first `played` of
    them played out at every table (a side going out each deal, the sides in turn); its id."""
    with app.app_context():
        club = clubs.club_by_slug(DEMO_SLUG)
        ids = [m.id for m in club.members[:NIGHT_PLAYERS]]
        night = night_play.open_night(club, ids, "", "classic", NIGHT_ROUNDS, "rotating", "no game")
        night_id = night.id
        for number in range(1, seated + 1):
            night_play.seat_round(db.session.get(Night, night_id))
            if number > played:
                continue
            for t in db.session.get(Night, night_id).rounds[number - 1].tables:
                for deal in range(1, 10):
                    if t.game.finished_at is not None:
                        break
                    out = (t.number + deal) % 2
                    entries = [caught(130 + 10 * deal, 30, clean=1)] * 2
                    entries[out] = won(CLASSIC_OUT, 300 + 20 * t.number)
                    save_deal(t.game, entries)
                assert t.game.finished_at is not None
        db.session.remove()
        return night_id


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
        page.wait_for_load_state("networkidle")
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
        page.wait_for_load_state("networkidle")

    return visit


def refused_sign_in(page: Page, world: World) -> None:
    """A wrong password: the form comes back saying so."""
    page.goto(page.base + "/login")
    page.fill("#username", demo.ORGANISER)
    page.fill("#password", "not the password")
    count_from_here(page)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".problems")).to_be_visible()
    page.wait_for_load_state("networkidle")


C = f"/clubs/{DEMO_SLUG}"
NOT_FOUND = "Not found"
MOVED = "Games now open with their private link"
NEW_GAME_RULES = ("classic", "club", "cutthroat", "casual")
PAGES: dict[str, Callable] = {
    "home": plain("/"),
    "home-organiser": as_organiser("/"),
    "home-my-games": my_games,
    "choose-rules": plain("/games/new"),
    # Classic: partnerships; club: individuals; cutthroat: melds left open go across.
    **{f"new-game-{key}": plain(f"/games/new?ruleset={key}") for key in NEW_GAME_RULES},
    "new-game-refused": refused_game,
    "new-game-refused-house-rule": refused_house_rule,
    "scoreboard-empty": plain("{w.empty}"),
    "scoreboard-mid-game": plain("{w.playing}"),
    "scoreboard-finished": plain("{w.finished}"),
    "deal-entry": deal_with_counter,
    "deal-entry-open-books": plain("{w.cutthroat}/deals/new"),
    "deal-correction": plain("{w.playing}/deals/2/edit"),
    "deal-entry-six-sides": plain("{w.six_playing}/deals/new"),
    "deal-correction-six-sides": plain("{w.six_playing}/deals/1/edit"),
    "scoreboard-six-sides": plain("{w.six_finished}"),
    "deal-refused": refused_deal,
    "deal-refused-by-the-decks": refused_by_the_decks,
    "deal-conflict": conflict,
    "deal-saved-meanwhile": saved_meanwhile,
    # Each side's own line of the next deal, on its own phone, and the pages that show them.
    "line-entry": plain("{w.playing}/deals/next/0"),
    "line-entry-sent-already": showing("{w.lines_in}/deals/next/0", "#breakdown", "+3,595"),
    "line-entry-six-sides": showing("{w.six_lines}/deals/next/5", "main", "Lines in"),
    "line-refused": line_refused,
    "line-refused-with-another-side": line_refused_with_another,
    "line-saved-meanwhile": line_saved_meanwhile,
    "line-later-line-stands": later_line_stands,
    "scoreboard-lines-in": showing(
        "{w.lines_in}", "#lines", "Ann & Bob: in, from Ann", "Cat & Dan: counting", "+3,595"
    ),
    "scoreboard-line-flagged": showing("{w.line_flagged}", "#lines p.error", "Only one side"),
    "scoreboard-six-sides-lines-in": showing(
        "{w.six_lines}", "#lines", "Gwendolyn & Maximilian: counting", "Only one side"
    ),
    "deal-entry-filled-from-lines": showing("{w.lines_in}/deals/new", "#filled", "Ann & Bob"),
    "deal-entry-six-sides-filled-from-lines": showing(
        "{w.six_lines}/deals/new", "#filled", "Dorothy & Ernie (from Dorothy)"
    ),
    "deal-lines-arrived": lines_arrived,
    "rule-cards": plain("/rules"),
    "rule-card": plain("/rules/classic"),
    "rule-card-open-books": plain("/rules/cutthroat"),
    "rule-card-of-a-game": plain("{w.playing}/rules"),
    "clubs": plain("/clubs"),
    "clubs-organiser": as_organiser("/clubs"),
    "sign-up": plain("/signup"),
    "sign-in": plain("/login"),
    "sign-in-refused": refused_sign_in,
    "club-new": as_organiser("/clubs/new"),
    "club-overview": plain(C),
    "club-table-link": table_link_opened,
    "club-overview-table-link": table_link,
    "club-overview-organiser": as_organiser(C),
    "club-standings": plain(C + "/standings?season=all"),
    "club-standings-this-season": as_organiser(C + "/standings"),
    "club-games": plain(C + "/games?season=all"),
    "club-members": plain(C + "/members"),
    "club-members-organiser": as_organiser(C + "/members"),
    "club-member": plain(C + "/members/{w.member}?season=all"),
    "club-member-organiser": as_organiser(C + "/members/{w.member}?season=all"),
    "club-seasons": as_organiser(C + "/seasons"),
    "club-settings": as_organiser(C + "/settings"),
    "club-held": as_organiser(C + "/held"),
    "club-night-plan": as_organiser(C + "/nights/plan"),
    "club-night-plan-seated": as_organiser(C + "/nights/plan?{w.tonight}"),
    # A club night (issue 29): the form, round 1 playing, every round played, and the board.
    "club-night-new": as_organiser(C + "/nights/new"),
    # The club's nights in one place (issue 37): in progress, open a night, the past.
    "club-nights": as_organiser(C + "/nights"),
    "club-night-round-1": NIGHT_SEATED,
    "club-night-finished": NIGHT_FINISHED,
    "club-night-board": NIGHT_BOARD,
    "night-link-board": NIGHT_LINK_BOARD,
    "night-link-results": NIGHT_LINK_RESULTS,
    "club-night-cards": NIGHT_CARDS,
    "night-game": night_game,
    "club-import": as_organiser(C + "/import"),
    "club-game-choose-rules": as_organiser(C + "/games/new?choose=1"),
    # The demo club's default saved rule set: its form, filled in, with no choice to make.
    "club-game-new-default-rules": as_organiser(C + "/games/new"),
    "club-rule-sets": as_organiser(C + "/rule-sets"),
    "club-rule-set-new": as_organiser(C + "/rule-sets/new?ruleset=club"),
    "club-rule-set-edit": as_organiser(C + "/rule-sets/1/edit"),
    "club-rule-set-delete": as_organiser(C + "/rule-sets/1/delete"),
    "club-rule-card": plain(C + "/rules/1"),
    "club-game-new": as_organiser(C + "/games/new?ruleset=club"),
    "club-game-new-partners": as_organiser(C + "/games/new?ruleset=classic"),
    "club-scoreboard-playing": as_organiser("{w.club_playing}"),
    "club-scoreboard-finished": as_organiser("{w.club_finished}"),
    "offline": plain("/offline"),
    "not-found": not_found("/no/such/page", NOT_FOUND),
    # A link no game has (well formed, 22 characters), and an address from before private links.
    "game-not-found": not_found("/t/" + "x" * 22, NOT_FOUND),
    "game-old-address": not_found("/games/{w.playing_id}", MOVED),
    "game-old-address-deal-form": not_found("/games/{w.playing_id}/deals/new", MOVED),
}
NEEDS_APP = {
    conflict,
    saved_meanwhile,
    table_link_opened,
    table_link,
    lines_arrived,
    line_saved_meanwhile,
    NIGHT_SEATED,
    NIGHT_FINISHED,
    NIGHT_BOARD,
    NIGHT_LINK_BOARD,
    NIGHT_LINK_RESULTS,
    NIGHT_CARDS,
    night_game,
}


# ------------------------------------------------------------------------- checks

UNNAMED_CONTROLS = """() => {
  const visible = (el) => el.checkVisibility({ visibilityProperty: true });
  const text = (el) => (el ? el.textContent.replace(/\\s+/g, " ").trim() : "");
  const named = (el) => {
    if ((el.getAttribute("aria-label") || "").trim()) return true;
    const by = el.getAttribute("aria-labelledby");
    if (by && by.split(/\\s+/).some((id) => text(document.getElementById(id)))) return true;
    if (el.labels && [...el.labels].some((l) => text(l))) return true;
    if (el.tagName === "BUTTON") return text(el) !== "";
    return false;
  };
  return [...document.querySelectorAll("input, select, textarea, button")]
    .filter((el) => el.type !== "hidden" && visible(el) && !named(el))
    .map((el) => el.outerHTML.slice(0, 120));
}"""


OPEN_ALL = """() => document.querySelectorAll("details:not([open])").forEach((d) => {
  d.open = true;
  d.dataset.opened = "";
})"""
CLOSE_OPENED = """() => document.querySelectorAll("details[data-opened]").forEach((d) => {
  d.open = false;
  delete d.dataset.opened;
})"""


def no_cache(page: Page) -> None:
    """Every load fetches everything: the weight counted is what a first visit costs."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.setCacheDisabled", {"cacheDisabled": True})


def shot(page: Page, name: str) -> None:
    """Keep a screenshot of the whole page as a test artifact (one image pixel a CSS pixel:
    a quarter of the phone's own pixels or fewer, and as plain to read)."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    path = os.path.join(ARTIFACTS, f"{page.device}-{name}.png")
    page.screenshot(path=path, full_page=True, scale="css")


def page_weight(page: Page) -> tuple[int, list[tuple[str, int]]]:
    """Bytes transferred by this load (headers and bodies), and each request's share."""
    return sum(size for _, size in page.transfers), list(page.transfers)


def too_wide(page: Page) -> str | None:
    """Why the page scrolls sideways on the phone, or None if it fits its width.

    Measured before any full-page screenshot, which lays the page out afresh. The phone's
    width, not window.innerWidth: a phone browser widens its layout viewport to take in a
    page that is too wide, and innerWidth grows with it.
    """
    width = page.viewport_size["width"]
    scroll = page.evaluate("document.documentElement.scrollWidth")
    if scroll <= width:
        return None
    wide = page.evaluate(
        "(w) => [...document.querySelectorAll('body *')]"
        ".filter((e) => e.getBoundingClientRect().right > w + 0.5 && !e.closest('.table-scroll'))"
        ".slice(0, 5).map((e) => e.outerHTML.slice(0, 80))",
        width,
    )
    return f"the page scrolls sideways: {scroll} px wide on a {width} px screen: {wide}"


@pytest.mark.parametrize("name", list(PAGES))
def test_every_page(phone, app, name):
    """One page on one phone: axe, labels, weight under 50 KB, no other host, fits the width."""
    page = phone
    world = seed(app)
    no_cache(page)
    visit = PAGES[name]
    if visit in NEEDS_APP:
        visit(page, world, app)
    else:
        visit(page, world)
    wide = too_wide(page)
    shot(page, name)
    assert wide is None, wide

    weight, transfers = page_weight(page)
    kinds = {urlsplit(url).path.rsplit(".", 1)[-1] for url, _ in transfers if "/static/" in url}
    assert {"css", "js", "svg"} <= kinds, f"stylesheet, script or icon not counted: {transfers}"
    assert weight < MAX_PAGE_BYTES, f"{name} weighs {weight:,} bytes: {transfers}"
    print(f"{page.device} {name}: {weight:,} bytes in {len(transfers)} requests")

    # What folds away (house rules, card counts, each deal's lines) is checked unfolded too.
    page.evaluate(OPEN_ALL)
    wide = too_wide(page)
    assert wide is None, f"details open: {wide}"
    unnamed = page.evaluate(UNNAMED_CONTROLS)
    assert unnamed == [], f"controls with no accessible name: {unnamed}"
    check_axe(page)


# ------------------------------------------------------------------------- 200% text

# Controls that clip their text, run off the screen or lie on top of one another. Tables that
# scroll sideways inside their own box (standings) are allowed to, and the sticky save bar
# is meant to float over the form.
LAYOUT_PROBLEMS = """(width) => {
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && el.checkVisibility({ visibilityProperty: true });
  };
  const exempt = (el) => el.closest(".table-scroll, .sticky-actions, .skip, svg");
  const name = (el) => el.outerHTML.slice(0, 90);
  const problems = [];
  const blocks = document.querySelectorAll(
    "h1, h2, h3, p, li, label, legend, summary, button, .button, th, td, dt, dd, .side, .card");
  for (const el of blocks) {
    if (!shown(el) || exempt(el) || getComputedStyle(el).display === "inline") continue;
    const r = el.getBoundingClientRect();
    if (r.left < -1 || r.right > width + 1) problems.push(`off the screen: ${name(el)}`);
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`text wider than its box: ${name(el)}`);
  }
  const controls = [...document.querySelectorAll(
    "a, button, input:not([type=hidden]), select, textarea, summary")]
    .filter((el) => shown(el) && !exempt(el));
  // An inline link that wraps has a box per line: compare those, not the box around both.
  const boxes = controls.map((el) => [...el.getClientRects()]);
  const overlap = (a, b) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
  for (let i = 0; i < controls.length; i++) {
    for (let j = i + 1; j < controls.length; j++) {
      if (controls[i].contains(controls[j]) || controls[j].contains(controls[i])) continue;
      if (boxes[i].some((a) => boxes[j].some((b) => overlap(a, b)))) {
        problems.push(`on top of each other: ${name(controls[i])} / ${name(controls[j])}`);
      }
    }
  }
  return problems;
}"""


@pytest.fixture(params=sorted(PHONES))
def large_text(request, browser, live_server):
    """A phone whose owner doubled the browser's text size (Chromium's font-size setting)."""
    page = open_phone(browser, request.param, live_server)
    context = page.context
    session = context.new_cdp_session(page)
    session.send("Page.setFontSizes", {"fontSizes": LARGE_TEXT})
    yield page
    context.close()
    assert page.outside == [], f"requests to other hosts: {page.outside}"


def assert_usable_at_large_text(page: Page, name: str) -> None:
    """Text really is doubled, the page fits the phone, and no control is clipped or covered."""
    root = page.evaluate("getComputedStyle(document.documentElement).fontSize")
    assert root == LARGE_ROOT_PX, f"{name}: root text is {root}, not doubled"
    wide = too_wide(page)
    problems = page.evaluate(LAYOUT_PROBLEMS, page.viewport_size["width"])
    shot(page, f"200pc-{name}")
    assert wide is None, f"{name} at 200% text: {wide}"
    assert problems == [], f"{name} at 200% text: {problems}"
    # What folds away (card counts, each deal's lines, the filters) must fit as well.
    page.evaluate(OPEN_ALL)
    wide = too_wide(page)
    problems = page.evaluate(LAYOUT_PROBLEMS, page.viewport_size["width"])
    page.evaluate(CLOSE_OPENED)
    assert wide is None, f"{name} at 200% text, details open: {wide}"
    assert problems == [], f"{name} at 200% text, details open: {problems}"


LARGE_TEXT_PAGES = (
    "home",
    "home-my-games",
    "choose-rules",
    "new-game-classic",
    "deal-entry",
    "scoreboard-mid-game",
    "scoreboard-finished",
    "club-standings",
)


@pytest.mark.parametrize("name", LARGE_TEXT_PAGES)
def test_main_pages_at_200_percent_text(large_text, app, name):
    """The pages a table uses most fit the phone with doubled text, nothing clipped."""
    page = large_text
    PAGES[name](page, seed(app))
    assert_usable_at_large_text(page, name)


def test_a_deal_at_200_percent_text(large_text, app):
    """From the home page to a saved deal with doubled text: every tap lands on its control."""
    page = large_text
    page.goto(page.base + "/")
    assert_usable_at_large_text(page, "journey-home")
    page.get_by_role("link", name="Start a game").click()
    page.get_by_role("link", name="Play Classic partnership rules").click()
    page.fill("#side0_players", "Ann, Bob")
    page.fill("#side1_players", "Cat, Dan")
    assert_usable_at_large_text(page, "journey-new-game")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter deal 1").click()

    # Ann & Bob: 2 clean, 2 dirty, 1 wild, a red three laid down, 480 melded, went out:
    # 2×500 + 2×300 + 1,500 + 100 + 100 out + 480 = 3,780.
    # Cat & Dan: 1 clean book, 130 melded, 30 left: 500 + 130 − 30 = 600.
    ann, cat = (page.locator("fieldset.side-entry").nth(i) for i in (0, 1))
    for label, taps in (("clean books", 2), ("dirty books", 2), ("wild books", 1)):
        for _ in range(taps):
            ann.get_by_role("button", name=f"One more: {label}").tap()
    ann.get_by_role("button", name="One more: red threes laid down").tap()
    page.locator("#s0-melded_points").tap()
    page.keyboard.type("480")
    cat.get_by_role("button", name="One more: clean books").tap()
    page.locator("#s1-melded_points").tap()
    page.keyboard.type("130")
    page.locator("#s1-leftover_points").tap()
    page.keyboard.type("30")
    page.get_by_label("Ann & Bob", exact=True).tap()
    cat.locator("details.counter summary").tap()
    expect(page.locator("#breakdown")).to_contain_text("130 melded − 30 left")
    assert_usable_at_large_text(page, "journey-deal-entry")

    page.get_by_role("button", name="Save deal 1").tap()
    totals = page.locator(".side .total")
    expect(totals).to_have_count(2)
    assert [t.split()[-1] for t in totals.all_inner_texts()] == ["3,780", "600"]
    assert_usable_at_large_text(page, "journey-scoreboard")
