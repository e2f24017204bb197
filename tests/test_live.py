"""Every phone at a table in step: the live answer, who is entering, the deal form's number.

The live answer and the "who is entering" rows are read from the database on every request,
so two app processes on one database must answer alike; a deal form opened for deal N and sent
after deal N was saved elsewhere must save nothing and keep every figure typed.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from functools import partial
from types import SimpleNamespace
from typing import Any, NamedTuple

import pytest
from game_links import statements_asked
from page_reader import Page, read_page
from sqlalchemy import select, update
from werkzeug.security import generate_password_hash

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Entering
from scorekeeper.services import accounts, clubs, games, live

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


# ------------------------------------------------------------------------- clubs


@pytest.fixture
def club_games(app, monkeypatch):
    """A private and a public club run by Olga, one game each in progress, and three phones:
    Olga signed in, one that opened both table links, and a stranger."""
    monkeypatch.setattr(
        accounts,
        "generate_password_hash",
        partial(generate_password_hash, method="pbkdf2:sha256:1"),
    )
    olga, table, stranger = app.test_client(), app.test_client(), app.test_client()
    signup = olga.post("/signup", data={"username": "olga", "password": "table-for-four"})
    assert signup.status_code == 302
    started, codes = {}, {}
    with app.app_context():
        organiser = accounts.organiser_named("olga")
        for slug, public in (("priv", False), ("pub", True)):
            club = clubs.create_club(f"Club {slug}", slug, organiser, public=public)
            sides = [games.SideSetup("Ann", ["Ann"]), games.SideSetup("Cat", ["Cat"])]
            made = games.start_game("club", sides, club=club)
            started[slug] = Table(made.id, made.secret)
            codes[slug] = club.table_code
    for slug, code in codes.items():
        assert table.post(f"/clubs/{slug}/table/{code}").status_code == 302
    return SimpleNamespace(games=started, olga=olga, table=table, stranger=stranger)


# ------------------------------------------------------------------------- the live answer


def test_live_answer_is_json_with_an_etag_and_no_cache(client):
    game = start(client)
    answer = live_of(client, game)
    assert answer.status_code == 200
    assert answer.mimetype == "application/json"
    body = answer.get_json()
    assert set(body) == {
        "game",
        "version",
        "deals",
        "next_deal",
        "finished",
        "entering",
        "parts",
        "lines",
        "news",
        "next_game",
        "night",
        "waiting",
    }
    assert body["news"] is None and body["next_game"] is None
    # A game of no club night: nothing of a night to follow, nothing to wait for.
    assert body["night"] == "" and body["waiting"] is False
    assert body["game"] == game.id
    assert isinstance(body["version"], str) and body["version"]
    assert (body["deals"], body["next_deal"], body["finished"], body["entering"]) == (
        0,
        1,
        False,
        [],
    )
    assert answer.headers["ETag"]
    # Asked again each time; kept by the phone alone, never by a cache shared with others.
    assert answer.headers["Cache-Control"] == "no-cache, private"


def test_same_etag_gets_an_empty_304(client):
    game = start(client)
    etag = live_of(client, game).headers["ETag"]
    again = live_of(client, game, **{"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == etag


def test_a_new_deal_changes_version_deals_and_etag(client):
    game = start(client)
    first = live_of(client, game)
    api_deal(client, game)
    after = live_of(client, game, **{"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200
    body = after.get_json()
    assert body["version"] != first.get_json()["version"]
    assert (body["deals"], body["next_deal"]) == (1, 2)
    assert after.headers["ETag"] != first.headers["ETag"]


@pytest.mark.parametrize("how", ["form", "api"])
def test_a_correction_changes_version_but_not_deals(client, how):
    game = start(client)
    api_deal(client, game)
    before = live_of(client, game)
    if how == "form":
        data = form_of(client.get(f"{game.link}/deals/1/edit")).values
        data["s1-melded_points"] = "100"
        assert client.post(f"{game.link}/deals/1/edit", data=data).status_code == 302
    else:
        scores = [QUIET[0], {"melded_points": 100}]
        answer = client.put(
            f"/api/v1/games/{game.id}/deals/1",
            json={"scores": scores, "version": 1},
            headers=game.key,
        )
        assert answer.status_code == 200, answer.get_json()
    after = live_of(client, game, **{"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200
    assert after.get_json()["version"] != before.get_json()["version"]
    assert after.get_json()["deals"] == before.get_json()["deals"] == 1


def test_the_last_deal_says_finished(client):
    game = start(client)
    for _ in range(4):
        api_deal(client, game)
    body = live_of(client, game).get_json()
    assert (body["deals"], body["finished"]) == (4, True)


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


@pytest.mark.parametrize("how", WRONG)
def test_live_of_no_such_game_is_404(client, how):
    game = start(client)
    assert live_of(client, wrong_table(game, how)).status_code == 404
    assert live_of(client, game).status_code == 200


@pytest.mark.parametrize("number", ["{id}", 0, 999_999, 2**63, 2**70])
def test_live_at_an_old_address_is_404(client, number):
    """The address from before private links opens nothing, not even a game that exists: the
    same page about private links whatever the number."""
    game = start(client)
    answer = client.get(f"/games/{str(number).format(id=game.id)}/live")
    assert answer.status_code == 404
    assert "Games now open with their private link" in text(answer)
    assert answer.get_data() == client.get(f"/games/{game.id}/live").get_data()


@pytest.mark.parametrize("who", ["stranger", "table", "olga"])
@pytest.mark.parametrize("slug", ["priv", "pub"])
def test_live_of_a_club_game_opens_to_its_link(club_games, slug, who):
    """Holding a game's link is enough, club game or not (issue 37); a wrong link finds none."""
    game = club_games.games[slug]
    answer = live_of(getattr(club_games, who), game)
    assert answer.status_code == 200
    assert answer.get_json()["game"] == game.id
    flipped = ("A" if game.secret[0] != "A" else "B") + game.secret[1:]
    assert live_of(getattr(club_games, who), Table(game.id, flipped)).status_code == 404


