"""Issue 26: what guessing game links, table codes and passwords may cost, and who pays.

- Another site cannot spend an address's allowance: a request it has the browser send (an
  `<img>`, an iframe, a fetch, a form posted into a frame) to a game route is a 404 that looks
  nothing up; opening a shared link from another site (a top-level navigation) counts as ever.
- An IPv6 /64 is one address, for link misses and sign-in failures alike.
- A table code no club has (X-Table-Code, a club's table link) is a miss against the same
  allowance; once it is spent, no code is checked.
- Sign-in: a name with an account and one without are slowed alike (no existence oracle).
- Passwords of one character, a repeated piece, letters in order or keyboard lines are refused,
  saying why; passphrases people use are accepted.

Misses sent at once are counted atomically: tests/reliability/test_guesses_at_once.py.
"""

from __future__ import annotations

import secrets

import pytest
from sqlalchemy import func, select

from scorekeeper.plumbing.db import db
from scorekeeper.plumbing.models import LinkMiss
from scorekeeper.services import accounts, clubs, links

pytestmark = pytest.mark.usefixtures("quick_hashing")

NEW_GAME = {"ruleset": "classic", "sides": [{"name": "A"}, {"name": "B"}]}
# What Chromium sends with each kind of request another site's page makes (Sec-Fetch-Dest and
# -Mode), for a page on another site (Sec-Fetch-Site cross-site) or a sibling subdomain
# (same-site).
SUBRESOURCES = {
    "an <img>": ("image", "no-cors"),
    "an iframe": ("iframe", "navigate"),
    "a fetch": ("empty", "cors"),
    "a no-cors fetch": ("empty", "no-cors"),
    "a form posted into a frame": ("iframe", "navigate"),
    "a script": ("script", "no-cors"),
}
OPENED_AS_A_PAGE = {"Sec-Fetch-Dest": "document", "Sec-Fetch-Mode": "navigate"}


def _game(client) -> dict:
    """A casual game started through the API: its id, key and link."""
    made = client.post("/api/v1/games", json=NEW_GAME)
    assert made.status_code == 201, made.text
    return made.get_json()


def _misses(app) -> int:
    with app.app_context():
        return db.session.execute(select(func.count()).select_from(LinkMiss)).scalar_one()


def _wrong() -> str:
    return secrets.token_urlsafe(16)


def _from(address: str, **headers: str) -> dict:
    """Test-client keyword arguments for a request from `address` with these headers."""
    return {"environ_base": {"REMOTE_ADDR": address}, "headers": headers}


# --------------------------------------------------------- another site spends nothing


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
@pytest.mark.parametrize("kind", sorted(SUBRESOURCES))
def test_another_sites_requests_spend_no_allowance(app, client, site, kind):
    """21 and more of another site's requests for made-up game links: 404, nothing looked up
    or counted, and the right link still opens from that address."""
    made = _game(client)
    dest, mode = SUBRESOURCES[kind]
    sent = {"Sec-Fetch-Site": site, "Sec-Fetch-Dest": dest, "Sec-Fetch-Mode": mode}
    victim = "203.0.113.21"
    method, route = ("POST", "delete") if kind.startswith("a form") else ("GET", "invite.svg")
    for _ in range(links.MISSES_ALLOWED + 5):
        answer = client.open(f"/t/{_wrong()}/{route}", method=method, **_from(victim, **sent))
        assert answer.status_code == 404
    api = client.get(f"/api/v1/games/{made['id']}", **_from(victim, **sent, **{"X-Game-Key": "x"}))
    assert api.status_code == 404
    assert _misses(app) == 0
    # Nor is the right link looked up for another site: it cannot be told from a wrong one.
    assert client.get(made["url"], **_from(victim, **sent)).status_code == 404
    opened = client.get(made["url"], **_from(victim, **{**sent, **OPENED_AS_A_PAGE}))
    assert opened.status_code == 200
    assert client.get(made["url"], **_from(victim)).status_code == 200


def test_a_link_opened_from_another_site_is_looked_up_and_counted(app, client):
    """Tapping a shared link in a chat or a mail opens the whole tab: looked up, and a wrong one
    counted, as is a request that says nothing of where it came from (an API client)."""
    made = _game(client)
    page = {"Sec-Fetch-Site": "cross-site", **OPENED_AS_A_PAGE}
    guesser = "203.0.113.22"
    assert client.get(made["url"], **_from(guesser, **page)).status_code == 200
    for n in range(links.MISSES_ALLOWED):
        sent = page if n % 2 else {}
        assert client.get(f"/t/{_wrong()}", **_from(guesser, **sent)).status_code == 404
    assert _misses(app) == links.MISSES_ALLOWED
    assert client.get(made["url"], **_from(guesser, **page)).status_code == 429


