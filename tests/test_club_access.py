"""Who may see and do what in a club: refusals, the table link, organiser sign-in.

Levels: a private club is invisible (404) to anyone without the table link or an organiser's
login; a public club shows its standings, history and members to everyone, but starting a
game needs the table link (403 without), and organiser-only actions refuse everyone else
(403). A game's own link is enough to score that game, club game or not (issue 37): whoever
holds it has the table's level on the game's routes alone, never on the club's. Refused
requests change nothing.

Every route is tried against one module-wide pair of clubs (private and public) that the
refused requests must leave untouched; tests that change things get a fresh database.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from datetime import date
from functools import partial
from typing import Any
from urllib.parse import urlsplit

import pytest
from game_links import key, link
from sqlalchemy import select
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Game, Night, Organiser
from scorekeeper.rules import DealEntry
from scorekeeper.rules.terms import MIN_PASSWORD
from scorekeeper.services import accounts, clubs, exports, writes
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


@pytest.fixture
def quick(monkeypatch):
    _quick_hashing(monkeypatch)


@pytest.fixture(scope="module")
def world(tmp_path_factory, databases):
    with pytest.MonkeyPatch.context() as patch:
        _quick_hashing(patch)
        folder = tmp_path_factory.mktemp("access")
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "test",
                "SQLALCHEMY_DATABASE_URI": databases.sqlite_copy(folder, "access.sqlite"),
                "WTF_CSRF_ENABLED": False,
                # Every route's writes, from one address to one game: the allowances of writes
                # (services/writes.py, test_write_limits.py) are not what this module is about.
                **{a.setting: 1_000_000 for a in writes.ALLOWANCES.values()},
                # Every export route, from one address, as each visitor (test_exports.py).
                **{a.setting: 1_000_000 for a in (exports.VISITORS, exports.ORGANISERS)},
            }
        )
        olga, vera, phone = app.test_client(), app.test_client(), app.test_client()
        _signup(olga, "olga")
        _club(olga, "priv", public=False)
        _club(olga, "pub", public=True)
        _signup(vera, "vera")
        _club(vera, "veras", public=False)
        made = World(app, olga, vera, phone)
        with app.app_context():
            for slug in ("priv", "pub", "veras"):
                made.codes[slug] = clubs.club_by_slug(slug).table_code
                made.ids[slug] = _games(slug)
                made.secrets[slug] = {
                    which: db.session.get(Game, made.ids[slug][which]).secret
                    for which in ("game", "live")
                }
        for slug in ("priv", "pub"):
            assert phone.post(f"/clubs/{slug}/table/{made.codes[slug]}").status_code == 302
        made.deals_csv = vera.get("/clubs/veras/export/deals.csv?season=all").text
    yield made
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


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


# ------------------------------------------------------------------------- every route

READ, TABLE, ORGANISER = 1, 2, 3
BAD_FIGURE = {"went_out": "", "s0-melded_points": "12a"}
# Ann takes a second clean book in deal 1: a real change to a finished game.
CHANGED_DEAL = {"went_out": "", "s0-books-clean": "2"}


@dataclass(frozen=True)
class Route:
    """A request, the level it needs, and what an allowed visitor gets.

    `body` is what refused visitors send (a real change where the route makes one);
    `allowed` is what allowed visitors send, chosen so that nothing changes, and `ok` the
    status they get. `organiser=False`: an organiser-only route not tried by the organiser
    here, as any request would change something (those are tested in test_clubs.py).
    `{game_link}` and `{live_link}` are the games' private links (`/t/<secret>`); an API route
    about a game is sent with its `X-Game-Key` (see `call`).
    """

    method: str
    path: str
    need: int
    ok: int = 200
    body: dict[str, Any] = field(default_factory=dict)
    allowed: dict[str, Any] | None = None
    organiser: bool = True


def _file(content: str) -> dict[str, Any]:
    return {"data": {"file": (io.BytesIO(content.encode()), "deals.csv")}}


R = Route
ROUTES = {
    # Club pages anyone may read in a public club.
    "overview": R("GET", "/clubs/{slug}", READ),
    "standings": R("GET", "/clubs/{slug}/standings?season=all", READ),
    "history": R("GET", "/clubs/{slug}/games?season=all", READ),
    "members": R("GET", "/clubs/{slug}/members", READ),
    "member": R("GET", "/clubs/{slug}/members/{member}", READ),
    "seasons": R("GET", "/clubs/{slug}/seasons", READ),
    "export games": R("GET", "/clubs/{slug}/export/games.csv?season=all", READ),
    "export deals": R("GET", "/clubs/{slug}/export/deals.csv?season=all", READ),
    "export standings": R("GET", "/clubs/{slug}/export/standings.csv?season=all", READ),
    "scoreboard": R("GET", "{game_link}", READ),
    "scoreboard live": R("GET", "{live_link}", READ),
    "game rule card": R("GET", "{game_link}/rules", READ),
    "api standings": R("GET", "/api/v1/clubs/{slug}/standings?season=all", READ),
    "api game": R("GET", "/api/v1/games/{game}", READ),
    "api game live": R("GET", "/api/v1/games/{live}", READ),
    # The table link: start games, enter and correct deals of unfinished games.
    "choose rules": R("GET", "/clubs/{slug}/games/new", TABLE),
    "new game form": R("GET", "/clubs/{slug}/games/new?ruleset=club", TABLE),
    "start game": R(
        "POST",
        "/clubs/{slug}/games/new?ruleset=club",
        TABLE,
        422,
        body={"data": {"ruleset": "club", "side0_member0": "Ann", "side1_member0": "Bob"}},
        allowed={"data": {"ruleset": "club", "side0_member0": "Ann", "side1_member0": "Ann"}},
    ),
    "deal form": R("GET", "{live_link}/deals/new", TABLE),
    "enter deal": R(
        "POST",
        "{live_link}/deals/new",
        TABLE,
        422,
        body={"data": {"went_out": "", "s0-books-clean": "1"}},
        allowed={"data": BAD_FIGURE},
    ),
    "preview deal": R("POST", "{live_link}/deals/preview", TABLE, body={"data": BAD_FIGURE}),
    "correct form": R("GET", "{live_link}/deals/1/edit", TABLE),
    "correct deal": R(
        "POST",
        "{live_link}/deals/1/edit",
        TABLE,
        422,
        body={"data": CHANGED_DEAL},
        allowed={"data": BAD_FIGURE},
    ),
    "api start game": R(
        "POST",
        "/api/v1/games",
        TABLE,
        422,
        body={
            "json": {"ruleset": "club", "club": "{slug}", "sides": [{"name": "X"}, {"name": "Y"}]}
        },
        # Two sides of one name: refused after the club's code is checked.
        allowed={"json": {"ruleset": "club", "club": "{slug}", "sides": [{"name": "X"}] * 2}},
    ),
    "api deal": R(
        "POST",
        "/api/v1/games/{live}/deals",
        TABLE,
        422,
        body={"json": {"scores": [{"books": {"clean": 1}}, {}]}},
        allowed={"json": {"scores": [{"melded_points": -5}, {}]}},
    ),
    "api correct deal": R(
        "PUT",
        "/api/v1/games/{live}/deals/1",
        TABLE,
        422,
        body={"json": {"scores": [{"books": {"clean": 2}}, {}]}},
        allowed={"json": {"scores": [{"melded_points": -5}, {}]}},
    ),
    # Organisers only.
    "settings": R("GET", "/clubs/{slug}/settings", ORGANISER),
    "save settings": R(
        "POST",
        "/clubs/{slug}/settings",
        ORGANISER,
        422,
        body={"data": {"name": "Taken", "public": "y", "min_games": "0"}},
        allowed={"data": {"name": "", "min_games": "0"}},
    ),
    # The table link as its organisers share it (issue 28): a table-link holder neither sees it
    # nor replaces it (403, as the settings), a stranger finds nothing (404 in a private club).
    "table link QR": R("GET", "/clubs/{slug}/table/{code}/qr.svg", ORGANISER),
    "table card": R("GET", "/clubs/{slug}/settings/table-card", ORGANISER),
    "new table link, asked": R("GET", "/clubs/{slug}/settings/table-link", ORGANISER),
    # Tonight's tables seated (issue 29): a GET form that saves nothing, the organisers' alone.
    "night plan": R("GET", "/clubs/{slug}/nights/plan", ORGANISER),
    "night plan seated": R(
        "GET", "/clubs/{slug}/nights/plan?members={member}&members={other}&seat=1", ORGANISER, 422
    ),
    # A club night kept (issue 29): the organisers open and run it; the table link sees it and
    # its board, which link every table's game.
    "new night": R("GET", "/clubs/{slug}/nights/new", ORGANISER),
    "open night": R(
        "POST",
        "/clubs/{slug}/nights/new",
        ORGANISER,
        422,
        body={
            "data": {
                "members": ["{member}", "{other}", "{spare}"],
                "guests": "Zoe",
                "rules": "classic",
                "rounds": "1",
                "partners": "rotating",
                "sit_out": "no game",
            }
        },
        allowed={"data": {"rules": "classic", "rounds": "13"}},
    ),
    "night": R("GET", "/clubs/{slug}/nights/{night}", TABLE),
    # The club's nights in one place (issue 37): what the night pages need.
    "nights hub": R("GET", "/clubs/{slug}/nights", TABLE),
    # Checking in from a phone: nobody where the club does not allow it (its default), the
    # table link too (403); an organiser's undo is theirs alone while the club keeps its default.
    "check in": R(
        "POST",
        "/clubs/{slug}/nights/{night}/here",
        ORGANISER + 1,
        body={"data": {"member": "{member}"}},
        organiser=False,
    ),
    "undo a check-in": R(
        "POST",
        "/clubs/{slug}/nights/{night}/here/undo",
        ORGANISER,
        body={"data": {"player": "1"}},
        organiser=False,
    ),
    "night board": R("GET", "/clubs/{slug}/nights/{night}/board", TABLE),
    "seat a round": R("POST", "/clubs/{slug}/nights/{night}/seat", ORGANISER, organiser=False),
    "end the night": R("POST", "/clubs/{slug}/nights/{night}/finish", ORGANISER, organiser=False),
    # A seating drawn again (the next round's, or round 1 seated with no deal): the organisers'
    # alone while the club keeps its default, the table link's too where the club allows it.
    "draw again": R("POST", "/clubs/{slug}/nights/{night}/draw", ORGANISER, organiser=False),
    "draw a round again": R(
        "POST", "/clubs/{slug}/nights/{night}/rounds/1/draw", ORGANISER, organiser=False
    ),
    "night players": R(
        "POST",
        "/clubs/{slug}/nights/{night}/players",
        ORGANISER,
        422,
        body={"data": {"guest": "Zoe"}},
        allowed={"data": {"guest": " "}},
    ),
    "replace table link": R(
        "POST", "/clubs/{slug}/settings/table-link", ORGANISER, organiser=False
    ),
    "add organiser": R(
        "POST",
        "/clubs/{slug}/settings/organisers",
        ORGANISER,
        302,
        body={"data": {"organiser-name": "vera"}},
        allowed={"data": {"organiser-name": ""}},
    ),
    "add member": R(
        "POST",
        "/clubs/{slug}/members",
        ORGANISER,
        422,
        body={"data": {"name": "Mallory"}},
        allowed={"data": {"name": ""}},
    ),
    "add members": R(
        "POST",
        "/clubs/{slug}/members",
        ORGANISER,
        422,
        body={"data": {"names": "Mallory, Trent", "confirm": "yes"}},
        allowed={"data": {"names": " , "}},
    ),
    "rename member": R(
        "POST",
        "/clubs/{slug}/members/{member}/rename",
        ORGANISER,
        422,
        body={"data": {"new_name": "Mallory"}},
        allowed={"data": {"new_name": ""}},
    ),
    "archive member": R(
        "POST", "/clubs/{slug}/members/{member}/archive", ORGANISER, organiser=False
    ),
    "restore member": R(
        "POST", "/clubs/{slug}/members/{member}/restore", ORGANISER, organiser=False
    ),
    "merge member": R(
        "POST",
        "/clubs/{slug}/members/{spare}/merge",
        ORGANISER,
        body={"data": {"into": "{other}"}},
        organiser=False,
    ),
    "delete member": R("POST", "/clubs/{slug}/members/{spare}/delete", ORGANISER, organiser=False),
    "add season": R(
        "POST",
        "/clubs/{slug}/seasons",
        ORGANISER,
        422,
        body={"data": {"name": "Summer", "starts_on": "2024-06-01", "ends_on": "2024-08-31"}},
        allowed={"data": {"name": ""}},
    ),
    "import form": R("GET", "/clubs/{slug}/import", ORGANISER),
    "import": R("POST", "/clubs/{slug}/import", ORGANISER, 422, allowed={"data": {}}),
    "delete game": R("POST", "{game_link}/delete", ORGANISER, organiser=False),
    "correct finished form": R("GET", "{game_link}/deals/1/edit", ORGANISER),
    "correct finished deal": R(
        "POST",
        "{game_link}/deals/1/edit",
        ORGANISER,
        422,
        body={"data": CHANGED_DEAL},
        allowed={"data": BAD_FIGURE},
    ),
    "api correct finished deal": R(
        "PUT",
        "/api/v1/games/{game}/deals/1",
        ORGANISER,
        422,
        body={"json": {"scores": [{"books": {"clean": 2}}, {}]}},
        allowed={"json": {"scores": [{"melded_points": -5}, {}]}},
    ),
}


def _fill(value: Any, names: dict[str, Any]) -> Any:
    if isinstance(value, str):
        return value.format(**names)
    if isinstance(value, dict):
        return {k: _fill(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, names) for v in value]
    return value


# An API route about one game ("{game}" or "{live}" in its path) needs that game's key.
API_GAME = re.compile(r"/api/v1/games/\{(game|live)\}")


def call(client, route: Route, slug: str, world: World, body: dict[str, Any], **headers: str):
    """The route as `client` asks it, always with the game's secret (its link, or its key).

    Every visitor holds the link of the club's games here: what refuses them is their level in
    the club, never a missing secret.
    """
    secrets = world.secrets[slug]
    names = {
        "slug": slug,
        "code": world.codes[slug],
        **world.ids[slug],
        **{f"{which}_link": "/t/" + secret for which, secret in secrets.items()},
    }
    kwargs = _fill(body, names)
    if route.path.endswith("/import") and route.method == "POST" and "data" not in kwargs:
        kwargs = _file(world.deals_csv)  # a real export of another club
    if about := API_GAME.match(route.path):
        headers = {**headers, "X-Game-Key": secrets[about.group(1)]}
    return client.open(
        route.path.format(**names), method=route.method, headers=headers or None, **kwargs
    )


def on_a_game(route: Route) -> bool:
    """Whether the route is opened by a game's secret (its link, or its X-Game-Key)."""
    return (
        "{game_link}" in route.path
        or "{live_link}" in route.path
        or bool(API_GAME.match(route.path))
    )


