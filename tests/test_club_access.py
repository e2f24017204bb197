"""Who may see and do what in a club: refusals, the table link, organiser sign-in.

Levels: a private club is invisible (404) to anyone without the table link or an organiser's
login; a public club shows its standings, history and members to everyone, but starting a
game needs the table link (403 without), and organiser-only actions refuse everyone else
(403). A game's own link is enough to score that game, club game or not (issue 37): whoever
holds it has the table's level on the game's routes alone, never on the club's. Refused
requests change nothing.

Every route (tests/club_access_routes.py) is tried against one module-wide pair of clubs
(private and public, tests/club_access_world.py) that the refused requests must leave
untouched; the tests that change things get a fresh database, in
tests/test_club_access_fresh.py.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from club_access_routes import ROUTES, TABLE, call, on_a_game, visitors
from club_access_world import PASSWORD, World, _club, _games, _quick_hashing, _signup, snapshot

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.services import clubs, exports, writes


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
