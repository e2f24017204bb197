"""Each side enters its own line on its own phone, at the same time: three real phones.

A partnership table: Ann's phone enters Ann & Bob's line, Cat's phone enters Cat & Dan's, and
a third phone watches the scoreboard. The lines are those of the typical deal in test_taps.py:
Ann & Bob go out with 2 clean, 2 dirty and 1 wild book, one red three laid down and 320
melded; Cat & Dan hold 1 clean book, melded 240 and were caught with 85 in their hands.
"""

from __future__ import annotations

import os
import time

from playwright.sync_api import expect
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Deal, DealPart, DealScore, Game

from .conftest import ARTIFACTS, check_axe, game_link, open_phone, start_game
from .test_live import kept_on_phone, no_signal, serve_worker, signal_back
from .test_taps import Counted

# Within 2 seconds of a line or the deal being saved, every phone shows it.
IN_STEP_MS = 2000
# A side's typical line, from the open line page to sent.
MOST_ACTIONS = 10


def call_me(page, name: str) -> None:
    """Say who this phone is, as the table sees it (not part of entering a line)."""
    page.get_by_text("Other phones see you as").click()
    page.get_by_label("Your name, shown to the table").fill(name)
    page.get_by_label("Your name, shown to the table").press("Enter")


def ann_and_bobs_line(user: Counted) -> list:
    """Went out (the books going out needs fill in), 1 red three down, 320 melded: 6 actions."""
    page = user.page
    return [
        lambda: user.tap(page.get_by_label("Ann & Bob went out"), "went out"),
        lambda: expect(page.locator("#s0-books-wild")).to_have_value("1"),
        lambda: user.tap(
            page.get_by_role("button", name="One more: red threes laid down"), "red three"
        ),
        lambda: user.tap(page.get_by_label("Melded card points"), "melded points"),
        lambda: user.type("320"),
    ]


def cat_and_dans_line(user: Counted) -> list:
    """1 clean book, 240 melded, 85 left: 8 actions."""
    page = user.page
    return [
        lambda: user.tap(page.get_by_role("button", name="One more: clean books"), "clean book"),
        lambda: user.tap(page.get_by_label("Melded card points"), "melded points"),
        lambda: user.type("240"),
        lambda: user.tap(page.get_by_label("Card points left in hands and feet"), "left points"),
        lambda: user.type("85"),
    ]


def lines_of_the_deal(app) -> list[tuple[int, dict, int]]:
    """Every saved deal's scores: (deal number, the side's entry, total), by deal and side."""
    with app.app_context():
        query = (
            select(Deal.number, DealScore.entry, DealScore.total)
            .join(DealScore, DealScore.deal_id == Deal.id)
            .order_by(Deal.number, DealScore.side_position)
        )
        return [tuple(row) for row in db.session.execute(query)]


def lines_waiting(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(DealPart)).scalar_one()


