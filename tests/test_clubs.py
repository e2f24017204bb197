"""Clubs through their pages: standings, club games, history, members, organisers, records.

Games are set up with `record_game` (a whole finished game at once) or through the pages.
Every expected figure is worked out by hand in the comments from
/work/shared/rules/VARIANTS.md, never computed with the app's own code.

"club" rules (individuals): clean book 500, dirty 300, red three laid +100, caught -500,
going out +100 (needs 2 clean + 2 dirty), four deals. "classic" (partnerships): clean 500,
dirty 300, wild 1,500, going out +100 (needs 2 clean + 2 dirty + 1 wild), four deals.
A deal scores books + red threes + going out + melded - leftover card points.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import partial
from html.parser import HTMLParser
from typing import Any

import pytest
from game_links import link
from sqlalchemy import select
from werkzeug.security import generate_password_hash

from scorekeeper import create_app
from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game, Member, Player
from scorekeeper.rules import DealEntry
from scorekeeper.services import accounts, clubs
from scorekeeper.services.games import SideSetup, record_game

SLUG = "tuesday"


pytestmark = pytest.mark.usefixtures("quick_hashing")


# ------------------------------------------------------------------------- reading pages


class _Html(HTMLParser):
    """Visible text, flash messages, and the body rows of every table (cell texts)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self.tables: list[tuple[str, list[list[str]]]] = []
        self.options: dict[str, list[str]] = {}
        self._select: str | None = None
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._head = False
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = dict(attrs)
        if tag in ("script", "style", "title"):
            self._hidden += 1
        elif tag == "table":
            self.tables.append((attr.get("class") or "", []))
        elif tag == "thead":
            self._head = True
        elif tag == "tr" and self.tables and not self._head:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "select":
            self._select = attr.get("name") or ""
            self.options[self._select] = []
        elif tag == "option" and self._select is not None:
            self.options[self._select].append(attr.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "title"):
            self._hidden -= 1
        elif tag == "thead":
            self._head = False
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1][1].append(self._row)
            self._row = None
        elif tag == "select":
            self._select = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if not self._hidden:
            self.words.append(data)


def html(response) -> _Html:
    page = _Html()
    page.feed(response.get_data(as_text=True))
    return page


def text(response) -> str:
    """A page's visible text, whitespace collapsed."""
    return " ".join(" ".join(html(response).words).split())


def table(response, css: str) -> list[list[str]]:
    """The body rows of the first table with this class."""
    found = [rows for classes, rows in html(response).tables if css in classes.split()]
    assert found, f"no table.{css} on the page: {text(response)[:500]}"
    return found[0]


def standings_rows(client, slug: str = SLUG, **args: str) -> list[list[str]]:
    """The standings table as shown: #, player, games, wins, win %, avg score, avg/deal,
    points, clean, dirty, wild, special, out, red threes caught."""
    response = client.get(f"/clubs/{slug}/standings", query_string=args)
    assert response.status_code == 200
    if "No finished games match" in text(response):
        return []
    # The Rating column (the 15th) left out: its figures are test_standings_ratings.py's.
    return [row[:14] + row[15:] for row in table(response, "standings")]


def ranks(client, slug: str = SLUG, **args: str) -> list[tuple[str, str]]:
    """(rank, player) in the order the standings page lists them."""
    return [(row[0], row[1]) for row in standings_rows(client, slug, **args)]


def figures(client, slug: str = SLUG, **args: str) -> dict[str, tuple[str, str, str]]:
    """player -> (games, wins, points) as the standings page shows them."""
    return {row[1]: (row[2], row[3], row[7]) for row in standings_rows(client, slug, **args)}


# A game's private link, `/t/<secret>`: how every list of games links to them.
GAME_LINK = r"/t/([A-Za-z0-9_-]{22})"


def game_id_of(app, secret: str) -> int:
    """The id of the game a link's secret opens (each link must open a game)."""
    with app.app_context():
        query = select(Game.id).where(Game.secret == secret)
        found = db.session.execute(query).scalar_one_or_none()
    assert found is not None, f"/t/{secret} opens no game"
    return found


def game_links(app, response) -> list[int]:
    """The games a list links to (by their private links), as ids, in page order."""
    secrets = re.findall(rf'href="{GAME_LINK}"', response.get_data(as_text=True))
    return [game_id_of(app, secret) for secret in secrets]


# ------------------------------------------------------------------------- setting up


def signup(client, username: str = "olga", password: str = "table-for-four") -> None:
    response = client.post("/signup", data={"username": username, "password": password})
    assert response.status_code == 302, text(response)


def new_club(client, slug: str = SLUG, name: str = "Tuesday Club", public: bool = False) -> None:
    data = {"name": name, "slug": slug}
    if public:
        data["public"] = "y"
    response = client.post("/clubs/new", data=data)
    assert response.status_code == 302, text(response)


def add_members(client, slug: str, *names: str) -> None:
    for name in names:
        response = client.post(f"/clubs/{slug}/members", data={"name": name})
        assert response.status_code == 302, text(response)


def add_season(client, slug: str, name: str, starts_on: str, ends_on: str) -> int:
    response = client.post(
        f"/clubs/{slug}/seasons", data={"name": name, "starts_on": starts_on, "ends_on": ends_on}
    )
    assert response.status_code == 302, text(response)
    found = re.search(rf'season=(\d+)">{re.escape(name)}<', client.get(response.location).text)
    assert found
    return int(found.group(1))