def visitors(world: World, slug: str) -> dict[str, tuple[Any, dict[str, str], int]]:
    """Each visitor: client, headers, and level in this club."""
    public = slug == "pub"
    return {
        "anonymous": (world.app.test_client(), {}, READ if public else 0),
        "another club's organiser": (world.vera, {}, READ if public else 0),
        "table link in session": (world.phone, {}, TABLE),
        "X-Table-Code header": (
            world.app.test_client(),
            {"X-Table-Code": world.codes[slug]},
            TABLE,
        ),
    }


@pytest.mark.parametrize("slug", ["priv", "pub"])
@pytest.mark.parametrize("name", list(ROUTES))
def test_every_route_refuses_the_wrong_visitor(world, name, slug):
    route = ROUTES[name]
    changes = route.method != "GET"
    before = snapshot(world.app) if changes else None
    for who, (client, headers, level) in visitors(world, slug).items():
        # Every visitor holds the game's link here: on the game's own routes, that is the
        # table's level at least (issue 37); the club's routes ask the club's level alone.
        if on_a_game(route):
            level = max(level, TABLE)
        allowed = level >= route.need
        body = route.allowed if allowed and route.allowed is not None else route.body
        response = call(client, route, slug, world, body, **headers)
        if allowed:
            expected = route.ok
        else:
            expected = 404 if level == 0 else 403
        assert response.status_code == expected, f"{who}: {response.status_code}"
    if changes:
        assert snapshot(world.app) == before, "a refused or harmless request changed something"
    if route.organiser:
        body = route.allowed if route.allowed is not None else route.body
        response = call(world.olga, route, slug, world, body)
        assert response.status_code == route.ok, f"organiser: {response.status_code}"
        if changes:
            assert snapshot(world.app) == before, "the organiser's harmless request changed it"


