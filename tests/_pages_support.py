"""Helpers for the HTML page tests: reading a page back, finding figures, starting games and
filling in forms.

Used by test_pages.py and the page tests split from it (test_deal_pages.py,
test_rule_card_pages.py, test_scoreboard_pages.py); other test files import them through
test_pages, which re-exports them.
"""

from __future__ import annotations

import re
from typing import Any

from game_links import key as game_key
from game_links import link
from page_reader import read_page
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game

# ------------------------------------------------------------------------- helpers


def text(response) -> str:
    """A page's visible text, whitespace collapsed."""
    return " ".join(" ".join(read_page(response.get_data(as_text=True)).words).split())


def values(response) -> dict[str, str]:
    """What the page's form would post as it stands."""
    return read_page(response.get_data(as_text=True)).values


def number(n: int) -> str:
    """A pattern for a figure as pages show it: 3,800 or 3800, −150 (a true minus), +50 or 50."""
    digits = f"{abs(n):,}".replace(",", ",?")
    sign = "−" if n < 0 else r"\+?"
    return rf"(?<![\d,]){sign}{digits}(?![\d,])"


def near(page: str, label: str, n: int, gap: int = 40, *, numbers_between: bool = False) -> bool:
    """Whether the label is followed closely by the figure (by default with no number between)."""
    between = "." if numbers_between else r"[^\d]"
    return re.search(rf"{re.escape(label)}{between}{{0,{gap}}}?{number(n)}", page) is not None


def assert_side(page: str, name: str, total: int, needs: int) -> None:
    """The scoreboard shows the side's total and what it needs to open."""
    pattern = (
        rf"{re.escape(name)}\b(?:(?!needs).){{0,80}}?{number(total)}\s*needs\s+{needs}\s+to open"
    )
    assert re.search(pattern, page), f"{name}: {total:,}, needs {needs} — not in: {page}"


def assert_beside(response, field: str, words: str) -> None:
    """The message is shown right after the field's input, before any other input."""
    html = response.get_data(as_text=True)
    marker = f'name="{field}"'
    at = html.rfind(marker)
    assert at >= 0, f"no input {field}"
    message = html.find(words, at)
    assert message >= 0, f"{words!r} not after {field}"
    assert "<input" not in html[at + len(marker) : message], f"{words!r} is not beside {field}"


def game_id_from(client, location: str) -> int:
    """The game a redirect goes to: its private link `/t/<secret>`, looked up to the game's id."""
    found = re.search(r"/t/([A-Za-z0-9_-]{22})(?:#.*)?$", location)
    assert found, location
    with client.application.app_context():
        game_id = db.session.execute(
            select(Game.id).where(Game.secret == found.group(1))
        ).scalar_one_or_none()
    assert game_id is not None, f"no game has the link {location}"
    return game_id


def game_count(client) -> int:
    with client.application.app_context():
        return db.session.execute(select(func.count()).select_from(Game)).scalar_one()


def api_state(client, game_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/v1/games/{game_id}", headers=game_key(client, game_id))
    assert answer.status_code == 200
    return answer.get_json()


def api_game(client, ruleset: str, sides: list[tuple[str, list[str]]], **more: Any) -> int:
    """A game started through the API (for tests about other pages)."""
    answer = client.post(
        "/api/v1/games",
        json={"ruleset": ruleset, "sides": [{"name": n, "players": p} for n, p in sides], **more},
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def api_deal(client, game_id: int, *scores: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(
        f"/api/v1/games/{game_id}/deals",
        json={"scores": list(scores)},
        headers=game_key(client, game_id),
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


TEAMS = [("North", ["Ann", "Bob"]), ("South", ["Cat", "Dan"])]
SINGLES = [("Ann", ["Ann"]), ("Cat", ["Cat"])]


def start_by_form(client, ruleset: str, sides: list[tuple[str, str]], **rules: str) -> int:
    """Fill in the new-game form as fetched (prefilled house rules included) and post it."""
    form = client.get(f"/games/new?ruleset={ruleset}")
    assert form.status_code == 200
    data = values(form)
    assert data.get("ruleset") == ruleset
    for index, (name, players) in enumerate(sides):
        data[f"side{index}_name"] = name
        if players:  # individual rule sets ask for names only
            data[f"side{index}_players"] = players
    data.update(rules)
    answer = client.post("/games/new", data=data)
    assert answer.status_code == 302, text(answer)
    return game_id_from(client, answer.headers["Location"])


def deal_by_form(client, game_id: int, figures: dict[str, str], went_out: str = ""):
    """Fill in the deal form as fetched and post it; the response, not followed."""
    form = client.get(f"{link(client, game_id)}/deals/new")
    assert form.status_code == 200
    data = values(form)
    missing = set(figures) - set(read_page(form.get_data(as_text=True)).inputs)
    assert not missing, f"the deal form has no {missing}"
    data.update(figures)
    data["went_out"] = went_out
    return client.post(f"{link(client, game_id)}/deals/new", data=data)


# A first deal, for the corrections, the rule cards and the scoreboard.
FIRST_DEAL = (
    {"books": {"clean": 2, "dirty": 2, "wild": 1}, "went_out": True, "melded_points": 500},
    {"melded_points": 200},
)