# ------------------------------------------------------------------------- who is entering


def test_entering_is_seen_by_every_other_phone_but_not_its_own(app, client):
    game = start(client)
    answer = say(client, game, PHONE_A, 1, "Ann")
    assert answer.status_code == 204
    assert answer.get_data() == b""
    assert entering_of(live_of(client, game, PHONE_B)) == [{"name": "Ann", "deal": 1}]
    assert entering_of(live_of(client, game)) == [{"name": "Ann", "deal": 1}]
    assert entering_of(live_of(client, game, PHONE_A)) == []
    # Saying it again updates the phone's one row.
    assert say(client, game, PHONE_A, 1, "Ann Lee").status_code == 204
    assert entering_of(live_of(client, game, PHONE_B)) == [{"name": "Ann Lee", "deal": 1}]
    assert len(entering_rows(app)) == 1


def test_entering_changes_the_etag(client):
    game = start(client)
    etag = live_of(client, game, PHONE_B).headers["ETag"]
    say(client, game, PHONE_A)
    answer = live_of(client, game, PHONE_B, **{"If-None-Match": etag})
    assert answer.status_code == 200
    assert answer.get_json()["entering"]


def test_phones_are_listed_by_deal_then_name(client):
    game = start(client)
    say(client, game, PHONE_A, 2, "Zed")
    say(client, game, PHONE_B, 1, "Yan")
    say(client, game, PHONE_C, 1, "Bea")
    assert entering_of(live_of(client, game, "f" * 32)) == [
        {"name": "Bea", "deal": 1},
        {"name": "Yan", "deal": 1},
        {"name": "Zed", "deal": 2},
    ]


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("   ", "Someone"),
        ("", "Someone"),
        ("  Ann \t  Lee ", "Ann Lee"),
        ("x" * 60, "x" * 40),
        ("<b>Bo</b>", "<b>Bo</b>"),
    ],
    ids=["spaces", "empty", "runs-of-spaces", "60-characters", "markup"],
)
def test_names_are_tidied(client, typed, shown):
    game = start(client)
    assert say(client, game, PHONE_A, 1, typed).status_code == 204
    assert entering_of(live_of(client, game, PHONE_B)) == [{"name": shown, "deal": 1}]


