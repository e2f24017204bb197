"""The JSON API against its own OpenAPI document, with schemathesis, through the WSGI app.

The document is read from /api/v1/openapi.json of an app that needs no database; every
generated request then goes to the test's own app (a fresh database), seeded with games
1..N in several rule sets, some with deals, and a public club, so that paths reach past 404s.
Checks: no server error, only documented status codes, bodies and content types as documented.
"""

from __future__ import annotations

import re

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from scorekeeper import clubs, create_app
from scorekeeper import rules as engine

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

# The document does not touch the database: an in-memory one is never even opened.
_doc_app = create_app(
    {"TESTING": True, "SECRET_KEY": "schema", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
)
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", _doc_app)
# No NUL in generated text: a NUL slug is a known 500 on PostgreSQL, pinned in test_fuzz.py
# (test_nul_in_a_looked_up_name_is_no_server_error); here it would fail only there, by chance.
schema.config.generation.update(max_examples=25, deterministic=True, allow_x00=False)

CLUB_SLUG = "tuesday"
# What `seeded` makes: a game per rule set, a finished one, a club game; the next two ids are
# missing, for the 404s.
GAMES = len(engine.PRESETS) + 2


def _aim(case) -> None:
    """Aim generated ids (and the coverage phase's "0") at the seeded games, or just past them.

    The body's size spreads the coverage phase's fixed ids over the games; anything that is not
    a whole number (a negative case) is left as generated.
    """
    spread = len(repr(case.body))
    for name, size in (("game_id", GAMES + 2), ("number", 4)):
        value = case.path_parameters.get(name)
        if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,30}", value):
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            case.path_parameters[name] = 1 + (abs(value) + spread) % size
    # Schemathesis's WSGI client asks for gzip but does not unpack it (tests/test_compress.py
    # covers gzip); plain bodies let it read every answer.
    case.headers = {**(case.headers or {}), "Accept-Encoding": "identity"}
    key = case.path_parameters.get("key")
    if isinstance(key, str) and len(key) % 2 == 0:
        case.path_parameters["key"] = sorted(engine.PRESETS)[len(key) % len(engine.PRESETS)]
    slug = case.path_parameters.get("slug")
    if isinstance(slug, str) and len(slug) % 2 == 0:
        case.path_parameters["slug"] = CLUB_SLUG


def _start(client, ruleset, sides, headers=None, **more):
    body = {"ruleset": ruleset, "sides": sides, **more}
    answer = client.post("/api/v1/games", json=body, headers=headers)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def _deal(client, game_id, *scores, headers=None):
    answer = client.post(
        f"/api/v1/games/{game_id}/deals", json={"scores": list(scores)}, headers=headers
    )
    assert answer.status_code == 201, answer.get_json()


@pytest.fixture
def seeded(app):
    """Games 1..GAMES: every rule set (some with deals), a finished one, a public club's one."""
    client = app.test_client()
    teams = [
        {"name": "Ann & Bob", "players": ["Ann", "Bob"]},
        {"name": "Cat & Dan", "players": ["Cat", "Dan"]},
    ]
    singles = [{"name": "Eve", "players": ["Eve"]}, {"name": "Fay", "players": ["Fay"]}]
    played = {"books": {"clean": 1}, "melded_points": 150, "leftover_points": 20}
    for key in engine.PRESETS:
        game_id = _start(client, key, singles if engine.PRESETS[key].individuals else teams)
        if game_id % 2:
            _deal(client, game_id, played, {})
            _deal(client, game_id, {}, played)
    # This one ends after one deal: another deal meets a 409.
    finished = _start(client, "classic", teams, rules={"end_after_deals": 1})
    _deal(client, finished, played, {})
    assert finished == GAMES - 1
    organiser = app.test_client()
    signed_up = organiser.post("/signup", data={"username": "org", "password": "secret-pw"})
    assert signed_up.status_code == 302
    made = organiser.post("/clubs/new", data={"name": "Tuesday", "slug": CLUB_SLUG, "public": "y"})
    assert made.status_code == 302
    for name in ("Ann", "Bob", "Cat", "Dan"):
        assert organiser.post(f"/clubs/{CLUB_SLUG}/members", data={"name": name}).status_code == 302
    with app.app_context():
        code = clubs.club_by_slug(CLUB_SLUG).table_code
    # The club game needs the table code; the header is only on these requests.
    table = {"X-Table-Code": code}
    rules = {"end_after_deals": 1}
    club_game = _start(client, "classic", teams, headers=table, club=CLUB_SLUG, rules=rules)
    _deal(client, club_game, played, {}, headers=table)
    assert club_game == GAMES
    return app


