"""Issue 14, input hardening: names, forms, entering phones.

Every bad input gets a clear refusal naming its field (422, a form's field error, or an import's
line and column), never a 500.

Import files and imports done twice are in test_hardening_imports.py; the shared helpers
in _hardening_support.py.
"""

from __future__ import annotations

import io
from datetime import UTC, date, datetime, timedelta

import pytest
from _hardening_support import (
    PASSWORD,
    SURROGATE,
    club_with_games,
    with_cell,
)
from sqlalchemy import func, select, update

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Entering, Game
from scorekeeper.rules.terms import CONTROL_MESSAGE, MAX_DEVICE_NAME
from scorekeeper.services import accounts, clubs, games, live, records
from scorekeeper.services.games import GameRefused, SideSetup
from scorekeeper.services.names import cleaned, name_problem

# One of each kind of character a name must not hold, beyond the control characters.
INVISIBLE = {
    "left-to-right mark": "\u200e",
    "right-to-left mark": "\u200f",
    "right-to-left override": "\u202e",
    "left-to-right embedding": "\u202a",
    "first strong isolate": "\u2068",
    "pop directional isolate": "\u2069",
    "arabic letter mark": "\u061c",
    "zero-width space": "\u200b",
    "zero-width non-joiner": "\u200c",
    "zero-width joiner": "\u200d",
    "word joiner": "\u2060",
    "byte order mark": "\ufeff",
    "soft hyphen": "\u00ad",
    "tag letter": "\U000e0041",
    "line separator": "\u2028",
}
BAD = {"lone surrogate": SURROGATE, "nul": "\x00", "escape": "\x1b", **INVISIBLE}


# --------------------------------------------------------------------------- the rule itself


@pytest.mark.parametrize("char", list(BAD.values()), ids=list(BAD))
def test_every_harmful_character_is_refused_and_cleaned_away(char):
    problem = name_problem(f"Ann{char}Lee", "Side 1 name")
    assert problem is not None and problem.startswith("Side 1 name cannot hold ")
    assert cleaned(f"  Ann{char}Lee ") in ("AnnLee", "Ann Lee")


@pytest.mark.parametrize("name", ["Ann", "Zoë", "José-María", "李雷", "مريم", "Dvořák", "Ann 🃏"])
def test_names_in_any_script_are_kept(name):
    assert name_problem(name) is None
    assert cleaned(name) == name


def test_the_control_rule_reads_as_before():
    assert name_problem("A\tB") == CONTROL_MESSAGE
    assert "surrogate" in name_problem(SURROGATE)
    assert "right-to-left" in name_problem("\u202e")


# --------------------------------------------------------------------------- the API


@pytest.mark.parametrize("char", [SURROGATE, "\u202e", "\u200b", "\x00"], ids=repr)
@pytest.mark.parametrize("where", ["name", "players"])
def test_the_api_refuses_a_bad_side_or_player_name_with_422_naming_it(app, client, char, where):
    side = {"name": f"A{char}B"} if where == "name" else {"name": "A", "players": [f"A{char}B"]}
    body = {"ruleset": "classic", "sides": [{"name": "C"}, side]}
    answer = client.post("/api/v1/games", json=body)
    assert answer.status_code == 422, answer.get_data(as_text=True)
    errors = answer.get_json()["errors"]
    assert [(e["side"], e["field"]) for e in errors] == [(1, where)]
    assert "cannot hold" in errors[0]["message"]
    assert "side 2" in errors[0]["message"].lower()
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0


def test_the_service_refuses_a_surrogate_before_the_insert(app):
    with app.app_context():
        sides = [SideSetup("North", ["Ann", SURROGATE]), SideSetup(SURROGATE, [])]
        with pytest.raises(GameRefused) as caught:
            games.start_game("classic", sides)
        assert [(r.side, r.field) for r in caught.value.refusals] == [
            (0, "players"),
            (1, "name"),
        ]


# --------------------------------------------------------------------------- forms