def test_without_a_name_is_someone(client):
    game = start(client)
    answer = client.post(f"{game.link}/entering", data={"device": PHONE_A, "deal": "1"})
    assert answer.status_code == 204
    assert entering_of(live_of(client, game, PHONE_B)) == [{"name": "Someone", "deal": 1}]


@pytest.mark.parametrize(
    ("age", "listed"),
    [
        (timedelta(0), True),
        (live.FRESH - timedelta(seconds=5), True),
        (live.FRESH + timedelta(seconds=1), False),
        (timedelta(hours=2), False),
    ],
    ids=["now", "nearly-stale", "just-stale", "long-gone"],
)
def test_a_phone_not_heard_from_is_not_listed(app, client, age, listed):
    game = start(client)
    say(client, game, PHONE_A)
    with app.app_context():
        db.session.execute(update(Entering).values(seen_at=datetime.now(UTC) - age))
        db.session.commit()
    entering = entering_of(live_of(client, game, PHONE_B))
    assert entering == ([{"name": "Ann", "deal": 1}] if listed else [])


def test_long_forgotten_rows_are_swept_when_another_phone_writes(app, client):
    game = start(client)
    say(client, game, PHONE_A)
    with app.app_context():
        stale = datetime.now(UTC) - live.FORGOTTEN - timedelta(minutes=1)
        db.session.execute(update(Entering).values(seen_at=stale))
        db.session.commit()
    say(client, game, PHONE_B, name="Bea")
    assert [row[1] for row in entering_rows(app)] == [PHONE_B]


def test_a_deal_already_saved_is_not_listed(client):
    game = start(client)
    say(client, game, PHONE_A, 1, "Ann")
    say(client, game, PHONE_B, 2, "Bea")
    api_deal(client, game)
    assert entering_of(live_of(client, game, PHONE_C)) == [{"name": "Bea", "deal": 2}]
    # A phone still saying it enters deal 1 after deal 1 was saved is not listed either.
    say(client, game, PHONE_A, 1, "Ann")
    assert entering_of(live_of(client, game, PHONE_C)) == [{"name": "Bea", "deal": 2}]


def test_entering_is_per_game(client):
    one, other = start(client), start(client)
    say(client, one, PHONE_A)
    assert entering_of(live_of(client, other, PHONE_B)) == []
    assert entering_of(live_of(client, one, PHONE_B)) == [{"name": "Ann", "deal": 1}]


def test_leaving_removes_the_phone(app, client):
    game = start(client)
    say(client, game, PHONE_A, 1, "Ann")
    say(client, game, PHONE_B, 1, "Bea")
    assert say(client, game, PHONE_A, 1, "Ann", leaving="1").status_code == 204
    assert entering_of(live_of(client, game, PHONE_C)) == [{"name": "Bea", "deal": 1}]
    assert [row[1] for row in entering_rows(app)] == [PHONE_B]


@pytest.mark.parametrize(
    ("device", "deal", "named"),
    [
        ("", "1", "device"),
        ("xyz", "1", "device"),
        ("a" * 31, "1", "device"),
        ("a" * 33, "1", "device"),
        ("A" * 32, "1", "device"),
        ("g" * 32, "1", "device"),
        (PHONE_A, "", "deal"),
        (PHONE_A, "0", "deal"),
        (PHONE_A, "-1", "deal"),
        (PHONE_A, "1.5", "deal"),
        (PHONE_A, "two", "deal"),
        (PHONE_A, "10000", "deal"),
    ],
)
def test_a_bad_device_or_deal_is_400_naming_it(app, client, device, deal, named):
    game = start(client)
    answer = say(client, game, device, deal)
    assert answer.status_code == 400
    assert named in answer.get_json()["error"]
    assert entering_rows(app) == []


