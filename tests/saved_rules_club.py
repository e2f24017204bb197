"""Olga's Tuesday club with its saved "Thursday rules", as the saved rule set tests set it up:
the club and its members, the new-rule-set form, the table's phone and a finished game. Shared
by tests/test_saved_rules.py, tests/test_saved_rules_records.py,
tests/test_saved_rules_access.py and tests/test_deal_cap.py.

"club" rules (individuals): clean book 500, dirty 300, red three laid +100, caught -500,
going out +100 (needs 2 clean + 2 dirty), four deals. "Thursday rules" here: club rules with a
red three caught costing 300. A deal scores books + red threes + going out + melded - leftover.
"""

from __future__ import annotations

from datetime import date

from test_clubs import E, add_members, new_club, signup, text

from scorekeeper.plumbing.db import db
from scorekeeper.rules import DealEntry
from scorekeeper.services import clubs
from scorekeeper.services.games import SideSetup, record_game

SLUG = "tuesday"
THURSDAY = {"red_three_caught": 300}


# ------------------------------------------------------------------------- setting up


def club_with_members(client, public: bool = False) -> None:
    """Olga's club with Ann, Bob and Cat; Olga stays signed in on `client`."""
    signup(client)
    new_club(client, public=public)
    add_members(client, SLUG, "Ann", "Bob", "Cat")


def save_rules(client, name: str = "Thursday rules", ruleset: str = "club", **numbers: str):
    """Post the new-rule-set form as a phone would: the preset's numbers, some changed."""
    data = {"name": name, **{f"rule_{k}": v for k, v in numbers.items()}}
    return client.post(f"/clubs/{SLUG}/rule-sets/new?ruleset={ruleset}", data=data)


def thursday(app, client) -> int:
    """The club, and Thursday rules saved through the page; its id."""
    club_with_members(client)
    response = save_rules(client, red_three_caught="300")
    assert response.status_code == 302, text(response)
    with app.app_context():
        (saved,) = clubs.club_by_slug(SLUG).saved_rules
        return saved.id


def table_phone(app):
    """A phone that opened the club's table link (no account)."""
    phone = app.test_client()
    with app.app_context():
        code = clubs.club_by_slug(SLUG).table_code
    assert phone.post(f"/clubs/{SLUG}/table/{code}").status_code == 302
    return phone


def finished_game(app, saved_id: int | None, played_on: str = "2024-03-07") -> int:
    """Ann beats Bob in a four-deal club game, recorded at once (under the saved rules if any).

    Deal 1: Ann 2 clean + 2 dirty, out, 400 melded = 1000+600+100+400 = 2,100; Bob 1 clean and
    1 red three caught, 200 melded = 500 - 300 (Thursday) + 200 = 400, or 500 - 500 + 200 = 200.
    """
    deals = [[E(clean=2, dirty=2, out=True, melded=400), E(clean=1, caught=1, melded=200)]]
    deals += [[{}, {}]] * 3
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        saved = clubs.saved_rules(club, saved_id) if saved_id else None
        game = record_game(
            "club",
            [SideSetup("Ann", ["Ann"]), SideSetup("Bob", ["Bob"])],
            [[DealEntry.from_dict(e) for e in deal] for deal in deals],
            house_rules=dict(saved.house_rules) if saved else None,
            club=club,
            played_on=date.fromisoformat(played_on),
            commit=False,
            saved_rules=saved,
        )
        db.session.commit()
        return game.id
