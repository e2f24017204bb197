"""The fuzz tests' shared settings, strategies and helpers (test_fuzz_*.py use them).

Every form and API field, fuzzed with Hypothesis: junk gets a 4xx, never a 5xx.

Properties, for each field of the JSON API v1, the new-game and deal forms, the preview, the
sign-up and sign-in forms and the club forms (new club, members, seasons, settings):
- no answer is a server error;
- a refused request (4xx) changes nothing: the game as the API shows it, or every table's rows;
- a name that is accepted comes back exactly (as the app stores it: trimmed) in the JSON API,
  and is shown escaped in the page: a raw `<script>` or `<img onerror>` never reaches the HTML.

Examples are derandomized (the same ones on every run), so that CI is repeatable. The cases
the fuzzing found are kept as plain regression tests (test_fuzz_found.py, and the club one
in test_fuzz_clubs.py).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from game_links import key as game_key
from hypothesis import HealthCheck, currently_in_test_context, event, settings
from hypothesis import strategies as st
from markupsafe import escape
from sqlalchemy import func, select

from scorekeeper import rules as engine
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.rules.terms import BOOK_KINDS, CARD_CATEGORIES, EXTRA_BONUSES

FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
PRESETS = sorted(engine.PRESETS)


@pytest.fixture(autouse=True)
def _corrections_unbounded(app):
    """Every example corrects a deal from one address within the same minute: the allowance of
    corrections (services/writes.py, test_write_limits.py) is not what these tests are about."""
    app.config["CORRECTIONS_PER_ADDRESS"] = 1_000_000


SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
# Never in any page, whatever was typed.
RAW_ATTACKS = ("<script>alert(1)", "<img src=x onerror")

# ------------------------------------------------------------------------------ strategies
NASTY = [
    "",
    " ",
    "0",
    "-1",
    "1.5",
    "1e3",
    "0x1f",
    "NaN",
    "Infinity",
    "true",
    "null",
    "None",
    "٣",
    "３",
    "٣٠",
    "１２０",
    "9" * 20,
    "9" * 25,
    "-" + "9" * 25,
    "1_000",
    " 50 ",
    SCRIPT,
    IMG,
    "'; DROP TABLE game; --",
    "\u200b",
    "a\u200bb",
    "A\x00B",
    "²",
    "①",
    "Éva",
    "\u202eevil",
    "🃏🂡",
    "👨‍👩‍👧",
    "Zoë & Ann",
    "名前",
    "Ǆemal",
    "x" * 61,
    "y" * 300,
    "\t\n",
    "  padded  ",
    "a,b",
    "%s%n{0}",
]
_CHARS = st.characters(blacklist_categories=("Cs",))
TEXT = st.one_of(st.sampled_from(NASTY), st.text(_CHARS, max_size=70))
NAME = st.one_of(st.sampled_from(NASTY), st.text(_CHARS, min_size=1, max_size=62))
HUGE = st.integers(min_value=10**19, max_value=10**40) | st.integers(
    min_value=-(10**40), max_value=-(10**19)
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-1000, 1000),
    HUGE,
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
)
JUNK = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)


def _no_nul(value: Any) -> bool:
    """No NUL in a text that the app looks up (see test_nul_in_a_looked_up_...)."""
    return not (isinstance(value, str) and "\x00" in value)


LOOKED_UP = TEXT.filter(_no_nul)
LOOKED_UP_JUNK = JUNK.filter(_no_nul)


def or_junk(plausible: st.SearchStrategy) -> st.SearchStrategy:
    """Mostly plausible values, sometimes anything at all."""
    return st.one_of(plausible, plausible, plausible, JUNK)


def _kinds(names, most: int) -> st.SearchStrategy:
    keys = st.sampled_from(list(names)) | TEXT
    return st.dictionaries(keys, or_junk(st.integers(0, most)), max_size=3)


POINTS = st.integers(0, 120).map(lambda n: n * 5)
FIGURES: dict[str, st.SearchStrategy] = {
    "books": _kinds(BOOK_KINDS, 3),
    "open_books": _kinds(BOOK_KINDS, 2),
    "bonuses": _kinds(EXTRA_BONUSES, 3),
    "red_threes_down": st.integers(0, 4),
    "red_threes_caught": st.integers(0, 4),
    "went_out": st.booleans(),
    "melded_points": POINTS | st.none(),
    "leftover_points": POINTS | st.none(),
    "open_book_points": POINTS,
    "melded_cards": _kinds(CARD_CATEGORIES, 8),
    "leftover_cards": _kinds(CARD_CATEGORIES, 8),
}
HONEST = {
    "books": st.dictionaries(st.sampled_from(["clean", "dirty"]), st.integers(0, 2), max_size=2),
    "red_threes_caught": st.integers(0, 1),
    "melded_points": st.integers(0, 40).map(lambda n: n * 5) | st.none(),
    "leftover_points": st.integers(0, 10).map(lambda n: n * 5),
}
# Figures an honest table could enter (most are accepted), and entries with any figure at all.
HONEST_ENTRY = st.fixed_dictionaries({}, optional=HONEST)
ENTRY = st.fixed_dictionaries(
    {}, optional={name: or_junk(value) for name, value in FIGURES.items()} | {"junk": JUNK}
)


def scores_for(sides: int) -> st.SearchStrategy:
    """A deal's `scores`: one entry per side, mostly; sometimes too few, too many, or junk."""
    honest = st.lists(HONEST_ENTRY, min_size=sides, max_size=sides)
    return st.one_of(
        honest,
        honest,
        honest,
        st.lists(ENTRY, min_size=sides, max_size=sides),
        st.lists(or_junk(ENTRY), max_size=sides + 2),
        JUNK,
    )


