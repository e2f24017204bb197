"""bench/scale.py's browsers and what is timed: the sites, their visitors, the pages, the table."""

from __future__ import annotations

import contextlib
import random
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _scale_db import BIG, DEALS_PER_GAME, SMALL, TARGET, TEMPLATE_SLUG, connect, log  # noqa: E402
from _serve import Server, call  # noqa: E402
from deal_entry import CLASSIC_DEAL, CSRF  # noqa: E402

from tests.reliability._server import Reply  # noqa: E402

# --- browsers ----------------------------------------------------------------------------------


class HttpBrowser:
    """A phone's browser over HTTP: its cookie jar, gzip accepted, a connection per request."""

    def __init__(self, port: int) -> None:
        self.port, self.cookies = port, SimpleCookie()

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        json_body: object = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        jar = "; ".join(f"{k}={v.value}" for k, v in self.cookies.items())
        sent = {"Accept-Encoding": "gzip", **({"Cookie": jar} if jar else {}), **(headers or {})}
        reply = call(self.port, method, path, form=form, json_body=json_body, headers=sent)
        if "set-cookie" in reply.headers:
            self.cookies.load(reply.headers["set-cookie"])
        return reply


class TestBrowser:
    """The same, through the Flask test client, in this process."""

    def __init__(self, app) -> None:
        self.client = app.test_client()

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        json_body: object = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        response = self.client.open(
            path, method=method, data=form, json=json_body, headers=headers or {}
        )
        got = {k.lower(): v for k, v in response.headers.items()}
        return Reply(response.status_code, got, response.get_data())


def get_ok(browser, path: str) -> Reply:
    reply = browser.request("GET", path)
    assert reply.status == 200, (path, reply.status, reply.body[:300])
    return reply


def new_casual_game(browser) -> str:
    """A classic casual game started through the API, as a phone's app would; its secret."""
    sides = [{"name": "North", "players": ["Ann", "Bob"]}, {"name": "South"}]
    body = {"ruleset": "classic", "sides": sides}
    reply = browser.request("POST", "/api/v1/games", json_body=body)
    assert reply.status == 201, reply.body[:300]
    return reply.json()["key"]


def csrf_token(browser, secret: str) -> str:
    page = get_ok(browser, f"/t/{secret}/deals/new")
    found = CSRF.search(page.body)
    assert found, "no CSRF token on the deal form"
    return found.group(1).decode()


def enter_deal(browser, secret: str, token: str) -> None:
    """POST the deal form and follow the redirect to the scoreboard."""
    form = {"csrf_token": token, "idempotency_key": uuid.uuid4().hex, **CLASSIC_DEAL}
    saved = browser.request("POST", f"/t/{secret}/deals/new", form=form)
    assert saved.status == 302, (saved.status, saved.body[:300])
    where = urlsplit(saved.headers["location"])
    board = browser.request("GET", where.path + (f"?{where.query}" if where.query else ""))
    assert board.status == 200, board.status


# --- what is timed -----------------------------------------------------------------------------


@dataclass
class Site:
    """One database's club and games, as the pages reach them."""

    name: str
    url: str
    slug: str
    member_id: int
    scoreboard: str  # the secret of the club's most recent finished game
    opened: list[str]  # secrets of finished club games the home phone has opened


def find_site(name: str, url: str, slug: str, member_name: str) -> Site:
    """The club's pages on one database.

    Within a copied club, game ids rise with the night and, within a night, with the template's
    ids; so ordering by (played_on, id) lists the same games in the same order on both.
    """
    with connect(url) as conn:
        club_id = conn.execute("SELECT id FROM club WHERE slug = %s", (slug,)).fetchone()[0]
        member_id = conn.execute(
            "SELECT id FROM member WHERE club_id = %s AND name = %s", (club_id, member_name)
        ).fetchone()[0]
        latest = conn.execute(
            "SELECT secret FROM game WHERE club_id = %s AND finished_at IS NOT NULL "
            "ORDER BY played_on DESC, id DESC LIMIT 3",
            (club_id,),
        ).fetchall()
    secrets = [row[0] for row in latest]
    return Site(name, url, slug, member_id, secrets[0], secrets)


def busiest_member(url: str) -> str:
    """The name of the one club's member with the most results."""
    with connect(url) as conn:
        return conn.execute(
            "SELECT m.name FROM member_result r JOIN member m ON m.id = r.member_id "
            "JOIN club c ON c.id = r.club_id WHERE c.slug = %s "
            "GROUP BY m.name ORDER BY count(*) DESC, m.name LIMIT 1",
            (TEMPLATE_SLUG,),
        ).fetchone()[0]


@dataclass
class Visitors:
    """The browsers that visit one site: a phone with games, a reader, a scorer."""

    site: Site
    home: object
    reader: object
    scorer: object
    token: str = ""
    game: str = ""
    deals: int = DEALS_PER_GAME


