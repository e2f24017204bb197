"""Whole journeys on a phone: a club game to its corrected end, ten-thousand's rising minimums,
and a refused correction that loses nothing.

Every expected figure is worked out by hand in the comments from the rule table
(/work/shared/rules/VARIANTS.md, scorekeeper/rules/presets.py), never with the app's own code.

Classic partnership: clean book 500, dirty 300, wild 1,500, red three laid +100, caught -100,
going out +100 (needs 2 clean + 2 dirty + 1 wild), four deals, minimums by deal 50/90/120/150.
Ten thousand: clean 500, dirty 300, wild 1,500, red three laid +100, caught -300, going out
+100 (needs 3 clean + 1 dirty + 1 wild), minimum by the side's total: below 1,500 (negative
too) 50; 1,500-2,995 90; 3,000-4,995 120; 5,000 and up 150.
A deal scores books + red threes + going out + melded - leftover card points.
"""

from __future__ import annotations

import os
import re

from playwright.sync_api import expect

from scorekeeper.services import accounts, clubs

from .conftest import ARTIFACTS, GAME_LINK, start_game

PASSWORD = "table-for-four"
SLUG = "tuesday"
STEPPERS = {
    "clean": "clean books",
    "dirty": "dirty books",
    "wild": "wild books",
    "down": "red threes laid down",
    "caught": "red threes caught",
}
SCOREBOARD = re.compile(GAME_LINK + r"#(totals|deal-\d+)$")


def shot(page, name: str) -> None:
    """Keep a screenshot of what the player saw, as a test artifact."""
    page.screenshot(path=os.path.join(ARTIFACTS, f"{page.device}-{name}.png"), full_page=True)


def enter_side(
    page,
    side: int,
    *,
    melded: str = "",
    leftover: str = "",
    cards: dict[str, str] | None = None,
    **steps: int,
) -> None:
    """One side's figures: + taps for the counts, typed points, or counted cards."""
    fieldset = page.locator("fieldset.side-entry").nth(side)
    for kind, taps in steps.items():
        for _ in range(taps):
            fieldset.get_by_role("button", name=f"One more: {STEPPERS[kind]}").click()
    if melded:
        page.fill(f"#s{side}-melded_points", melded)
    if leftover:
        page.fill(f"#s{side}-leftover_points", leftover)
    if cards:
        # "Count cards instead of points": card counts by category, the app adds them up.
        fieldset.locator("details.counter summary").click()
        for field, count in cards.items():
            page.fill(f"#s{side}-{field}", count)


def totals(page) -> list[str]:
    """The running totals on the scoreboard, once the page has come back to it."""
    expect(page).to_have_url(SCOREBOARD)
    return [t.split()[-1] for t in page.locator(".side .total").all_inner_texts()]


def minimums(page, where: str = ".minimum") -> list[str]:
    """What each side needs to open: the scoreboard's line or the deal page's legend."""
    return page.locator(where).all_inner_texts()


def save_deal(page, number: int, name: str) -> None:
    """Look at the filled-in deal page, then save it."""
    shot(page, name)
    page.get_by_role("button", name=f"Save deal {number}").click()


def wins(page) -> dict[str, int]:
    """The standings table's wins column, by member."""
    found = {}
    for row in page.locator("table.standings tbody tr").all():
        found[row.locator("th").inner_text()] = int(row.locator("td").nth(2).inner_text())
    return found