def member_ids(app, slug: str = SLUG) -> dict[str, int]:
    with app.app_context():
        return {m.name: m.id for m in clubs.club_by_slug(slug).members}


def E(
    clean: int = 0,
    dirty: int = 0,
    wild: int = 0,
    out: bool = False,
    caught: int = 0,
    down: int = 0,
    melded: int | None = None,
    left: int | None = None,
) -> dict[str, Any]:
    """One side's entry for one deal."""
    entry: dict[str, Any] = {"went_out": out}
    books = {k: n for k, n in (("clean", clean), ("dirty", dirty), ("wild", wild)) if n}
    if books:
        entry["books"] = books
    if caught:
        entry["red_threes_caught"] = caught
    if down:
        entry["red_threes_down"] = down
    if melded is not None:
        entry["melded_points"] = melded
    if left is not None:
        entry["leftover_points"] = left
    return entry


def record(
    app,
    played_on: str,
    sides: list[tuple[str, list[str]]],
    *deals: list[dict[str, Any]],
    ruleset: str = "club",
    slug: str = SLUG,
    quiet_deals: int = 3,
) -> int:
    """A game recorded at once: the deals given, then `quiet_deals` where nothing was scored."""
    quiet = [[{} for _ in sides] for _ in range(quiet_deals)]
    with app.app_context():
        game = record_game(
            ruleset,
            [SideSetup(name, players) for name, players in sides],
            [[DealEntry.from_dict(e) for e in deal] for deal in [*deals, *quiet]],
            club=clubs.club_by_slug(slug),
            played_on=date.fromisoformat(played_on),
        )
        return game.id


def solo(*names: str) -> list[tuple[str, list[str]]]:
    return [(name, [name]) for name in names]


@dataclass
class Tuesday:
    """The club of most tests: games g1..g6 finished, g7 unfinished, one season."""

    games: dict[str, int] = field(default_factory=dict)
    members: dict[str, int] = field(default_factory=dict)
    spring: int = 0


def tuesday(app, client) -> Tuesday:
    """Olga's private club; Gus is a guest, never a member."""
    signup(client)
    new_club(client)
    add_members(client, SLUG, "Ann", "Bob", "Cat", "Dan", "Eve")
    made = Tuesday(members=member_ids(app))
    made.spring = add_season(client, SLUG, "Spring 2024", "2024-04-01", "2024-04-30")
    g = made.games
    # g1: deal 1 Ann 2 clean + 2 dirty, out, 400 melded = 1000+600+100+400 = 2,100;
    #        Bob 1 clean, 1 red three caught, 200 - 100 = 500-500+100 = 100.
    #     deal 2 Ann 1 dirty, 150 - 50 = 400; Bob 2 clean + 2 dirty, out, 300 = 2,000.
    #     Ann 2,500 beats Bob 2,100.
    g["g1"] = record(
        app,
        "2024-03-05",
        solo("Ann", "Bob"),
        [E(clean=2, dirty=2, out=True, melded=400), E(clean=1, caught=1, melded=200, left=100)],
        [E(dirty=1, melded=150, left=50), E(clean=2, dirty=2, out=True, melded=300)],
        quiet_deals=2,
    )
    # g2: Ann 2 clean + 2 dirty, out, 300 = 2,000; Cat 1 clean, 100 = 600;
    #     Gus (guest) 1 dirty, 100 - 200 = 200. Ann wins.
    g["g2"] = record(
        app,
        "2024-03-12",
        solo("Ann", "Cat", "Gus"),
        [
            E(clean=2, dirty=2, out=True, melded=300),
            E(clean=1, melded=100),
            E(dirty=1, melded=100, left=200),
        ],
    )
    # g3: Bob 1 clean, 200 = 700; Cat 2 clean + 2 dirty, out, 1 red three laid, 200
    #     = 1000+600+100+100+200 = 2,000; Dan 1 caught, 0 - 100 = -600. Cat wins.
    g["g3"] = record(
        app,
        "2024-04-02",
        solo("Bob", "Cat", "Dan"),
        [
            E(clean=1, melded=200),
            E(clean=2, dirty=2, out=True, down=1, melded=200),
            E(caught=1, left=100),
        ],
    )
    # g4: Ann 2 clean + 2 dirty, out, 500 = 2,200; Dan 1 dirty, 200 = 500. Ann wins.
    g["g4"] = record(
        app,
        "2024-04-09",
        solo("Ann", "Dan"),
        [E(clean=2, dirty=2, out=True, melded=500), E(dirty=1, melded=200)],
    )
    # g5: Bob 2 clean + 2 dirty, out, 100 = 1,800; Dan 100 - 50 = 50; Eve 1 dirty, 100 = 400.
    g["g5"] = record(
        app,
        "2024-04-16",
        solo("Bob", "Dan", "Eve"),
        [E(clean=2, dirty=2, out=True, melded=100), E(melded=100, left=50), E(dirty=1, melded=100)],
    )
    # g6: Cat 1 dirty, 100 = 400; Gus 2 clean + 2 dirty, out, 100 = 1,800. The guest wins.
    g["g6"] = record(
        app,
        "2024-04-23",
        solo("Cat", "Gus"),
        [E(dirty=1, melded=100), E(clean=2, dirty=2, out=True, melded=100)],
    )
    # g7: one deal of four, so unfinished: Ann 1 clean, 100 = 600. Counts for nothing.
    g["g7"] = record(
        app, "2024-04-30", solo("Ann", "Bob"), [E(clean=1, melded=100), E()], quiet_deals=0
    )
    return made