def test_two_sides_enter_their_own_lines_at_once_and_a_third_phone_watches(phone, browser, app):
    ann = phone
    start_game(ann)
    game = game_link(ann)
    cat = open_phone(browser, ann.device, ann.base)
    watcher = open_phone(browser, ann.device, ann.base)
    try:
        watcher.goto(f"{ann.base}{game}")
        for page, side, name in ((ann, "Ann & Bob", "Ann"), (cat, "Cat & Dan", "Cat")):
            page.goto(f"{ann.base}{game}")
            page.get_by_role("link", name=f"Enter for {side}").tap()
            expect(page.locator("h1")).to_have_text(f"Line for {side}, deal 1")
            call_me(page, name)
        check_axe(ann)

        # Both count at once: the two phones' actions interleave, a step on each in turn.
        ann_user, cat_user = Counted(ann), Counted(cat)
        for ann_step, cat_step in zip(
            ann_and_bobs_line(ann_user), cat_and_dans_line(cat_user), strict=True
        ):
            ann_step()
            cat_step()
        expect(ann.locator("#breakdown")).to_contain_text("+3,620")  # 3,000 + 100 + 200 + 320
        expect(cat.locator("#breakdown")).to_contain_text("+655")  # 500 + 240 − 85
        # Only the side's own breakdown: the other side's line is on the other phone.
        expect(ann.locator("#breakdown")).not_to_contain_text("Cat & Dan")

        ann_user.tap(ann.get_by_role("button", name="Send this line"), "send")
        sent = time.monotonic()
        expect(ann.get_by_text("Deal 1: the line for Ann & Bob is in.")).to_be_visible()
        state = watcher.get_by_role("status").filter(has_text="Ann & Bob: in · Cat & Dan: counting")
        expect(state).to_be_visible(timeout=IN_STEP_MS)
        seen = time.monotonic() - sent
        # The watcher's scoreboard shows the line in, from Ann, with its breakdown.
        lines = watcher.locator("#lines")
        expect(lines).to_contain_text("Ann & Bob: in, from Ann")
        expect(lines).to_contain_text("+3,620")
        # Cat's phone, still typing, is told too; its figures are untouched.
        expect(cat.get_by_role("status").filter(has_text="Ann & Bob: in")).to_be_visible(
            timeout=IN_STEP_MS
        )
        expect(cat.locator("#s1-leftover_points")).to_have_value("85")
        check_axe(watcher)

        cat_user.tap(cat.get_by_role("button", name="Send this line"), "send")
        sent = time.monotonic()
        expect(
            cat.get_by_text("The line for Cat & Dan was the last one in: deal 1 saved.")
        ).to_be_visible()
        totals = watcher.locator("#totals")
        expect(totals).to_contain_text("3,620", timeout=IN_STEP_MS)
        expect(totals).to_contain_text("655")
        saved_seen = time.monotonic() - sent
        expect(watcher.get_by_role("link", name="Enter deal 2")).to_be_visible()
        watcher.screenshot(path=os.path.join(ARTIFACTS, f"{ann.device}-lines-watcher.png"))

        # Exactly one deal, holding both lines as their phones sent them; no line left over.
        saved = lines_of_the_deal(app)
        assert [(number, total) for number, _, total in saved] == [(1, 3620), (1, 655)]
        assert saved[0][1] == {
            "books": {"clean": 2, "dirty": 2, "wild": 1},
            "red_threes_down": 1,
            "went_out": True,
            "melded_points": 320,
        }
        assert saved[1][1] == {"books": {"clean": 1}, "melded_points": 240, "leftover_points": 85}
        assert lines_waiting(app) == 0
        assert ann_user.count <= MOST_ACTIONS, ann_user.log
        assert cat_user.count <= MOST_ACTIONS, cat_user.log
        print(
            f"\n{ann.device}: Ann & Bob's line {ann_user.count} actions, Cat & Dan's "
            f"{cat_user.count}; the watcher saw the first line in {seen:.2f} s and the saved "
            f"deal in {saved_seen:.2f} s"
        )
    finally:
        cat.context.close()
        watcher.context.close()
    assert cat.outside == [] and watcher.outside == []


def test_a_line_refused_with_the_other_sides_goes_back_to_its_phone(phone, browser, app):
    """Both sides say they went out: the second is refused with why, the first is kept."""
    ann = phone
    start_game(ann)
    game = game_link(ann)
    cat = open_phone(browser, ann.device, ann.base)
    try:
        ann.goto(f"{ann.base}{game}/deals/next/0")
        ann.get_by_label("Ann & Bob went out").check()
        ann.get_by_label("Melded card points").fill("320")
        ann.get_by_role("button", name="Send this line").tap()
        expect(ann.get_by_text("Deal 1: the line for Ann & Bob is in.")).to_be_visible()

        cat.goto(f"{ann.base}{game}/deals/next/1")
        cat.get_by_label("Cat & Dan went out").check()
        cat.get_by_label("Melded card points").fill("240")
        cat.get_by_role("button", name="Send this line").tap()
        problem = "Only one side can go out; Ann & Bob and Cat & Dan both did."
        expect(cat.locator("#problems")).to_contain_text(problem)
        expect(cat.locator("#went_out-error")).to_have_text(problem)
        expect(cat.get_by_label("Melded card points")).to_have_value("240")
        check_axe(cat)
        # Ann's phone, on the scoreboard, sees its line is in question too.
        expect(ann.locator("#lines")).to_contain_text(problem, timeout=IN_STEP_MS)
        assert lines_of_the_deal(app) == []
        assert lines_waiting(app) == 1

        # Cat & Dan did not go out after all: sent again, the deal is saved.
        # (Marking it filled in the books going out needs; they had 1 clean book.)
        cat.get_by_label("Cat & Dan went out").uncheck()
        for kind, count in (("clean", "1"), ("dirty", ""), ("wild", "")):
            cat.fill(f"#s1-books-{kind}", count)
        cat.get_by_label("Card points left in hands and feet").fill("85")
        cat.get_by_role("button", name="Send this line").tap()
        expect(cat.get_by_text("deal 1 saved.")).to_be_visible()
        assert [total for _, _, total in lines_of_the_deal(app)] == [3520, 655]
    finally:
        cat.context.close()