def test_a_club_game_corrected_after_the_end(phone, app):
    """Four deals of a club game, then a correction to deal 2 that hands the win across."""
    page = phone
    with app.app_context():
        olga = accounts.register("olga", PASSWORD)
        club = clubs.create_club("Tuesday Club", SLUG, olga)
        for name in ("Ann", "Bob", "Cat", "Dan"):
            clubs.add_member(club, name)

    # A finished club game is corrected only by an organiser: sign in as one.
    page.goto(page.base + "/login")
    page.fill("#username", "olga")
    page.fill("#password", PASSWORD)
    shot(page, "journey-club-sign-in")
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{page.base}/clubs/{SLUG}")
    shot(page, "journey-club-overview")
    page.get_by_role("link", name="Start a club game").click()
    shot(page, "journey-club-choose-rules")
    page.get_by_role("link", name="Play Classic partnership rules").click()
    for field, member in (
        ("side0_member0", "Ann"),
        ("side0_member1", "Bob"),
        ("side1_member0", "Cat"),
        ("side1_member1", "Dan"),
    ):
        page.select_option(f"#{field}", member)
    shot(page, "journey-club-new-game")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".side h3")).to_have_text(["Ann & Bob", "Cat & Dan"])
    assert minimums(page) == ["needs 50 to open"] * 2
    shot(page, "journey-club-scoreboard-0")

    # Deal 1 (needs 50). Ann & Bob go out: 2×500 + 2×300 + 1,500 + 100 out + 300 melded
    # = 3,500. Cat & Dan: 1×500 + 200 melded − 50 left = 650.
    page.get_by_role("link", name="Enter deal 1").click()
    assert minimums(page, ".needs") == ["needs 50 to open"] * 2
    enter_side(page, 0, clean=2, dirty=2, wild=1, melded="300")
    enter_side(page, 1, clean=1, melded="200", leftover="50")
    page.get_by_label("Ann & Bob", exact=True).check()
    save_deal(page, 1, "journey-club-deal-1")
    assert totals(page) == ["3,500", "650"]
    assert minimums(page) == ["needs 90 to open"] * 2
    shot(page, "journey-club-scoreboard-1")

    # Deal 2 (needs 90). Cat & Dan go out: 2×500 + 2×300 + 1×1,500 + 1 red three 100
    # + 100 out + 400 melded = 3,700 → 650 + 3,700 = 4,350.
    # Ann & Bob: 1×300 + 150 melded − 100 left = 350 → 3,500 + 350 = 3,850.
    page.get_by_role("link", name="Enter deal 2").click()
    assert minimums(page, ".needs") == ["needs 90 to open"] * 2
    enter_side(page, 0, dirty=1, melded="150", leftover="100")
    enter_side(page, 1, clean=2, dirty=2, wild=1, down=1, melded="400")
    page.get_by_label("Cat & Dan", exact=True).check()
    save_deal(page, 2, "journey-club-deal-2")
    assert totals(page) == ["3,850", "4,350"]
    assert minimums(page) == ["needs 120 to open"] * 2
    shot(page, "journey-club-scoreboard-2")

    # Deal 3 (needs 120), the stock ran out. Ann & Bob count their cards: melded 2 jokers
    # (2×50) + 4 aces (4×20) + 6 eights to kings (6×10) = 240, left 3 fours to sevens
    # (3×5) = 15; 1×500 + 240 − 15 = 725 → 3,850 + 725 = 4,575.
    # Cat & Dan: 1×300 + 1 red three laid 100 − 1 caught 100 + 150 melded = 450 → 4,800.
    page.get_by_role("link", name="Enter deal 3").click()
    assert minimums(page, ".needs") == ["needs 120 to open"] * 2
    counted = {
        "melded_cards-joker": "2",
        "melded_cards-ace": "4",
        "melded_cards-eight_to_king": "6",
        "leftover_cards-four_to_seven": "3",
    }
    enter_side(page, 0, clean=1, cards=counted)
    enter_side(page, 1, dirty=1, down=1, caught=1, melded="150")
    # The server's breakdown adds up the counted cards before anything is saved.
    expect(page.locator("#breakdown")).to_contain_text("240 melded − 15 left")
    save_deal(page, 3, "journey-club-deal-3")
    assert totals(page) == ["4,575", "4,800"]
    assert minimums(page) == ["needs 150 to open"] * 2
    shot(page, "journey-club-scoreboard-3")

    # Deal 4 (needs 150), the last. Ann & Bob go out: 2×500 + 2×300 + 1,500 + 100 out
    # + 200 melded = 3,400 → 4,575 + 3,400 = 7,975.
    # Cat & Dan: 2×500 + 300 melded − 80 left = 1,220 → 4,800 + 1,220 = 6,020.
    page.get_by_role("link", name="Enter deal 4").click()
    assert minimums(page, ".needs") == ["needs 150 to open"] * 2
    enter_side(page, 0, clean=2, dirty=2, wild=1, melded="200")
    enter_side(page, 1, clean=2, melded="300", leftover="80")
    page.get_by_label("Ann & Bob", exact=True).check()
    save_deal(page, 4, "journey-club-deal-4")
    assert totals(page) == ["7,975", "6,020"]
    banner = page.locator(".result")
    expect(banner).to_contain_text("Game over")
    expect(banner).to_contain_text("Winner: Ann & Bob, 7,975")
    expect(page.locator(".side.winner h3")).to_have_text(["Ann & Bob"])
    assert minimums(page) == []  # a finished game needs no opening minimum
    expect(page.get_by_role("link", name="Enter deal 5")).to_have_count(0)
    shot(page, "journey-club-game-over")

    page.goto(f"{page.base}/clubs/{SLUG}/standings")
    assert wins(page) == {"Ann": 1, "Bob": 1, "Cat": 0, "Dan": 0}
    shot(page, "journey-club-standings-before")
    page.go_back()

    # Cat & Dan closed three wild books in deal 2, not one: two more at 1,500 each make
    # their deal 3,700 + 3,000 = 6,700, and every later total moves by 3,000:
    # 650 + 6,700 = 7,350; 7,350 + 450 = 7,800; 7,800 + 1,220 = 9,020 > Ann & Bob's 7,975.
    page.locator("#deal-2 summary").click()
    page.get_by_role("link", name="Correct deal 2").click()
    expect(page).to_have_url(re.compile(GAME_LINK + r"/deals/2/edit$"))
    expect(page.locator("h1")).to_have_text("Correct deal 2")
    # The page is filled with what was saved; minimums are those deal 2 was played with.
    assert page.input_value("#s1-books-wild") == "1"
    assert page.input_value("#s1-melded_points") == "400"
    assert page.get_by_label("Cat & Dan", exact=True).is_checked()
    assert minimums(page, ".needs") == ["needed 90 to open"] * 2
    wild = page.locator("fieldset.side-entry").nth(1)
    for _ in range(2):
        wild.get_by_role("button", name="One more: wild books").click()
    assert page.input_value("#s1-books-wild") == "3"
    shot(page, "journey-club-correct-deal-2")
    page.get_by_role("button", name="Save correction").click()
    assert totals(page) == ["7,975", "9,020"]
    expect(banner).to_contain_text("Winner: Cat & Dan, 9,020")
    expect(page.locator(".side.winner h3")).to_have_text(["Cat & Dan"])
    deal_lines = page.locator("details.deal summary").all_inner_texts()
    assert "Cat & Dan +6,700 → 7,350" in " ".join(deal_lines[1].split())
    assert "Cat & Dan +450 → 7,800" in " ".join(deal_lines[2].split())
    assert "Cat & Dan +1,220 → 9,020" in " ".join(deal_lines[3].split())
    shot(page, "journey-club-corrected")

    # The club's records follow the correction: the win is now Cat's and Dan's.
    page.goto(f"{page.base}/clubs/{SLUG}/standings")
    assert wins(page) == {"Ann": 0, "Bob": 0, "Cat": 1, "Dan": 1}
    shot(page, "journey-club-standings-after")


