"""Each table's game is its own: private links, "my games" per phone, nothing for strangers.

Issue 13. A game opens only with its secret (its link `/t/<secret>`, or `X-Game-Key` on the
API); a sequential id grants nothing; a stranger's home page lists nobody's games; guessing
is slowed; and one test walks every route of the app as a stranger.
"""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import segno
from game_links import statements_asked
from sqlalchemy import func, select, update
from werkzeug.routing import Rule

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import (
    Club,
    Deal,
    DealPart,
    Entering,
    Game,
    ImportJob,
    LinkMiss,
    Member,
    Night,
    Organiser,
)
from scorekeeper.services import clubs, links
from scorekeeper.web.access import MY_GAMES_KEPT

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


def _start_club(client) -> str:
    data = {"ruleset": "classic", "decks": "4", "side0_name": "Mo", "side1_name": "Guest"}
    answer = client.post("/clubs/hidden/games/new", data=data)
    assert answer.status_code == 302, answer.text
    return LINK.search(answer.headers["Location"]).group(0)


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


# ------------------------------------------------------------------ the link itself


def test_the_secret_is_128_random_bits_and_each_game_has_its_own(app, client):
    paths = {_start(client, "Ann", "Bob") for _ in range(5)}
    assert len(paths) == 5
    for path in paths:
        secret = path[3:]
        assert links.SECRET.fullmatch(secret)
        assert len(secret) * 6 >= 128  # 22 URL-safe characters carry 132 bits; 128 are random


def test_the_game_opens_with_its_link_and_not_with_another(app, client):
    a = _start(client, "Ann", "Bob")
    b = _start(client, "Cleo", "Dev")
    assert "Ann" in client.get(a).text and "Cleo" in client.get(b).text
    # One letter changed: another secret, which no game has.
    flipped = a[:-1] + ("A" if a[-1] != "A" else "B")
    assert client.get(flipped).status_code == 404
    assert client.get(a[:-1]).status_code == 404  # too short: no secret at all
    assert client.get(a + "x").status_code == 404
    assert client.get(a.lower() if a.lower() != a else a.upper()).status_code == 404


def test_the_old_address_says_where_games_went_and_reveals_nothing(app, client):
    path = _start(client, "Ann", "Bob")
    game_id = _id_of(app, path)
    stranger = app.test_client()
    real = stranger.get(f"/games/{game_id}")
    missing = stranger.get(f"/games/{game_id + 1000}")
    deeper = stranger.post(f"/games/{game_id}/deals/new", data=DEAL)
    assert real.status_code == missing.status_code == deeper.status_code == 404
    assert real.data == missing.data == deeper.data
    assert "private link" in real.text and "Ann" not in real.text
    assert f"{game_id}" not in re.sub(r"<[^>]+>", "", real.text.split("<main")[1])


