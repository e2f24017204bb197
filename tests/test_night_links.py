"""A night's read-only link over HTTP (issue 37): `/n/<secret>` shows the board and the results
to anyone holding it and lets them change nothing; a wrong secret is a miss like a game link's;
a new link revokes the old; no game's secret is shown; the board's words say how it stands.
"""

from __future__ import annotations

import re
import secrets

import pytest
from qr_reader import matrix_of, read_qr
from sqlalchemy import func, select, update
from test_night_pages import SLUG, finish_round, holder, open_night

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import Club, Deal, Game, LinkMiss, Night, NightPlayer, NightRound
from scorekeeper.services import links

pytestmark = pytest.mark.usefixtures("quick_hashing")

BOARD_LINK = re.compile(r'value="http://localhost(/n/[A-Za-z0-9_-]{22})"')
CROSS_SITE_IMAGE = {
    "Sec-Fetch-Site": "cross-site",
    "Sec-Fetch-Mode": "no-cors",
    "Sec-Fetch-Dest": "image",
}


def board_link(olga, url: str) -> str:
    """The night's board link as its page shows it to its organiser (a path)."""
    found = BOARD_LINK.search(olga.get(url).text)
    assert found, "no board link on the night's page"
    return found.group(1)


def night_of(url: str) -> int:
    return int(url.rsplit("/", 1)[1])


def misses(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(LinkMiss)).scalar_one()


def game_secrets(app, night_id: int) -> list[str]:
    with app.app_context():
        night = db.session.get(Night, night_id)
        return [t.game.secret for r in night.rounds for t in r.tables]


def test_the_link_shows_the_board_and_the_results_to_anyone_holding_it(app, olga):
    url = open_night(app, olga)
    olga.post(f"{url}/seat")
    finish_round(app, url, 1)
    link = board_link(olga, url)
    tv = app.test_client()
    board = tv.get(link)
    assert board.status_code == 200
    assert "Tonight's standings" in board.text and "Round 2: the next seating" in board.text
    assert "Not final: the organiser may still draw again." in board.text
    for name in ("Ann", "Lou", "Gus"):
        assert f'<th scope="row">{name}</th>' in board.text
    # A revocable link: no phone keeps its pages; for this site's pages only.
    assert board.headers["Cache-Control"].startswith("no-store")
    assert board.headers["Cross-Origin-Resource-Policy"] == "same-origin"
    # Polled as the organiser's board is: 304 while nothing changed.
    etag = board.headers["ETag"]
    assert tv.get(link, headers={"If-None-Match": etag}).status_code == 304

    results = tv.get(f"{link}/results")
    assert results.status_code == 200 and results.headers["Cache-Control"].startswith("no-store")
    assert "Round 1</h3>" in results.text and "Standings · " in results.text
    # Each player's own line, to share: place of all players, points, games.
    lines = dict(
        re.findall(
            r'<label for="line-\d+">([^<]+)</label>\s*'
            r'<input id="line-\d+" class="invite-link" value="([^"]+)"',
            results.text,
        )
    )
    assert len(lines) == 12
    for line in lines.values():
        assert re.fullmatch(
            r"Tuesday Club, \d+ \w{3}: place \d+ of 12( \(shared\))? · −?[\d,]+ points · 1 game",
            line,
        ), line
    places = sorted(int(re.search(r"place (\d+)", line).group(1)) for line in lines.values())
    assert places[0] == 1
    # The QR code is the link's, in full.
    picture = tv.get(f"{link}/qr.svg")
    assert picture.status_code == 200 and picture.mimetype == "image/svg+xml"
    modules, _ = read_qr(picture.data)
    assert modules == matrix_of(f"http://localhost{link}")
    assert f'src="{link}/qr.svg"' in results.text