def test_ten_thousand_minimums_rise_with_the_total(phone):
    """A side's opening minimum follows its running total across every band edge."""
    page = phone
    page.goto(page.base + "/games/new?ruleset=ten-thousand")
    page.fill("#side0_players", "Ann, Bob")
    page.fill("#side1_players", "Cat, Dan")
    shot(page, "journey-ten-thousand-new-game")
    page.get_by_role("button", name="Start the game").click()
    assert minimums(page) == ["needs 50 to open"] * 2
    shot(page, "journey-ten-thousand-scoreboard-0")

    # Deal 1. Ann & Bob: 2×500 + 1×300 + 195 melded = 1,495: just below 1,500, still 50.
    # Cat & Dan: 1 red three caught −300, nothing melded = −300: negative, the lowest band, 50.
    page.get_by_role("link", name="Enter deal 1").click()
    assert minimums(page, ".needs") == ["needs 50 to open"] * 2
    enter_side(page, 0, clean=2, dirty=1, melded="195")
    enter_side(page, 1, caught=1)
    save_deal(page, 1, "journey-ten-thousand-deal-1")
    assert totals(page) == ["1,495", "−300"]
    assert minimums(page) == ["needs 50 to open"] * 2
    shot(page, "journey-ten-thousand-scoreboard-1")

    # Deal 2. Ann & Bob: 1×300 + 150 melded − 445 left = 5 → 1,500: the 90 band begins.
    # Cat & Dan: 3×500 + 295 melded = 1,795 → −300 + 1,795 = 1,495: still 50.
    page.get_by_role("link", name="Enter deal 2").click()
    assert minimums(page, ".needs") == ["needs 50 to open"] * 2
    enter_side(page, 0, dirty=1, melded="150", leftover="445")
    enter_side(page, 1, clean=3, melded="295")
    save_deal(page, 2, "journey-ten-thousand-deal-2")
    assert totals(page) == ["1,500", "1,495"]
    assert minimums(page) == ["needs 90 to open", "needs 50 to open"]
    shot(page, "journey-ten-thousand-scoreboard-2")

    # Deal 3. Ann & Bob: 2×500 + 1×300 + 195 melded = 1,495 → 2,995: top of the 90 band.
    # Cat & Dan: 1×300 + 100 melded − 395 left = 5 → 1,500: now 90 as well.
    page.get_by_role("link", name="Enter deal 3").click()
    assert minimums(page, ".needs") == ["needs 90 to open", "needs 50 to open"]
    enter_side(page, 0, clean=2, dirty=1, melded="195")
    enter_side(page, 1, dirty=1, melded="100", leftover="395")
    save_deal(page, 3, "journey-ten-thousand-deal-3")
    assert totals(page) == ["2,995", "1,500"]
    assert minimums(page) == ["needs 90 to open"] * 2
    shot(page, "journey-ten-thousand-scoreboard-3")

    # Deal 4. Ann & Bob: 1×300 + 150 melded − 445 left = 5 → 3,000: 120.
    # Cat & Dan go out: 3×500 + 1×300 + 1×1,500 + 100 out + 100 melded = 3,500 → 5,000: 150.
    page.get_by_role("link", name="Enter deal 4").click()
    assert minimums(page, ".needs") == ["needs 90 to open"] * 2
    enter_side(page, 0, dirty=1, melded="150", leftover="445")
    enter_side(page, 1, clean=3, dirty=1, wild=1, melded="100")
    page.get_by_label("Cat & Dan", exact=True).check()
    save_deal(page, 4, "journey-ten-thousand-deal-4")
    assert totals(page) == ["3,000", "5,000"]
    assert minimums(page) == ["needs 120 to open", "needs 150 to open"]
    # Nobody is near 10,000: the game goes on.
    expect(page.locator(".result")).to_have_count(0)
    expect(page.get_by_role("link", name="Enter deal 5")).to_be_visible()
    shot(page, "journey-ten-thousand-scoreboard-4")
    page.get_by_role("link", name="Enter deal 5").click()
    assert minimums(page, ".needs") == ["needs 120 to open", "needs 150 to open"]
    shot(page, "journey-ten-thousand-deal-5")


