"""Each table's game is its own: private links, "my games" per phone, nothing for strangers.

Issue 13. A game opens only with its secret (its link `/t/<secret>`, or `X-Game-Key` on the
API); a sequential id grants nothing; a stranger's home page lists nobody's games; and one test
walks every route of the app as a stranger. The link itself, guessing slowed and the table's
invitation are in tests/test_private_link_secrets.py; the games both play, in
tests/private_games.py.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from private_games import _enter, _everything, _id_of, _start, _start_club, _wrong_secret
from sqlalchemy import select
from werkzeug.routing import Rule

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, ImportJob, Night, Organiser
from scorekeeper.services import clubs
from scorekeeper.web.access import MY_GAMES_KEPT

# ------------------------------------------------------------------ two tables, one stranger


def test_a_stranger_finds_neither_table_and_both_tables_still_play(app):
    """Two tables on one server; a third phone, with no link, finds and changes nothing."""
    table_a, table_b = app.test_client(), app.test_client()
    a = _start(table_a, "Ann", "Bob")
    b = _start(table_b, "Cleo", "Dev")
    ids = {a: _id_of(app, a), b: _id_of(app, b)}
    stranger = app.test_client()

    home = stranger.get("/").text
    for name in ("Ann", "Bob", "Cleo", "Dev"):
        assert name not in home
    # Each table's own phone lists its own game, and only that.
    assert "Ann" in table_a.get("/").text and "Cleo" not in table_a.get("/").text
    assert "Cleo" in table_b.get("/").text and "Ann" not in table_b.get("/").text

    before = _everything(app)
    app.config["WTF_CSRF_ENABLED"] = True  # the stranger has no form token either
    tried = 0
    for path, game_id in ids.items():
        guessed = "/t/" + _wrong_secret()
        for rule in _game_rules(app):
            for method in _methods(rule):
                for address in (guessed, f"/games/{game_id}"):
                    url = _game_url(rule, address, game_id)
                    # A fresh address each time: this test is about what a guess finds, and
                    # the throttle (tested below) would otherwise answer 429 first.
                    tried += 1
                    env = {"REMOTE_ADDR": f"10.1.{tried // 250}.{tried % 250}"}
                    answer = stranger.open(url, method=method, environ_base=env, data={"x": 1})
                    assert answer.status_code == 404, (method, url, answer.status_code)
                    assert "Ann" not in answer.text and "Cleo" not in answer.text
        for api in (f"/api/v1/games/{game_id}", f"/api/v1/games/{game_id}/deals"):
            for headers in ({}, {"X-Game-Key": _wrong_secret()}, {"X-Game-Key": b[3:]}):
                if headers.get("X-Game-Key") == path[3:]:
                    continue
                for method in ("GET", "POST"):
                    tried += 1
                    env = {"REMOTE_ADDR": f"10.2.{tried // 250}.{tried % 250}"}
                    answer = stranger.open(
                        api, method=method, headers=headers, json={}, environ_base=env
                    )
                    # 405: this address takes no such method (a GET of the deals, a POST to
                    # the game), for any game or none.
                    wrong_method = (method == "GET") == api.endswith("/deals")
                    expected = 405 if wrong_method else 404
                    assert answer.status_code == expected, (method, api, headers)
    assert tried > 40
    app.config["WTF_CSRF_ENABLED"] = False
    assert _everything(app) == before, "a stranger's request changed something"

    # The two tables play on, each in step on its own phones: a second phone at table A
    # opens the link it was shown and sees the deal the first phone saves.
    second_a = app.test_client()
    assert second_a.get(a).status_code == 200
    version = second_a.get(f"{a}/live").get_json()["version"]
    assert _enter(table_a, a).status_code == 302
    assert _enter(table_b, b, **{"s0-books-clean": "0", "s1-books-clean": "1"}).status_code == 302
    now = second_a.get(f"{a}/live").get_json()
    assert now["version"] != version and now["deals"] == 1
    totals_a = [s["total"] for s in _api_state(app, ids[a], a[3:])["sides"]]
    totals_b = [s["total"] for s in _api_state(app, ids[b], b[3:])["sides"]]
    assert totals_a[0] > totals_a[1] and totals_b[1] > totals_b[0]
    assert "Ann" in second_a.get("/").text


def _api_state(app, game_id: int, secret: str) -> dict[str, Any]:
    answer = app.test_client().get(f"/api/v1/games/{game_id}", headers={"X-Game-Key": secret})
    assert answer.status_code == 200
    return answer.get_json()


def _game_rules(app) -> list[Rule]:
    return [r for r in app.url_map.iter_rules() if "secret" in r.arguments]


def _methods(rule: Rule) -> list[str]:
    return sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})


def _game_url(rule: Rule, base: str, game_id: int) -> str:
    """The rule's path for the game at `base` (`/t/<secret>` or an old `/games/<id>`)."""
    path = rule.rule.replace("<int:number>", "1")
    return base + path[len("/t/<secret>") :]


