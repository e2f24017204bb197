"""The deals waiting on a phone with no signal (issue 40): the offline queue's seams closed.

Real Chromium, real service worker (tests/browser/test_live.py says how "no signal" is made).
Save refuses what the phone's scorer refuses, with signal or none, so such a deal is neither
sent nor kept to send; deals waiting are numbered as the server will number them, and one the
server refuses holds those behind it until it is fixed (opened with the server's refusal) or
discarded, after which they are sent in order with the numbers the phone showed; a provisional
end (the phone's count of the deals waiting ends the game) offers no next deal; the chart says
it leaves the deals waiting out; and no sentence on the scoreboard or the form ends on a colon.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game

from .test_live import (
    deals_saved,
    enter_deal,
    game_opened_with_signal,
    no_signal,
    signal_back,
)

# Every line of text shown in a block of the page (a paragraph, a list item, a heading, a
# button, a cell...), as the person reads it: the inline pieces of a sentence run together.
ENDING_ON_A_COLON = """() => {
  const found = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  for (let node = walker.currentNode; node; node = walker.nextNode()) {
    if (!node.checkVisibility({ visibilityProperty: true })) continue;
    // A chart's labels are SVG: words each, read as its table (an HTML one) says them.
    if (!(node instanceof HTMLElement)) continue;
    const display = getComputedStyle(node).display;
    if (display === "inline" || display === "contents") continue;
    for (const line of node.innerText.split("\\n")) {
      if (line.trim().endsWith(":")) found.add(line.trim());
    }
  }
  return [...found];
}"""


def no_sentence_ends_on_a_colon(page) -> None:
    """Nothing visible on the page ends on a colon with nothing after it."""
    assert page.evaluate(ENDING_ON_A_COLON) == [], page.url


def scoring(page) -> None:
    """Wait until the phone's scorer scores the deal form (it loads once the page has painted)."""
    page.wait_for_function("() => window.hf && window.hf.scoring === true")


def test_a_deal_the_phone_refuses_is_neither_saved_nor_kept(phone, app):
    page = phone
    game = game_opened_with_signal(page)

    # No signal: 123 melded points are refused as they are typed, and Save refuses them too.
    no_signal(page.context)
    page.reload()
    page.get_by_role("link", name="Enter deal 1").tap()
    scoring(page)
    enter_deal(page, ("480", "130"))
    page.fill("#s1-melded_points", "123")
    problems = page.locator("#breakdown .preview-problems")
    expect(problems).to_contain_text("melded card points of 123 is not a multiple of 5")
    page.get_by_role("button", name="Save deal 1").tap()
    refused = page.locator("[data-refused-save]")
    expect(refused).to_be_visible()
    expect(refused).to_have_attribute("role", "alert")
    expect(page.locator("#s1-melded_points")).to_be_focused()
    expect(page.get_by_role("heading", name="Enter deal 1")).to_be_visible()
    no_sentence_ends_on_a_colon(page)
    # Nothing was kept to send: the worker's outbox is empty, and Save works again.
    assert page.evaluate(OUTBOX) == []
    expect(page.get_by_role("button", name="Save deal 1")).to_be_enabled()

    # With signal it is refused the same way, on the phone.
    signal_back(page.context)
    page.get_by_role("button", name="Save deal 1").tap()
    expect(refused.first).to_be_visible()
    assert deals_saved(app, game) == 0

    # Corrected, it is saved.
    page.fill("#s1-melded_points", "125")
    expect(problems).to_have_count(0)
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.get_by_text("Deal 1 saved.")).to_be_visible()
    assert deals_saved(app, game) == 1

    # A deal waiting to send is not in the chart of the server's deals, and the page says so.
    kept_form_is_for(page, f"{game}/deals/new", 2)
    no_signal(page.context)
    page.get_by_role("link", name="Enter deal 2").tap()
    scoring(page)
    enter_deal(page, ("300", "300"), went_out=1)
    page.get_by_role("button", name="Save deal 2").tap()
    expect(page.locator(".deal.waiting")).to_contain_text("Deal 2 · waiting to send")
    expect(page.locator("figure.chart + p.hint")).to_contain_text(
        "The chart shows only the deals the server has"
    )
    no_sentence_ends_on_a_colon(page)


KEPT_TEXT = """async path => {
  const kept = await (await caches.open("pages-v1")).match(location.origin + path);
  return kept ? await kept.text() : "";
}"""