@pytest.fixture
def club(app, client) -> str:
    """A signed-in organiser's club; its slug."""
    assert client.post("/signup", data={"username": "org", "password": PASSWORD}).status_code
    assert client.post("/clubs/new", data={"name": "Club", "slug": "club"}).status_code == 302
    return "club"


def _page(answer) -> str:
    return answer.get_data(as_text=True)


@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\ufeff"], ids=repr)
def test_the_new_game_form_puts_the_refusal_beside_the_field(client, char):
    form = {"side0_name": "Ann", "side1_name": f"Cat{char}", "side1_players": "Cat"}
    answer = client.post("/games/new?ruleset=classic", data=form)
    assert answer.status_code == 422
    assert "Side 2 name cannot hold invisible" in _page(answer)


@pytest.mark.parametrize(
    ("path", "form", "said"),
    [
        ("/clubs/club/members", {"name": "Ann\u200d"}, "Name cannot hold"),
        (
            "/clubs/club/seasons",
            {"name": "Spring\u202e", "starts_on": "2024-01-01", "ends_on": "2024-03-31"},
            "Season name cannot hold",
        ),
        ("/clubs/club/settings", {"name": "\u2066Club", "min_games": "1"}, "Club name cannot hold"),
    ],
    ids=["member", "season", "club settings"],
)
def test_club_forms_refuse_invisible_characters_beside_the_field(
    app, client, club, path, form, said
):
    answer = client.post(path, data=form)
    assert answer.status_code == 422
    assert said in _page(answer)
    with app.app_context():
        found = clubs.club_by_slug("club")
        assert found.name == "Club" and found.members == [] and found.seasons == []


def test_a_new_club_with_a_right_to_left_override_is_refused(app, client):
    client.post("/signup", data={"username": "org", "password": PASSWORD})
    answer = client.post("/clubs/new", data={"name": "evil\u202ebulC", "slug": "evil"})
    assert answer.status_code == 422
    assert "Club name cannot hold" in _page(answer)
    with app.app_context():
        assert clubs.club_by_slug("evil") is None


@pytest.mark.parametrize("char", [SURROGATE, "\u202e", "\u200b"], ids=repr)
def test_club_services_refuse_a_bad_name_whoever_calls_them(app, char):
    with app.app_context():
        organiser = accounts.register("org", PASSWORD)
        with pytest.raises(clubs.ClubRefused, match="cannot hold"):
            clubs.create_club(f"Club{char}", "club", organiser)
        club = clubs.create_club("Club", "club", organiser)
        with pytest.raises(clubs.ClubRefused, match="cannot hold"):
            clubs.update_settings(club, name=f"Club{char}", public=False, min_games=1)
        with pytest.raises(clubs.ClubRefused, match="cannot hold"):
            clubs.add_member(club, f"Ann{char}")
        with pytest.raises(clubs.ClubRefused, match="cannot hold"):
            clubs.add_season(club, f"Spring{char}", date(2024, 1, 1), date(2024, 3, 1))
        db.session.rollback()
        club = db.session.get(Club, club.id)
        assert (club.name, club.members, club.seasons) == ("Club", [], [])


def test_the_import_page_shows_a_broken_house_rule_as_a_refusal(app, client, club):
    # Before: the engine's refusal quoted the key, and the page failed to encode it (a 500).
    with app.app_context():
        text = records.export_deals(club_with_games("source"))
    text = with_cell(text, 1, "house_rules", '{"\\ud800": 1}')
    upload = {"file": (io.BytesIO(text.encode()), "deals.csv")}
    answer = client.post("/clubs/club/import", data=upload, content_type="multipart/form-data")
    assert answer.status_code == 302  # the import's job page, which says why (issue 39)
    assert "Line 2, column house_rules" in _page(client.get(answer.location))


# --------------------------------------------------------------------------- entering phones


def start(client) -> str:
    """A game started through the API; its private link."""
    sides = [{"name": "Ann"}, {"name": "Cat"}]
    answer = client.post("/api/v1/games", json={"ruleset": "club", "sides": sides})
    assert answer.status_code == 201
    return answer.get_json()["url"]