def test_it_names_no_game_and_opens_nothing_else(app, olga):
    url = open_night(app, olga)
    olga.post(f"{url}/seat")
    night_id = night_of(url)
    link = board_link(olga, url)
    tv = app.test_client()
    shown = tv.get(link).text + tv.get(f"{link}/results").text
    for secret in game_secrets(app, night_id):
        assert secret not in shown
    assert "/t/" not in shown
    # The link keeps nothing on the phone: the club's pages and its night are a stranger's 404.
    for page in (f"/clubs/{SLUG}", url, f"{url}/board", f"/clubs/{SLUG}/standings"):
        assert tv.get(page).status_code == 404, page


def test_a_wrong_secret_is_a_miss_counted_with_game_links(app, olga):
    url = open_night(app, olga)
    link = board_link(olga, url)
    guesser = {"REMOTE_ADDR": "203.0.113.40"}
    before = misses(app)
    assert (
        app.test_client().get("/n/" + secrets.token_urlsafe(16), environ_base=guesser).status_code
        == 404
    )
    assert app.test_client().get("/n/short/results", environ_base=guesser).status_code == 404
    assert misses(app) == before + 2
    for _ in range(links.MISSES_ALLOWED - 2):
        app.test_client().get("/t/" + secrets.token_urlsafe(16), environ_base=guesser)
    # The allowance is one: spent on game links, the night's right link is refused too.
    assert app.test_client().get(link, environ_base=guesser).status_code == 429
    assert app.test_client().get(link).status_code == 200  # another address is heard
    # Another site's <img> of the link: a 404 that looks nothing up and counts nothing.
    with app.app_context():
        db.session.execute(update(LinkMiss).values(address="elsewhere"))
        db.session.commit()
    counted = misses(app)
    for path in (link, f"{link}/qr.svg", "/n/" + secrets.token_urlsafe(16)):
        assert app.test_client().get(path, headers=CROSS_SITE_IMAGE).status_code == 404
    assert misses(app) == counted


def test_a_new_board_link_revokes_the_old(app, olga):
    url = open_night(app, olga)
    old = board_link(olga, url)
    asked = olga.get(f"{url}/board-link")
    assert asked.status_code == 200 and "Make a new board link" in asked.text
    assert app.test_client().get(old).status_code == 200  # asking changed nothing
    # Nobody else may replace it: a stranger, the board link's holder, the table link's phone
    # where the club does not let it run nights.
    tv = app.test_client()
    tv.get(old)
    assert tv.post(f"{url}/board-link").status_code == 404
    assert holder(app).post(f"{url}/board-link").status_code == 403
    made = olga.post(f"{url}/board-link")
    assert made.status_code == 302 and made.headers["Location"].endswith("#board-link")
    new = board_link(olga, url)
    assert new != old
    for path in (old, f"{old}/results", f"{old}/qr.svg"):
        assert tv.get(path).status_code == 404
    assert tv.get(new).status_code == 200


def test_a_night_kept_before_board_links_gets_one_on_demand(app, olga):
    url = open_night(app, olga)
    with app.app_context():
        db.session.execute(update(Night).values(board_secret=None))
        db.session.commit()
    page = olga.get(url).text
    assert "Make a board link</button>" in page and not BOARD_LINK.search(page)
    assert olga.post(f"{url}/board-link").status_code == 302
    assert app.test_client().get(board_link(olga, url)).status_code == 200


def _rows(app) -> list:
    """What a refused write must leave as it was."""
    with app.app_context():
        db.session.expire_all()
        counts = [
            db.session.execute(select(func.count()).select_from(t)).scalar_one()
            for t in (Game, Deal, Night, NightRound, NightPlayer)
        ]
        nights = db.session.execute(
            select(Night.version, Night.draw, Night.board_secret, Night.finished_at)
        ).all()
        return [counts, [tuple(n) for n in nights]]