@schema.parametrize()
@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    # The app fixture is per test (one per operation), and filtering is schemathesis's own.
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_document(case, seeded):
    _aim(case)
    case.call_and_validate(app=seeded, checks=CHECKS)


# ---------------------------------------------------------------- found by schemathesis
# Answers the app gave that the document did not list (400, 403, 404 and 415 on the three
# operations with a body), and a 500 for a season the document allows. All were fixed in
# afde6cc; each stays here as a plain test.


def _answer(path, method, status, **request):
    return pytest.param(path, method, request, status, id=f"{method} {path} -> {status}")


NOT_JSON = {"data": "scores", "content_type": "text/plain"}
NOT_AN_OBJECT = {"json": [1, 2]}
BLANK_DEAL = {"json": {"scores": [{}, {}]}}
TWO_SIDES = [{"name": "A"}, {"name": "B"}]
ANSWERS = [
    _answer("/api/v1/games", "POST", 415, **NOT_JSON),
    _answer("/api/v1/games", "POST", 400, **NOT_AN_OBJECT),
    _answer(
        "/api/v1/games",
        "POST",
        404,
        json={"ruleset": "classic", "sides": TWO_SIDES, "club": "nope"},
    ),
    _answer(
        "/api/v1/games",
        "POST",
        403,
        json={"ruleset": "classic", "sides": TWO_SIDES, "club": CLUB_SLUG},
    ),
    _answer("/api/v1/games/1/deals", "POST", 415, **NOT_JSON),
    _answer("/api/v1/games/1/deals", "POST", 400, **NOT_AN_OBJECT),
    _answer(f"/api/v1/games/{GAMES}/deals", "POST", 403, **BLANK_DEAL),
    _answer("/api/v1/games/1/deals/1", "PUT", 415, **NOT_JSON),
    _answer("/api/v1/games/1/deals/1", "PUT", 400, **NOT_AN_OBJECT),
    _answer(f"/api/v1/games/{GAMES}/deals/1", "PUT", 403, **BLANK_DEAL),
]


@pytest.mark.parametrize(("path", "method", "request_", "status"), ANSWERS)
def test_every_status_code_is_documented(seeded, path, method, request_, status):
    response = seeded.test_client().open(path, method=method, **request_)
    assert response.status_code == status, response.get_data(as_text=True)
    operation = schema.find_operation_by_path(method, path)
    numbers = dict(
        zip(("game_id", "number"), map(int, re.findall(r"/([0-9]+)", path)), strict=False)
    )
    case = operation.Case(path_parameters=numbers)
    case.validate_response(response, checks=CHECKS)


@pytest.mark.parametrize("season", ["²", "①", "9" * 25])
def test_standings_season_of_any_digits_is_no_server_error(seeded, season):
    # The document types `season` as any string; api.py read "²".isdigit() as a number.
    case = schema["/api/v1/clubs/{slug}/standings"]["GET"].Case(
        path_parameters={"slug": CLUB_SLUG},
        query={"season": season},
        headers={"Accept-Encoding": "identity"},
    )
    case.call_and_validate(app=seeded, checks=CHECKS)