def test_private_club_answers_404_not_403(world):
    """Nothing tells a stranger that a private club exists: as for a club that does not."""
    stranger = world.app.test_client()
    for path in ("/clubs/priv", "/clubs/no-such-club", "/api/v1/clubs/priv/standings"):
        assert stranger.get(path).status_code == 404
    assert stranger.get("/clubs/priv/settings").status_code == 404
    mine = world.olga.get("/clubs").text
    assert "Club priv" in mine and "Club veras" not in mine


# ------------------------------------------------------------------------- the table code


def test_table_codes_are_long_unguessable_and_different(world):
    codes = list(world.codes.values())
    assert len(set(codes)) == len(codes)
    for code in codes:
        assert len(code) >= 20
        assert re.fullmatch(r"[A-Za-z0-9_-]+", code)
    settings = world.olga.get("/clubs/priv/settings").text
    assert f"/clubs/priv/table/{world.codes['priv']}" in settings


def _wrong_codes(world: World) -> dict[str, str]:
    code = world.codes["priv"]
    flipped = ("A" if code[0] != "A" else "B") + code[1:]
    return {
        "one character off": flipped,
        "cut short": code[:-1],
        "one character more": code + "x",
        "another club's code": world.codes["veras"],
        "the public club's code": world.codes["pub"],
        "a guess": "a" * len(code),
    }