def test_leaving_with_a_bad_device_is_400(app, client):
    game = start(client)
    say(client, game, PHONE_A)
    assert say(client, game, "nope", 1, leaving="1").status_code == 400
    assert len(entering_rows(app)) == 1


@pytest.mark.parametrize("how", WRONG)
def test_entering_no_such_game_is_404(app, client, how):
    game = start(client)
    assert say(client, wrong_table(game, how)).status_code == 404
    assert entering_rows(app) == []


@pytest.mark.parametrize("number", ["{id}", 0, 999_999, 2**63])
def test_entering_at_an_old_address_is_404(app, client, number):
    game = start(client)
    path = f"/games/{str(number).format(id=game.id)}/entering"
    answer = client.post(path, data={"device": PHONE_A, "deal": "1", "name": "Ann"})
    assert answer.status_code == 404
    assert "Games now open with their private link" in text(answer)
    assert entering_rows(app) == []


@pytest.mark.parametrize("who", ["stranger", "table", "olga"])
@pytest.mark.parametrize("slug", ["priv", "pub"])
def test_entering_a_club_game_takes_its_link(app, club_games, slug, who):
    """The game's link is enough to score it (issue 37), so a phone holding it may say it is
    entering; without the link, nothing is there (404) and nothing is kept."""
    game = club_games.games[slug]
    flipped = ("A" if game.secret[0] != "A" else "B") + game.secret[1:]
    assert say(getattr(club_games, who), Table(game.id, flipped)).status_code == 404
    assert entering_rows(app) == []
    assert say(getattr(club_games, who), game).status_code == 204
    assert entering_rows(app) == [(game.id, PHONE_A, "Ann", 1)]


# ------------------------------------------------------------------------- two processes


def test_two_processes_on_one_database_answer_alike(app, client):
    """What one app process records, another sees: nothing is kept inside a process."""
    other_app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
            "WTF_CSRF_ENABLED": False,
        }
    )
    try:
        other = other_app.test_client()
        game = start(client)
        first = live_of(other, game, PHONE_B)
        assert first.status_code == 200
        # The same game gets the same answer, and so the same ETag, from either process.
        same = live_of(client, game, PHONE_B, **{"If-None-Match": first.headers["ETag"]})
        assert same.status_code == 304

        assert say(client, game, PHONE_A, 1, "Ann").status_code == 204
        seen = live_of(other, game, PHONE_B, **{"If-None-Match": first.headers["ETag"]})
        assert seen.status_code == 200
        assert entering_of(seen) == [{"name": "Ann", "deal": 1}]

        api_deal(other, game)
        body = live_of(client, game, PHONE_B).get_json()
        assert (body["deals"], body["next_deal"], body["entering"]) == (1, 2, [])
        assert body["version"] == live_of(other, game, PHONE_B).get_json()["version"]

        assert say(other, game, PHONE_B, 2, "Bea").status_code == 204
        assert say(client, game, PHONE_A, 2, "Ann", leaving="1").status_code == 204
        assert entering_of(live_of(other, game, PHONE_C)) == [{"name": "Bea", "deal": 2}]
        assert entering_of(live_of(client, game, PHONE_C)) == [{"name": "Bea", "deal": 2}]
    finally:
        with other_app.app_context():
            db.session.remove()
            db.engine.dispose()


# ------------------------------------------------------------------------- the deal's number


def test_deal_form_carries_the_next_deal_number(client):
    game = start(client)
    api_deal(client, game)
    page = form_of(client.get(f"{game.link}/deals/new"))
    assert page.hidden["number"] == "2"


def test_posting_with_the_next_number_saves_it(client):
    game = start(client)
    data = typed_deal(client, game)
    assert data["number"] == "1"
    answer = client.post(f"{game.link}/deals/new", data=data)
    assert answer.status_code == 302
    assert len(saved_deals(client, game)) == 1