def test_a_line_entered_with_no_signal_is_sent_once_when_it_returns(phone, app):
    page = phone
    start_game(page)
    game = game_link(page)
    serve_worker(page)
    page.goto(f"{page.base}{game}/deals/next/1")
    serve_worker(page)
    expect(page.locator("h1")).to_have_text("Line for Cat & Dan, deal 1")
    # What the kept scoreboard lists a waiting line with: the page and the server's words of
    # the queue (in what the scorer is told), kept by the worker once the form had loaded.
    # Cut before they were, the list had the line with none of its words (CI, once).
    for path in (game, f"{game}/scorer"):
        kept_on_phone(page, path)

    no_signal(page.context)
    page.get_by_role("button", name="One more: clean books").tap()
    page.get_by_label("Melded card points").fill("240")
    page.get_by_role("button", name="Send this line").tap()
    # Kept on the phone: the kept scoreboard lists it as waiting.
    waiting = page.locator("[data-outbox-list]")
    expect(waiting).to_contain_text("Line for Cat & Dan, deal 1")
    expect(waiting).to_contain_text("waiting to send")
    assert lines_waiting(app) == 0

    signal_back(page.context)
    expect(waiting).to_be_hidden(timeout=10_000)
    with app.app_context():
        game_id = db.session.execute(
            select(Game.id).where(Game.secret == game.removeprefix("/t/"))
        ).scalar_one()
        rows = db.session.execute(select(DealPart)).scalars().all()
        assert [(r.game_id, r.side_position, r.entry) for r in rows] == [
            (game_id, 1, {"books": {"clean": 1}, "melded_points": 240})
        ]
    page.reload()
    expect(page.locator("#lines")).to_contain_text("Cat & Dan: in")
    assert lines_waiting(app) == 1


def test_marking_who_went_out_fills_in_the_books_and_takes_them_back(phone):
    """The whole deal's form: the books going out needs, filled where fewer were entered."""
    page = phone
    start_game(page)
    page.goto(f"{page.base}{game_link(page)}/deals/new")
    expect(page.get_by_text("Marking a side as going out fills in its books")).to_be_visible()
    page.fill("#s0-books-clean", "3")  # three clean books typed before: more than needed

    def books(side: int) -> list[str]:
        return [page.input_value(f"#s{side}-books-{k}") for k in ("clean", "dirty", "wild")]

    page.get_by_label("Ann & Bob", exact=True).check()
    assert books(0) == ["3", "2", "1"] and books(1) == ["", "", ""]
    expect(page.locator("#breakdown")).to_contain_text("Going out")
    page.get_by_label("Cat & Dan", exact=True).check()
    assert books(0) == ["3", "", ""] and books(1) == ["2", "2", "1"]
    page.fill("#s1-books-dirty", "3")  # changed since: stays when unmarked
    page.get_by_label("Nobody (stock ran out)").check()
    assert books(0) == ["3", "", ""] and books(1) == ["", "3", ""]


def test_a_phone_whose_line_another_replaced_is_told(phone, browser, app):
    """Ann and Bob both send Ann & Bob's line: Bob's, entered later, stands; Ann's phone says so."""
    ann = phone
    start_game(ann)
    game = game_link(ann)
    bob = open_phone(browser, ann.device, ann.base)
    try:
        for page, name, melded in ((ann, "Ann", "320"), (bob, "Bob", "330")):
            page.goto(f"{ann.base}{game}/deals/next/0")
            if page is bob:
                # Ann's line is in: Bob's phone, on no side yet, changes it once on their side.
                expect(page.get_by_role("button", name="Send this line")).to_have_count(0)
                page.get_by_role("button", name="This phone is on Ann & Bob's side").tap()
            call_me(page, name)
            page.get_by_label("Melded card points").fill(melded)
            page.get_by_role("button", name="Send this line").tap()
            expect(page.get_by_text("Deal 1: the line for Ann & Bob is in.")).to_be_visible()
        told = ann.get_by_role("status").filter(has_text="Bob sent a later line for Ann & Bob")
        expect(told).to_be_visible(timeout=IN_STEP_MS)
        expect(told).to_contain_text("theirs is kept")
        expect(ann.locator("#lines")).to_contain_text("Ann & Bob: in, from Bob")
        # Bob's phone, whose line stands, is told nothing of the kind.
        expect(bob.get_by_role("status").filter(has_text="Ann & Bob: in")).to_be_visible()
        expect(bob.get_by_text("sent a later line")).to_have_count(0)
        with app.app_context():
            [row] = db.session.execute(select(DealPart)).scalars().all()
            assert (row.sent_by, row.entry) == ("Bob", {"melded_points": 330})
    finally:
        bob.context.close()