# ------------------------------------------------------------------ every route, as a stranger

# Routes anyone may use: nothing in them belongs to a table or a club.
PUBLIC = {
    "static": "the app's CSS, JS and icons",
    "home.index": "this phone's own games only (tested above)",
    "home.forget": "forgets this phone's own list",
    "games.forget_remembered_rules": "forgets one of this phone's own rules",
    "phone_name.give_name": "keeps the name this phone goes by, in its own session",
    "games.new": "starting a new game",
    "rulecards.index": "the published rule sets",
    "rulecards.card": "the published rule sets",
    "live.service_worker": "the service worker's code",
    "live.offline": "the page shown with no signal",
    "api.openapi": "the API's description",
    "api.rulesets": "the published rule sets",
    "api.ruleset": "the published rule sets",
    "api.create_game": "starting a new game",
    "accounts.login": "signing in",
    "accounts.signup": "making an organiser account",
    "accounts.logout": "signing out",
    "clubs.index": "the clubs this phone knows (none, for a stranger)",
    "clubs.new": "sends a stranger to sign in",
}
VALUES = {
    "game_id": None,  # filled per test
    "number": 1,
    "side": 0,
    "member_id": None,
    "slug": None,
    "change": "archive",
    "kind": "deals",
    "code": "x" * 24,
    "key": "classic",
    "filename": "app.css",
    "rest": "deals/new",
    "secret": None,
    "rules_id": 1,
    "job_id": None,  # filled per test: the private club's import job
}


@pytest.fixture
def private_world(app, client):
    """A private club with a member and a finished club game, and a casual game with a deal."""
    from werkzeug.security import generate_password_hash

    casual = _start(client, "Ann", "Bob")
    assert _enter(client, casual).status_code == 302
    with app.app_context():
        olga = Organiser(username="olga", password_hash=generate_password_hash("x" * 12))
        db.session.add(olga)
        db.session.commit()
        club = clubs.create_club("Private club", "hidden", olga)
        member = clubs.add_member(club, "Mo")
        # A club night (issue 29): its pages name the club and the night.
        night = Night(
            club=club,
            ruleset="classic",
            shape="fours",
            partners="rotating",
            rounds_planned=1,
            sit_out="no game",
        )
        db.session.add(night)
        # An import under way (issue 39): its page and progress name the club and the job.
        job = ImportJob(club_id=club.id, file=b"game,side\n", games_total=1)
        db.session.add(job)
        db.session.commit()
        club_id, member_id, night_id, job_id = club.id, member.id, night.id, job.id
        code = club.table_code
    # A club game, started with the table link (so a club table exists, as a stranger can't).
    table = app.test_client()
    assert table.post(f"/clubs/hidden/table/{code}").status_code == 302
    club_game = _start_club(table)
    return {
        "casual": casual,
        "club_game": club_game,
        "club_id": club_id,
        "member_id": member_id,
        "night_id": night_id,
        "job_id": job_id,
        "game_id": _id_of(app, casual),
        "club_game_id": _id_of(app, club_game),
    }


def test_every_route_tried_without_credentials_reveals_and_changes_nothing(app, private_world):
    """Walk the URL map: a route that names a game or a club answers a stranger exactly as it
    would if that game or club did not exist (404, a sign-in page, or a refused form), and
    changes nothing. Every other route is named in PUBLIC with why it is public."""
    app.config["WTF_CSRF_ENABLED"] = True
    before = _everything(app)
    # A night's read-only link (issue 37) names its night by a secret of its own.
    named = {"game_id", "secret", "slug", "member_id", "night_id", "night_secret"}
    checked = 0
    for rule in app.url_map.iter_rules():
        if rule.endpoint in PUBLIC:
            assert not (rule.arguments & named), f"{rule.endpoint} is public but names {rule}"
            continue
        assert rule.arguments & named, f"{rule.rule} ({rule.endpoint}): name it in PUBLIC, or why"
        for method in _methods(rule):
            real = _url(app, rule, private_world, real=True)
            none = _url(app, rule, private_world, real=False)
            checked += 1
            env = {"REMOTE_ADDR": f"10.3.{checked // 250}.{checked % 250}"}
            got = app.test_client().open(real, method=method, environ_base=env, data={"a": "1"})
            alike = app.test_client().open(none, method=method, environ_base=env, data={"a": "1"})
            what = f"{method} {rule.rule}"
            assert got.status_code in (302, 400, 404), f"{what}: {got.status_code}"
            if got.status_code == 302:
                assert got.headers["Location"].startswith("/login"), what
            assert (got.status_code, got.data) == (alike.status_code, alike.data), (
                f"{what}: a real one answers otherwise than none at all"
            )
    assert checked > 30
    app.config["WTF_CSRF_ENABLED"] = False
    assert _everything(app) == before