def test_game_answers_are_for_this_site_only(client):
    """Cross-Origin-Resource-Policy on a game's answers (a browser hands them to no other site
    even without Sec-Fetch-*), and Vary naming what the answer depends on."""
    made = _game(client)
    for path, headers in (
        (made["url"], {}),
        (made["url"] + "/invite.svg", {}),
        (f"/api/v1/games/{made['id']}", {"X-Game-Key": made["key"]}),
        (f"/t/{_wrong()}", {}),
    ):
        answer = client.get(path, headers=headers)
        assert answer.headers["Cross-Origin-Resource-Policy"] == "same-origin", path
        assert {"Sec-Fetch-Site", "Sec-Fetch-Mode", "Sec-Fetch-Dest"} <= set(answer.vary), path


# ------------------------------------------------------------------ IPv6 by its /64


def test_an_ipv6_64_is_one_address_for_link_misses(client):
    """Each address of one /64 guessing once: the /64 as a whole is refused after the allowance;
    another /64 is not."""
    made = _game(client)
    for n in range(links.MISSES_ALLOWED):
        assert client.get(f"/t/{_wrong()}", **_from(f"2001:db8:1:2::{n + 1:x}")).status_code == 404
    refused = client.get(made["url"], **_from("2001:db8:1:2:ffff::99"))
    assert refused.status_code == 429
    assert client.get(made["url"], **_from("2001:db8:1:3::1")).status_code == 200


def test_an_ipv6_64_is_one_address_for_sign_in_failures(app, client):
    """Typos from addresses across one /64 count together."""
    with app.app_context():
        accounts.register("olga", "table-for-four")
    for n in range(accounts.LOGIN_FAILURES):
        wrong = {"username": "olga", "password": f"wrong-guess-{n}"}
        answer = client.post("/login", data=wrong, environ_base={"REMOTE_ADDR": f"2001:db8::{n}"})
        assert answer.status_code == 422
    right = {"username": "olga", "password": "table-for-four"}
    refused = client.post("/login", data=right, environ_base={"REMOTE_ADDR": "2001:db8::ab"})
    assert refused.status_code == 429
    elsewhere = client.post("/login", data=right, environ_base={"REMOTE_ADDR": "2001:db8:0:1::ab"})
    assert elsewhere.status_code == 302


# ------------------------------------------------------------------- table codes


@pytest.fixture
def club(app) -> dict:
    """Olga's private club "priv" and a club game: its slug, code and the game's key."""
    with app.app_context():
        olga = accounts.register("olga", "table-for-four")
        made = clubs.create_club("Private", "priv", olga)
        code = made.table_code
    client = app.test_client()
    game = client.post(
        "/api/v1/games", json={**NEW_GAME, "club": "priv"}, headers={"X-Table-Code": code}
    )
    assert game.status_code == 201, game.text
    return {"slug": "priv", "code": code, **game.get_json()}


def test_wrong_table_codes_in_the_header_are_counted(app, client, club):
    """A code no club has is a miss; once the allowance is spent no code is checked, the right
    one neither (429), and game links from there wait too."""
    guesser = "198.51.100.23"
    standings = "/api/v1/clubs/priv/standings"
    assert (
        client.get(standings, **_from(guesser, **{"X-Table-Code": club["code"]})).status_code == 200
    )
    for _ in range(links.MISSES_ALLOWED):
        answer = client.get(standings, **_from(guesser, **{"X-Table-Code": _wrong()}))
        assert answer.status_code == 404
    assert _misses(app) == links.MISSES_ALLOWED
    refused = client.get(standings, **_from(guesser, **{"X-Table-Code": club["code"]}))
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    game = {"X-Game-Key": club["key"], "X-Table-Code": club["code"]}
    assert client.get(f"/api/v1/games/{club['id']}", **_from(guesser, **game)).status_code == 429
    # Another address is heard.
    other = _from("198.51.100.24", **{"X-Table-Code": club["code"]})
    assert client.get(standings, **other).status_code == 200