def test_a_deal_saved_meanwhile_is_shown_and_nothing_is_lost(client):
    game = start(client)
    api_deal(client, game)
    mine = typed_deal(client, game)
    assert mine["number"] == "2"
    api_deal(client, game)  # another phone saves deal 2 first

    clash = client.post(f"{game.link}/deals/new", data=mine)
    assert clash.status_code == 409
    assert len(saved_deals(client, game)) == 2
    assert "Deal 2 was saved on another phone meanwhile" in text(clash)
    kept = form_of(clash)
    for field, value in TYPED.items():
        assert kept.values.get(field) == value, field
    assert kept.values.get("went_out") == ""
    assert kept.hidden["number"] == "3"
    assert kept.hidden["idempotency_key"] == mine["idempotency_key"]
    assert any("Save deal 3" in b for b in kept.buttons), kept.buttons

    again = client.post(f"{game.link}/deals/new", data=kept.values)
    assert again.status_code == 302
    deals = saved_deals(client, game)
    assert len(deals) == 3
    # Ann: one clean book 500 + 300 melded = 800; Cat: 200 - 40 = 160.
    assert [side["total"] for side in deals[2]["scores"]] == [800, 160]


def test_several_deals_saved_meanwhile_are_all_named(client):
    game = start(client)
    mine = typed_deal(client, game)
    api_deal(client, game)
    api_deal(client, game)
    clash = client.post(f"{game.link}/deals/new", data=mine)
    assert clash.status_code == 409
    assert re.search(r"Deals 1.2 were saved on another phone meanwhile", text(clash))
    assert form_of(clash).hidden["number"] == "3"
    assert len(saved_deals(client, game)) == 2


def test_a_stale_number_on_a_finished_game_saves_nothing(client):
    game = start(client)
    for _ in range(3):
        api_deal(client, game)
    mine = typed_deal(client, game)
    assert mine["number"] == "4"
    api_deal(client, game)  # the last deal, from another phone

    clash = client.post(f"{game.link}/deals/new", data=mine)
    assert clash.status_code == 409
    words = text(clash)
    assert "Deal 4 was saved on another phone meanwhile" in words
    assert "game is over" in words
    page = form_of(clash)
    assert not any("Save" in b for b in page.buttons), page.buttons
    for field, value in TYPED.items():
        assert page.values.get(field) == value, field
    assert len(saved_deals(client, game)) == 4
    # Sent again as it came back, it still saves nothing: the scoreboard says the game is over.
    again = client.post(f"{game.link}/deals/new", data=page.values)
    assert again.status_code == 302
    assert "game is over" in text(client.get(again.headers["Location"]))
    assert len(saved_deals(client, game)) == 4


@pytest.mark.parametrize("number", ["1", "2", "7", "", None])
def test_a_form_already_recorded_is_recorded_once_whatever_its_number(client, number):
    game = start(client)
    data = typed_deal(client, game)
    assert client.post(f"{game.link}/deals/new", data=data).status_code == 302
    if number is None:
        del data["number"]
    else:
        data["number"] = number
    again = client.post(f"{game.link}/deals/new", data=data)
    assert again.status_code == 302
    assert len(saved_deals(client, game)) == 1


@pytest.mark.parametrize("number", [None, "", "two"], ids=["absent", "empty", "not-a-number"])
def test_a_form_without_a_number_is_saved_as_before(client, number):
    game = start(client)
    api_deal(client, game)
    data = typed_deal(client, game)
    if number is None:
        del data["number"]
    else:
        data["number"] = number
    assert client.post(f"{game.link}/deals/new", data=data).status_code == 302
    deals = saved_deals(client, game)
    assert len(deals) == 2
    assert [side["total"] for side in deals[1]["scores"]] == [800, 160]


def test_a_correction_form_has_no_deal_number(client):
    game = start(client)
    api_deal(client, game)
    page = form_of(client.get(f"{game.link}/deals/1/edit"))
    assert "number" not in page.values


# ------------------------------------------------------------------------- offline