def device(number: int) -> str:
    return f"{number:032x}"


def say(client, game: str, number: int, name: str = "Phone", deal: int = 1):
    data = {"device": device(number), "deal": str(deal), "name": name}
    return client.post(f"{game}/entering", data=data)


def entering(client, game: str) -> list[dict]:
    """Who the live answer lists as entering (name and deal; how long each stays fresh apart)."""
    listed = client.get(f"{game}/live?device={'f' * 32}").get_json()["entering"]
    return [{"name": one["name"], "deal": one["deal"]} for one in listed]


def rows() -> int:
    return db.session.scalar(select(func.count()).select_from(Entering))


def test_a_game_records_at_most_a_few_entering_phones(app, client):
    game = start(client)
    for number in range(live.MAX_ENTERING):
        assert say(client, game, number, f"Phone {number}").status_code == 204
    extra = say(client, game, 999, "Fake")
    assert extra.status_code == 429
    assert "phones" in extra.get_json()["error"]
    assert extra.headers["Retry-After"] == str(int(live.FRESH.total_seconds()))
    listed = entering(client, game)
    assert len(listed) == live.MAX_ENTERING and "Fake" not in {e["name"] for e in listed}
    # A phone already listed still says so, and may move on to the next deal.
    assert say(client, game, 0, "Ann", deal=2).status_code == 204
    assert {"name": "Ann", "deal": 2} in entering(client, game)
    with app.app_context():
        assert rows() == live.MAX_ENTERING


def test_a_phone_gone_quiet_frees_its_place(app, client):
    game = start(client)
    for number in range(live.MAX_ENTERING):
        say(client, game, number)
    with app.app_context():
        quiet = datetime.now(UTC) - live.FRESH - timedelta(seconds=1)
        db.session.execute(
            update(Entering).where(Entering.device == device(0)).values(seen_at=quiet)
        )
        db.session.commit()
    assert say(client, game, 999, "Bea").status_code == 204
    assert {"name": "Bea", "deal": 1} in entering(client, game)
    with app.app_context():
        # The quiet phone's row went: a game never holds more rows than it lists.
        assert rows() == live.MAX_ENTERING


def test_hundreds_of_invented_phones_leave_the_live_answer_small(app, client):
    game = start(client)
    statuses = [
        say(client, game, number, "N" * MAX_DEVICE_NAME).status_code for number in range(300)
    ]
    # The first phones are listed, up to the most a game shows; every later one waits (429).
    assert statuses == [204] * live.MAX_ENTERING + [429] * (300 - live.MAX_ENTERING)
    answer = client.get(f"{game}/live")
    assert len(answer.get_json()["entering"]) == live.MAX_ENTERING
    assert len(answer.data) < 1000
    with app.app_context():
        assert rows() == live.MAX_ENTERING


def test_the_live_answer_lists_at_most_the_limit_even_if_more_rows_slipped_in(app, client):
    game = start(client)
    game_id = client.get(f"{game}/live").get_json()["game"]
    with app.app_context():
        for number in range(live.MAX_ENTERING + 5):
            db.session.add(
                Entering(game_id=game_id, device=device(number), name="X", deal_number=1)
            )
        db.session.commit()
    assert len(entering(client, game)) == live.MAX_ENTERING


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("Ann\x00", "Ann"),
        ("A\x00n\x07n", "Ann"),
        ("\x1b[31mAnn", "[31mAnn"),
        ("\u202eAnn", "Ann"),
        ("A\u200bn\u200dn\ufeff", "Ann"),
        ("\u2066\u2069", "Someone"),
        ("\x00\x01", "Someone"),
        ("Ann\u2028Lee", "Ann Lee"),
    ],
    ids=repr,
)
def test_entering_names_are_cleaned_of_control_and_invisible_characters(client, typed, shown):
    game = start(client)
    assert say(client, game, 1, typed).status_code == 204
    assert entering(client, game) == [{"name": shown, "deal": 1}]