def kept_form_is_for(page, path: str, number: int) -> None:
    """Wait until the deal form the phone keeps for no signal is the one for deal `number`."""
    page.wait_for_function(
        f"async ([path, heading]) => ({KEPT_TEXT})(path).then(text => text.includes(heading))",
        arg=[path, f"Enter deal {number}</h1>"],
        timeout=5_000,
    )


# What the worker keeps to send, read from its store on the phone.
OUTBOX = """() => new Promise((resolve, reject) => {
  const opened = indexedDB.open("scorekeeper", 1);
  opened.onupgradeneeded = () => opened.result.createObjectStore("outbox", { keyPath: "key" });
  opened.onerror = () => reject(opened.error);
  opened.onsuccess = () => {
    const asked = opened.result.transaction("outbox").objectStore("outbox").getAll();
    asked.onsuccess = () => resolve(asked.result.map((item) => item.number));
  };
})"""


def rules_changed_on_the_server(app, link: str, house_rules: dict) -> None:
    """The game's rules changed on the server after the phone kept them: a stand-in for any
    refusal the phone's scorer could not foresee (its kept rules, or a figure it cannot judge)."""
    with app.app_context():
        query = select(Game).where(Game.secret == link.removeprefix("/t/"))
        db.session.execute(query).scalar_one().house_rules = house_rules
        db.session.commit()


def deal_totals(page, deal: str) -> list[str]:
    """Each side's deal total in a row of the deals list ("Ann & Bob +3,680"), not the totals."""
    texts = page.locator(deal).locator(".deal-side").all_inner_texts()
    return [text.split(" → ")[0].strip() for text in texts]


def test_a_refused_deal_holds_those_behind_it_until_it_is_fixed(phone, app):
    page = phone
    game = game_opened_with_signal(page)
    no_signal(page.context)
    page.reload()

    # Deal 1: Ann & Bob go out with the 2 clean books the rules the phone holds ask for.
    page.get_by_role("link", name="Enter deal 1").tap()
    scoring(page)
    enter_deal(page, ("100", "50"))
    expect(page.locator("#breakdown")).to_contain_text("Deal total")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("[data-outbox]")).to_contain_text("Deal 1, entered at")

    # Three more: each link names the deal its form is for, and the form says the same.
    figures = {2: (("480", "130"), 0), 3: (("300", "300"), 1), 4: (("200", "150"), 0)}
    for number, (melded, out) in figures.items():
        page.get_by_role("link", name=f"Enter deal {number}").tap()
        expect(page.get_by_role("heading", name=f"Enter deal {number}")).to_be_visible()
        expect(page.locator("input[name=number]")).to_have_value(str(number))
        scoring(page)
        enter_deal(page, melded, went_out=out)
        page.fill(f"#s{out}-books-clean", "3")  # as many as any rules here ask for
        page.get_by_role("button", name=f"Save deal {number}").tap()
        expect(page.locator(".deal.waiting")).to_have_count(number)
    shown = {n: deal_totals(page, f".deal.waiting >> nth={n - 1}") for n in (2, 3, 4)}
    assert all(len(sides) == 2 and "+" in sides[0] for sides in shown.values()), shown
    assert sorted(page.evaluate(OUTBOX)) == [1, 2, 3, 4]

    # Classic ends after 4 deals: the phone's count ends the game, and no next deal is offered.
    totals = page.locator("#totals")
    expect(totals).to_contain_text("provisional until they are sent.")
    expect(totals).to_contain_text("the game is over, won by")
    expect(page.get_by_role("link", name=re.compile(r"^Enter deal"))).to_have_count(0)
    expect(page.locator("#lines")).to_be_hidden()
    expect(page.locator("p.dealer")).to_be_hidden()
    assert "deal 5" not in page.locator("main").inner_text().lower()
    no_sentence_ends_on_a_colon(page)

    # Meanwhile the server's rules ask for 3 clean books to go out. Signal back: the server
    # refuses deal 1, and the three behind it wait for it.
    rules_changed_on_the_server(app, game, {"books_to_go_out": {"clean": 3, "dirty": 2, "wild": 1}})
    signal_back(page.context)
    outbox = page.locator("[data-outbox]")
    first = outbox.locator("li").filter(has_text="Deal 1, entered at")
    expect(first).to_contain_text("The server refused a figure", timeout=10_000)
    for number in (2, 3, 4):
        expect(outbox.locator("li").filter(has_text=f"Deal {number}, entered at")).to_contain_text(
            "after deal 1, which needs you first."
        )
    assert deals_saved(app, game) == 0
    assert sorted(page.evaluate(OUTBOX)) == [1, 2, 3, 4]
    no_sentence_ends_on_a_colon(page)

    # Opened, it goes back to the server as it was: its refusal is shown beside the figures.
    first.get_by_role("link", name="Open it").tap()
    alert = page.locator("#problems")
    expect(alert).to_contain_text("cannot go out without 3 clean books")
    expect(page.get_by_role("heading", name="Enter deal 1")).to_be_visible()
    expect(page.locator("input[name=number]")).to_have_value("1")
    no_sentence_ends_on_a_colon(page)

    # Fixed and saved as deal 1; the three behind it follow in order, as deals 2, 3 and 4.
    page.fill("#s0-books-clean", "3")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.get_by_text("Deal 1 saved.")).to_be_visible()
    expect(outbox).to_be_hidden(timeout=10_000)
    expect(page.locator("#deal-4")).to_be_attached(timeout=5_000)
    assert deals_saved(app, game) == 4
    for number in (2, 3, 4):
        assert deal_totals(page, f"#deal-{number}") == shown[number], number
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    assert page.evaluate(OUTBOX) == []