def _rule_values(key: str, value: Any) -> st.SearchStrategy:
    """Plausible values for one house rule, judged by the preset's own value."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int) or value is None:
        return st.integers(-5, 120_000) | st.none()
    if isinstance(value, str):
        return st.sampled_from(["deal", "total", "share", "play_on", value])
    if isinstance(value, dict):
        names = {
            "card_values": CARD_CATEGORIES,
            "book_bonuses": BOOK_KINDS,
            "book_counts_as": BOOK_KINDS,
            "books_to_go_out": ("clean", "dirty", "wild"),
            "extra_bonuses": tuple(EXTRA_BONUSES),
        }.get(key, tuple(value))
        numbers = st.sampled_from(["clean", "dirty", "wild"]) if key == "book_counts_as" else None
        numbers = (
            numbers
            if numbers is not None
            else (st.integers(0, 3000).map(lambda n: n * 5) | st.none())
        )
        return st.dictionaries(st.sampled_from(list(names)), numbers, max_size=3)
    # opening_minimums: a schedule by deal, or [from, minimum] steps
    pair = st.tuples(st.integers(-10, 10_000), st.integers(0, 500)).map(list)
    return st.lists(st.integers(0, 500), min_size=1, max_size=5) | st.lists(
        pair, min_size=1, max_size=4
    )


RULE_NAMES = list(engine.PRESETS["classic"].house_rule_fields())


@st.composite
def house_rules(draw, key: str) -> dict[str, Any]:
    fields = engine.PRESETS[key].house_rule_fields()
    chosen = draw(st.lists(st.sampled_from(RULE_NAMES), max_size=3, unique=True))
    rules = {name: draw(or_junk(_rule_values(name, fields[name]))) for name in chosen}
    if draw(st.booleans()):
        rules[draw(TEXT)] = draw(JUNK)
    return rules


# ------------------------------------------------------------------------------ helpers


def row_counts(app) -> dict[str, int]:
    """How many rows each table holds (sign-in failures and writes counted aside: they are
    meant to be kept, services/writes.py)."""
    with app.app_context():
        return {
            table.name: db.session.execute(select(func.count()).select_from(table)).scalar_one()
            for table in db.metadata.sorted_tables
            if table.name not in ("login_attempt", "write_tally")
        }


def game_api(client, method: str, game_id: int, path: str = "", **kwargs: Any):
    """A request to the JSON API about one game, with the game's key (`X-Game-Key`)."""
    headers = game_key(client, game_id) | kwargs.pop("headers", {})
    return client.open(f"/api/v1/games/{game_id}{path}", method=method, headers=headers, **kwargs)


def state(client, game_id: int) -> dict[str, Any]:
    answer = game_api(client, "GET", game_id)
    assert answer.status_code == 200
    return answer.get_json()


def game_opened_by(app, location: str) -> int:
    """The game a form's redirect goes to: the location is its private link, `/t/<secret>`."""
    found = re.fullmatch(r"/t/([A-Za-z0-9_-]{22})", location)
    assert found, location
    with app.app_context():
        query = select(Game.id).where(Game.secret == found.group(1))
        return db.session.execute(query).scalar_one()


def no_server_error(answer) -> None:
    """Not a 5xx (and the status counted, for --hypothesis-show-statistics)."""
    if currently_in_test_context():
        event(f"{answer.request.method} {answer.status_code}")
    assert answer.status_code < 500, answer.get_data(as_text=True)[:2000]


def assert_shown_escaped(page: str, *names: str) -> None:
    """Each name is in the page, escaped; no raw markup from a name ever is."""
    for name in names:
        assert str(escape(name)) in page, name
    for attack in RAW_ATTACKS:
        assert attack not in page


def sides_for(key: str, count: int = 2) -> list[dict[str, Any]]:
    rules = engine.PRESETS[key]
    if rules.individuals:
        return [{"name": f"P{i}", "players": [f"P{i}"]} for i in range(count)]
    return [{"name": f"T{i}", "players": [f"A{i}", f"B{i}"]} for i in range(count)]


def start(client, key: str, count: int = 2) -> int:
    body = {"ruleset": key, "sides": sides_for(key, count)}
    answer = client.post("/api/v1/games", json=body)
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json()["id"]


def totals_add_up(game: dict[str, Any]) -> None:
    """Each deal's total is the sum of its lines, and the running totals add the deals up."""
    lines = ("books", "red_threes", "going_out", "cards", "extras", "moved")
    running = [0] * len(game["sides"])
    for deal in game["deals"]:
        for index, score in enumerate(deal["scores"]):
            breakdown = score["breakdown"]
            assert score["total"] == breakdown["total"] == sum(breakdown[k] for k in lines)
            running[index] += score["total"]
            assert score["running_total"] == running[index]
    assert [side["total"] for side in game["sides"]] == running


# Names, figures as typed, and a password, for more than one of the fuzz files.
PLAIN_NAME = st.text(st.characters(codec="ascii", categories=["L", "N"]), min_size=1, max_size=12)
FIGURE_TEXT = st.one_of(
    st.sampled_from(NASTY),
    st.integers(0, 2).map(str),
    st.integers(0, 2).map(str),
    st.integers(0, 40).map(lambda n: str(n * 5)),
    st.just(""),
    st.just(""),
    st.just(""),
)
PASSWORD = "correct horse"