WRONG = [
    "one character off",
    "cut short",
    "one character more",
    "another club's code",
    "the public club's code",
    "a guess",
]


@pytest.mark.parametrize("which", WRONG)
def test_a_wrong_code_gives_no_access(world, which):
    code = _wrong_codes(world)[which]
    # An address of its own: each wrong code is a miss, and the module's tests share a world.
    phone = world.app.test_client()
    phone.environ_base["REMOTE_ADDR"] = f"192.0.2.{WRONG.index(which) + 1}"
    assert phone.get(f"/clubs/priv/table/{code}").status_code == 404
    assert phone.get("/clubs/priv").status_code == 404
    assert phone.get("/clubs/priv/games/new").status_code == 404
    header = {"X-Table-Code": code}
    assert phone.get("/clubs/priv/standings", headers=header).status_code == 404
    # The game's link opens its game whatever code comes with it (issue 37), and nothing more.
    live = f"/t/{world.secrets['priv']['live']}"
    assert phone.get(live, headers=header).status_code == 200
    assert phone.get("/clubs/priv", headers=header).status_code == 404
    if code != world.codes["pub"]:  # a public club stays read-only
        assert phone.get("/clubs/pub/games/new", headers=header).status_code == 403
    started = phone.post(
        "/api/v1/games",
        json={"ruleset": "club", "club": "priv", "sides": [{"name": "X"}, {"name": "Y"}]},
        headers=header,
    )
    assert started.status_code == 404