def visitors(site: Site, browser: Callable[[], object]) -> Visitors:
    """Make the browsers: the home phone opens its games, the scorer gets its form's token."""
    seen = Visitors(site, browser(), browser(), browser())
    token = ""
    for _ in range(2):  # two casual games in progress, each with two deals
        secret = new_casual_game(seen.home)
        token = token or csrf_token(seen.home, secret)
        for _deal in range(2):
            enter_deal(seen.home, secret, token)
    for secret in reversed(site.opened):
        get_ok(seen.home, f"/t/{secret}")
    seen.game = new_casual_game(seen.scorer)
    seen.token = csrf_token(seen.scorer, seen.game)
    seen.deals = 0
    return seen


@dataclass(frozen=True)
class Page:
    name: str
    run: Callable[[Visitors], None]
    prepare: Callable[[Visitors], None] = lambda seen: None


def _deal_prepare(seen: Visitors) -> None:
    if seen.deals >= DEALS_PER_GAME:
        seen.game, seen.deals = new_casual_game(seen.scorer), 0


def _deal_run(seen: Visitors) -> None:
    enter_deal(seen.scorer, seen.game, seen.token)
    seen.deals += 1


def _home(seen: Visitors) -> None:
    page = get_ok(seen.home, "/")
    assert page.body.count(b'href="/t/') >= 5, "the home page lists fewer than 5 games"


PAGES = (
    Page("home", _home),
    Page("scoreboard", lambda seen: get_ok(seen.reader, f"/t/{seen.site.scoreboard}")),
    Page("deal entry", _deal_run, _deal_prepare),
    Page("standings", lambda seen: get_ok(seen.reader, f"/clubs/{seen.site.slug}/standings")),
    Page(
        "standings, all seasons",
        lambda seen: get_ok(seen.reader, f"/clubs/{seen.site.slug}/standings?season=all"),
    ),
    Page(
        "member",
        lambda seen: get_ok(seen.reader, f"/clubs/{seen.site.slug}/members/{seen.site.member_id}"),
    ),
    Page("history", lambda seen: get_ok(seen.reader, f"/clubs/{seen.site.slug}/games")),
    Page(
        "games CSV",
        lambda seen: get_ok(seen.reader, f"/clubs/{seen.site.slug}/export/games.csv"),
    ),
)


def median(values: list[float]) -> float:
    return statistics.median(values)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(0.95 * len(ordered) + 0.5) - 1)]


def ratio_interval(small: list[float], big: list[float], rounds: int = 2000) -> tuple[float, float]:
    """A bootstrap 95% interval of median(big) / median(small).

    Rounds are resampled whole: the two requests of a round were made one after the other, on
    the same machine at the same moment, and stay together.
    """
    rng = random.Random(7)
    ratios = []
    for _ in range(rounds):
        picked = rng.choices(range(len(small)), k=len(small))
        ratios.append(median([big[i] for i in picked]) / median([small[i] for i in picked]))
    ratios.sort()
    return ratios[int(0.025 * rounds)], ratios[int(0.975 * rounds) - 1]


def time_pages(
    sites: list[Site], pages: list[Page], requests: int, warm_up: int
) -> dict[str, dict[str, list[float]]]:
    """Serve each database with its own gunicorn and time every page on both, taking turns."""
    times: dict[str, dict[str, list[float]]] = {p.name: {s.name: [] for s in sites} for p in pages}
    servers = [Server("scorekeeper:create_app()", {"DATABASE_URL": s.url}) for s in sites]
    with contextlib.ExitStack() as stack:
        ports = [stack.enter_context(server).port for server in servers]
        seen = [
            visitors(site, lambda port=port: HttpBrowser(port))
            for site, port in zip(sites, ports, strict=True)
        ]
        log(f"  {warm_up} warm-up rounds, then {requests} timed, every page on both in turn")
        started = time.perf_counter()
        for round_ in range(warm_up + requests):
            for index, page in enumerate(pages):
                order = seen if (round_ + index) % 2 == 0 else list(reversed(seen))
                for visitor in order:
                    page.prepare(visitor)
                    began = time.perf_counter()
                    page.run(visitor)
                    took = time.perf_counter() - began
                    if round_ >= warm_up:
                        times[page.name][visitor.site.name].append(took)
            if (round_ + 1) % 25 == 0:
                took = time.perf_counter() - started
                log(f"  round {round_ + 1} of {warm_up + requests} ({took:.0f} s)")
    return times


def print_table(times: dict[str, dict[str, list[float]]]) -> list[str]:
    """The table of medians, p95s and ratios; returns the pages over the target."""
    over = []
    log("")
    log(
        f"| page | {SMALL} median (p95) | {BIG} median (p95) | big/small "
        "(95% interval) | within 1.2× |"
    )
    log("|---|---|---|---|---|")
    for name, by_site in times.items():
        small, big = by_site[SMALL], by_site[BIG]
        ratio = median(big) / median(small)
        low, high = ratio_interval(small, big)
        ok = ratio <= TARGET
        if not ok:
            over.append(name)
        log(
            f"| {name} | {median(small) * 1000:.2f} ms ({p95(small) * 1000:.2f}) | "
            f"{median(big) * 1000:.2f} ms ({p95(big) * 1000:.2f}) | **{ratio:.2f}** "
            f"({low:.2f}–{high:.2f}) | {'yes' if ok else 'NO'} |"
        )
    return over