def test_every_write_with_only_the_board_link_is_refused(app, olga):
    """Walk the URL map: every POST, PUT, PATCH or DELETE of the app, sent by a phone that
    opened the board link (and its results and code), naming the real club, night, members and
    the tables' games, is 403 or 404, and changes nothing."""
    url = open_night(app, olga)
    olga.post(f"{url}/seat")
    night_id = night_of(url)
    link = board_link(olga, url)
    with app.app_context():
        night = db.session.get(Night, night_id)
        game = night.rounds[0].tables[0].game
        game_id, member_id = game.id, night.players[0].member_id
    tv = app.test_client()
    for path in (link, f"{link}/results", f"{link}/qr.svg"):
        assert tv.get(path).status_code == 200
    before = _rows(app)
    # Anything anyone may post (a new casual game, signing up) is no write of this club's.
    public = {
        "games.new",
        "api.create_game",
        "accounts.login",
        "accounts.signup",
        "accounts.logout",
        "home.forget",
        "games.forget_remembered_rules",
        "clubs.new",
        "phone_name.give_name",  # the phone's own name, kept in its own session
    }
    values = {
        "slug": SLUG,
        "night_id": night_id,
        "member_id": member_id,
        "game_id": game_id,
        "number": 1,
        "side": 0,
        "change": "archive",
        "kind": "deals",
        "key": "classic",
        "rest": "deals/new",
        "rules_id": 1,
        "code": "x" * 24,
        # The board link names no game: its holder has no game's secret, nor the night's own
        # for any route but its GETs.
        "secret": secrets.token_urlsafe(16),
        "night_secret": link[3:],
    }
    tried = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint in public:
            continue
        for method in sorted((rule.methods or set()) & {"POST", "PUT", "PATCH", "DELETE"}):
            path = rule.rule
            for name in rule.arguments:
                path = re.sub(rf"<(?:\w+:)?{name}>", str(values.get(name, 1)), path)
            answer = tv.open(path, method=method, data={"guest": "Zoe", "leave": "1"}, json=None)
            assert answer.status_code in (403, 404, 405), (method, path, answer.status_code)
            tried.add(rule.endpoint)
    wanted = {
        "nights.night_seat",
        "nights.night_draw",
        "nights.night_finish",
        "nights.night_come",
        "nights.night_redraw",
        "nights.new_link",
        "api.add_deal",
        "api.seat_round",
        "games.new_deal",
        "clubs.members",
        "clubs.settings",
    }
    assert wanted <= tried, wanted - tried
    # The table's game through the API, by its id: no key, no deal.
    deal = {"scores": [{"melded_points": 50}, {"melded_points": 60}]}
    assert tv.post(f"/api/v1/games/{game_id}/deals", json=deal).status_code == 404
    assert _rows(app) == before


def test_the_boards_words_say_how_the_night_stands(app, olga):
    url = open_night(app, olga)
    link = board_link(olga, url)
    tv = app.test_client()
    assert "Not final: the organiser may still draw again." in tv.get(link).text
    olga.post(f"{url}/seat")
    seated = tv.get(link).text
    assert "Round 1 is seated: go to your tables." in seated and "Not final" not in seated
    finish_round(app, url, 1)
    between = tv.get(link).text
    assert "go to your tables" not in between and "Not final" in between
    # Ended after round 1 of 2: said so, never "every round played"; the winner up large.
    assert olga.post(f"{url}/finish").status_code == 302
    over = tv.get(link).text
    assert "The night is over: ended after 1 of 2 rounds." in over
    assert "every round played" not in over
    winners = re.search(r'<p class="board-winners">(Winners?[^<]+)</p>', over)
    assert winners, over
    results = tv.get(f"{link}/results").text
    assert "ended after 1 of 2 rounds" in results and winners.group(1) in results


def test_the_board_link_is_shown_to_those_who_run_the_night(app, olga):
    url = open_night(app, olga)
    phone = holder(app)
    # The table link's phone sees the night, but not its board link, unless it runs nights.
    assert phone.get(url).status_code == 200 and not BOARD_LINK.search(phone.get(url).text)
    with app.app_context():
        db.session.execute(update(Club).values(tables_run_nights=True))
        db.session.commit()
    old = BOARD_LINK.search(phone.get(url).text).group(1)
    assert phone.post(f"{url}/board-link").status_code == 302
    assert BOARD_LINK.search(phone.get(url).text).group(1) != old
    assert app.test_client().get(old).status_code == 404
