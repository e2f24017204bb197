"""The phones at a table as the live tests see them: a game by its id and secret, starting one,
saving deals through the API, asking the live answer, saying who is entering, and links that
open no game. Shared by tests/test_live.py, tests/test_live_entering.py,
tests/test_live_deal_form.py, tests/test_live_club_games.py, tests/test_table_news.py and
tests/test_next_game.py.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from page_reader import Page, read_page
from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Entering
from scorekeeper.services import live

SINGLES = [{"name": "Ann", "players": ["Ann"]}, {"name": "Cat", "players": ["Cat"]}]
# Club rules: a clean book is 500, no one out; four deals end the game.
QUIET = ({"books": {"clean": 1}}, {})
PHONE_A = "a" * 32
PHONE_B = "b" * 32
PHONE_C = "0123456789abcdef" * 2

# ------------------------------------------------------------------------- helpers


class Table(NamedTuple):
    """A game as the phones at its table know it: its id and its secret."""

    id: int
    secret: str

    @property
    def link(self) -> str:
        """Its private link, as a path: every page, the live answer and "entering" hang on it."""
        return f"/t/{self.secret}"

    @property
    def key(self) -> dict[str, str]:
        """The header its API needs."""
        return {"X-Game-Key": self.secret}


def form_of(response) -> Page:
    return read_page(response.get_data(as_text=True))


def text(response) -> str:
    """A page's text, whitespace collapsed."""
    return " ".join(" ".join(form_of(response).words).split())


def start(client, ruleset: str = "club") -> Table:
    """A casual game started through the API, with the secret its answer gives."""
    answer = client.post("/api/v1/games", json={"ruleset": ruleset, "sides": SINGLES})
    assert answer.status_code == 201, answer.get_json()
    made = answer.get_json()
    assert made["url"] == f"/t/{made['key']}"
    return Table(made["id"], made["key"])


def api_deal(client, game: Table, *scores: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(
        f"/api/v1/games/{game.id}/deals", json={"scores": list(scores or QUIET)}, headers=game.key
    )
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()


def saved_deals(client, game: Table) -> list[dict[str, Any]]:
    answer = client.get(f"/api/v1/games/{game.id}", headers=game.key)
    assert answer.status_code == 200
    return answer.get_json()["deals"]


def live_of(client, game: Table, device: str | None = None, **headers: str):
    query = f"?device={device}" if device else ""
    return client.get(f"{game.link}/live{query}", headers=headers)


def entering_of(answer) -> list[dict[str, Any]]:
    """Who the live answer lists as entering, each with its fresh_for checked and left out."""
    listed = answer.get_json()["entering"]
    for one in listed:
        assert 0 < one.pop("fresh_for") <= live.FRESH.total_seconds()
    return listed


def say(client, game: Table, device: str = PHONE_A, deal: Any = 1, name: str = "Ann", **more):
    data = {"device": device, "deal": str(deal), "name": name, **more}
    return client.post(f"{game.link}/entering", data=data)


def entering_rows(app) -> list[tuple[int, str, str, int]]:
    with app.app_context():
        rows = db.session.execute(
            select(Entering.game_id, Entering.device, Entering.name, Entering.deal_number)
        )
        return [tuple(row) for row in rows]


def typed_deal(client, game: Table) -> dict[str, str]:
    """The deal form as fetched, with a whole deal typed in (Ann 1 clean book and 300 melded,
    Cat 200 melded and 40 left; nobody out)."""
    page = client.get(f"{game.link}/deals/new")
    assert page.status_code == 200
    data = form_of(page).values
    data.update(
        {
            "s0-books-clean": "1",
            "s0-melded_points": "300",
            "s1-melded_points": "200",
            "s1-leftover_points": "40",
            "went_out": "",
        }
    )
    return data


TYPED = {
    "s0-books-clean": "1",
    "s0-melded_points": "300",
    "s1-melded_points": "200",
    "s1-leftover_points": "40",
}


# Secrets that open no game, made from a real one: well-formed ones (22 characters of the
# secret's alphabet) that are not its, and malformed ones.
WRONG = {
    "one-character-off": lambda s: s[:-1] + ("B" if s.endswith("A") else "A"),
    "other-case": str.swapcase,
    "all-A": lambda s: "A" * len(s),
    "one-short": lambda s: s[:-1],
    "one-long": lambda s: s + "A",
    "tiny": lambda s: "0",
}


def wrong_table(game: Table, how: str) -> Table:
    """The game as a phone with a wrong link would ask for it."""
    wrong = WRONG[how](game.secret)
    assert wrong != game.secret
    return Table(game.id, wrong)