def test_a_non_ascii_code_is_just_wrong(world):
    phone = world.app.test_client()
    phone.environ_base["REMOTE_ADDR"] = "192.0.2.50"
    assert phone.get("/clubs/priv/table/caf%C3%A9").status_code == 404
    assert phone.get("/clubs/pub/games/new", headers={"X-Table-Code": "caf\xe9"}).status_code == 403


def test_a_replaced_code_gives_no_access(app, client, quick):
    _signup(client, "olga")
    _club(client, "priv", public=False)
    with app.app_context():
        old = clubs.club_by_slug("priv").table_code
    phone = app.test_client()
    assert phone.post(f"/clubs/priv/table/{old}").status_code == 302
    assert phone.get("/clubs/priv/games/new").status_code == 200
    assert client.post("/clubs/priv/settings/table-link").status_code == 302
    with app.app_context():
        new = clubs.club_by_slug("priv").table_code
    assert new != old and len(new) >= 20
    assert phone.get("/clubs/priv/games/new").status_code == 404
    assert phone.get(f"/clubs/priv/table/{old}").status_code == 404
    stale = {"X-Table-Code": old}
    assert app.test_client().get("/clubs/priv", headers=stale).status_code == 404
    sides = [{"name": "X"}, {"name": "Y"}]
    refused = app.test_client().post(
        "/api/v1/games", json={"ruleset": "club", "club": "priv", "sides": sides}, headers=stale
    )
    assert refused.status_code == 404
    fresh = {"X-Table-Code": new}
    started = app.test_client().post(
        "/api/v1/games", json={"ruleset": "club", "club": "priv", "sides": sides}, headers=fresh
    )
    assert started.status_code == 201
    with app.app_context():
        assert db.session.query(Game).count() == 1


