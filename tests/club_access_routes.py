"""Every club route for tests/test_club_access.py: the request, the level it needs, what an
allowed visitor gets, and how each visitor (anonymous, another club's organiser, the table link
in session, the X-Table-Code header) asks it of the clubs in tests/club_access_world.py.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Any

from club_access_world import World

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
    # Every other night page (web/nights/): its movement cards, its results file, its board link.
    "night cards": R("GET", "/clubs/{slug}/nights/{night}/cards", TABLE),
    "night results file": R("GET", "/clubs/{slug}/nights/{night}/results.csv", TABLE),
    "board link form": R("GET", "/clubs/{slug}/nights/{night}/board-link", ORGANISER),
    "new board link": R(
        "POST", "/clubs/{slug}/nights/{night}/board-link", ORGANISER, organiser=False
    ),
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
