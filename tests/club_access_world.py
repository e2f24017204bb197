"""The clubs that the club access tests try: Olga's private "priv" and public "pub", Vera's
private "veras", their members, season and games, and a snapshot of everything a refused request
must leave as it was. Shared by tests/test_club_access.py, tests/club_access_routes.py and
tests/test_club_access_fresh.py (the tests on a fresh database each).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select
from werkzeug.security import generate_password_hash

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Night
from scorekeeper.rules import DealEntry
from scorekeeper.services import accounts, clubs
from scorekeeper.services.games import SideSetup, record_game

PASSWORD = "table-for-four"

# ------------------------------------------------------------------------- the clubs


@dataclass
class World:
    """Olga runs "priv" (private) and "pub" (public); Vera runs "veras" (private)."""

    app: Any
    olga: Any  # signed-in client of the organiser
    vera: Any  # signed-in client of another club's organiser
    phone: Any  # a client that opened the table links of priv and pub
    codes: dict[str, str] = field(default_factory=dict)
    ids: dict[str, dict[str, int]] = field(default_factory=dict)
    secrets: dict[str, dict[str, str]] = field(default_factory=dict)  # "game", "live"
    deals_csv: str = ""


def _signup(client, username: str) -> None:
    response = client.post("/signup", data={"username": username, "password": PASSWORD})
    assert response.status_code == 302


def _club(client, slug: str, public: bool) -> None:
    data = {"name": f"Club {slug}", "slug": slug, **({"public": "y"} if public else {})}
    assert client.post("/clubs/new", data=data).status_code == 302
    for name in ("Ann", "Bob", "Cat", "Spare"):
        assert client.post(f"/clubs/{slug}/members", data={"name": name}).status_code == 302
    season = {"name": "Spring", "starts_on": "2024-04-01", "ends_on": "2024-04-30"}
    assert client.post(f"/clubs/{slug}/seasons", data=season).status_code == 302


def _games(slug: str) -> dict[str, int]:
    """A finished game (Ann v Bob, four deals) and one in progress (Ann v Cat, one deal)."""
    club = clubs.club_by_slug(slug)
    win = [DealEntry.from_dict({"books": {"clean": 1}}), DealEntry.from_dict({})]
    quiet = [DealEntry.from_dict({}), DealEntry.from_dict({})]
    done = record_game(
        "club",
        [SideSetup("Ann", ["Ann"]), SideSetup("Bob", ["Bob"])],
        [win, quiet, quiet, quiet],
        club=club,
        played_on=date(2024, 4, 2),
    )
    live = record_game(
        "club",
        [SideSetup("Ann", ["Ann"]), SideSetup("Cat", ["Cat"])],
        [win],
        club=club,
        played_on=date(2024, 4, 9),
    )
    members = {m.name: m.id for m in club.members}
    # A club night (issue 29), no round seated yet.
    night = Night(
        club=club,
        ruleset="classic",
        shape="fours",
        partners="rotating",
        rounds_planned=1,
        sit_out="no game",
    )
    db.session.add(night)
    db.session.commit()
    return {
        "night": night.id,
        "game": done.id,
        "live": live.id,
        "member": members["Ann"],
        "other": members["Bob"],
        "spare": members["Spare"],
    }


# Where a game was started: its private link, `/t/<secret>`.
GAME_LINK = re.compile(r"/t/([A-Za-z0-9_-]{22})")


def started_game(app, response) -> tuple[str, int]:
    """The link (`/t/<secret>`) and id of the game a start form redirected to."""
    assert response.status_code == 302, response.status_code
    found = GAME_LINK.fullmatch(urlsplit(response.location).path)
    assert found, response.location
    with app.app_context():
        game_id = db.session.execute(
            select(Game.id).where(Game.secret == found.group(1))
        ).scalar_one()
    return found.group(0), game_id


def _quick_hashing(patch) -> None:
    """One hashing round keeps sign-ups fast; test_passwords_are_stored_hashed checks the real
    hashing."""
    patch.setattr(
        accounts,
        "generate_password_hash",
        partial(generate_password_hash, method="pbkdf2:sha256:1"),
    )


def snapshot(app) -> list[Any]:
    """Everything a refused request must leave as it was, for every club."""
    with app.app_context():
        db.session.expire_all()
        state: list[Any] = []
        for club in db.session.execute(select(Club).order_by(Club.slug)).scalars():
            state.append(
                (
                    club.slug,
                    club.name,
                    club.standings_public,
                    club.min_games_ranked,
                    club.table_code,
                    sorted(o.username for o in club.organisers),
                    sorted((m.id, m.name, m.archived) for m in club.members),
                    sorted((s.name, s.starts_on, s.ends_on) for s in club.seasons),
                )
            )
        for game in db.session.execute(select(Game).order_by(Game.id)).scalars():
            state.append(
                (
                    game.id,
                    game.secret,
                    game.club_id,
                    game.finished_at is not None,
                    [(d.number, d.version, [s.total for s in d.scores]) for d in game.deals],
                    [(s.name, s.final_total, [p.member_id for p in s.players]) for s in game.sides],
                )
            )
        return state