def test_the_table_link_lets_a_phone_play_a_public_club(app, client, quick):
    _signup(client, "olga")
    _club(client, "pub", public=True)
    with app.app_context():
        code = clubs.club_by_slug("pub").table_code
    start = {"ruleset": "club", "side0_member0": "Ann", "side1_member0": "Bob"}
    stranger = app.test_client()
    assert stranger.post("/clubs/pub/games/new?ruleset=club", data=start).status_code == 403
    phone = app.test_client()
    phone.post(f"/clubs/pub/table/{code}")
    game_link, game = started_game(app, phone.post("/clubs/pub/games/new?ruleset=club", data=start))
    deal = {"went_out": "", "s0-books-clean": "1"}
    # Holding the game's link is enough to score it (issue 37), but it is not the club's table
    # link: the stranger starts no club game with it.
    assert stranger.post(f"{game_link}/deals/new", data=deal).status_code == 302
    assert phone.post(f"{game_link}/deals/new", data=deal).status_code == 302
    assert stranger.post("/clubs/pub/games/new?ruleset=club", data=start).status_code == 403
    # Anyone with the link may watch the board of a club's game; two deals were saved.
    watched = stranger.get(f"/api/v1/games/{game}", headers=key(app, game))
    assert watched.get_json()["sides"][0]["total"] == 1000


def test_organiser_forms_need_the_csrf_token(app, client, quick):
    """A page on another site cannot make a signed-in organiser's browser change the club."""
    _signup(client, "olga")
    _club(client, "priv", public=False)
    with app.app_context():
        ids = _games("priv")
    before = snapshot(app)
    app.config["WTF_CSRF_ENABLED"] = True
    # A new table link without its token comes back to its confirmation, saying why.
    assert client.post("/clubs/priv/settings/table-link").status_code == 422
    for path in (
        f"{link(app, ids['game'])}/delete",
        f"/clubs/priv/members/{ids['spare']}/delete",
        f"/clubs/priv/members/{ids['member']}/archive",
    ):
        assert client.post(path).status_code == 400, path
    assert (
        client.post("/clubs/priv/settings/organisers", data={"organiser-name": "x"}).status_code
        == 400
    )
    assert snapshot(app) == before


# ------------------------------------------------------------------------- signing in


def test_a_wrong_password_is_refused(world):
    visitor = world.app.test_client()
    for username, password in (("olga", "not-the-password"), ("nobody", PASSWORD)):
        response = visitor.post("/login", data={"username": username, "password": password})
        assert response.status_code == 422
        assert "do not match" in response.text
        assert visitor.get("/clubs/priv/settings").status_code == 404
    signed_in = visitor.post("/login", data={"username": "OLGA", "password": PASSWORD})
    assert signed_in.status_code == 302
    assert visitor.get("/clubs/priv/settings").status_code == 200
    assert visitor.post("/logout").status_code == 302
    assert visitor.get("/clubs/priv/settings").status_code == 404


NEXT = [
    "//evil.example",
    "///evil.example",
    "https://evil.example/",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "/\t/evil.example",
    "/\n/evil.example",
]


@pytest.mark.parametrize("target", NEXT)
def test_next_never_leaves_the_site(world, target):
    visitor = world.app.test_client()
    response = visitor.post(
        "/login", query_string={"next": target}, data={"username": "olga", "password": PASSWORD}
    )
    assert response.status_code == 302
    location = response.headers["Location"]
    assert not location.startswith(("//", "\\", "/\\"))
    assert urlsplit(location).netloc in ("", "localhost")
    assert urlsplit(location).scheme in ("", "http")