# A card class the deal form has no field for (a form from another version, or changed).
NO_SUCH_FIELD = """() => {
  const input = Object.assign(document.createElement("input"),
                              { name: "s1-melded_cards-three", value: "2", inputMode: "numeric" });
  document.querySelector("form[data-preview]").appendChild(input);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}"""


def test_figures_the_phone_cannot_judge_go_to_the_server_to_judge(phone, app):
    page = phone
    game = game_opened_with_signal(page)
    no_signal(page.context)
    page.reload()
    page.get_by_role("link", name="Enter deal 1").tap()
    scoring(page)
    enter_deal(page, ("480", "130"))
    page.evaluate(NO_SUCH_FIELD)
    breakdown = page.locator("#breakdown")
    expect(breakdown).to_contain_text("This phone cannot work these figures out")
    assert "NaN" not in breakdown.inner_text()

    # Saved, it waits to send like any deal, not counted here and never a NaN.
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("[data-outbox]")).to_contain_text("Deal 1, entered at")
    row = page.locator(".deal.waiting")
    expect(row).to_contain_text("Not counted; the server judges it when it is sent.")
    expect(page.get_by_role("link", name="Enter deal 2")).to_be_visible()
    assert "NaN" not in page.locator("main").inner_text()
    no_sentence_ends_on_a_colon(page)

    # With signal, the server judges it (its form has no such field, so it takes the rest).
    signal_back(page.context)
    expect(page.locator("[data-outbox]")).to_be_hidden(timeout=10_000)
    assert deals_saved(app, game) == 1


def test_a_refused_deal_discarded_moves_those_behind_it_up(phone, app):
    page = phone
    game = game_opened_with_signal(page)
    no_signal(page.context)
    page.reload()
    for number, clean in ((1, "2"), (2, "3"), (3, "3")):
        page.get_by_role("link", name=f"Enter deal {number}").tap()
        expect(page.get_by_role("heading", name=f"Enter deal {number}")).to_be_visible()
        scoring(page)
        enter_deal(page, ("300", str(100 * number)))
        page.fill("#s0-books-clean", clean)
        page.get_by_role("button", name=f"Save deal {number}").tap()
        expect(page.locator(".deal.waiting")).to_have_count(number)
    rules_changed_on_the_server(app, game, {"books_to_go_out": {"clean": 3, "dirty": 2, "wild": 1}})
    signal_back(page.context)
    outbox = page.locator("[data-outbox]")
    first = outbox.locator("li").filter(has_text="Deal 1, entered at")
    expect(first).to_contain_text("The server refused a figure", timeout=10_000)

    # Discarded: the two behind it are sent, as deals 1 and 2 (Cat & Dan melded 200, then 300).
    page.once("dialog", lambda dialog: dialog.accept())
    first.get_by_role("button", name="Discard deal 1").tap()
    expect(outbox).to_be_hidden(timeout=10_000)
    expect(page.locator("#deal-2")).to_be_attached(timeout=5_000)
    assert deals_saved(app, game) == 2
    assert deal_totals(page, "#deal-1")[1] == "Cat & Dan +200"
    assert deal_totals(page, "#deal-2")[1] == "Cat & Dan +300"