def test_wrong_table_links_are_counted(app, client, club):
    """The table link with a wrong code (or for no such club) is a miss; once the allowance is
    spent, the right table link is refused too."""
    guesser = "198.51.100.25"
    for n in range(links.MISSES_ALLOWED):
        slug = "priv" if n % 2 else "no-such-club"
        answer = client.get(f"/clubs/{slug}/table/{_wrong()}", **_from(guesser))
        assert answer.status_code == 404
    refused = client.get(f"/clubs/priv/table/{club['code']}", **_from(guesser))
    assert refused.status_code == 429
    assert "Wait a few minutes" in refused.text
    right = client.get(f"/clubs/priv/table/{club['code']}", **_from("198.51.100.26"))
    assert right.status_code == 200  # the page whose button keeps the link


def test_a_real_code_is_no_guess(app, client, club):
    """Another club's real code shown for this club opens nothing, but is not a guess: it is not
    counted. Nor is a request with no code at all."""
    with app.app_context():
        vera = accounts.register("vera", "table-for-four")
        other = clubs.create_club("Vera's", "veras", vera).table_code
    asking = _from("198.51.100.27", **{"X-Table-Code": other})
    for _ in range(links.MISSES_ALLOWED + 1):
        assert client.get("/api/v1/clubs/priv/standings", **asking).status_code == 404
        assert client.get("/api/v1/clubs/priv/standings").status_code == 404
    assert _misses(app) == 0


# ------------------------------------------------------------- sign-in: no oracle


def test_a_name_with_an_account_and_one_without_are_slowed_alike(app):
    """The same failures against "olga" (an account) and "olgb" (none), each from an address of
    its own: the same answers and the same waits, all the way."""
    with app.app_context():
        accounts.register("olga", "table-for-four")
    seen = {}
    for name, address in (("olga", "192.0.2.31"), ("olgb", "192.0.2.32")):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = address
        answers = []
        for n in range(accounts.LOGIN_FAILURES + 3):
            answer = client.post("/login", data={"username": name, "password": f"wrong-{n}-pw"})
            answers.append((answer.status_code, answer.headers.get("Retry-After")))
        seen[name] = answers
    assert seen["olga"] == seen["olgb"]
    assert [status for status, _ in seen["olga"]] == [422] * accounts.LOGIN_FAILURES + [429] * 3


def test_one_members_typos_do_not_lock_out_the_club(app):
    """Behind one address, one name failing over and over slows that name only."""
    with app.app_context():
        accounts.register("olga", "table-for-four")
    club = app.test_client()
    club.environ_base["REMOTE_ADDR"] = "192.0.2.33"
    for n in range(accounts.LOGIN_FAILURES + 3):
        club.post("/login", data={"username": "vera", "password": f"typo-number-{n}"})
    right = {"username": "olga", "password": "table-for-four"}
    assert club.post("/login", data=right).status_code == 302


# ------------------------------------------------------------------------ passwords


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("aaaaaaaaaa", "one character typed over and over"),
        ("1111111111111", "one character typed over and over"),
        ("abcabcabcabc", "the same few characters typed again and again"),
        ("trustno1trustno1", "a common password typed twice or more"),
        ("letmeinletmein!", "a common password typed twice or more"),
        ("qazwsxedcrfv", "keys along a row or column of the keyboard"),
        ("1qaz2wsx3edc4rfv", "keys along a row or column of the keyboard"),
        ("zaq12wsxcde3", "keys along a row or column of the keyboard"),
        ("asdfghjkl;'z", "keys along a row or column of the keyboard"),
        ("poiuytrewq12", "keys along a row or column of the keyboard"),
        ("qwertyasdfgh", "keys along a row or column of the keyboard"),
        ("abcdefghijkl", "letters or digits in order"),
        ("9876543210ab", "letters or digits in order"),
        ("zyxwvutsrq!", "letters or digits in order"),
        ("Table!!!!!!!!", "one character typed over and over"),
    ],
)
def test_patterned_passwords_are_refused_saying_why(app, password, why):
    """Each refused beside the password field, in plain words, and no account is made."""
    client = app.test_client()
    answer = client.post("/signup", data={"username": "olga", "password": password})
    assert answer.status_code == 422
    assert why in answer.text
    with app.app_context():
        assert accounts.organiser_named("olga") is None


@pytest.mark.parametrize(
    "password",
    [
        "green tables on tuesday",
        "ClubNight-2026!",
        "correct horse battery staple",
        "table-for-four",
        "Liberty bell 1776",
        "Hand & Foot every Friday",
        "qwerty-green-tables",
        "quiet-harbour-7341-lantern",
        "olga's red threes",
        "desert rose 2024",
    ],
)
def test_passphrases_people_use_are_accepted(app, password):
    client = app.test_client()
    answer = client.post("/signup", data={"username": "vera", "password": password})
    assert answer.status_code == 302, answer.text[:500]
