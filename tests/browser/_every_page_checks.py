"""The pages the every-page tests open (PAGES, and NEEDS_APP: the visits that take the app too)
and what is checked on each: controls with no name, the weight, the width, the layout at
200% text; a screenshot of each kept in test-artifacts/.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from playwright.sync_api import Page

from ._every_page_visits import (
    NIGHT_BOARD,
    NIGHT_CARDS,
    NIGHT_FINISHED,
    NIGHT_LINK_BOARD,
    NIGHT_LINK_RESULTS,
    NIGHT_SEATED,
    as_organiser,
    conflict,
    deal_with_counter,
    later_line_stands,
    line_refused,
    line_refused_with_another,
    line_saved_meanwhile,
    lines_arrived,
    my_games,
    night_game,
    not_found,
    plain,
    refused_by_the_decks,
    refused_deal,
    refused_game,
    refused_house_rule,
    refused_sign_in,
    saved_meanwhile,
    showing,
    table_link,
    table_link_opened,
)
from ._every_page_world import DEMO_SLUG
from .conftest import ARTIFACTS

# Chromium's default text size is 16 px; a player who doubles it sets 32 px.
LARGE_TEXT = {"standard": 32, "fixed": 26}
# The app's own root size (112.5% of the browser's), doubled.
LARGE_ROOT_PX = "36px"


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
    # Ann & Bob's line on a phone of no side: shown, not offered to change (issue 40).
    "line-held": showing("{w.lines_in}/deals/next/0", "#held", "only a phone on Ann & Bob's"),
    # A phone on Ann & Bob's side (as "This phone is on Ann & Bob's side" sends it: issue 40).
    "line-entry-sent-already": showing(
        "{w.lines_in}/deals/next/0?on_side=0", "#breakdown", "+3,595"
    ),
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