def test_a_refused_correction_keeps_what_was_typed(phone):
    """A correction with typos is explained; every typed figure stays; the saved deal stands."""
    page = phone
    start_game(page)

    # Deal 1. Ann & Bob go out: 2×500 + 2×300 + 1,500 + 100 out + 300 melded = 3,500.
    # Cat & Dan: 1×500 + 200 melded − 50 left = 650.
    page.get_by_role("link", name="Enter deal 1").click()
    enter_side(page, 0, clean=2, dirty=2, wild=1, melded="300")
    enter_side(page, 1, clean=1, melded="200", leftover="50")
    page.get_by_label("Ann & Bob", exact=True).check()
    page.get_by_role("button", name="Save deal 1").click()
    assert totals(page) == ["3,500", "650"]
    shot(page, "journey-correction-scoreboard-before")

    # The correction: two typos among honest changes. 233 is not a multiple of 5, and
    # 5 wild books need 5×7 = 35 wild cards + at least 1 per dirty book (2) = 37, with the
    # other side's counted joker 38, more than the 5 decks (4 players + 1) hold: 5×6 = 30.
    page.locator("#deal-1 summary").click()
    page.get_by_role("link", name="Correct deal 1").click()
    ann, cat = (page.locator("fieldset.side-entry").nth(i) for i in (0, 1))
    for _ in range(4):
        ann.get_by_role("button", name="One more: wild books").click()
    ann.get_by_role("button", name="One more: red threes laid down").click()
    page.fill("#s0-melded_points", "233")
    cat.get_by_role("button", name="One more: red threes caught").click()
    page.fill("#s1-melded_points", "")
    page.fill("#s1-leftover_points", "")
    cat.locator("details.counter summary").click()
    page.fill("#s1-melded_cards-joker", "1")
    page.fill("#s1-melded_cards-eight_to_king", "15")
    page.fill("#s1-leftover_cards-ace", "2")
    typed = {
        "#s0-books-clean": "2",
        "#s0-books-dirty": "2",
        "#s0-books-wild": "5",
        "#s0-red_threes_down": "1",
        "#s0-melded_points": "233",
        "#s1-books-clean": "1",
        "#s1-red_threes_caught": "1",
        "#s1-melded_points": "",
        "#s1-leftover_points": "",
        "#s1-melded_cards-joker": "1",
        "#s1-melded_cards-eight_to_king": "15",
        "#s1-leftover_cards-ace": "2",
    }
    # The phone refuses these figures itself (issue 40); this journey is of the server's
    # refusal page, as a phone without its scorer meets it: the form goes as typed.
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator("[data-refused-save]")).to_be_visible()
    page.evaluate("document.querySelector('form[data-preview]').dataset.resend = ''")
    page.get_by_role("button", name="Save correction").click()

    problems = page.locator(".problems")
    expect(problems).to_contain_text("Nothing was saved")
    expect(problems).to_contain_text("melded card points of 233 is not a multiple of 5")
    # Ann & Bob's books need 37 wild cards; Cat & Dan's counted joker is one more: 38.
    expect(problems).to_contain_text("38 wild cards needed for the books and the cards counted")
    # The limit stands beside each figure that counted toward it.
    for counted in ("#s0-books-wild", "#s0-books-dirty", "#s1-melded_cards-joker"):
        expect(page.locator(counted)).to_have_attribute("aria-invalid", "true")
    expect(page.locator("h1")).to_have_text("Correct deal 1")
    for field, value in typed.items():
        assert page.input_value(field) == value, field
    assert page.get_by_label("Ann & Bob", exact=True).is_checked()
    # The counted cards stay in view: the helper opens by itself when it holds figures.
    expect(cat.locator("details.counter")).to_have_attribute("open", "")
    expect(page.locator("#s0-melded_points")).to_have_attribute("aria-invalid", "true")
    shot(page, "journey-correction-refused")

    # Nothing changed: the scoreboard still has deal 1 as first saved.
    page.get_by_role("link", name="Scoreboard").click()
    expect(page).to_have_url(re.compile(GAME_LINK + "$"))
    assert [t.split()[-1] for t in page.locator(".side .total").all_inner_texts()] == [
        "3,500",
        "650",
    ]
    page.locator("#deal-1 summary").click()
    page.get_by_role("link", name="Correct deal 1").click()
    assert page.input_value("#s0-books-wild") == "1"
    assert page.input_value("#s0-melded_points") == "300"
    assert page.input_value("#s1-leftover_points") == "50"
    assert page.input_value("#s1-melded_cards-joker") == ""
    shot(page, "journey-correction-unchanged")
