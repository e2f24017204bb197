"""Games as the private link tests play them on a phone's pages: starting one (casual, or in
the "hidden" club) and its link `/t/<secret>`, entering a deal, a secret that opens nothing,
and every row a refused request must leave as it was. Shared by tests/test_private_links.py,
tests/test_private_link_secrets.py and tests/test_invite_qr.py.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Deal, DealPart, Entering, Game, Member, Organiser

LINK = re.compile(r"/t/([A-Za-z0-9_-]{22})")
DEAL = {
    "went_out": "",
    "s0-books-clean": "1",
    "s0-melded_points": "200",
    "s1-melded_points": "150",
}


def _start(client, *names: str, ruleset: str = "classic") -> str:
    """Start a game on the phone's pages; its private link (a path)."""
    data = {"ruleset": ruleset, "decks": "4"}
    for i, name in enumerate(names):
        data[f"side{i}_name"] = name
    answer = client.post("/games/new", data=data)
    assert answer.status_code == 302, answer.text
    found = LINK.search(answer.headers["Location"])
    assert found, answer.headers["Location"]
    return found.group(0)


def _id_of(app, path: str) -> int:
    with app.app_context():
        return db.session.execute(select(Game.id).where(Game.secret == path[3:])).scalar_one()


def _enter(client, path: str, **figures: str) -> Any:
    form = client.get(f"{path}/deals/new")
    assert form.status_code == 200
    number = re.search(r'name="number" type="hidden" value="(\d+)"', form.text).group(1)
    return client.post(f"{path}/deals/new", data={**DEAL, **figures, "number": number})


def _wrong_secret() -> str:
    return secrets.token_urlsafe(16)


def _everything(app) -> list[Any]:
    """Every row a refused request must leave as it was."""
    with app.app_context():
        db.session.expire_all()
        games = db.session.execute(select(Game).order_by(Game.id)).scalars().all()
        return [
            (
                g.id,
                g.secret,
                g.updated_at,
                g.finished_at,
                [(d.number, d.version, [s.entry for s in d.scores]) for d in g.deals],
                [(s.name, s.final_total) for s in g.sides],
            )
            for g in games
        ] + [
            db.session.execute(select(func.count()).select_from(table)).scalar_one()
            for table in (Deal, DealPart, Entering, Club, Member, Organiser)
        ]


def _start_club(client) -> str:
    data = {"ruleset": "classic", "decks": "4", "side0_name": "Mo", "side1_name": "Guest"}
    answer = client.post("/clubs/hidden/games/new", data=data)
    assert answer.status_code == 302, answer.text
    return LINK.search(answer.headers["Location"]).group(0)