def test_next_on_the_site_is_followed(world):
    visitor = world.app.test_client()
    response = visitor.post(
        "/login?next=/clubs/priv/settings", data={"username": "olga", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/clubs/priv/settings"
    assert visitor.get("/clubs/new").status_code == 200
    anonymous = world.app.test_client().get("/clubs/new")
    assert anonymous.status_code == 302
    assert urlsplit(anonymous.location).path == "/login"


def test_passwords_are_stored_hashed(app, client):
    """A fresh app with the real hashing."""
    _signup(client, "hashed")
    with app.app_context():
        stored = db.session.execute(select(Organiser.password_hash)).scalar_one()
    assert PASSWORD not in stored
    assert stored.split(":")[0] in ("scrypt", "pbkdf2")
    assert check_password_hash(stored, PASSWORD)
    assert client.post("/logout").status_code == 302
    again = client.post("/login", data={"username": "hashed", "password": PASSWORD})
    assert again.status_code == 302


def test_short_passwords_are_refused(app, client):
    response = client.post("/signup", data={"username": "shorty", "password": "1234567"})
    assert response.status_code == 422
    assert f"at least {MIN_PASSWORD} characters" in response.text
    with app.app_context():
        assert db.session.query(Organiser).count() == 0


# ------------------------------------------------------------------------- casual games


def test_casual_games_keep_working_for_everyone(app, client):
    """No club, no account: start, enter, correct, watch, as before clubs existed."""
    started = client.post(
        "/games/new?ruleset=club",
        data={"ruleset": "club", "side0_name": "Ann", "side1_name": "Bob"},
    )
    game_link, game = started_game(app, started)
    # Deal 1: Ann one clean book = 500. Deals 2-4: nothing scored. Ann wins with 500.
    for deal in ({"s0-books-clean": "1"}, {}, {}, {}):
        assert (
            client.post(f"{game_link}/deals/new", data={"went_out": "", **deal}).status_code == 302
        )
    stranger = app.test_client()
    board = stranger.get(game_link)
    assert board.status_code == 200 and "Game over" in board.text
    # A finished casual game may still be corrected by whoever holds its link: 2 clean = 1,000.
    corrected = stranger.post(
        f"{game_link}/deals/1/edit", data={"went_out": "", "s0-books-clean": "2", "version": "1"}
    )
    assert corrected.status_code == 302
    answer = stranger.get(f"/api/v1/games/{game}", headers=key(app, game))
    assert answer.get_json()["sides"][0]["total"] == 1000
    # Only club games can be deleted, by their organisers.
    assert stranger.post(f"{game_link}/delete").status_code == 404
    # The API too, with no code or account: the game's key comes with its start.
    created = stranger.post(
        "/api/v1/games", json={"ruleset": "club", "sides": [{"name": "Cy"}, {"name": "Di"}]}
    )
    assert created.status_code == 201
    deal = stranger.post(
        f"/api/v1/games/{created.get_json()['id']}/deals",
        json={"scores": [{"books": {"dirty": 1}}, {}]},
        headers={"X-Game-Key": created.get_json()["key"]},
    )
    assert deal.status_code == 201
    assert deal.get_json()["sides"][0]["total"] == 300  # one dirty book
    # The stranger opened the game through its link: it is on the stranger's home page.
    home = stranger.get("/")
    assert home.status_code == 200 and f'"{game_link}"' in home.text


def test_club_games_stay_off_the_home_page(world):
    home = world.app.test_client().get("/").text
    for slug in ("priv", "pub"):
        for secret in world.secrets[slug].values():
            assert secret not in home
    # A private club's game opened by its link alone (issue 37) is kept on that phone's list,
    # as any game it opened: the link it holds opens it again. Its club's pages stay closed.
    stranger = world.app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.0.2.51"  # not an address the tests spent
    assert stranger.get(f"/t/{world.secrets['priv']['live']}").status_code == 200
    assert world.secrets["priv"]["live"] in stranger.get("/").text
    assert stranger.get("/clubs/priv").status_code == 404
