"""The club tests' shared helpers: reading club pages, and building the Tuesday club by hand.

Moved out of test_clubs.py, which still names them for the tests that import them from there.
Every expected figure is worked out by hand in the comments from
/work/shared/rules/VARIANTS.md, never computed with the app's own code.

"club" rules (individuals): clean book 500, dirty 300, red three laid +100, caught -500,
going out +100 (needs 2 clean + 2 dirty), four deals. "classic" (partnerships): clean 500,
dirty 300, wild 1,500, going out +100 (needs 2 clean + 2 dirty + 1 wild), four deals.
A deal scores books + red threes + going out + melded - leftover card points.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from html.parser import HTMLParser
from typing import Any

from sqlalchemy import select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Game
from scorekeeper.rules import DealEntry
from scorekeeper.services import clubs
from scorekeeper.services.games import SideSetup, record_game

SLUG = "tuesday"


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