def _url(app, rule: Rule, world: dict[str, Any], real: bool) -> str:
    """The rule's URL naming the real (private) things, or things that do not exist."""
    values = dict(VALUES)
    values["slug"] = "hidden" if real else "no-such-club"
    values["member_id"] = world["member_id"] if real else 987654
    values["night_id"] = world["night_id"] if real else 987654
    values["job_id"] = world["job_id"] if real else 987654
    values["game_id"] = world["club_game_id"] if real else 987654
    # A stranger has no secret: a real game is tried by its id and by a guessed secret.
    values["secret"] = _wrong_secret()
    values["night_secret"] = _wrong_secret()  # nor a night's board link
    path = rule.rule
    for name in rule.arguments:
        path = re.sub(rf"<(?:\w+:)?{name}>", str(values[name]), path)
    return path


# ------------------------------------------------------------------ my games


def test_my_games_lists_what_this_phone_started_or_opened_and_forgets_in_one_tap(app):
    phone_a, phone_b, phone_c = app.test_client(), app.test_client(), app.test_client()
    path = _start(phone_a, "Ann", "Bob")
    assert "Ann" in phone_a.get("/").text
    assert "Ann" not in phone_b.get("/").text
    assert phone_b.get(path).status_code == 200  # B opens the shared link
    assert "Ann" in phone_b.get("/").text
    assert "Ann" not in phone_c.get("/").text  # C never had the link

    form = phone_b.get("/").text
    assert "Forget my games on this phone" in form
    forgot = phone_b.post("/my-games/forget", follow_redirects=True)
    assert "has forgotten its games" in forgot.text and "Ann" not in forgot.text
    assert phone_b.get(path).status_code == 200  # the game itself is untouched
    assert "Ann" in phone_a.get("/").text


def test_my_games_keeps_the_newest_and_drops_deleted_ones(app, client):
    first = _start(client, "First", "Game")
    for n in range(MY_GAMES_KEPT):
        _start(client, f"Side{n}", "Other")
    home = client.get("/").text
    assert not _listed(home, "First") and _listed(home, f"Side{MY_GAMES_KEPT - 1}")
    assert client.get(first).status_code == 200  # opened again: back on the list
    assert _listed(client.get("/").text, "First")
    with app.app_context():
        db.session.delete(
            db.session.execute(select(Game).where(Game.secret == first[3:])).scalar_one()
        )
        db.session.commit()
    assert not _listed(client.get("/").text, "First")


def _listed(home: str, side: str) -> bool:
    """Whether the home page lists a game with this side (its name and its total)."""
    return f'<span class="side-total">{side} <b>' in home


def test_a_club_game_on_my_list_is_its_link_kept(app, private_world):
    """A club game's link is enough to open and score it (issue 37): a phone that opened it, by
    the table link or by the game's link alone, lists it until it forgets its games; the game's
    link opens none of the club's pages."""
    phone = app.test_client()
    with app.app_context():
        code = db.session.get(Club, private_world["club_id"]).table_code
    assert phone.post(f"/clubs/hidden/table/{code}").status_code == 302
    assert phone.get(private_world["club_game"]).status_code == 200
    assert "Mo" in phone.get("/").text
    stranger = app.test_client()
    assert stranger.get(private_world["club_game"]).status_code == 200  # the link alone
    assert "Mo" in stranger.get("/").text
    assert stranger.get("/clubs/hidden").status_code == 404
    assert stranger.get("/clubs/hidden/games/new").status_code == 404
    phone.post("/my-games/forget")
    assert "Mo" not in phone.get("/").text
    assert phone.get("/clubs/hidden").status_code == 404  # the table link forgotten too


def test_a_poll_never_writes_the_session_so_it_cannot_undo_my_games(app, client):
    """A live poll sent before the phone opened another game must not come back with the old
    list: only a change writes the session cookie."""
    a = _start(client, "Ann", "Bob")
    assert client.get(a).status_code == 200
    stale = client.get_cookie("session").value
    b = _start(client, "Cleo", "Dev")
    assert client.get(b).status_code == 200
    poll = app.test_client()
    poll.set_cookie("session", stale)  # the poll that left before game B was opened
    answer = poll.get(f"{a}/live")
    assert answer.status_code == 200 and "Set-Cookie" not in answer.headers
    assert "Set-Cookie" not in client.get(b).headers  # already at the top: nothing to write
    assert _listed(client.get("/").text, "Cleo") and _listed(client.get("/").text, "Ann")