def test_service_worker_from_the_root(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert "outbox" in answer.get_data(as_text=True)


def test_offline_page(client):
    answer = client.get("/offline")
    assert answer.status_code == 200
    assert answer.mimetype == "text/html"
    assert "No signal" in text(answer)


@pytest.mark.parametrize(
    "path", ["/", "/games/new", "/offline", "{link}", "{link}/deals/new", "{link}/rules"]
)
def test_every_page_links_the_manifest_and_touch_icon(client, path):
    game = start(client)
    answer = client.get(path.format(link=game.link))
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    manifest = re.search(r'<link rel="manifest" href="([^"]+)"', html)
    icon = re.search(r'<link rel="apple-touch-icon" href="([^"]+)"', html)
    assert manifest and icon, html[:500]
    assert client.get(manifest.group(1)).status_code == 200
    assert client.get(icon.group(1)).status_code == 200


def test_deal_page_tells_the_script_where_to_poll_and_say(client):
    game = start(client)
    html = client.get(f"{game.link}/deals/new").get_data(as_text=True)
    assert f'data-live="{game.link}/live"' in html
    assert f'data-entering="{game.link}/entering"' in html
    assert 'data-deal="1"' in html


# ------------------------------------------------------------------------- CSRF


@pytest.fixture
def guarded(app):
    """The same database, with CSRF checks on as in production."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app.test_client()


def test_entering_without_a_token_is_refused(app, client, guarded):
    game = start(client)
    answer = say(guarded, game)
    assert answer.status_code == 400
    assert entering_rows(app) == []


def test_entering_with_the_pages_token_is_accepted(app, client, guarded):
    game = start(client)
    page = form_of(guarded.get(f"{game.link}/deals/new"))
    token = page.hidden["csrf_token"]
    assert token
    answer = guarded.post(
        f"{game.link}/entering",
        data={"device": PHONE_A, "deal": "1", "name": "Ann"},
        headers={"X-CSRFToken": token},
    )
    assert answer.status_code == 204
    assert entering_rows(app) == [(game.id, PHONE_A, "Ann", 1)]


# ------------------------------------------------------- an unchanged poll: one query


def test_an_unchanged_poll_is_one_query_for_a_casual_game(app, client):
    game = start(client)
    etag = live_of(client, game, PHONE_B).headers["ETag"]
    status, asked = statements_asked(
        app, client, f"{game.link}/live?device={PHONE_B}", {"If-None-Match": etag}
    )
    assert status == 304
    selects = [s for s in asked if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 1, asked  # the link, with the game's club and live version
    assert "live_version" in selects[0]
    # A changed game is read in full.
    api_deal(client, game, {"melded_points": 50}, {})
    status, asked = statements_asked(
        app, client, f"{game.link}/live?device={PHONE_B}", {"If-None-Match": etag}
    )
    assert status == 200 and len(asked) > 1


def test_an_unchanged_poll_of_a_club_game_also_reads_its_club(app, club_games):
    game, table = club_games.games["priv"], club_games.table
    etag = live_of(table, game).headers["ETag"]
    status, asked = statements_asked(app, table, f"{game.link}/live", {"If-None-Match": etag})
    selects = [s for s in asked if s.lstrip().upper().startswith("SELECT")]
    assert status == 304 and len(selects) == 2, asked  # the link, then the club
    # The game's link is enough to watch it (issue 37): a phone holding it alone is told "same"
    # too; one without it finds nothing (404), whatever ETag it sends.
    same = club_games.stranger.get(f"{game.link}/live", headers={"If-None-Match": etag})
    assert same.status_code == 304
    flipped = ("A" if game.secret[0] != "A" else "B") + game.secret[1:]
    guessed = club_games.stranger.get(f"/t/{flipped}/live", headers={"If-None-Match": etag})
    assert guessed.status_code == 404


def _etag(client, game: Table) -> str:
    return live_of(client, game, PHONE_C).headers["ETag"]


def test_everything_a_watching_phone_sees_moves_the_live_version_on(app, client):
    game, other = start(client), start(client)
    seen = [_etag(client, game)]

    def moved(why: str) -> None:
        now = _etag(client, game)
        assert now != seen[-1], f"{why} did not move the live version on"
        seen.append(now)

    assert client.post(f"{game.link}/first-dealer", data={"seat": "1"}).status_code == 302
    moved("choosing the first dealer")
    say(client, game)
    moved("a phone opening the deal form")
    say(client, game)
    moved("the entering phone's next word (its name stays fresh)")
    say(client, game, leaving="1")
    moved("the phone leaving the form")
    line = {"number": "1", "s0-melded_points": "50", "device": PHONE_A}
    assert client.post(f"{game.link}/deals/next/0", data=line).status_code == 302
    moved("a side's line")
    api_deal(client, game, {"melded_points": 50}, {})
    moved("a deal saved")
    answer = client.put(
        f"/api/v1/games/{game.id}/deals/1",
        json={"scores": [{"melded_points": 60}, {}]},
        headers={"X-Game-Key": game.secret},
    )
    assert answer.status_code == 200
    moved("a correction")
    # Another game's news, or a phone asking, moves nothing here.
    api_deal(client, other, {"melded_points": 50}, {})
    live_of(client, game, PHONE_A)
    assert _etag(client, game) == seen[-1]
    assert live_of(client, game, PHONE_C, **{"If-None-Match": seen[-1]}).status_code == 304


def test_a_name_stays_fresh_for_what_is_left_of_its_fifteen_seconds(app, client):
    game = start(client)
    say(client, game)
    with app.app_context():
        row = db.session.execute(select(Entering)).scalar_one()
        row.seen_at = datetime.now(UTC) - timedelta(seconds=10)
        db.session.commit()
    listed = live_of(client, game, PHONE_B).get_json()["entering"]
    assert [(one["name"], one["fresh_for"]) for one in listed] == [("Ann", 5)]


def test_a_phone_gone_quiet_leaves_every_screen_without_news(app, client):
    """An answer listing a phone entering is asked again in full: the name goes when stale."""
    game = start(client)
    say(client, game)
    first = live_of(client, game, PHONE_B)
    assert [one["name"] for one in first.get_json()["entering"]] == ["Ann"]
    assert first.headers["ETag"].endswith('e"')
    with app.app_context():
        row = db.session.execute(select(Entering)).scalar_one()
        row.seen_at = datetime.now(UTC) - live.FRESH - timedelta(seconds=1)
        db.session.commit()
    again = live_of(client, game, PHONE_B, **{"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200 and again.get_json()["entering"] == []
    quiet = live_of(client, game, PHONE_B, **{"If-None-Match": again.headers["ETag"]})
    assert quiet.status_code == 304


@pytest.mark.parametrize("poll", ["live", "scorer"])
def test_a_weak_etag_sent_back_is_answered_304(client, poll):
    """A browser sends back the tag it was given, and an answer over 1 KB goes gzipped with a
    weak one (W/"…", plumbing/compress.py): weakly equal, it is answered 304 all the same."""
    game = start(client)
    api_deal(client, game)
    etag = client.get(f"{game.link}/{poll}").headers["ETag"]
    weak = etag if etag.startswith("W/") else f"W/{etag}"
    again = client.get(f"{game.link}/{poll}", headers={"If-None-Match": weak})
    assert again.status_code == 304 and again.get_data() == b""
    api_deal(client, game)
    assert client.get(f"{game.link}/{poll}", headers={"If-None-Match": weak}).status_code == 200


def test_the_scorers_gzipped_answer_is_answered_304_to_its_own_weak_etag(client):
    """The scorer's state (the rules and the deals) is over 1 KB: it goes gzipped."""
    game = start(client)
    gzip = {"Accept-Encoding": "gzip"}
    first = client.get(f"{game.link}/scorer", headers=gzip)
    assert first.headers["Content-Encoding"] == "gzip"
    assert first.headers["ETag"].startswith('W/"')
    again = client.get(
        f"{game.link}/scorer", headers={**gzip, "If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304 and again.get_data() == b""