def test_the_api_needs_the_games_key(app, client):
    made = client.post(
        "/api/v1/games", json={"ruleset": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    ).get_json()
    other = client.post(
        "/api/v1/games", json={"ruleset": "classic", "sides": [{"name": "C"}, {"name": "D"}]}
    ).get_json()
    assert made["link"].endswith(f"/t/{made['key']}") and made["url"] == f"/t/{made['key']}"
    assert made["link"].startswith("http://localhost/")
    path = f"/api/v1/games/{made['id']}"
    assert client.get(path).status_code == 404
    assert client.get(path, headers={"X-Game-Key": other["key"]}).status_code == 404
    assert client.get(path, headers={"X-Game-Key": made["key"]}).status_code == 200
    assert "key" not in client.get(path, headers={"X-Game-Key": made["key"]}).get_json()
    deal = {"scores": [{"melded_points": 50}, {"melded_points": 60}]}
    assert client.post(f"{path}/deals", json=deal).status_code == 404
    assert client.post(f"{path}/deals", json=deal, headers={"X-Game-Key": "x"}).status_code == 404
    saved = client.post(f"{path}/deals", json=deal, headers={"X-Game-Key": made["key"]})
    assert saved.status_code == 201
    fix = {"scores": [{"melded_points": 55}, {"melded_points": 60}], "version": 1}
    assert client.put(f"{path}/deals/1", json=fix).status_code == 404
    fixed = client.put(f"{path}/deals/1", json=fix, headers={"X-Game-Key": made["key"]})
    assert fixed.status_code == 200


def test_public_url_names_the_server_in_every_link(app, client):
    app.config["PUBLIC_URL"] = "https://scores.example.org"
    made = client.post(
        "/api/v1/games", json={"ruleset": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    ).get_json()
    assert made["link"] == f"https://scores.example.org/t/{made['key']}"
    board = client.get(made["url"]).text
    assert f'value="https://scores.example.org/t/{made["key"]}"' in board


# ------------------------------------------------------------------ no timing tells


def test_a_wrong_key_and_a_missing_game_take_the_same_path(app, client):
    """No timing difference can tell them apart: the database is asked the same statements."""
    made = client.post(
        "/api/v1/games", json={"ruleset": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
    ).get_json()
    wrong = {"X-Game-Key": _wrong_secret()}
    real = statements_asked(app, client, f"/api/v1/games/{made['id']}", wrong)
    missing = statements_asked(app, client, f"/api/v1/games/{made['id'] + 500}", wrong)
    assert real[0] == missing[0] == 404
    assert real[1] == missing[1] and len(real[1]) >= 1
    # On the pages a link is only its secret: a wrong one is a missing game, by definition.


# ------------------------------------------------------------------ guessing is slowed


def test_repeated_wrong_links_from_one_address_are_refused_a_while(app, client):
    path = _start(client, "Ann", "Bob")
    guesser = {"REMOTE_ADDR": "203.0.113.9"}
    for _ in range(links.MISSES_ALLOWED):
        assert client.get("/t/" + _wrong_secret(), environ_base=guesser).status_code == 404
    refused = client.get("/t/" + _wrong_secret(), environ_base=guesser)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= links.MISS_WINDOW.total_seconds() + 1
    assert "Wait a few minutes" in refused.text
    # While refused, nothing is looked up: the real link is refused alike, so a guess that
    # happened to be right could not be told from a wrong one.
    assert client.get(path, environ_base=guesser).status_code == 429
    api = client.get("/api/v1/games/1", headers={"X-Game-Key": path[3:]}, environ_base=guesser)
    assert api.status_code == 429 and api.get_json()["errors"]
    # Another address is not slowed by this one.
    assert client.get(path, environ_base={"REMOTE_ADDR": "198.51.100.7"}).status_code == 200
    # Once the misses are older than the window, the address is heard again.
    with app.app_context():
        earlier = datetime.now(UTC) - links.MISS_WINDOW - timedelta(seconds=1)
        db.session.execute(update(LinkMiss).values(at=earlier))
        db.session.commit()
    assert client.get(path, environ_base=guesser).status_code == 200


def test_misses_on_the_api_count_too_and_old_addresses_do_not(app, client):
    guesser = {"REMOTE_ADDR": "203.0.113.10"}
    for n in range(30):
        # An old address carries no secret to guess: never counted (a phone may still poll it).
        assert client.get(f"/games/{n + 1}/live", environ_base=guesser).status_code == 404
    for _ in range(links.MISSES_ALLOWED):
        answer = client.get("/api/v1/games/1", headers={"X-Game-Key": "x"}, environ_base=guesser)
        assert answer.status_code == 404
    answer = client.get("/api/v1/games/1", headers={"X-Game-Key": "x"}, environ_base=guesser)
    assert answer.status_code == 429


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


# ------------------------------------------------------------------ invite the table


def test_the_scoreboard_invites_the_table_with_a_qr_code_of_its_link(app, client):
    path = _start(client, "Ann", "Bob")
    board = client.get(path).text
    assert "Invite the table" in board
    link = f"http://localhost{path}"
    assert f'value="{link}"' in board
    # The code is a picture of its own (issue 18: the page carries only its address)...
    shown = re.search(r'<img class="qr" src="([^"]+)" alt="[^"]+"[^>]*>', board)
    assert shown, "no QR code"
    assert shown.group(1) == f"{path}/invite.svg"
    picture = client.get(shown.group(1))
    assert picture.status_code == 200 and picture.mimetype == "image/svg+xml"
    # ...and the code drawn is the code of the link: read back, the modules segno makes for it.
    modules, border = read_qr(picture.data)
    assert modules == matrix_of(link) and border >= 4
    assert "http" not in picture.text.replace("http://www.w3.org/2000/svg", "")
    # Only the link's holder sees it: another game's secret, or none, finds nothing.
    assert client.get(f"/t/{_wrong_secret()}/invite.svg").status_code == 404


def read_qr(svg: bytes) -> tuple[list[list[bool]], int]:
    """A QR code picture's modules (True: dark), read back from its path, and its quiet zone.

    segno draws each row's dark runs as `h` strokes one module high, moving with `M`/`m`.
    """
    text = svg.decode()
    width, height = map(int, re.search(r'viewBox="0 0 (\d+) (\d+)"', text).groups())
    assert width == height, text[:120]
    drawn = re.findall(r'<path stroke="#000" d="([^"]+)"', text)
    assert len(drawn) == 1, text[:200]
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for command, a, b in re.findall(r"([MmHh])(-?[\d.]+)(?: (-?[\d.]+))?", drawn[0]):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            run = float(a) if command == "h" else float(a) - x
            dark.update((int(y - 0.5), int(x) + i) for i in range(int(run)))
            x += run
    rows = sorted({r for r, _ in dark})
    cols = sorted({c for _, c in dark})
    border = min(rows[0], cols[0])
    size = width - 2 * border
    assert rows[-1] == cols[-1] == border + size - 1, "the code is not centred in its ground"
    modules = [[(border + r, border + c) in dark for c in range(size)] for r in range(size)]
    return modules, border


def matrix_of(link: str) -> list[list[bool]]:
    """What a QR code of the link holds, as segno makes it (error level M, as the app asks)."""
    code = segno.make(link, error="m", micro=False)
    return [[bool(m) for m in row] for row in code.matrix]


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