def classic_partnership(app) -> int:
    """g8, 7 May 2024: Ann & Cat 2 clean + 2 dirty + 1 wild, out, 500 melded
    = 1000+600+1500+100+500 = 3,700; Bob & Gus 1 clean, 100 = 600. Ann & Cat win."""
    return record(
        app,
        "2024-05-07",
        [("Ann & Cat", ["Ann", "Cat"]), ("Bob & Gus", ["Bob", "Gus"])],
        [E(clean=2, dirty=2, wild=1, out=True, melded=500), E(clean=1, melded=100)],
        ruleset="classic",
    )


def _built(tmp_path_factory, databases, with_g8: bool):
    """A module-wide Tuesday club (optionally with g8) for tests that only read it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            accounts,
            "generate_password_hash",
            partial(generate_password_hash, method="pbkdf2:sha256:1"),
        )
        folder = tmp_path_factory.mktemp("clubs")
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "test",
                "SQLALCHEMY_DATABASE_URI": databases.sqlite_copy(folder, "clubs.sqlite"),
                "WTF_CSRF_ENABLED": False,
            }
        )
        client = app.test_client()
        made = tuesday(app, client)
        if with_g8:
            made.games["g8"] = classic_partnership(app)
    return app, client, made


def _done(app) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="module")
def shared(tmp_path_factory, databases):
    """Tuesday, g1..g7, read only."""
    built = _built(tmp_path_factory, databases, with_g8=False)
    yield built
    _done(built[0])


@pytest.fixture(scope="module")
def shared8(tmp_path_factory, databases):
    """Tuesday with g8, read only."""
    built = _built(tmp_path_factory, databases, with_g8=True)
    yield built
    _done(built[0])


# Over g1..g6 (season=all), by hand:
#   Ann: g1 2,500 W, g2 2,000 W, g4 2,200 W -> 3 games, 3 wins, 6,700; 12 deals
#        clean 2+2+2 = 6, dirty (2+1)+2+2 = 7, out 3, caught 0
#   Bob: g1 2,100, g3 700, g5 1,800 W -> 3 games, 1 win, 4,600
#        clean (1+2)+1+2 = 6, dirty 2+0+2 = 4, out 2, caught 1
#   Cat: g2 600, g3 2,000 W, g6 400 -> 3 games, 1 win, 3,000; clean 1+2 = 3, dirty 2+1 = 3, out 1
#   Dan: g3 -600, g4 500, g5 50 -> 3 games, 0 wins, -50; dirty 1, caught 1
#   Eve: g5 400 -> 1 game (below the 3 needed to be ranked); dirty 1
# Win %: Ann 100, Bob 33, Cat 33, Dan 0 -> ranks 1, 2, 2, 4; Eve unranked (–).
# Average score: 6,700/3 = 2,233.3; 4,600/3 = 1,533.3; 3,000/3 = 1,000; -50/3 = -16.7; 400.
# Per deal (4 deals a game): 558.3; 383.3; 250; -4.2; 100.
EXPECTED_ALL = [
    ["1", "Ann", "3", "3", "100%", "2,233", "558", "6,700", "6", "7", "0", "0", "3", "0"],
    ["2", "Bob", "3", "1", "33%", "1,533", "383", "4,600", "6", "4", "0", "0", "2", "1"],
    ["2", "Cat", "3", "1", "33%", "1,000", "250", "3,000", "3", "3", "0", "0", "1", "0"],
    ["4", "Dan", "3", "0", "0%", "−17", "−4", "−50", "0", "1", "0", "0", "0", "1"],
    ["–", "Eve", "1", "0", "0%", "400", "100", "400", "0", "1", "0", "0", "0", "0"],
]


# ------------------------------------------------------------------------- standings


def test_standings_figures_ranks_guests_and_unfinished_games(shared):
    _, client, _ = shared
    rows = standings_rows(client, season="all")
    assert rows == EXPECTED_ALL
    page = text(client.get(f"/clubs/{SLUG}/standings?season=all"))
    assert "Gus" not in page  # a guest is never listed, though Gus won g6


def test_each_name_in_the_standings_links_to_that_members_page(shared):
    """The table builds its member links from one address (not one url_for a line): each must
    still reach the page of the member it names."""
    _, client, _ = shared
    for where in (f"/clubs/{SLUG}/standings?season=all", f"/clubs/{SLUG}?season=all"):
        page = client.get(where).get_data(as_text=True)
        links = re.findall(r'<th scope="row"><a href="([^"]+)">([^<]+)</a>', page)
        assert [name for _, name in links][:4] == ["Ann", "Bob", "Cat", "Dan"]
        for href, name in links:
            assert re.fullmatch(rf"/clubs/{SLUG}/members/\d+", href), href
            member = client.get(href)
            assert member.status_code == 200
            assert f"<h1>{name}" in member.get_data(as_text=True), (href, name)


def test_members_below_the_minimum_are_unranked_until_it_is_lowered(app, client):
    tuesday(app, client)
    assert ranks(client, season="all")[-1] == ("–", "Eve")
    response = client.post(f"/clubs/{SLUG}/settings", data={"name": "Tuesday Club", "min_games": 1})
    assert response.status_code == 302
    # With 1 game enough, Eve (0 of 1) ties Dan (0 of 3) on a win rate of 0: both 4th.
    assert ranks(client, season="all") == [
        ("1", "Ann"),
        ("2", "Bob"),
        ("2", "Cat"),
        ("4", "Dan"),
        ("4", "Eve"),
    ]
    client.post(f"/clubs/{SLUG}/settings", data={"name": "Tuesday Club", "min_games": 4})
    assert [rank for rank, _ in ranks(client, season="all")] == ["–"] * 5


# Sorted by each column, best (largest) first; equal figures share a rank, then by name;
# Eve (unranked) always last. Figures from the table above.
SORTED = {
    "win_rate": [("1", "Ann"), ("2", "Bob"), ("2", "Cat"), ("4", "Dan")],
    "wins": [("1", "Ann"), ("2", "Bob"), ("2", "Cat"), ("4", "Dan")],
    "games": [("1", "Ann"), ("1", "Bob"), ("1", "Cat"), ("1", "Dan")],
    "average_score": [("1", "Ann"), ("2", "Bob"), ("3", "Cat"), ("4", "Dan")],
    "average_per_deal": [("1", "Ann"), ("2", "Bob"), ("3", "Cat"), ("4", "Dan")],
    "total_points": [("1", "Ann"), ("2", "Bob"), ("3", "Cat"), ("4", "Dan")],
    "clean_books": [("1", "Ann"), ("1", "Bob"), ("3", "Cat"), ("4", "Dan")],  # 6, 6, 3, 0
    "dirty_books": [("1", "Ann"), ("2", "Bob"), ("3", "Cat"), ("4", "Dan")],  # 7, 4, 3, 1
    "wild_books": [("1", "Ann"), ("1", "Bob"), ("1", "Cat"), ("1", "Dan")],  # all 0
    "went_out": [("1", "Ann"), ("2", "Bob"), ("3", "Cat"), ("4", "Dan")],  # 3, 2, 1, 0
    # fewer caught is better: 0, 0, then 1, 1
    "red_threes_caught": [("1", "Ann"), ("1", "Cat"), ("3", "Bob"), ("3", "Dan")],
}


def test_sorting_by_each_column(shared):
    _, client, _ = shared
    for sort, expected in SORTED.items():
        assert ranks(client, season="all", sort=sort) == [*expected, ("–", "Eve")], sort
    page = client.get(f"/clubs/{SLUG}/standings?season=all&sort=wins").text
    # The column headings sort and keep the filters.
    assert re.search(r'href="[^"]*sort=went_out[^"]*"', page)
    for heading in re.findall(r'href="(/clubs/tuesday/standings\?[^"]*sort=[^"]*)"', page):
        assert "season=all" in heading


def test_filters_by_season_date_range_and_rule_set(shared8):
    _, client, made = shared8
    # Spring 2024 (1-30 April): g3, g4, g5, g6 (g7 unfinished).
    #   Ann g4 2,200 W; Bob g3 700 + g5 1,800 W = 2,500; Cat g3 2,000 W + g6 400 = 2,400;
    #   Dan g3 -600 + g4 500 + g5 50 = -50; Eve g5 400.
    assert figures(client, season=str(made.spring)) == {
        "Ann": ("1", "1", "2,200"),
        "Bob": ("2", "1", "2,500"),
        "Cat": ("2", "1", "2,400"),
        "Dan": ("3", "0", "−50"),
        "Eve": ("1", "0", "400"),
    }
    # Only Dan has the 3 games needed to be ranked in spring.
    assert ranks(client, season=str(made.spring))[0] == ("1", "Dan")
    # March: g1 and g2. Ann 2,500 + 2,000; Bob 2,100; Cat 600.
    assert figures(client, start="2024-03-01", end="2024-03-31") == {
        "Ann": ("2", "2", "4,500"),
        "Bob": ("1", "0", "2,100"),
        "Cat": ("1", "0", "600"),
    }
    # Classic only: g8. Partners share the team's result; the guest Gus is not listed.
    rows = standings_rows(client, season="all", ruleset="classic")
    assert [row[1:] for row in rows] == [
        ["Ann", "1", "1", "100%", "3,700", "925", "3,700", "2", "2", "1", "0", "1", "0"],
        ["Cat", "1", "1", "100%", "3,700", "925", "3,700", "2", "2", "1", "0", "1", "0"],
        ["Bob", "1", "0", "0%", "600", "150", "600", "1", "0", "0", "0", "0", "0"],
    ]
    # Club rules only: g8 is left out, so the figures are those of g1..g6.
    assert standings_rows(client, season="all", ruleset="club") == EXPECTED_ALL
    # Every rule set: g8 adds 1 game, 1 win, 3,700 to Ann and Cat, 1 game and 600 to Bob.
    assert figures(client, season="all")["Cat"] == ("4", "2", "6,700")
    assert figures(client, season="all")["Bob"] == ("4", "1", "5,200")


def test_the_api_agrees_with_the_page(shared8):
    _, client, made = shared8
    for args in (
        {"season": "all"},
        {"season": str(made.spring)},
        {"from": "2024-03-01", "to": "2024-03-31"},
        {"season": "all", "ruleset": "classic"},
        {"season": "all", "sort": "total_points"},
    ):
        page_args = {
            "start" if k == "from" else "end" if k == "to" else k: v for k, v in args.items()
        }
        page = standings_rows(client, **page_args)
        answer = client.get(f"/api/v1/clubs/{SLUG}/standings", query_string=args)
        assert answer.status_code == 200
        api = answer.get_json()
        assert [r["player"] for r in api] == [row[1] for row in page], args
        for r, row in zip(api, page, strict=True):
            # The API's number, as the page shows it: grouped, with a true minus sign.
            shown = f"{r['total_points']:,}".replace("-", "−")
            assert (str(r["games"]), str(r["wins"]), shown) == (
                row[2],
                row[3],
                row[7],
            )
            assert ("–" if r["rank"] is None else str(r["rank"])) == row[0]
    api = client.get(f"/api/v1/clubs/{SLUG}/standings?season=all&ruleset=club").get_json()
    # 1, 1/3, 1/3, 0, 0; 6,700/3, 4,600/3, 3,000/3, -50/3, 400/1.
    assert [(r["player"], r["win_rate"], r["average_score"], r["rank"]) for r in api] == [
        ("Ann", 1.0, 2233.3, 1),
        ("Bob", 0.3333, 1533.3, 2),
        ("Cat", 0.3333, 1000.0, 2),
        ("Dan", 0.0, -16.7, 4),
        ("Eve", 0.0, 400.0, None),
    ]


# ------------------------------------------------------------------------- club games


def test_club_game_from_the_member_list_with_a_guest(app, client):
    made = tuesday(app, client)
    form = client.get(f"/clubs/{SLUG}/games/new?ruleset=classic")
    assert form.status_code == 200
    assert html(form).options["side0_member0"] == ["", "Ann", "Bob", "Cat", "Dan", "Eve"]
    response = client.post(
        f"/clubs/{SLUG}/games/new?ruleset=classic",
        data={
            "ruleset": "classic",
            "side0_member0": "Ann",
            "side0_member1": "Cat",
            "side1_member0": "Dan",
            "side1_players": "Hugo",
        },
    )
    assert response.status_code == 302, text(response)
    started = re.fullmatch(GAME_LINK, response.location)
    assert started, response.location
    game_link, game_id = started.group(0), game_id_of(app, started.group(1))
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert [s.name for s in game.sides] == ["Ann & Cat", "Dan & Hugo"]
        linked = {p.name: p.member_id for s in game.sides for p in s.players}
    assert linked == {
        "Ann": made.members["Ann"],
        "Cat": made.members["Cat"],
        "Dan": made.members["Dan"],
        "Hugo": None,
    }
    # Deal 1: Ann & Cat 2 clean + 2 dirty + 1 wild, out, 500 = 3,700;
    #         Dan & Hugo 1 clean, 100 - 50 = 550. Deals 2-4: the stock ran out, nothing scored.
    first = {
        "s0-books-clean": "2",
        "s0-books-dirty": "2",
        "s0-books-wild": "1",
        "s0-melded_points": "500",
        "s1-books-clean": "1",
        "s1-melded_points": "100",
        "s1-leftover_points": "50",
        "went_out": "0",
    }
    for deal in (first, {}, {}, {}):
        saved = client.post(f"{game_link}/deals/new", data={"went_out": "", **deal})
        assert saved.status_code == 302, text(saved)
    board = text(client.get(game_link))
    assert "Game over" in board and "Winner: Ann & Cat, 3,700" in board
    # The players are the members: on Cat's page and in the standings; Hugo nowhere.
    cat = client.get(f"/clubs/{SLUG}/members/{made.members['Cat']}?season=all")
    assert game_id in game_links(app, cat)
    # Over g1..g6 and this game: Cat 3,000 + 3,700 = 6,700 in 4 games, 2 wins;
    # Dan -50 + 550 = 500 in 4 games, 0 wins.
    shown = figures(client, season="all")
    assert shown["Cat"] == ("4", "2", "6,700")
    assert shown["Dan"] == ("4", "0", "500")
    assert "Hugo" not in shown


def test_one_member_on_two_sides_is_refused(app, client):
    tuesday(app, client)
    response = client.post(
        f"/clubs/{SLUG}/games/new?ruleset=club",
        data={"ruleset": "club", "side0_member0": "Ann", "side1_member0": "Ann"},
    )
    assert response.status_code == 422
    assert "Ann cannot play on two sides" in text(response)
    # A member typed in as a guest on the other side is the same person.
    response = client.post(
        f"/clubs/{SLUG}/games/new?ruleset=club",
        data={"ruleset": "club", "side0_member0": "Bob", "side1_players": "bob"},
    )
    assert response.status_code == 422
    assert "cannot play on two sides" in text(response)
    with app.app_context():
        assert db.session.query(Game).count() == 7  # g1..g7 only


def test_archived_members_are_not_offered_for_new_games(app, client):
    made = tuesday(app, client)
    response = client.post(f"/clubs/{SLUG}/members/{made.members['Eve']}/archive")
    assert response.status_code == 302
    form = html(client.get(f"/clubs/{SLUG}/games/new?ruleset=club"))
    assert form.options["side0_member0"] == ["", "Ann", "Bob", "Cat", "Dan"]
    picked = client.post(
        f"/clubs/{SLUG}/games/new?ruleset=club",
        data={"ruleset": "club", "side0_member0": "Ann", "side1_member0": "Eve"},
    )
    assert picked.status_code == 422
    with app.app_context():
        assert db.session.query(Game).count() == 7
    # Eve's record stays: still in the standings with her one game.
    assert figures(client, season="all")["Eve"] == ("1", "0", "400")


# ------------------------------------------------------------------------- history


def test_history_filters_by_season_player_and_rule_set(shared8):
    app, client, made = shared8
    g = made.games

    def listed(**args: str) -> list[int]:
        response = client.get(f"/clubs/{SLUG}/games", query_string=args)
        assert response.status_code == 200
        return game_links(app, response)

    # Newest first; the unfinished g7 is not history.
    assert listed(season="all") == [g[k] for k in ("g8", "g6", "g5", "g4", "g3", "g2", "g1")]
    assert listed(season=str(made.spring)) == [g[k] for k in ("g6", "g5", "g4", "g3")]
    assert listed(season="all", player=str(made.members["Eve"])) == [g["g5"]]
    assert listed(season="all", player=str(made.members["Ann"])) == [
        g[k] for k in ("g8", "g4", "g2", "g1")
    ]
    assert listed(season="all", ruleset="classic") == [g["g8"]]
    assert listed(season=str(made.spring), player=str(made.members["Bob"])) == [g["g5"], g["g3"]]


def test_history_pages_of_fifty_with_an_older_link(app, client):
    signup(client)
    new_club(client)
    add_members(client, SLUG, "Ann", "Bob")
    with app.app_context():
        club = clubs.club_by_slug(SLUG)
        quiet = [[DealEntry.from_dict({}), DealEntry.from_dict({})] for _ in range(3)]
        ids = []
        for n in range(51):
            game = record_game(
                "club",
                [SideSetup("Ann", ["Ann"]), SideSetup("Bob", ["Bob"])],
                [[DealEntry.from_dict(E(clean=1)), DealEntry.from_dict(E())], *quiet],
                club=club,
                played_on=date(2024, 1, 1) + timedelta(days=n),
                commit=False,
            )
            db.session.flush()
            ids.append(game.id)
        db.session.commit()
    first = client.get(f"/clubs/{SLUG}/games?season=all")
    assert game_links(app, first) == ids[::-1][:50]
    older = re.search(r'href="([^"]*page=2[^"]*)"[^>]*>Older<', first.text)
    assert older, "no Older link after 50 games"
    assert "season=all" in older.group(1)
    second = client.get(older.group(1).replace("&amp;", "&"))
    assert game_links(app, second) == [ids[0]]
    assert ">Older<" not in second.text and ">Newer<" in second.text


# ------------------------------------------------------------------------- member page


def test_member_page_figures_form_and_chart(shared):
    app, client, made = shared
    response = client.get(f"/clubs/{SLUG}/members/{made.members['Bob']}?season=all")
    assert response.status_code == 200
    page = text(response)
    # Bob: 3 games, 1 win (33%), average 4,600 / 3 = 1,533, rank 2 (tied with Cat).
    assert re.search(r"Games 3 Wins 1 \(33%\) Average score 1,533 Rank 2", page), page
    # Oldest first: g1 lost, g3 lost, g5 won.
    assert re.findall(r'class="form-([wl])"', response.text) == ["l", "l", "w"]
    assert "<svg" in response.text
    assert table(response, "chart-table") == [
        ["05 Mar", "2,100"],
        ["02 Apr", "700"],
        ["16 Apr", "1,800"],
    ]
    # The rating's table, a row per game oldest first, then the list of games, newest first.
    newest_first = [made.games[k] for k in ("g5", "g3", "g1")]
    assert game_links(app, response) == newest_first[::-1] + newest_first


def test_member_form_shows_the_last_five_results(app, client):
    signup(client)
    new_club(client)
    add_members(client, SLUG, "Ann", "Bob")
    # Ann's six games, oldest first: W L W W L L. One clean book (500) beats nothing.
    for day, ann_wins in enumerate((True, False, True, True, False, False), start=1):
        win, loss = E(clean=1), E()
        record(
            app, f"2024-02-{day:02d}", solo("Ann", "Bob"), [win, loss] if ann_wins else [loss, win]
        )
    ann = member_ids(app)["Ann"]
    response = client.get(f"/clubs/{SLUG}/members/{ann}?season=all")
    assert re.findall(r'class="form-([wl])"', response.text) == ["l", "w", "w", "l", "l"]
    assert [row[1] for row in table(response, "chart-table")] == [
        "500",
        "0",
        "500",
        "500",
        "0",
        "0",
    ]


# ------------------------------------------------------------------------- members


def test_archive_and_restore(app, client):
    made = tuesday(app, client)
    eve = made.members["Eve"]
    client.post(f"/clubs/{SLUG}/members/{eve}/archive")
    listing = client.get(f"/clubs/{SLUG}/members").text
    assert listing.index("Archived") < listing.index(">Eve<")
    assert "(archived)" in text(client.get(f"/clubs/{SLUG}/members/{eve}"))
    client.post(f"/clubs/{SLUG}/members/{eve}/restore")
    assert "Archived" not in client.get(f"/clubs/{SLUG}/members").text
    assert (
        "Eve" in html(client.get(f"/clubs/{SLUG}/games/new?ruleset=club")).options["side0_member0"]
    )


def test_merge_moves_games_and_combines_standings(app, client):
    made = tuesday(app, client)
    add_members(client, SLUG, "Robert")
    robert = member_ids(app)["Robert"]
    # Robert (Bob under another name) wins one: 2 clean + 2 dirty, out, 100 = 1,800 v Eve 0.
    extra = record(
        app, "2024-03-20", solo("Robert", "Eve"), [E(clean=2, dirty=2, out=True, melded=100), E()]
    )
    response = client.post(
        f"/clubs/{SLUG}/members/{robert}/merge", data={"into": made.members["Bob"]}
    )
    assert response.status_code == 302
    assert response.location.endswith(f"/members/{made.members['Bob']}")
    assert "Robert" not in member_ids(app)
    assert client.get(f"/clubs/{SLUG}/members/{robert}").status_code == 404
    # Bob: 3 games, 1 win, 4,600 + Robert's 1 game, 1 win, 1,800 = 4 games, 2 wins, 6,400.
    shown = figures(client, season="all")
    assert shown["Bob"] == ("4", "2", "6,400")
    assert "Robert" not in shown
    bob = client.get(f"/clubs/{SLUG}/members/{made.members['Bob']}?season=all")
    assert extra in game_links(app, bob)


def test_delete_unused_member_and_refuse_one_with_games(app, client):
    made = tuesday(app, client)
    add_members(client, SLUG, "Zed")
    zed = member_ids(app)["Zed"]
    done = client.post(f"/clubs/{SLUG}/members/{zed}/delete", follow_redirects=True)
    assert "Zed removed" in text(done)
    assert "Zed" not in member_ids(app)

    before = standings_rows(client, season="all")
    refused = client.post(
        f"/clubs/{SLUG}/members/{made.members['Dan']}/delete", follow_redirects=True
    )
    # Dan played g3, g4, g5 (and nothing else).
    assert "Dan played 3 games: archive them, or merge them" in text(refused)
    assert member_ids(app)["Dan"] == made.members["Dan"]
    assert standings_rows(client, season="all") == before
    with app.app_context():
        assert db.session.query(Player).filter_by(member_id=made.members["Dan"]).count() == 3


# ------------------------------------------------------------------------- organisers


def test_creator_is_an_organiser_and_can_add_another(app, client):
    tuesday(app, client)
    settings = client.get(f"/clubs/{SLUG}/settings")
    assert settings.status_code == 200
    assert "olga" in text(settings)
    vera = app.test_client()
    signup(vera, "vera")
    assert vera.get(f"/clubs/{SLUG}/settings").status_code == 404
    missing = client.post(
        f"/clubs/{SLUG}/settings/organisers",
        data={"organiser-name": "nobody"},
        follow_redirects=True,
    )
    assert "No account is called nobody" in text(missing)
    added = client.post(
        f"/clubs/{SLUG}/settings/organisers", data={"organiser-name": "Vera"}, follow_redirects=True
    )
    assert "vera can now run Tuesday Club" in text(added)
    assert vera.get(f"/clubs/{SLUG}/settings").status_code == 200
    add_members(vera, SLUG, "Fay")
    assert "Fay" in member_ids(app)


def test_replacing_the_table_link(app, client):
    tuesday(app, client)
    old = re.search(
        r'value="http://localhost(/clubs/tuesday/table/[^"]+)"',
        client.get(f"/clubs/{SLUG}/settings").text,
    ).group(1)
    phone = app.test_client()
    assert phone.post(old).status_code == 302
    assert phone.get(f"/clubs/{SLUG}/games/new?ruleset=club").status_code == 200
    assert client.post(f"/clubs/{SLUG}/settings/table-link").status_code == 302
    new = re.search(
        r'value="http://localhost(/clubs/tuesday/table/[^"]+)"',
        client.get(f"/clubs/{SLUG}/settings").text,
    ).group(1)
    assert new != old
    assert app.test_client().get(old).status_code == 404
    # The phone's session still holds the old code: it no longer opens anything.
    assert phone.get(f"/clubs/{SLUG}/games/new?ruleset=club").status_code == 404
    assert phone.get(f"/clubs/{SLUG}/standings").status_code == 404
    assert phone.post(new).status_code == 302
    assert phone.get(f"/clubs/{SLUG}/games/new?ruleset=club").status_code == 200


# ------------------------------------------------------------------------- export and import


def _upload(client, slug: str, content: str):
    return client.post(
        f"/clubs/{slug}/import",
        data={"file": (io.BytesIO(content.encode()), "deals.csv")},
        content_type="multipart/form-data",
    )


def _changed(content: str, line: int, **cells: str) -> str:
    """The CSV with some cells of one line (1 = the header) replaced."""
    rows = list(csv.reader(io.StringIO(content)))
    header = rows[0]
    for column, value in cells.items():
        rows[line - 1][header.index(column)] = value
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue()


def test_export_deals_and_import_into_another_club(app, client):
    tuesday(app, client)
    g8 = classic_partnership(app)
    exported = client.get(f"/clubs/{SLUG}/export/deals.csv?season=all")
    assert exported.status_code == 200
    assert exported.mimetype == "text/csv"
    content = exported.get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(content)))
    # g1..g6: 4 deals each; g7: 1 deal; g8: 4 deals. One row per deal and side:
    # g1 2x4, g2 3x4, g3 3x4, g4 2x4, g5 3x4, g6 2x4, g7 2x1, g8 2x4 = 8+12+12+8+12+8+2+8.
    assert len(rows) == 70
    vera = app.test_client()
    signup(vera, "vera")
    new_club(vera, "thursday", "Thursday Club")

    # A malformed file first: a figure that is not a number on line 3. Nothing is imported.
    # The upload is answered at once with its job's page (issue 39), which says why.
    refused = _upload(vera, "thursday", _changed(content, 3, melded_points="4OO"))
    assert refused.status_code == 302
    assert "Line 3, column melded_points" in text(vera.get(refused.location))
    assert "Nothing was imported" in text(vera.get(refused.location))
    assert member_ids(app, "thursday") == {}

    # Figures the rules refuse in the last game of the file (going out without the books):
    # nothing is imported either, though every earlier game was fine.
    last = len(rows) + 1  # the header is line 1
    assert rows[-1]["game"] == str(g8) and rows[-1]["deal"] == "4"
    refused = _upload(vera, "thursday", _changed(content, last, went_out="yes"))
    assert refused.status_code == 302
    assert f"Line {last}, column went_out" in text(vera.get(refused.location))
    assert member_ids(app, "thursday") == {}
    with app.app_context():
        assert db.session.query(Game).filter(Game.club.has(slug="thursday")).count() == 0

    done = _upload(vera, "thursday", content)
    assert done.status_code == 302, text(done)
    assert "Imported 8 games with 29 deals" in text(vera.get(done.location))
    # Gus was a guest: he stays one. The members are those who played.
    assert sorted(member_ids(app, "thursday")) == ["Ann", "Bob", "Cat", "Dan", "Eve"]
    assert standings_rows(vera, "thursday", season="all") == standings_rows(client, season="all")
    assert standings_rows(vera, "thursday", season="all", ruleset="club") == EXPECTED_ALL


# ------------------------------------------------------------------------- scoreboard


def test_scoreboard_running_totals_chart_and_table(shared):
    app, client, made = shared
    response = client.get(link(app, made.games["g1"]))
    assert response.status_code == 200
    assert "<svg" in response.text
    # g1 after each deal: Ann 2,100 then +400 = 2,500; Bob 100 then +2,000 = 2,100.
    assert table(response, "chart-table") == [
        ["Start", "0", "0"],
        ["Deal 1", "2,100", "100"],
        ["Deal 2", "2,500", "2,100"],
        ["Deal 3", "2,500", "2,100"],
        ["Deal 4", "2,500", "2,100"],
    ]


def test_organiser_scoreboard_has_a_clean_title_and_one_delete_button(shared):
    app, client, made = shared
    g1 = link(app, made.games["g1"])
    page = client.get(g1).text
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert "<form" not in title and "Delete" not in title
    assert page.count(f'action="{g1}/delete"') == 1


# ------------------------------------------------------------------------- deleting a game


def test_deleting_a_finished_game(app, client):
    made = tuesday(app, client)
    g1 = made.games["g1"]
    g1_link = link(app, g1)
    response = client.post(f"{g1_link}/delete")
    assert response.status_code == 302
    assert f"Game {g1} deleted" in text(client.get(response.location))
    assert client.get(g1_link).status_code == 404
    history = client.get(f"/clubs/{SLUG}/games?season=all")
    assert g1_link not in history.text
    assert g1 not in game_links(app, history)
    # Without g1: Ann g2 2,000 + g4 2,200 = 4,200 in 2 games (now unranked, below 3);
    # Bob g3 700 + g5 1,800 = 2,500 in 2 games. Cat and Dan unchanged.
    shown = figures(client, season="all")
    assert shown["Ann"] == ("2", "2", "4,200")
    assert shown["Bob"] == ("2", "1", "2,500")
    assert shown["Cat"] == ("3", "1", "3,000")
    assert ranks(client, season="all") == [
        ("1", "Cat"),
        ("2", "Dan"),
        ("–", "Ann"),
        ("–", "Bob"),
        ("–", "Eve"),
    ]
    with app.app_context():
        assert db.session.get(Game, g1) is None
        assert db.session.query(Member).count() == 5


def test_merging_two_members_of_the_same_game_is_refused(app, client):
    made = tuesday(app, client)
    before = standings_rows(client, season="all")
    # Bob and Cat played each other in g3: they cannot be one person.
    client.post(
        f"/clubs/{SLUG}/members/{made.members['Cat']}/merge", data={"into": made.members["Bob"]}
    )
    assert member_ids(app)["Cat"] == made.members["Cat"]
    assert standings_rows(client, season="all") == before
